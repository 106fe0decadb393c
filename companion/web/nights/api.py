"""JSON API of club nights, mounted under /api/v1.

``POST /nights`` answers the night's ``id`` and ``edit_key`` and its first round's tables,
each with its session's id and (under the night's key) the session's own edit key, which the
players at that table use as they use any session's. Writes to a night need
``Authorization: Bearer <night edit_key>``; reading needs only the id, and shows the tables'
edit keys only to the night's key. Refusals are ``{"error", "where"}``: 400 for input of the
wrong shape or that a night cannot take, 401/403 for a missing or wrong key, 404 for an
unknown night, 409 for a change the night's state does not allow now. A refused write
changes nothing.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify, url_for

from companion.core.nights import NightError
from companion.web.api import ApiInputError, json_body
from companion.web.groups.api import bearer_key, group_for_new_session
from companion.web.models import db
from companion.web.nights import service
from companion.web.nights.models import Night

bp = Blueprint("nights_api", __name__)

EXAMPLE = ('{"players": ["Ann", "Bob", ...], "format": "reseat", "rounds": 3, '
           '"games_per_table": 4}')


@bp.errorhandler(NightError)
def refused(problem: NightError) -> tuple[Any, int]:
    db.session.rollback()
    return jsonify(error=str(problem), where={"field": problem.field}, code=problem.code), 400


@bp.errorhandler(service.NightStateError)
def conflict(problem: service.NightStateError) -> tuple[Any, int]:
    db.session.rollback()
    return jsonify(error=str(problem), where={"field": problem.field}, code=problem.code,
                   **problem.params), 409


def no_night(night_id: str) -> ApiInputError:
    return ApiInputError(f"there is no night {night_id}", {"field": "night"}, 404)


def writable_night(night_id: str) -> Night:
    key = bearer_key()
    night = service.lock_night(night_id)
    if night is None:
        raise no_night(night_id)
    if key is None:
        raise ApiInputError("changing a night needs its edit key: Authorization: Bearer "
                            "<edit_key>", {"header": "Authorization"}, 401)
    if not service.key_opens(night, key):
        raise ApiInputError("that edit key does not open this night",
                            {"header": "Authorization"}, 403)
    return night


def links(night: Night) -> dict[str, str]:
    ref = night.public_id
    return {"host": url_for("nights.host", night_id=ref, _external=True),
            "tv": url_for("nights.tv", night_id=ref, _external=True),
            "sheet": url_for("nights.night_sheet", night_id=ref, _external=True),
            "csv": url_for("nights.night_csv", night_id=ref, _external=True)}


def round_json(body: dict[str, Any], number: int) -> dict[str, Any]:
    played = body["rounds_played"][number - 1]
    return {"round": number, "sat_out": played["sat_out"],
            "tables": [{"number": t["number"], "session": t["session"],
                        "players": t["players"], **({"edit_key": t["edit_key"]}
                                                    if "edit_key" in t else {})}
                       for t in played["tables"]]}


@bp.post("/nights")
def create_night() -> tuple[Any, int]:
    payload = json_body(example=EXAMPLE)
    players = payload.get("players")
    if not isinstance(players, list):
        raise ApiInputError(f"`players` must be a list of {8} to {40} names",
                            {"field": "players"})
    pairs = payload.get("pairs", False)
    if not isinstance(pairs, bool):
        raise ApiInputError("`pairs` (two-player matches) must be true or false",
                            {"field": "pairs"})
    preset = payload.get("preset")
    if preset is not None and not isinstance(preset, str):
        raise ApiInputError("`preset` must be pressman, sabra or twist", {"field": "preset"})
    group = group_for_new_session(payload.get("group"))
    night, key = service.create_night(
        players, payload.get("format"), payload.get("rounds"),
        payload.get("games_per_table", 4), advance=payload.get("advance", 1), pairs=pairs,
        table_points=payload.get("table_points"), preset_key=preset, group=group)
    readable = service.read_night(night.public_id)
    assert readable is not None
    body = service.night_json(readable, with_keys=True)
    return jsonify({**body, **round_json(body, 1), "edit_key": key,
                    "links": links(readable)}), 201


@bp.get("/nights/<night_id>")
def get_night(night_id: str) -> Any:
    night = service.read_night(night_id)
    if night is None:
        raise no_night(night_id)
    return jsonify({**service.night_json(night, with_keys=service.key_opens(night,
                                                                           bearer_key())),
                    "links": links(night)})


@bp.post("/nights/<night_id>/rounds")
def seat_round(night_id: str) -> tuple[Any, int]:
    night = writable_night(night_id)
    number = service.seat_next_round(night).number
    readable = service.read_night(night_id)
    assert readable is not None
    body = service.night_json(readable, with_keys=True)
    return jsonify({**round_json(body, number), "standings": body["standings"]}), 201


@bp.post("/nights/<night_id>/players")
def add_player(night_id: str) -> tuple[Any, int]:
    payload = json_body(example='{"name": "Zoe"}')
    night = writable_night(night_id)
    name = service.add_player(night, payload.get("name"))
    return jsonify(added=name, from_round=len(night.rounds_played) + 1), 201


@bp.delete("/nights/<night_id>/players/<name>")
def remove_player(night_id: str, name: str) -> Any:
    night = writable_night(night_id)
    left = service.remove_player(night, name)
    return jsonify(left=left, after_round=len(night.rounds_played))
