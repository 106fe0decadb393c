"""The start page and "Check the table"."""

from __future__ import annotations

import re

from flask import Blueprint, render_template, request
from markupsafe import Markup, escape

from companion.core.melds import check_table as check_table_rules
from companion.core.presets import BONUS_JOKER_PRESETS, get_preset
from companion.core.solver import arrangement_hint
from companion.core.tiles import ImpossibleTilesError, parse_table
from companion.web.check.forms import CheckTableForm
from companion.web.reason_text import tile_word
from companion.web.tool_text import (
    bdi,
    error_text,
    impossible_tiles_html,
    palette_text,
    rule_text,
)

bp = Blueprint("check", __name__)


@bp.app_context_processor
def rule_facts() -> dict[str, object]:
    """What templates may ask the core (the palette shows bonus jokers for these presets)."""
    return {"bonus_joker_presets": BONUS_JOKER_PRESETS, "palette_text": palette_text}


bp.add_app_template_filter(rule_text, "rule_text")
bp.add_app_template_filter(bdi, "bdi")
bp.add_app_template_filter(tile_word, "tile_word")
bp.add_app_template_filter(error_text, "error_text")
bp.add_app_template_filter(impossible_tiles_html, "impossible_tiles")


_QUOTED_TOKEN = re.compile(r"`([^`]*)`")


@bp.app_template_filter("notation_message")
def notation_message(message: str) -> Markup:
    """A field's error for a page: already Markup when the core's error was said through the
    catalogues (tool_text); a plain message's tokens quoted in `backticks` become <code>, so no
    raw backtick reaches the page text."""
    if isinstance(message, Markup):
        return message
    return Markup(_QUOTED_TOKEN.sub(lambda m: f"<code>{m.group(1)}</code>", str(escape(message))))


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
        valid = "table" in request.args and all(  # every error shown, none before typing
            [form.table.validate(form), form.preset.validate(form)])
    submitted = request.method == "POST" or "table" in request.args
    verdict = arrangement = None
    if submitted and valid:
        preset = get_preset(form.preset.data)
        try:
            table = parse_table(form.table.data)
            verdict = check_table_rules(table, preset=preset)
        except ImpossibleTilesError as error:
            form.table.errors = [impossible_tiles_html(error)]
        else:
            arrangement = None if verdict.legal else arrangement_hint(table, preset=preset)
    status = 422 if submitted and verdict is None else 200
    bonus = form.preset.data in BONUS_JOKER_PRESETS
    return render_template("check/check.html", form=form, verdict=verdict,
                           arrangement=arrangement, bonus_jokers=bonus), status
