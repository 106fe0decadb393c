"""POST /api/v1/solve: the solver as JSON, the same core calls as the page and the CLI."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify

from companion.core.presets import with_tournament_rule
from companion.core.solver import GOALS, arrange, best_play
from companion.core.tiles import ImpossibleTilesError, NotationError, parse_rack, parse_table
from companion.web.api import ApiInputError, json_body, preset_field

bp = Blueprint("solve_api", __name__)

EXAMPLE = ('{"table": "R5 R6 R7 | K9 B9 O9", "rack": "R8 K1 J", "opened": true, '
           '"preset": "pressman", "goal": "tiles"}')


def _text(payload: dict[str, Any], field: str) -> str | None:
    value = payload.get(field)
    if value is not None and not isinstance(value, str):
        raise ApiInputError(f"`{field}` must be a string of tiles", {"field": field})
    return value


@bp.post("/solve")
def solve() -> Any:
    """Fields: ``table`` (sets), ``rack`` (absent or null: arrange the table's tiles),
    ``opened`` (bool, default false), ``preset`` (default pressman), ``goal`` (tiles|value),
    ``tournament_joker_rule`` (bool, default false), ``any_table`` (bool, default false: only
    a play POST /api/v1/turn judges legal under the same rules; true: any legal table after).
    The answer's ``any_table`` says which of the two it is."""
    payload = json_body(example=EXAMPLE)
    table_text, rack_text = _text(payload, "table"), _text(payload, "rack")
    opened = payload.get("opened", False)
    if not isinstance(opened, bool):
        raise ApiInputError("`opened` must be true or false (have you made the initial meld?)",
                            {"field": "opened"})
    goal = payload.get("goal", "tiles")
    if goal not in GOALS:
        raise ApiInputError("`goal` must be \"tiles\" or \"value\"", {"field": "goal"})
    switches = {}
    for field in ("tournament_joker_rule", "any_table"):
        switches[field] = payload.get(field, False)
        if not isinstance(switches[field], bool):
            raise ApiInputError(f"`{field}` must be true or false", {"field": field})
    preset = with_tournament_rule(preset_field(payload.get("preset")),
                                  switches["tournament_joker_rule"])
    try:
        table = parse_table(table_text or "")
        if rack_text is None:
            tiles = [tile for meld in table for tile in meld]
            if not tiles:
                raise ApiInputError("give the tiles to arrange as `table`, or your `rack`",
                                    {"field": "table"})
            solution = arrange(tiles, preset=preset)
        else:
            solution = best_play(table, parse_rack(rack_text), preset=preset, opened=opened,
                                 goal=goal, any_table=switches["any_table"])
    except NotationError as error:
        field = "rack" if rack_text is not None and _fails(parse_rack, rack_text) else "table"
        raise ApiInputError(str(error), {"field": field, **error.where},
                            extra={"code": error.code}) from error
    except ImpossibleTilesError as error:
        raise ApiInputError(str(error), error.where, extra={"code": error.code}) from error
    return jsonify(solution.to_json() | {"any_table": switches["any_table"]})


def _fails(parse: Any, text: str) -> bool:
    try:
        parse(text)
    except NotationError:
        return True
    return False
