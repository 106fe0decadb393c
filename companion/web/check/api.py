"""POST /api/v1/check: the table check as JSON, the same core call as the page and CLI."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify, request

from companion.core.melds import check_table
from companion.core.tiles import ImpossibleTilesError, NotationError, parse_table
from companion.web.api import ApiInputError, preset_field

bp = Blueprint("check_api", __name__)


@bp.post("/check")
def check() -> Any:
    payload = request.get_json(silent=True)
    if not isinstance(payload, dict):
        raise ApiInputError("send a JSON object such as {\"table\": \"R5 R6 R7\", "
                            "\"preset\": \"pressman\"}")
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
        raise ApiInputError(str(error), error.where) from error
    return jsonify(verdict.to_json())
