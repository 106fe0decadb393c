"""POST /api/v1/turn: referee a turn as JSON, the same core call as the page and the CLI."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify

from companion.core.presets import with_tournament_rule
from companion.core.referee import TurnInputError, referee_typed_turn
from companion.core.solver import turn_hint
from companion.core.tiles import parse_rack, parse_table
from companion.web.api import ApiInputError, json_body, preset_field

bp = Blueprint("turns_api", __name__)

EXAMPLE = ('{"before": "R5 R6 R7", "after": "R5 R6 R7 R8", "rack": "R8 K1", "opened": true, '
           '"preset": "pressman"}')


@bp.post("/turn")
def referee_turn() -> Any:
    """Fields: ``after`` (required), ``before`` ("" or absent: an empty table), ``rack``
    (optional), ``opened`` (bool, default false), ``preset`` (default pressman),
    ``tournament_joker_rule`` (bool, default false: seed 004's tournament rule), ``over_time``
    (bool, default false: the player ran over the turn time)."""
    payload = json_body(example=EXAMPLE)
    texts: dict[str, str | None] = {}
    for field, required in (("before", False), ("after", True), ("rack", False)):
        value = payload.get(field)
        if value is None and not required:
            texts[field] = None
        elif not isinstance(value, str):
            needs = "is required: a string" if value is None else "must be a string"
            raise ApiInputError(f"`{field}` {needs} of tiles, sets separated by | ; or new lines",
                                {"field": field})
        else:
            texts[field] = value
    opened = payload.get("opened", False)
    if not isinstance(opened, bool):
        raise ApiInputError("`opened` must be true or false (had the player made the initial "
                            "meld before this turn?)", {"field": "opened"})
    over_time = payload.get("over_time", False)
    if not isinstance(over_time, bool):
        raise ApiInputError("`over_time` must be true or false (did the player run over the "
                            "turn time?)", {"field": "over_time"})
    tournament = payload.get("tournament_joker_rule", False)
    if not isinstance(tournament, bool):
        raise ApiInputError("`tournament_joker_rule` must be true or false",
                            {"field": "tournament_joker_rule"})
    preset = with_tournament_rule(preset_field(payload.get("preset")), tournament)
    try:
        verdict = referee_typed_turn(texts["before"] or "", texts["after"] or "", opened=opened,
                                     preset=preset, rack_text=texts["rack"],
                                     over_time=over_time)
    except TurnInputError as error:
        extra = {} if error.cause is None else {"code": error.cause.code}
        raise ApiInputError(str(error), error.where, extra=extra) from error
    # held to the same referee: only an arrangement this turn could have made
    rack = texts["rack"]
    hint = turn_hint(parse_table(texts["before"] or ""),
                     [meld.tiles for meld in verdict.set_verdicts], opened=opened,
                     preset=preset, rack=parse_rack(rack) if rack and rack.strip() else None)
    return jsonify(verdict.to_json() | {"arrangement": hint.to_json() if hint else None})
