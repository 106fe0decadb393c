"""JSON API of the scores feature, mounted under /api/v1: the same core calls as the pages.

Writes need ``Authorization: Bearer <edit_key>`` (the key ``POST /sessions`` answers with).
Errors are ``{"error": "...", "where": {...}}``: 400 for a request of the wrong shape,
422 for input the rules refuse (a tie to break, scores that do not balance), 401/403 for a
missing or wrong key, 404 for an unknown session or game, 409 for a write the session's
state does not allow. Nothing is stored when the answer is an error.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, jsonify, request, url_for

from companion.core.scoring import Ending, Rack, ScoringError, TiedLowestRackError
from companion.web.groups.api import group_for_new_session, join_new_session
from companion.web.models import Game, ScoreSession, db
from companion.web.scores import service
from companion.web.scores.service import GameInput, SessionStateError

bp = Blueprint("scores_api", __name__)

RULE_FIELDS = ("joker_penalty", "exhausted_pool", "initial_meld", "turn_seconds",
               "failed_turn_draw", "over_time_draw", "sabra_joker_rules")


class BadRequest(Exception):
    """A request of the wrong shape: answered 400 with the field it is about."""

    def __init__(self, message: str, **where: str) -> None:
        self.where = where
        super().__init__(message)


def error(message: str, status: int, where: dict[str, Any] | None = None,
          **extra: Any) -> tuple[Any, int]:
    return jsonify(error=message, where=where or {}, **extra), status


@bp.errorhandler(BadRequest)
def bad_request(problem: BadRequest) -> tuple[Any, int]:
    db.session.rollback()
    return error(str(problem), 400, problem.where)


@bp.errorhandler(ScoringError)
def refused(problem: ScoringError) -> tuple[Any, int]:
    db.session.rollback()
    extra: dict[str, Any] = {}
    if isinstance(problem, TiedLowestRackError):
        extra = {"tied": list(problem.tied), "fewest_tiles": problem.fewest_tiles}
    return error(str(problem), 422, problem.where, **extra)


@bp.errorhandler(SessionStateError)
def conflict(problem: SessionStateError) -> tuple[Any, int]:
    db.session.rollback()
    return error(str(problem), 409)


def json_object() -> dict[str, Any]:
    payload = request.get_json(silent=True)
    if not isinstance(payload, dict):
        raise BadRequest("send a JSON object (Content-Type: application/json)")
    return payload


def load_session(session_id: int) -> ScoreSession:
    return db.get_or_404(ScoreSession, session_id,
                         description=f"there is no session {session_id}")


def writable_session(session_id: int) -> ScoreSession | tuple[Any, int]:
    session = load_session(session_id)
    header = request.headers.get("Authorization", "")
    scheme, _, key = header.partition(" ")
    if scheme.lower() != "bearer" or not key.strip():
        return error("writing needs the session's edit key: Authorization: Bearer <edit_key>",
                     401, {"field": "Authorization"})
    if not service.key_opens(session, key.strip()):
        return error("that edit key does not open this session", 403,
                     {"field": "Authorization"})
    return session


def game_input(payload: dict[str, Any]) -> GameInput:
    ending_text = payload.get("ending")
    endings = {ending.value: ending for ending in Ending}
    if ending_text not in endings:
        raise BadRequest(f"`ending` must be one of {', '.join(endings)}", field="ending")
    ending = endings[ending_text]
    winner = payload.get("winner")
    if winner is not None and not isinstance(winner, str):
        raise BadRequest("`winner` must be a player's name", field="winner")
    if ending is Ending.PAPER:
        scores = payload.get("scores")
        if not isinstance(scores, dict):
            raise BadRequest("`scores` must map each player's name to a whole number",
                             field="scores")
        for name, value in scores.items():
            if isinstance(value, bool) or not isinstance(value, int):
                raise BadRequest(f"{name}'s score must be a whole number, not {value!r}",
                                 field="scores", player=name)
        return GameInput(ending, winner, scores=scores)
    racks = payload.get("racks")
    if not isinstance(racks, dict):
        raise BadRequest("`racks` must map player names to tiles (\"K5 J\") or a total (35)",
                         field="racks")
    return GameInput(ending, winner, racks={name: rack_from_json(name, value)
                                            for name, value in racks.items()})


def rack_from_json(name: str, value: object) -> Rack | None:
    """Tile notation as a string, a total as an int, or {"points": n, "jokers": m}."""
    if value is None:
        return None
    if isinstance(value, str):
        return service.parse_rack_text(name, value)
    if isinstance(value, int) and not isinstance(value, bool):
        return Rack.of_total(value)
    if isinstance(value, dict) and set(value) <= {"points", "jokers"}:
        points, jokers = value.get("points", 0), value.get("jokers", 0)
        if all(isinstance(n, int) and not isinstance(n, bool) for n in (points, jokers)):
            return Rack.of_total(points, jokers)
    raise BadRequest(f"{name}'s rack must be tiles such as \"K5 J\", a total such as 35, or "
                     "{\"points\": 5, \"jokers\": 1}", field="racks", player=name)


def links(session: ScoreSession, key: str | None = None) -> dict[str, str]:
    found = {"sheet": url_for("scores.score_sheet", session_id=session.id, _external=True),
             "view": url_for("scores.view_sheet", session_id=session.id, _external=True),
             "csv": url_for("scores.sheet_csv", session_id=session.id, _external=True)}
    if key is not None:
        found["share_to_edit"] = url_for("scores.join_session", session_id=session.id,
                                         key=key, _external=True)
    return found


@bp.post("/sessions")
def create_session() -> tuple[Any, int]:
    payload = json_object()
    players = payload.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise BadRequest("`players` must be a list of 2 to 4 names", field="players")
    for position, name in enumerate(players, start=1):
        if not name.strip():
            raise BadRequest(f"player {position} has no name", field="players")
    rounds = payload.get("rounds", 1)
    if isinstance(rounds, bool) or not isinstance(rounds, int):
        raise BadRequest("`rounds` must be a whole number", field="rounds")
    preset = payload.get("preset")
    if preset is not None and not isinstance(preset, str):
        raise BadRequest("`preset` must be pressman, sabra or twist", field="preset")
    overrides = payload.get("rules") or payload.get("overrides") or {}
    if not isinstance(overrides, dict):
        raise BadRequest("`rules` must be an object such as {\"joker_penalty\": 25}",
                         field="rules")
    overrides |= {key: payload[key] for key in RULE_FIELDS if key in payload}
    group = group_for_new_session(payload.get("group"))
    session, key = service.create_session(players, rounds, preset, overrides)
    join_new_session(session, group)
    return jsonify({**service.session_json(session), "edit_key": key,
                    "links": links(session, key)}), 201


@bp.get("/sessions")
def list_sessions() -> Any:
    return jsonify(sessions=[{"id": s.id, "players": list(s.player_names),
                              "rounds": s.rounds, "preset": s.preset_key,
                              "games_played": len(s.games)} for s in service.all_sessions()])


@bp.get("/sessions/<int:session_id>")
def get_session(session_id: int) -> Any:
    session = load_session(session_id)
    return jsonify({**service.session_json(session), "links": links(session)})


@bp.delete("/sessions/<int:session_id>")
def delete_session(session_id: int) -> Any:
    session = writable_session(session_id)
    if not isinstance(session, ScoreSession):
        return session
    service.delete_session(session)
    return jsonify(deleted=session_id)


@bp.get("/sessions/<int:session_id>/history")
def history(session_id: int) -> Any:
    session = load_session(session_id)
    return jsonify(history=[{"game": c.game_number, "action": c.action, "summary": c.summary,
                             "at": c.at.isoformat() + "Z", "before": c.before, "after": c.after}
                            for c in session.changes])


@bp.post("/sessions/<int:session_id>/games")
def record_game(session_id: int) -> Any:
    session = writable_session(session_id)
    if not isinstance(session, ScoreSession):
        return session
    game = service.record_game(session, game_input(json_object()))
    return jsonify(service.game_json(session, game)), 201


def existing_game(session: ScoreSession, game_number: int) -> Game:
    game = service.find_game(session, game_number)
    if game is None:
        abort(404, description=f"session {session.id} has no game {game_number} "
                               f"({len(session.games)} recorded)")
    return game


@bp.get("/sessions/<int:session_id>/games/<int:game_number>")
def get_game(session_id: int, game_number: int) -> Any:
    session = load_session(session_id)
    return jsonify(service.game_json(session, existing_game(session, game_number)))


@bp.put("/sessions/<int:session_id>/games/<int:game_number>")
def edit_game(session_id: int, game_number: int) -> Any:
    session = writable_session(session_id)
    if not isinstance(session, ScoreSession):
        return session
    game = existing_game(session, game_number)
    game = service.edit_game(session, game, game_input(json_object()))
    return jsonify(service.game_json(session, game))


@bp.delete("/sessions/<int:session_id>/games/<int:game_number>")
def delete_game(session_id: int, game_number: int) -> Any:
    session = writable_session(session_id)
    if not isinstance(session, ScoreSession):
        return session
    result = service.delete_last_game(session, existing_game(session, game_number))
    return jsonify(deleted=game_number, game=service.result_json(result),
                   standings=service.session_json(session)["standings"])


@bp.post("/sessions/<int:session_id>/rematch")
def rematch(session_id: int) -> Any:
    """A new session with the same players, seats, rules and rounds (and group)."""
    session = writable_session(session_id)
    if not isinstance(session, ScoreSession):
        return session
    new_session, key = service.rematch(session)
    return jsonify({**service.session_json(new_session), "edit_key": key,
                    "links": links(new_session, key)}), 201


@bp.post("/sessions/<int:session_id>/rounds")
def add_round(session_id: int) -> Any:
    """One more round for the session."""
    session = writable_session(session_id)
    if not isinstance(session, ScoreSession):
        return session
    service.add_round(session)
    return jsonify({**service.session_json(session), "links": links(session)})
