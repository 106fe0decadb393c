"""The start page and "Check the table"."""

from __future__ import annotations

from flask import Blueprint, render_template, request

from companion.core.melds import check_table as check_table_rules
from companion.core.presets import get_preset
from companion.core.tiles import ImpossibleTilesError, parse_table
from companion.web.check.forms import CheckTableForm

bp = Blueprint("check", __name__)


@bp.get("/")
def home() -> str:
    return render_template("check/home.html")


@bp.route("/check", methods=["GET", "POST"])
def check_table() -> tuple[str, int] | str:
    """The verdict is rendered in place (no redirect): it is an answer, nothing is stored."""
    if request.method == "POST":
        form = CheckTableForm()
        valid = form.validate()
    else:  # a link such as /check?table=R5+R6+R7 checks at once: nothing is written
        form = CheckTableForm(formdata=request.args or None)
        valid = all([form.table.validate(form), form.preset.validate(form)])  # every error shown
    submitted = request.method == "POST" or "table" in request.args
    verdict = None
    if submitted and valid:
        preset = get_preset(form.preset.data)
        try:
            verdict = check_table_rules(parse_table(form.table.data), preset=preset)
        except ImpossibleTilesError as error:
            form.table.errors = [str(error)]
    status = 422 if submitted and verdict is None else 200
    bonus = form.preset.data == "twist"
    return render_template("check/check.html", form=form, verdict=verdict,
                           bonus_jokers=bonus), status
