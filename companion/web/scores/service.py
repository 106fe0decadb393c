"""What the pages and the JSON API share: load and store sessions and games around the core.

No scoring rule lives here: every score, winner, check and standing comes from
``companion.core.scoring``. This module turns stored rows into core values and back, keeps
the history of changes, and guards writes.

The write path, so that two phones at once cannot break a session:

- every write starts its transaction with the session locked (``lock_session``: SQLite
  ``BEGIN IMMEDIATE``, PostgreSQL ``SELECT ... FOR UPDATE``), so writes to a session queue;
- the next game's number comes from the stored games inside that transaction (the highest
  number + 1), never from a count taken earlier;
- a phone may say which game it means to record (``expected_number``): if another phone got
  there first, the answer is a conflict showing what that phone recorded;
- every row of a write is added inside the ``try`` that turns a unique-constraint conflict
  into that same answer (nothing is flushed before it);
- a write may carry an idempotency key: the first answer is stored with the change, and the
  same request again gets that answer instead of a second game;
- reads load a session, its players, games and scores in four queries whatever the number of
  games, inside one transaction (one consistent state).
"""

from __future__ import annotations

import base64
import csv
import hashlib
import hmac
import io
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from flask import current_app
from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import selectinload

from companion.core.presets import UnknownPresetError, get_preset
from companion.core.scoring import (
    ENDING_WORDS,
    MAX_PLAYERS,
    MAX_ROUNDS,
    Ending,
    GameResult,
    Rack,
    ScoreSheet,
    ScoringError,
    apply_rule_overrides,
    box_value,
    build_sheet,
    check_paper_scores,
    check_players,
    check_rounds,
    round_of,
    rule_overrides,
    score_exhausted,
    score_went_out,
    signed,
)
from companion.core.tiles import NotationError, format_tiles, parse_rack
from companion.web.models import (
    Game,
    GameChange,
    GameEntry,
    Player,
    ScoreSession,
    SessionAccess,
    db,
    utc_now,
)
from companion.web.transactions import begin_read, begin_write

if TYPE_CHECKING:
    from companion.web.scores.sheets import SheetView

MAX_GAME_NUMBER = MAX_ROUNDS * MAX_PLAYERS
"""No session has more games: a larger number in a URL is a 404 without asking the database."""
MAX_IDEMPOTENCY_KEY = 100


class SessionStateError(Exception):
    """A write that the session's state does not allow (complete, not the last game, another
    phone was first). ``recorded`` is the stored game the write collided with, if any."""

    def __init__(self, message: str, *, recorded: dict[str, Any] | None = None,
                 field: str | None = None, code: str | None = None,
                 params: dict[str, object] | None = None) -> None:
        super().__init__(message)
        self.recorded = recorded
        self.field = field
        self.code = code  # with ``params``: the pages say it in their language (words.py)
        self.params = params or {}


class IdempotencyKeyReused(Exception):
    """The same idempotency key came with a different request."""


@dataclass(frozen=True)
class GameInput:
    """A game as the table reports it, before scoring."""

    ending: Ending
    winner: str | None = None
    racks: Mapping[str, Rack | None] = field(default_factory=dict)
    scores: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Idempotency:
    """A write's idempotency key (made by the phone) and a hash of the request it came with."""

    key: str
    request_hash: str

    @classmethod
    def of(cls, key: str | None, *request_parts: object) -> Idempotency | None:
        if key is None:
            return None
        text = json.dumps(request_parts, sort_keys=True, default=str, ensure_ascii=False)
        return cls(key, hashlib.sha256(text.encode()).hexdigest())


def valid_idempotency_key(key: str) -> bool:
    return 0 < len(key) <= MAX_IDEMPOTENCY_KEY and key.isascii() and key.isprintable()


@dataclass(frozen=True)
class WriteAnswer:
    """What a write answered: the HTTP status and JSON body, and whether it is a replay."""

    status: int
    body: dict[str, Any]
    replayed: bool = False


def parse_rack_text(player: str, text: str) -> Rack:
    """A rack typed in tile notation; a bad token is refused naming the player and the tile."""
    try:
        return Rack.of_tiles(parse_rack(text))
    except NotationError as error:
        raise ScoringError(f"{player}'s rack: {error}", player=player, field="racks") from error


# Keys and access -----------------------------------------------------------------------------

def hash_key(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def edit_key_of(session: ScoreSession | SheetView) -> str:
    """The session's edit key, derived from the server's secret: the server can show the
    share link again to an editor, while the database keeps only its hash."""
    return server_key(b"score-session-edit-key:" + session.public_id.encode())


def server_key(purpose: bytes) -> str:
    """A key derived from the server's secret for one purpose (192 bits, URL-safe)."""
    secret = str(current_app.config["SECRET_KEY"]).encode()
    return _urlsafe(hmac.new(secret, purpose, hashlib.sha256).digest()[:24])


def _urlsafe(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def key_opens(session: ScoreSession | SheetView, key: str | None) -> bool:
    """Constant-time comparison of the key's hash with the stored hash."""
    return hmac.compare_digest(hash_key(key or ""), session.edit_key_hash) and bool(key)


def shareable_key(session: ScoreSession | SheetView) -> str | None:
    """The key for the share link, if it still opens the session (a changed server secret
    makes a new one that does not)."""
    key = edit_key_of(session)
    return key if key_opens(session, key) else None


def has_access(session: ScoreSession | SheetView, device_hash: str | None) -> bool:
    if not device_hash:
        return False
    found = db.session.scalar(select(SessionAccess.id).where(
        SessionAccess.session_id == session.id, SessionAccess.device_hash == device_hash))
    return found is not None


def grant_access(session: ScoreSession, device_hash: str) -> None:
    """Let a browser change a session (it created it or used its share link)."""
    if not has_access(session, device_hash):
        db.session.add(SessionAccess(session_id=session.id, device_hash=device_hash))


def adopt_old_edit_keys(keys: object, device_hash: str) -> int:
    """Edit keys an older version kept in the Flask session cookie (integer session id → key):
    each one that still opens its session becomes an access row of this browser. Returns how
    many did."""
    if not isinstance(keys, dict):
        return 0
    begin_write()
    adopted = 0
    for session_id, key in list(keys.items())[:1000]:
        if not (isinstance(session_id, str) and session_id.isascii() and session_id.isdigit()
                and len(session_id) < 10 and isinstance(key, str)):
            continue
        session = db.session.get(ScoreSession, int(session_id))
        if session is not None and key_opens(session, key):
            grant_access(session, device_hash)
            adopted += 1
    db.session.commit()
    return adopted


def sessions_of_device(device_hash: str | None) -> list[tuple[ScoreSession, int]]:
    """The sessions a browser created or joined, newest change first, with games played."""
    if not device_hash:
        return []
    begin_read()
    games = (select(Game.session_id, func.count().label("played"))
             .group_by(Game.session_id).subquery())
    rows = db.session.execute(
        select(ScoreSession, func.coalesce(games.c.played, 0))
        .join(SessionAccess, SessionAccess.session_id == ScoreSession.id)
        .outerjoin(games, games.c.session_id == ScoreSession.id)
        .where(SessionAccess.device_hash == device_hash)
        .options(selectinload(ScoreSession.players))
        .order_by(ScoreSession.updated_at.desc(), ScoreSession.id.desc())).all()
    return [(session, played) for session, played in rows]


# Loading -------------------------------------------------------------------------------------

def read_session(public_id: str, *, history: bool = False) -> ScoreSession | None:
    """A session with its players, games and scores, all from one consistent state."""
    begin_read()
    options = [selectinload(ScoreSession.players),
               selectinload(ScoreSession.games).selectinload(Game.entries)]
    if history:
        options.append(selectinload(ScoreSession.changes))
    return db.session.scalar(select(ScoreSession).where(ScoreSession.public_id == public_id)
                             .options(*options))


def read_session_in_this_transaction(public_id: str) -> ScoreSession | None:
    return db.session.scalar(select(ScoreSession).where(ScoreSession.public_id == public_id)
                             .options(selectinload(ScoreSession.players),
                                      selectinload(ScoreSession.games)
                                      .selectinload(Game.entries)))


def lock_session(public_id: str) -> ScoreSession | None:
    """Start a write: the session's row locked for the rest of the transaction."""
    begin_write()
    return db.session.scalar(select(ScoreSession).where(ScoreSession.public_id == public_id)
                             .options(selectinload(ScoreSession.players)).with_for_update())


def stored_game(session: ScoreSession, game_number: int) -> Game | None:
    if not 1 <= game_number <= MAX_GAME_NUMBER:
        return None
    return db.session.scalar(select(Game).where(Game.session_id == session.id,
                                                Game.number == game_number)
                             .options(selectinload(Game.entries)))


def games_stored(session: ScoreSession) -> tuple[int, int]:
    """How many games are stored and the highest number, asked of the database."""
    count, highest = db.session.execute(select(func.count(), func.max(Game.number))
                                        .where(Game.session_id == session.id)).one()
    return count, highest or 0


def last_change(session: ScoreSession) -> GameChange | None:
    return db.session.scalar(select(GameChange).where(GameChange.session_id == session.id)
                             .order_by(GameChange.id.desc()).limit(1))


def redo_offer(session: ScoreSession) -> int | None:
    """The game number a redo would put back: offered only while an undo is the last change."""
    change = last_change(session)
    return change.game_number if change is not None and change.action == "undone" else None


# Sessions ------------------------------------------------------------------------------------

def create_session(names: list[str], rounds: int, preset_key: str | None,
                   overrides: Mapping[str, object], *,
                   device_hash: str | None = None) -> tuple[ScoreSession, str]:
    """A new session and its edit key (only the hash is stored)."""
    check_new_session(names, rounds, preset_key, overrides)
    begin_write()
    session, key = add_session(names, rounds, preset_key, overrides, device_hash=device_hash)
    db.session.commit()
    return session, key


def check_new_session(names: list[str], rounds: int, preset_key: str | None,
                      overrides: Mapping[str, object]) -> None:
    """What ``add_session`` refuses, checked before any transaction starts."""
    check_players(names)
    check_rounds(rounds)
    try:
        apply_rule_overrides(get_preset(preset_key), overrides)
    except UnknownPresetError as error:
        raise ScoringError(str(error), field="preset") from error


def add_session(names: list[str], rounds: int, preset_key: str | None,
                overrides: Mapping[str, object], *,
                device_hash: str | None = None) -> tuple[ScoreSession, str]:
    """A new session in the write transaction already begun (a night seats many tables in
    one), not committed; ``check_new_session`` has checked its input."""
    players = check_players(names)
    base = get_preset(preset_key)
    rules = apply_rule_overrides(base, overrides)
    session = ScoreSession(preset_key=base.key, rule_overrides=rule_overrides(rules, base),
                           rounds=rounds, edit_key_hash="")
    session.players = [Player(seat=seat, name=name) for seat, name in enumerate(players, 1)]
    db.session.add(session)
    db.session.flush()
    key = edit_key_of(session)
    session.edit_key_hash = hash_key(key)
    if device_hash:
        db.session.add(SessionAccess(session_id=session.id, device_hash=device_hash))
    return session, key


def sheet_of(session: ScoreSession) -> ScoreSheet:
    return build_sheet(session.player_names, session.rounds, session.results(),
                       finished_early=session.finished_at is not None)


def delete_session(session: ScoreSession) -> None:
    db.session.delete(session)
    db.session.commit()


# Games ---------------------------------------------------------------------------------------

def score(session: ScoreSession, entry: GameInput) -> GameResult:
    """One core call per ending, under the session's rules."""
    players, rules = session.player_names, session.rules
    if entry.ending is Ending.WENT_OUT:
        if not entry.winner or not entry.winner.strip():
            raise ScoringError("say who went out (the winner)", field="winner",
                              code="no_winner")
        return score_went_out(players, entry.winner, entry.racks, preset=rules)
    if entry.ending is Ending.POOL_EXHAUSTED:
        return score_exhausted(players, entry.racks, preset=rules, winner=entry.winner)
    most = box_value(rules)
    for name, points in entry.scores.items():
        if abs(points) > most:
            raise ScoringError(
                f"{name}'s score {signed(points)} is more than one game can produce under "
                f"these rules: every tile in the box is worth {most}", player=name,
                field="scores", code="score_over_box",
                params={"name": name, "points": points, "most": most})
    return check_paper_scores(players, entry.scores, winner=entry.winner)


def _replay(session: ScoreSession, idempotency: Idempotency | None) -> WriteAnswer | None:
    """The first answer to this idempotency key, if the request was already done."""
    if idempotency is None:
        return None
    change = db.session.scalar(select(GameChange).where(
        GameChange.session_id == session.id, GameChange.idempotency_key == idempotency.key))
    if change is None:
        return None
    if change.request_hash != idempotency.request_hash or change.answer is None:
        raise IdempotencyKeyReused(
            "this Idempotency-Key was already used for a different request: make a new key "
            "for each new game or change")
    if change.action in GAME_WRITES and _undone_since(session, change):
        raise SessionStateError(
            f"this Idempotency-Key recorded game {change.game_number}, but that game was "
            "undone since: nothing is stored for it now. Record it again with a new key if "
            "it should be on the sheet", field="idempotency", code="since_undone",
            params={"number": change.game_number})
    return WriteAnswer(change.answer["status"], change.answer["body"], replayed=True)


GAME_WRITES = frozenset({"recorded", "edited", "redone"})
"""The history's actions whose answer is a stored game (replayed only while it is stored)."""


def _undone_since(session: ScoreSession, change: GameChange) -> bool:
    """Whether the game a change wrote was undone by a later change and not put back since."""
    latest = db.session.scalar(
        select(GameChange.action).where(GameChange.session_id == session.id,
                                        GameChange.game_number == change.game_number,
                                        GameChange.id > change.id)
        .order_by(GameChange.id.desc()).limit(1))
    return latest == "undone"


def _commit(session: ScoreSession, number: int, work: Any) -> None:
    """Run ``work`` (which adds the rows of a write) and commit; a unique-constraint conflict
    (another writer got game ``number`` first) is answered with what that writer stored."""
    try:
        work()
        db.session.commit()
    except IntegrityError as error:
        db.session.rollback()
        raise _taken(session.public_id, number) from error


def _taken(public_id: str, number: int) -> SessionStateError:
    begin_read()
    session = read_session(public_id)
    game = None if session is None else stored_game(session, number)
    recorded = None if session is None or game is None else game_json(session, game)
    return SessionStateError(
        f"game {number} was recorded from another phone at the same moment: reload the sheet "
        "and check it", recorded=recorded, field="number", code="taken",
        params={"number": number})


def record_game(session: ScoreSession, entry: GameInput, *, expected_number: int | None = None,
                idempotency: Idempotency | None = None) -> WriteAnswer:
    """Store the next game; ``session`` comes from ``lock_session``."""
    replay = _replay(session, idempotency)
    if replay is not None:
        return replay
    played, highest = games_stored(session)
    planned = session.rounds * len(session.players)
    number = highest + 1
    if expected_number is not None and expected_number != number:
        raise _conflict(session, expected_number, number)
    if session.finished_at is not None:
        raise SessionStateError("the session was finished early: tap “Continue the session” on "
                                "the sheet to record more games", field="number",
                                code="finished_early")
    if played >= planned or number > planned:
        raise SessionStateError(f"the session is complete: all {planned} games "
                                f"({session.rounds} round{'s' * (session.rounds != 1)}) are "
                                "recorded", field="number", code="complete",
                                params={"planned": planned})
    result = score(session, entry)
    return _store_new_game(session, number, result, "recorded", idempotency)


def _conflict(session: ScoreSession, expected: int, number: int) -> SessionStateError:
    if expected < number:
        game = stored_game(session, expected)
        recorded = None if game is None else game_json(session, game)
        return SessionStateError(
            f"game {expected} was already recorded from another phone"
            + (f" ({recorded['winner']} won)" if recorded else "")
            + f": the next game is {number}; check the sheet before recording it",
            recorded=recorded, field="number", code="already_recorded",
            params={"expected": expected, "number": number,
                    "winner": recorded["winner"] if recorded else None})
    return SessionStateError(f"game {expected} cannot be recorded yet: the next game is "
                             f"{number} (a game was undone from another phone); reload the "
                             "sheet", field="number", code="not_yet",
                             params={"expected": expected, "number": number})


def _store_new_game(session: ScoreSession, number: int, result: GameResult, action: str,
                    idempotency: Idempotency | None) -> WriteAnswer:
    game = Game(session_id=session.id, number=number, recorded_at=utc_now())
    answer_holder: list[WriteAnswer] = []

    def work() -> None:
        _fill(session, game, result)
        db.session.add(game)
        answer = WriteAnswer(201, game_json(session, game))
        _log(session, number, action, None, result, idempotency, answer)
        answer_holder.append(answer)

    _commit(session, number, work)
    return answer_holder[0]


def edit_game(session: ScoreSession, game: Game, entry: GameInput, *,
              idempotency: Idempotency | None = None) -> WriteAnswer:
    replay = _replay(session, idempotency)
    if replay is not None:
        return replay
    before = game.to_result(session.players)
    result = score(session, entry)
    answer_holder: list[WriteAnswer] = []

    def work() -> None:
        _fill(session, game, result)
        game.edited_at = utc_now()
        answer = WriteAnswer(200, game_json(session, game))
        _log(session, game.number, "edited", before, result, idempotency, answer)
        answer_holder.append(answer)

    _commit(session, game.number, work)
    return answer_holder[0]


def undo_last_game(session: ScoreSession, game_number: int, *,
                   idempotency: Idempotency | None = None) -> WriteAnswer:
    """Delete the last game; the history keeps it, and a redo can put it back."""
    replay = _replay(session, idempotency)
    if replay is not None:
        return replay
    _played, highest = games_stored(session)
    game = stored_game(session, game_number)
    if game is None:
        raise LookupError(f"session {session.public_id} has no game {game_number}")
    if game_number != highest:
        raise SessionStateError(f"only the last game (game {highest}) can be undone; "
                                f"edit game {game_number} instead", field="number",
                                code="undo_not_last",
                                params={"highest": highest, "number": game_number})
    result = game.to_result(session.players)
    answer = WriteAnswer(200, {"deleted": game_number, "game": result_json(result),
                               "redo": game_number})

    def work() -> None:
        db.session.delete(game)
        _changed(session)
        _log(session, game_number, "undone", result, None, idempotency, answer)

    _commit(session, game_number, work)
    return answer


def redo_game(session: ScoreSession, *, idempotency: Idempotency | None = None) -> WriteAnswer:
    """Put back the game the last change undid: offered until the next change."""
    replay = _replay(session, idempotency)
    if replay is not None:
        return replay
    change = last_change(session)
    if change is None or change.action != "undone" or change.before is None:
        raise SessionStateError("there is nothing to redo: a redo is offered only right after "
                                "an undo, until the next change", field="redo",
                                code="nothing_to_redo")
    _played, highest = games_stored(session)
    if change.game_number != highest + 1:
        raise SessionStateError(f"game {change.game_number} cannot be put back: the next game "
                                f"is {highest + 1}", field="redo", code="redo_blocked",
                                params={"number": change.game_number, "next": highest + 1})
    try:
        result = score(session, restored_game_input(session, change.before))
    except ScoringError as error:
        raise SessionStateError(
            f"game {change.game_number} cannot be put back: what the history keeps of it is "
            f"not a game these rules can score ({error})", field="redo", code="redo_refused",
            params={"number": change.game_number}) from error
    return _store_new_game(session, change.game_number, result, "redone", idempotency)


def restored_game_input(session: ScoreSession, stored: Mapping[str, Any]) -> GameInput:
    """A game the history kept (``result_json``: here, or from an imported file), as input to
    score again: a redo is scored and checked like any game. ScoringError names what is wrong."""
    endings = {ending.value: ending for ending in Ending}
    ending = endings.get(stored.get("ending"))  # type: ignore[arg-type]
    winner = stored.get("winner")
    if ending is None or not (winner is None or isinstance(winner, str)):
        raise ScoringError(f"its `ending` must be one of {', '.join(endings)} and its "
                           "`winner` a player's name", field="redo")
    if ending is Ending.PAPER:
        scores = stored.get("scores")
        if not isinstance(scores, dict) or not all(
                isinstance(v, int) and not isinstance(v, bool) for v in scores.values()):
            raise ScoringError("its `scores` must map each player to a whole number",
                               field="redo")
        return GameInput(ending, winner, scores=scores)
    racks = stored.get("racks")
    if not isinstance(racks, dict):
        raise ScoringError("its `racks` must map each player to a rack", field="redo")
    return GameInput(ending, winner, racks={str(name): stored_rack(str(name), value)
                                            for name, value in racks.items()})


def stored_rack(name: str, value: object) -> Rack | None:
    """A rack as ``rack_json`` writes it (tiles, a total, or points and jokers); anything
    else is a ScoringError naming the player."""
    if value is None:
        return None
    if isinstance(value, str):
        return parse_rack_text(name, value)
    if isinstance(value, int) and not isinstance(value, bool):
        return Rack.of_total(value)
    if isinstance(value, dict) and set(value) <= {"points", "jokers"}:
        points, jokers = value.get("points", 0), value.get("jokers", 0)
        if all(isinstance(n, int) and not isinstance(n, bool) for n in (points, jokers)):
            return Rack.of_total(points, jokers)
    raise ScoringError(f"{name}'s rack must be tiles, a total or {{points, jokers}}",
                       player=name, field="racks")


def _fill(session: ScoreSession, game: Game, result: GameResult) -> None:
    """Write a scored result into a game's rows; existing lines are updated in place."""
    ids = {player.name: player.id for player in session.players}
    game.ending = result.ending.value
    game.winner_id = ids[result.winner]
    existing = {entry.player_id: entry for entry in game.entries}
    for name, points, rack in zip(result.players, result.scores, result.racks, strict=True):
        entry = existing.get(ids[name])
        if entry is None:
            entry = GameEntry(player_id=ids[name])
            game.entries.append(entry)
        entry.score = points
        entry.rack = entry.rack_points = entry.rack_jokers = None
        if rack is not None and rack.tiles is not None:
            entry.rack = format_tiles(rack.tiles)
        elif rack is not None:
            entry.rack_points, entry.rack_jokers = rack.points, rack.jokers
    _changed(session)


def _changed(session: ScoreSession) -> None:
    session.updated_at = utc_now()
    session.version = (session.version or 0) + 1


def _log(session: ScoreSession, number: int, action: str, before: GameResult | None,
         after: GameResult | None, idempotency: Idempotency | None,
         answer: WriteAnswer) -> None:
    db.session.add(GameChange(
        session_id=session.id, game_number=number, action=action, at=utc_now(),
        summary=describe_change(number, before, after, action=action),
        before=None if before is None else result_json(before),
        after=None if after is None else result_json(after),
        idempotency_key=None if idempotency is None else idempotency.key,
        request_hash=None if idempotency is None else idempotency.request_hash,
        answer=None if idempotency is None else {"status": answer.status,
                                                 "body": answer.body}))


def describe_change(number: int, before: GameResult | None, after: GameResult | None, *,
                    action: str = "") -> str:
    def line(result: GameResult) -> str:
        scores = ", ".join(f"{n} {signed(s)}" for n, s in zip(result.players, result.scores,
                                                               strict=True))
        return f"{result.winner} won ({ENDING_WORDS[result.ending]}): {scores}"

    if before is None and after is not None:
        verb = "put back (redo)" if action == "redone" else "recorded"
        return f"Game {number} {verb}: {line(after)}"
    if after is None and before is not None:
        return f"Game {number} undone (was: {line(before)})"
    assert before is not None and after is not None
    changed = [f"{name} {signed(old)} → {signed(new)}" for name, old, new
               in zip(after.players, before.scores, after.scores, strict=True) if old != new]
    if before.winner != after.winner:
        changed.insert(0, f"winner {before.winner} → {after.winner}")
    if before.ending != after.ending:
        changed.insert(0, f"{ENDING_WORDS[before.ending]} → {ENDING_WORDS[after.ending]}")
    for name, old_rack, new_rack in zip(after.players, before.racks, after.racks, strict=True):
        if old_rack != new_rack:
            changed.append(f"{name}'s rack {_rack_words(old_rack)} → {_rack_words(new_rack)}")
    return f"Game {number} edited: " + ("; ".join(changed) or "nothing changed")


def _rack_words(rack: Rack | None) -> str:
    return "not given" if rack is None else rack.describe()


# JSON and CSV --------------------------------------------------------------------------------

def rack_json(rack: Rack | None) -> object:
    if rack is None:
        return None
    if rack.tiles is not None:
        return format_tiles(rack.tiles)
    return {"points": rack.points, "jokers": rack.jokers} if rack.jokers else rack.points


def rack_from_stored(value: object) -> Rack | None:
    """The inverse of ``rack_json`` for what this module stored itself."""
    if value is None:
        return None
    if isinstance(value, str):
        return Rack.of_tiles(parse_rack(value))
    if isinstance(value, int):
        return Rack.of_total(value)
    assert isinstance(value, dict)
    return Rack.of_total(int(value["points"]), int(value["jokers"]))


def result_json(result: GameResult) -> dict[str, Any]:
    return {"ending": result.ending.value, "winner": result.winner,
            "scores": result.scores_by_name(),
            "racks": {n: rack_json(r) for n, r in result.racks_by_name().items()}}


def result_from_json(session: ScoreSession, stored: Mapping[str, Any]) -> GameResult:
    players = session.player_names
    return GameResult(Ending(stored["ending"]), stored["winner"], players,
                      tuple(int(stored["scores"][name]) for name in players),
                      tuple(rack_from_stored(stored["racks"].get(name)) for name in players))


def game_json(session: ScoreSession, game: Game) -> dict[str, Any]:
    result = game.to_result(session.players)
    return {"number": game.number, "round": round_of(game.number, len(session.players)),
            **result_json(result), "balanced": result.check.balanced,
            "recorded_at": game.recorded_at.isoformat() + "Z",
            "edited_at": None if game.edited_at is None else game.edited_at.isoformat() + "Z"}


def session_json(session: ScoreSession) -> dict[str, Any]:
    sheet = sheet_of(session)
    rules = session.rules
    names = sheet.players
    return {
        "id": session.public_id,
        "players": list(names),
        "rounds": session.rounds,
        "preset": session.preset_key,
        "rules": {"joker_penalty": rules.joker_penalty,
                  "exhausted_pool": rules.exhausted_pool.value,
                  "initial_meld": rules.initial_meld, "turn_seconds": rules.turn_seconds,
                  "overrides": session.rule_overrides or {}},
        "games": [game_json(session, game) for game in session.games],
        "round_totals": [{"round": r.number, "scores": dict(zip(names, r.subtotals, strict=True)),
                          "balanced": r.check.balanced} for r in sheet.rounds],
        "totals": dict(zip(names, sheet.totals, strict=True)),
        "standings": [{"name": s.name, "games_won": s.games_won, "score": s.score,
                       "place": s.place} for s in sheet.standings],
        "balanced": sheet.balanced,
        "games_played": sheet.games_played,
        "games_planned": sheet.games_planned,
        "complete": sheet.complete,
        "finished_early": sheet.finished_early,
        "next_game": None if sheet.next_game is None else
        {"number": sheet.next_game[0], "round": sheet.next_game[1]},
    }


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "\n", "|", "%",
                  "\uff1d", "\uff0b", "\uff0d", "\uff20", "\uff5c", "\uff05")
"""What a spreadsheet may read as the start of a formula or a command (OWASP's "CSV
Injection" list: = + - @, tab and carriage return; the full-width ＝ ＋ － ＠ that some
spreadsheets fold into them; | and % that DDE and some imports treat alike), with a line feed
and the full-width ｜ ％ for good measure."""


def csv_cell(value: object) -> object:
    """A text cell that a spreadsheet would run as a formula gets a leading quote (OWASP's
    advice), also behind leading spaces, which some spreadsheets skip; numbers stay numbers,
    so a score of −5 is still a number there."""
    if isinstance(value, str) and value.lstrip(" ").startswith(FORMULA_STARTS):
        return "'" + value
    return value


def sheet_csv(session: ScoreSession, *, word: Callable[[str], str] = str,
              ending: Callable[[Ending], str] = lambda ending: ending.value) -> str:
    """The score sheet as CSV: one row per game, round subtotals, totals, games won, place.

    ``word`` says the headers, labels and yes/no in the page's language and ``ending`` each
    game's ending; both default to the English words and codes."""
    sheet = sheet_of(session)
    out = io.StringIO()
    writer = csv.writer(out)

    def row(*cells: object) -> None:
        writer.writerow([csv_cell(cell) for cell in cells])

    def balanced(value: bool) -> str:
        return word(str(value))

    row(word("round"), word("game"), word("ending"), word("winner"), *sheet.players,
        word("balanced"))
    for round_sheet in sheet.rounds:
        for number, result in round_sheet.games:
            row(round_sheet.number, number, ending(result.ending), result.winner,
                *result.scores, balanced(result.check.balanced))
        row(round_sheet.number, word("round total"), "", "", *round_sheet.subtotals,
            balanced(round_sheet.check.balanced))
    row("", word("total"), "", "", *sheet.totals, balanced(sheet.check.balanced))
    row("", word("games won"), "", "", *sheet.games_won, "")
    places = {s.name: s.place for s in sheet.standings}
    row("", word("place"), "", "", *(places[name] for name in sheet.players), "")
    return out.getvalue()


# Rematch and more rounds -------------------------------------------------------------------

def rematch(session: ScoreSession, *,
            device_hash: str | None = None) -> tuple[ScoreSession, str]:
    """A new session with the same players in the same seats, the same rules and rounds, in
    the same group (each seat linked to the same member); ``device_hash`` may change it."""
    names, rounds = list(session.player_names), session.rounds
    preset_key, overrides = session.preset_key, dict(session.rule_overrides or {})
    group_id, member_ids = session.group_id, [player.member_id for player in session.players]
    new_session, key = create_session(names, rounds, preset_key, overrides,
                                      device_hash=device_hash)
    if group_id is not None:
        begin_write()
        new_session = read_session_in_this_transaction(new_session.public_id) or new_session
        new_session.group_id = group_id
        for new_player, member_id in zip(new_session.players, member_ids, strict=True):
            new_player.member_id = member_id
        db.session.commit()
    return new_session, key


def add_round(session: ScoreSession, *, expected_number: int | None = None) -> None:
    """One more round for a session in progress (up to the core's limit); ``session`` comes
    from ``lock_session``. A phone may say which round it means to add (``expected_number``),
    so two phones tapping "Add a round" at once add one round, not two."""
    if expected_number is not None and expected_number != session.rounds + 1:
        raise SessionStateError(
            f"round {expected_number} cannot be added: the session has {session.rounds} "
            f"round{'s' * (session.rounds != 1)} now (one was added from another phone, or by "
            "a second tap); check the sheet", field="number", code="round_taken",
            params={"expected": expected_number, "rounds": session.rounds})
    if session.finished_at is not None:
        raise SessionStateError("the session was finished early: tap “Continue the session” on "
                                "the sheet to add a round", field="number",
                                code="finished_early")
    check_rounds(session.rounds + 1)
    session.rounds += 1
    _changed(session)
    db.session.commit()


# Finishing early ------------------------------------------------------------------------------

def finish_now(session: ScoreSession) -> None:
    """End a session in progress before its last planned game: the standings as they stand are
    final, and the league counts it. ``session`` comes from ``lock_session``."""
    played, _highest = games_stored(session)
    planned = session.rounds * len(session.players)
    if session.finished_at is not None:
        raise SessionStateError("the session is already finished", code="already_finished")
    if played == 0:
        raise SessionStateError("no game is recorded yet: there is nothing to finish (delete "
                                "the session instead)", code="nothing_to_finish")
    if played >= planned:
        raise SessionStateError(f"the session is complete: all {planned} games are recorded",
                                code="complete", params={"planned": planned})
    session.finished_at = utc_now()
    _changed(session)
    db.session.commit()


def continue_session(session: ScoreSession) -> None:
    """Undo "finish now": the session is in progress again, its next game the one after the
    last recorded. ``session`` comes from ``lock_session``."""
    if session.finished_at is None:
        raise SessionStateError("the session was not finished early: there is nothing to "
                                "continue", code="not_finished_early")
    session.finished_at = None
    _changed(session)
    db.session.commit()
