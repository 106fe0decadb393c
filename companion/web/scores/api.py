"""JSON API of the scores feature, mounted under /api/v1: the same core calls as the pages.

A session is addressed by its public id (the ``id`` ``POST /sessions`` answers with). Writes
need ``Authorization: Bearer <edit_key>`` and may carry an ``Idempotency-Key`` header: the same
write sent again with the same key is answered with the first answer and changes nothing.
Every refusal is ``{"error": "...", "where": {...}}``: 400 for a request of the wrong shape,
422 for input the rules refuse (a tie to break, scores that do not balance), 401/403 for a
missing or wrong key, 404 for an unknown session or game, 409 for a write the session's state
does not allow (with ``recorded``: what another phone recorded). Nothing is stored when the
answer is an error.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify, request, url_for

from companion.core.presets import OVERRIDABLE_RULES as RULE_FIELDS
from companion.core.scoring import Ending, Rack, ScoringError, TiedLowestRackError
from companion.web.api import ApiInputError, json_body
from companion.web.groups.api import group_for_new_session, join_new_session
from companion.web.models import ScoreSession, db
from companion.web.scores import service
from companion.web.scores.device import device_hash
from companion.web.scores.service import (
    GameInput,
    Idempotency,
    IdempotencyKeyReused,
    SessionStateError,
    WriteAnswer,
)
from companion.web.scores.sheets import SheetView, host_cache_key, sheet_view

bp = Blueprint("scores_api", __name__)


def bad(message: str, **where: Any) -> ApiInputError:
    return ApiInputError(message, where)


@bp.errorhandler(ScoringError)
def refused(problem: ScoringError) -> tuple[Any, int]:
    db.session.rollback()
    extra: dict[str, Any] = {}
    if isinstance(problem, TiedLowestRackError):
        extra = {"tied": list(problem.tied), "fewest_tiles": problem.fewest_tiles}
    return jsonify(error=str(problem), where=problem.where, **extra), 422


@bp.errorhandler(SessionStateError)
def conflict(problem: SessionStateError) -> tuple[Any, int]:
    db.session.rollback()
    where = {"field": problem.field} if problem.field else None
    return jsonify(error=str(problem), where=where, recorded=problem.recorded), 409


@bp.errorhandler(IdempotencyKeyReused)
def key_reused(problem: IdempotencyKeyReused) -> tuple[Any, int]:
    db.session.rollback()
    return jsonify(error=str(problem), where={"header": "Idempotency-Key"}), 422


def no_session(public_id: str) -> ApiInputError:
    return ApiInputError(f"there is no session {public_id}", {"field": "session"}, 404)


def readable_session(public_id: str) -> ScoreSession:
    session = service.read_session(public_id)
    if session is None:
        raise no_session(public_id)
    return session


def writable_session(public_id: str) -> ScoreSession:
    """The session locked for a write, once the request's edit key opens it."""
    header = request.headers.get("Authorization", "")
    scheme, _, key = header.partition(" ")
    session = service.lock_session(public_id)
    if session is None:
        raise no_session(public_id)
    if scheme.lower() != "bearer" or not key.strip():
        raise ApiInputError("writing needs the session's edit key: Authorization: Bearer "
                            "<edit_key>", {"header": "Authorization"}, 401)
    if not service.key_opens(session, key.strip()):
        raise ApiInputError("that edit key does not open this session",
                            {"header": "Authorization"}, 403)
    return session


def idempotency(payload: object = None) -> Idempotency | None:
    key = request.headers.get("Idempotency-Key")
    if key is None:
        return None
    key = key.strip()
    if not service.valid_idempotency_key(key):
        raise ApiInputError(f"`Idempotency-Key` must be 1 to {service.MAX_IDEMPOTENCY_KEY} "
                            "printable ASCII characters (a random token per write)",
                            {"header": "Idempotency-Key"})
    return Idempotency.of(key, request.method, request.path, payload)


def answer(written: WriteAnswer) -> tuple[Response, int]:
    response = jsonify(written.body)
    if written.replayed:
        response.headers["Idempotent-Replayed"] = "true"
    return response, written.status


def whole_number(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def game_input(payload: dict[str, Any]) -> GameInput:
    ending_text = payload.get("ending")
    endings = {ending.value: ending for ending in Ending}
    if not isinstance(ending_text, str) or ending_text not in endings:
        raise bad(f"`ending` must be one of {', '.join(endings)} (a string)", field="ending")
    ending = endings[ending_text]
    winner = payload.get("winner")
    if winner is not None and not isinstance(winner, str):
        raise bad("`winner` must be a player's name", field="winner")
    if ending is Ending.PAPER:
        scores = payload.get("scores")
        if not isinstance(scores, dict):
            raise bad("`scores` must map each player's name to a whole number",
                      field="scores")
        for name, value in scores.items():
            if not whole_number(value):
                raise bad(f"{name}'s score must be a whole number, not {value!r}",
                          field="scores", player=name)
        return GameInput(ending, winner, scores=scores)
    racks = payload.get("racks")
    if not isinstance(racks, dict):
        raise bad("`racks` must map player names to tiles (\"K5 J\") or a total (35)",
                  field="racks")
    return GameInput(ending, winner, racks={name: rack_from_json(name, value)
                                            for name, value in racks.items()})


def rack_from_json(name: str, value: object) -> Rack | None:
    """Tile notation as a string, a total as an int, or {"points": n, "jokers": m}."""
    if value is None:
        return None
    if isinstance(value, str):
        return service.parse_rack_text(name, value)
    if whole_number(value):
        assert isinstance(value, int)
        return Rack.of_total(value)
    if isinstance(value, dict) and set(value) <= {"points", "jokers"}:
        points, jokers = value.get("points", 0), value.get("jokers", 0)
        if whole_number(points) and whole_number(jokers):
            return Rack.of_total(points, jokers)
    raise bad(f"{name}'s rack must be tiles such as \"K5 J\", a total such as 35, or "
              "{\"points\": 5, \"jokers\": 1}", field="racks", player=name)


def expected_number(payload: dict[str, Any], meant: str = "the game this phone means to record"
                    ) -> int | None:
    """The optional ``number`` a phone sends to say which game (or round) it means to write."""
    number = payload.get("number")
    if number is not None and not whole_number(number):
        raise bad(f"`number` ({meant}) must be a whole number", field="number")
    return number


def links(session: ScoreSession | SheetView, key: str | None = None
          ) -> dict[str, str]:
    found = {"sheet": url_for("scores.score_sheet", session_id=session.public_id,
                              _external=True),
             "view": url_for("scores.view_sheet", session_id=session.public_id, _external=True),
             "csv": url_for("scores.sheet_csv", session_id=session.public_id, _external=True)}
    if key is not None:
        found["share_to_edit"] = url_for("scores.join_session", session_id=session.public_id,
                                         key=key, _external=True)
    return found


def overrides_given(payload: dict[str, Any]) -> dict[str, Any]:
    """The rules a new session changes: ``rules`` (or its older name ``overrides``) and any
    rule given at the top level. One rule given twice with two values is refused, not decided
    by which spelling wins."""
    given = {name: payload[name] for name in ("rules", "overrides") if name in payload}
    if len(given) > 1:
        raise bad("send the rules once, as `rules` (`overrides` is its older name)",
                  field="rules")
    field, chosen = next(iter(given.items()), ("rules", None))
    if chosen is None:
        chosen = {}
    if not isinstance(chosen, dict):
        raise bad(f"`{field}` must be an object such as {{\"joker_penalty\": 25}}",
                  field=field)
    overrides = dict(chosen)
    for name in RULE_FIELDS:
        if name in payload:
            if name in overrides and overrides[name] != payload[name]:
                raise bad(f"`{name}` is given twice, as {payload[name]!r} and in `{field}` as "
                          f"{overrides[name]!r}", field=name)
            overrides[name] = payload[name]
    return overrides


@bp.post("/sessions")
def create_session() -> tuple[Any, int]:
    payload = json_body()
    players = payload.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise bad("`players` must be a list of 2 to 4 names", field="players")
    for position, name in enumerate(players, start=1):
        if not name.strip():
            raise bad(f"player {position} has no name", field="players")
    rounds = payload.get("rounds", 1)
    if not whole_number(rounds):
        raise bad("`rounds` must be a whole number", field="rounds")
    preset = payload.get("preset")
    if preset is not None and not isinstance(preset, str):
        raise bad("`preset` must be pressman, sabra or twist", field="preset")
    overrides = overrides_given(payload)
    group = group_for_new_session(payload.get("group"))
    session, key = service.create_session(players, rounds, preset, overrides)
    join_new_session(session, group)
    readable = service.read_session(session.public_id)
    assert readable is not None
    return jsonify({**service.session_json(readable), "edit_key": key,
                    "links": links(readable, key)}), 201


@bp.get("/sessions")
def list_sessions() -> Any:
    """The sessions this browser created or joined on the pages (none for a bare client)."""
    return jsonify(sessions=[{"id": s.public_id, "players": list(s.player_names),
                              "rounds": s.rounds, "preset": s.preset_key,
                              "games_played": played}
                             for s, played in service.sessions_of_device(device_hash())])


@bp.get("/sessions/<session_id>")
def get_session(session_id: str) -> Any:
    """The whole session; its JSON is made once per version (and host, for the links)."""
    view = sheet_view(session_id)
    if view is None:
        raise no_session(session_id)
    host = host_cache_key(request.host_url)
    body = None if host is None else view.rendered.get(("json", host))
    if body is None:
        body = jsonify({**view.json, "links": links(view), "redo": view.redo}).get_data()
        if host is not None:
            view.rendered[("json", host)] = body
    return Response(body, mimetype="application/json")


@bp.delete("/sessions/<session_id>")
def delete_session(session_id: str) -> Any:
    session = writable_session(session_id)
    service.delete_session(session)
    return jsonify(deleted=session_id)


@bp.get("/sessions/<session_id>/history")
def history(session_id: str) -> Any:
    session = service.read_session(session_id, history=True)
    if session is None:
        raise no_session(session_id)
    return jsonify(history=[{"game": c.game_number, "action": c.action, "summary": c.summary,
                             "at": c.at.isoformat() + "Z", "before": c.before, "after": c.after}
                            for c in session.changes])


@bp.post("/sessions/<session_id>/games")
def record_game(session_id: str) -> Any:
    payload = json_body()
    key = idempotency(payload)
    entry, number = game_input(payload), expected_number(payload)
    session = writable_session(session_id)
    return answer(service.record_game(session, entry, expected_number=number,
                                      idempotency=key))


def existing_game(session: ScoreSession, game_number: int) -> Any:
    game = service.stored_game(session, game_number)
    if game is None:
        played, _highest = service.games_stored(session)
        raise ApiInputError(f"session {session.public_id} has no game {game_number} "
                            f"({played} recorded)", {"field": "game"}, 404)
    return game


@bp.get("/sessions/<session_id>/games/<int:game_number>")
def get_game(session_id: str, game_number: int) -> Any:
    session = readable_session(session_id)
    return jsonify(service.game_json(session, existing_game(session, game_number)))


@bp.put("/sessions/<session_id>/games/<int:game_number>")
def edit_game(session_id: str, game_number: int) -> Any:
    payload = json_body()
    key = idempotency(payload)
    entry = game_input(payload)
    session = writable_session(session_id)
    game = existing_game(session, game_number)
    return answer(service.edit_game(session, game, entry, idempotency=key))


@bp.delete("/sessions/<session_id>/games/<int:game_number>")
def delete_game(session_id: str, game_number: int) -> Any:
    """Undo the last game; ``POST /sessions/<id>/redo`` puts it back until the next change."""
    key = idempotency()
    session = writable_session(session_id)
    try:
        return answer(service.undo_last_game(session, game_number, idempotency=key))
    except LookupError:
        existing_game(session, game_number)
        raise


@bp.post("/sessions/<session_id>/redo")
def redo_game(session_id: str) -> Any:
    key = idempotency()
    session = writable_session(session_id)
    return answer(service.redo_game(session, idempotency=key))


@bp.post("/sessions/<session_id>/rematch")
def rematch(session_id: str) -> Any:
    """A new session with the same players, seats, rules and rounds (and group)."""
    session = writable_session(session_id)
    new_session, key = service.rematch(session)
    readable = service.read_session(new_session.public_id)
    assert readable is not None
    return jsonify({**service.session_json(readable), "edit_key": key,
                    "links": links(readable, key)}), 201


@bp.post("/sessions/<session_id>/rounds")
def add_round(session_id: str) -> Any:
    """One more round for the session; ``{"number": N}`` (optional) adds it only when it
    would be round N, so a retried or doubled request adds one round."""
    payload = json_body(example='{"number": 4}') if request.get_data(cache=True) else {}
    number = expected_number(payload, "the round this phone means to add")
    session = writable_session(session_id)
    service.add_round(session, expected_number=number)
    readable = service.read_session(session_id)
    assert readable is not None
    return jsonify({**service.session_json(readable), "links": links(readable)})


@bp.post("/sessions/<session_id>/finish")
def finish_now(session_id: str) -> Any:
    """End the session before its last planned game: the standings as they stand are final,
    and a group's league counts it. ``DELETE`` on the same address undoes it."""
    session = writable_session(session_id)
    service.finish_now(session)
    return session_answer(session_id)


@bp.delete("/sessions/<session_id>/finish")
def continue_session(session_id: str) -> Any:
    """Undo "finish now": the session is in progress again."""
    session = writable_session(session_id)
    service.continue_session(session)
    return session_answer(session_id)


def session_answer(session_id: str) -> Any:
    readable = service.read_session(session_id)
    assert readable is not None
    return jsonify({**service.session_json(readable), "links": links(readable)})
