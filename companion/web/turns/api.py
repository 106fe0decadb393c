"""POST /api/v1/turn: referee a turn as JSON, the same core call as the page and the CLI."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify, request

from companion.core.referee import TurnInputError, referee_typed_turn
from companion.web.api import preset_field

bp = Blueprint("turns_api", __name__)

EXAMPLE = ('{"before": "R5 R6 R7", "after": "R5 R6 R7 R8", "rack": "R8 K1", "opened": true, '
           '"preset": "pressman"}')


def bad_request(message: str, where: Any = None) -> tuple[Any, int]:
    return jsonify(error=message, where=where), 400


@bp.post("/turn")
def referee_turn() -> Any:
    """Fields: ``after`` (required), ``before`` ("" or absent: an empty table), ``rack``
    (optional), ``opened`` (bool, default false), ``preset`` (default pressman)."""
    payload = request.get_json(silent=True)
    if not isinstance(payload, dict):
        return bad_request(f"send a JSON object such as {EXAMPLE}")
    texts: dict[str, str | None] = {}
    for field, required in (("before", False), ("after", True), ("rack", False)):
        value = payload.get(field)
        if value is None and not required:
            texts[field] = None
        elif not isinstance(value, str):
            needs = "is required: a string" if value is None else "must be a string"
            return bad_request(f"`{field}` {needs} of tiles, sets separated by | ; or new lines",
                               {"field": field})
        else:
            texts[field] = value
    opened = payload.get("opened", False)
    if not isinstance(opened, bool):
        return bad_request("`opened` must be true or false (had the player made the initial "
                           "meld before this turn?)", {"field": "opened"})
    preset = preset_field(payload.get("preset"))
    try:
        verdict = referee_typed_turn(texts["before"] or "", texts["after"] or "", opened=opened,
                                     preset=preset, rack_text=texts["rack"])
    except TurnInputError as error:
        return bad_request(str(error), error.where)
    return jsonify(verdict.to_json())
