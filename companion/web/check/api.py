"""POST /api/v1/check: the table check as JSON, the same core call as the page and CLI.
POST /api/v1/rack-value: what a rack costs, for the palette's running value."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify

from companion.core.melds import check_table
from companion.core.presets import RULE_RANGES
from companion.core.racks import Rack
from companion.core.solver import arrangement_hint
from companion.core.tiles import (
    ImpossibleTilesError,
    NotationError,
    check_inventory,
    parse_rack,
    parse_table,
)
from companion.web.api import ApiInputError, json_body, preset_field

bp = Blueprint("check_api", __name__)


@bp.post("/check")
def check() -> Any:
    payload = json_body(example='{"table": "R5 R6 R7", "preset": "pressman"}')
    table_text = payload.get("table")
    if not isinstance(table_text, str):
        raise ApiInputError("`table` must be a string of tiles, sets separated by | ; or new "
                            "lines", {"field": "table"})
    preset = preset_field(payload.get("preset"))
    try:
        table = parse_table(table_text)
        if not table:
            raise ApiInputError("the table is empty: give at least one set", {"field": "table"})
        verdict = check_table(table, preset=preset)
    except (NotationError, ImpossibleTilesError) as error:
        raise ApiInputError(str(error), error.where, extra={"code": error.code}) from error
    hint = arrangement_hint(table, preset=preset)
    return jsonify(verdict.to_json() | {"arrangement": hint.to_json() if hint else None})


@bp.post("/rack-value")
def rack_value() -> Any:
    """The rack's value as the score keeper counts it: the palette shows it while tiles are
    tapped, so the page holds no rule of its own."""
    payload = json_body(example='{"rack": "K5 R13 J", "preset": "pressman"}')
    rack_text = payload.get("rack")
    if not isinstance(rack_text, str):
        raise ApiInputError("`rack` must be a string of tiles such as K5 R13 J", {"field": "rack"})
    preset = preset_field(payload.get("preset"))
    penalty = payload.get("joker_penalty", preset.joker_penalty)
    low, high = RULE_RANGES["joker_penalty"]
    if isinstance(penalty, bool) or not isinstance(penalty, int) or not low <= penalty <= high:
        raise ApiInputError(f"`joker_penalty` must be a whole number from {low} to {high}",
                            {"field": "joker_penalty"})
    try:
        tiles = parse_rack(rack_text)
        check_inventory(tiles, preset.jokers)
    except (NotationError, ImpossibleTilesError) as error:
        raise ApiInputError(str(error), error.where, extra={"code": error.code}) from error
    rack = Rack.of_tiles(tiles)
    return jsonify(value=rack.value(joker_penalty=penalty), jokers=rack.joker_count,
                   tiles=len(tiles))
