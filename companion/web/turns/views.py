"""Pages of the turns feature: "Referee a turn" and the turn timer."""

from __future__ import annotations

from flask import Blueprint, render_template, request

from companion.core.presets import (
    BONUS_JOKER_PRESETS,
    LONGEST_TURN_SECONDS,
    SHORTEST_TURN_SECONDS,
    get_preset,
    with_tournament_rule,
)
from companion.core.referee import TurnInputError, TurnVerdict, referee_typed_turn
from companion.core.solver import turn_hint
from companion.core.tiles import parse_rack, parse_table
from companion.web.tool_text import input_error_html, verdict_penalty_text
from companion.web.turns.forms import RefereeTurnForm, TimerForm, join_player_names

TURN_SECONDS_RANGE = (SHORTEST_TURN_SECONDS, LONGEST_TURN_SECONDS)

bp = Blueprint("turns", __name__)
bp.add_app_template_filter(verdict_penalty_text, "penalty_text")


@bp.route("/turn", methods=["GET", "POST"])
def referee() -> tuple[str, int]:
    """The verdict is rendered in place (no redirect): it is an answer, nothing is stored.

    ``?before=...`` or ``?after=...`` alone prefills (the check and photo pages link here with
    their table); a GET that carries both ``before`` (possibly empty) and ``after`` is judged at
    once, so a verdict can be shared as a link.
    """
    posted = request.method == "POST"
    if posted:
        form = RefereeTurnForm()
        valid = form.validate()
    else:  # a GET writes nothing: its fields are checked, the (absent) CSRF token is not
        form = RefereeTurnForm(formdata=request.args or None)
        valid = False
        if {"before", "after"} <= request.args.keys():  # no error shown before anything typed
            checked = [field.validate(form) for field in form if field.name != "csrf_token"]
            valid = all(checked)  # every field checked first, so that every error shows
    submitted = posted or {"before", "after"} <= request.args.keys()
    verdict: TurnVerdict | None = None
    if submitted and valid:
        try:
            verdict = referee_typed_turn(
                form.before.data or "", form.after.data or "", opened=form.opened.data,
                preset=with_tournament_rule(get_preset(form.preset.data),
                                            bool(form.tournament_joker_rule.data)),
                rack_text=form.rack.data, over_time=bool(form.over_time.data))
        except TurnInputError as error:
            getattr(form, error.field).errors = [input_error_html(error)]
    status = 422 if submitted and verdict is None else 200
    before_table = parse_table(form.before.data or "") if verdict is not None else ()
    arrangement = None
    if verdict is not None and "illegal_set" in verdict.codes:
        # "It works, I just needed more time": could the tiles after the turn be laid at all?
        # held to the same referee: only an arrangement this turn could have made
        arrangement = turn_hint(before_table, parse_table(form.after.data or ""),
                                opened=form.opened.data, preset=verdict.preset,
                                rack=parse_rack(form.rack.data) if (form.rack.data or "").strip()
                                else None)
    return render_template("turns/referee.html", form=form, verdict=verdict,
                           before_table=before_table, arrangement=arrangement,
                           bonus_jokers=form.preset.data in BONUS_JOKER_PRESETS), status


@bp.get("/timer")
def timer() -> tuple[str, int]:
    """``?players=Ann,Bob,Cy`` (seating order; a name with a comma in double quotes) or one
    ``player=`` per name, ``first=``, ``preset=`` and ``seconds=`` start the timer;
    without players (or with ``edit``), a small form asks for them. The countdown itself runs
    in the browser: static/timer.js."""
    args = request.args.copy()
    if "player" in args:  # the score sheet's link: one name each, commas and all
        args["players"] = join_player_names(args.poplist("player"))
    form = TimerForm(args, meta={"csrf": False})
    if "players" not in args or "edit" in args:
        return render_template("turns/timer_setup.html", form=form,
                               seconds_range=TURN_SECONDS_RANGE), 200
    if not form.validate():
        return render_template("turns/timer_setup.html", form=form,
                               seconds_range=TURN_SECONDS_RANGE), 422
    preset = get_preset(form.preset.data)
    seconds = form.seconds.data or preset.turn_seconds
    return render_template("turns/timer.html", form=form, preset=preset, seconds=seconds,
                           players=form.seating_order()), 200
