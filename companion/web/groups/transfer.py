"""Export and import as JSON: the backup, and the way to move evenings to another server.

Import checks the whole file before it writes anything: every session's players, rounds and
rules, and every game re-scored by the core from its racks (or its paper scores checked) and
compared with the scores in the file. A game that does not balance, a rack no box could hold,
a session already here or twice in the file is refused with the place named; then nothing is
imported. A session is "already here" when one with the same start time and players exists,
or one with its public id.

Every game of a session's history (what an undo kept for a redo, what an edit replaced) is
scored and checked like a game of the sheet, so a redo after an import puts back only a game
these rules can produce; paper scores are bounded by the box, as the API bounds them.

Who imports decides what the file may choose. The server's owner restoring an export
(``companion import``, ``keep_ids=True``) keeps its public ids and edit-key hashes, so its
links and share-to-edit links keep working. An import through the page gets fresh public ids
and fresh edit keys (``import_data`` returns them, to be shown once): nobody can take another
group's or session's id first, or bring a key they chose.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import selectinload

from companion.core.presets import Preset, UnknownPresetError, get_preset
from companion.core.scoring import (
    MAX_PLAYERS,
    MAX_ROUNDS,
    Ending,
    GameResult,
    Rack,
    ScoringError,
    apply_rule_overrides,
    box_value,
    check_name,
    check_paper_scores,
    check_players,
    check_rounds,
    name_key,
    score_exhausted,
    score_went_out,
    signed,
)
from companion.core.tiles import format_tiles
from companion.web.api import broken_text_problem
from companion.web.groups.service import check_group_name, group_edit_key, new_public_id
from companion.web.models import (
    Game,
    GameChange,
    GameEntry,
    Group,
    GroupMember,
    Player,
    ScoreSession,
    db,
)
from companion.web.models import new_public_id as new_session_id
from companion.web.scores.service import edit_key_of, hash_key, result_json, stored_rack

FORMAT = "companion-export"
VERSION = 1
PUBLIC_ID_PATTERN = re.compile(r"[A-Za-z0-9_-]{8,32}")
"""What a session's, group's or player's public id may be: it is a piece of every URL."""
HISTORY_ACTIONS = frozenset({"recorded", "edited", "undone", "redone"})
"""What a history line says was done to a game (``GameChange.action``)."""
KEY_HASH_PATTERN = re.compile(r"[0-9a-f]{64}")
"""An edit key's hash as the server keeps it (SHA-256, hex)."""
MAX_HISTORY = 4 * MAX_ROUNDS * MAX_PLAYERS
"""The most history lines a session brings (a record, edits, undos and redos per game)."""
MAX_SUMMARY = 2000


class ImportRefused(ValueError):
    """The file cannot be imported; ``where`` names the group, session and game."""

    def __init__(self, message: str, where: str, *, code: str | None = None) -> None:
        self.where = where
        self.message = message
        self.code = code  # the pages say a coded refusal in their language
        super().__init__(f"{where}: {message}" if where else message)


# Export ------------------------------------------------------------------------------------

def stamp(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat()


def session_export(score_session: ScoreSession) -> dict[str, Any]:
    names = score_session.player_names
    return {
        "id": score_session.public_id,
        "created_at": stamp(score_session.created_at),
        "updated_at": stamp(score_session.updated_at),
        "preset": score_session.preset_key,
        "rules": dict(score_session.rule_overrides or {}),
        "rounds": score_session.rounds,
        "finished_at": stamp(score_session.finished_at),
        "edit_key_hash": score_session.edit_key_hash,
        "players": list(names),
        "games": [{"number": game.number, **result_json(game.to_result(score_session.players)),
                   "recorded_at": stamp(game.recorded_at), "edited_at": stamp(game.edited_at)}
                  for game in score_session.games],
        "history": [{"game": change.game_number, "action": change.action,
                     "at": stamp(change.at), "summary": change.summary,
                     "before": change.before, "after": change.after}
                    for change in score_session.changes],
    }


def group_export(group: Group) -> dict[str, Any]:
    sessions = _sessions_where(ScoreSession.group_id == group.id)
    return {"id": group.public_id, "name": group.name, "created_at": stamp(group.created_at),
            "edit_key_hash": group.edit_key_hash,
            "members": [{"id": member.public_id, "name": member.name}
                        for member in group.members],
            "sessions": [session_export(s) for s in sessions]}


def _sessions_where(condition: Any) -> list[ScoreSession]:
    return list(db.session.scalars(
        select(ScoreSession).where(condition)
        .options(selectinload(ScoreSession.players), selectinload(ScoreSession.changes),
                 selectinload(ScoreSession.games).selectinload(Game.entries)
                 .selectinload(GameEntry.player),
                 selectinload(ScoreSession.games).selectinload(Game.winner))
        .order_by(ScoreSession.created_at, ScoreSession.id)))


def export_data(group: Group | None = None) -> dict[str, Any]:
    """One group, or everything: every group and the sessions outside any group."""
    groups = [group] if group is not None else list(
        db.session.scalars(select(Group).order_by(Group.created_at, Group.id)))
    loose = [] if group is not None else _sessions_where(ScoreSession.group_id.is_(None))
    return {"format": FORMAT, "version": VERSION,
            "groups": [group_export(g) for g in groups],
            "sessions": [session_export(s) for s in loose]}


# Import: check everything, then write ------------------------------------------------------

@dataclass(frozen=True)
class CheckedSession:
    data: Mapping[str, Any]
    created_at: datetime
    players: tuple[str, ...]
    rules: Preset
    results: tuple[GameResult, ...]


@dataclass(frozen=True)
class CheckedGroup:
    data: Mapping[str, Any]
    name: str
    sessions: tuple[CheckedSession, ...]


def _object(value: object, what: str, where: str) -> Mapping[str, Any]:
    if not isinstance(value, dict):
        raise ImportRefused(f"{what} must be a JSON object", where)
    return value


def _list(value: object, what: str, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise ImportRefused(f"{what} must be a list", where)
    return value


def _moment(value: object, what: str, where: str, *, optional: bool = False) -> datetime | None:
    if value is None and optional:
        return None
    if isinstance(value, str):
        try:
            return datetime.fromisoformat(value)
        except ValueError:
            pass
    raise ImportRefused(f"{what} must be a date and time such as 2026-01-08T19:30:00", where)


def _public_id(value: object) -> bool:
    return isinstance(value, str) and PUBLIC_ID_PATTERN.fullmatch(value) is not None


def _rack(name: str, value: object, where: str) -> Rack | None:
    """A rack as the export wrote it, read as the ledger reads its own (``stored_rack``)."""
    try:
        return stored_rack(name, value)
    except ScoringError as error:
        raise ImportRefused(str(error), where) from error


def _check_game(players: tuple[str, ...], rules: Preset, data: Mapping[str, Any],
                where: str) -> GameResult:
    """Score the game again with the core and hold the file's scores to it."""
    endings = {ending.value: ending for ending in Ending}
    ending = endings.get(data.get("ending"))  # type: ignore[arg-type]
    if ending is None:
        raise ImportRefused(f"`ending` must be one of {', '.join(endings)}", where)
    winner, scores = data.get("winner"), data.get("scores")
    if not isinstance(winner, str) or not isinstance(scores, dict) or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in scores.values()):
        raise ImportRefused("a game needs its `winner` and every player's whole-number "
                            "`scores`", where)
    racks = data.get("racks") or {}
    if not isinstance(racks, dict):
        raise ImportRefused("`racks` must map names to racks", where)
    if ending is Ending.PAPER:
        most = box_value(rules)
        for name, points in scores.items():
            if abs(points) > most:
                raise ImportRefused(f"{name}'s score {signed(points)} is more than one game can "
                                    f"produce under these rules: every tile in the box is "
                                    f"worth {most}", where)
        return check_paper_scores(players, scores, winner=winner)
    parsed = {name: _rack(name, value, where) for name, value in racks.items()}
    if ending is Ending.WENT_OUT:
        result = score_went_out(players, winner, parsed, preset=rules)
    else:
        result = score_exhausted(players, parsed, preset=rules, winner=winner)
    if result.winner != winner or result.scores_by_name() != scores:
        given = ", ".join(f"{n} {scores.get(n)}" for n in players)
        scored = ", ".join(f"{n} {s}" for n, s in result.scores_by_name().items())
        raise ImportRefused(f"the scores in the file ({given}) are not what the racks give "
                            f"({scored}, {result.winner} winning)", where)
    return result


def _check_session(data: object, where: str) -> CheckedSession:
    session = _object(data, "a session", where)
    created_at = _moment(session.get("created_at"), "`created_at`", where)
    assert created_at is not None
    _moment(session.get("updated_at"), "`updated_at`", where, optional=True)
    _moment(session.get("finished_at"), "`finished_at`", where, optional=True)
    try:
        players = check_players(_list(session.get("players"), "`players`", where))
        rounds = session.get("rounds")
        if isinstance(rounds, bool) or not isinstance(rounds, int):
            raise ImportRefused("`rounds` must be a whole number", where)
        check_rounds(rounds)
        rules = apply_rule_overrides(get_preset(session.get("preset")),
                                     _object(session.get("rules") or {}, "`rules`", where))
    except (ScoringError, UnknownPresetError) as error:
        raise ImportRefused(str(error), where) from error
    _key_hash(session, where)
    public_id = session.get("id")
    if public_id is not None and not (isinstance(public_id, str)
                                      and PUBLIC_ID_PATTERN.fullmatch(public_id)):
        raise ImportRefused("a session's `id` must be 8 to 32 letters, digits, '-' or '_'",
                            where)
    games = _list(session.get("games"), "`games`", where)
    if len(games) > rounds * len(players):
        raise ImportRefused(f"{len(games)} games, but {rounds} round(s) of {len(players)} "
                            "players hold only " + str(rounds * len(players)), where)
    results = []
    for number, game in enumerate(games, start=1):
        at = f"{where}, game {number}"
        game = _object(game, "a game", at)
        if game.get("number") != number:
            raise ImportRefused(f"games must be numbered 1, 2, 3… in order; found "
                                f"{game.get('number')!r}", at)
        _moment(game.get("recorded_at"), "`recorded_at`", at)
        _moment(game.get("edited_at"), "`edited_at`", at, optional=True)
        try:
            results.append(_check_game(players, rules, game, at))
        except ScoringError as error:
            raise ImportRefused(str(error), at) from error
    history = _list(session.get("history", []), "`history`", where)
    if len(history) > MAX_HISTORY:
        raise ImportRefused(f"a session's history has at most {MAX_HISTORY} lines, not "
                            f"{len(history)}", where)
    planned = rounds * len(players)
    for line, change in enumerate(history, start=1):
        at = f"{where}, history line {line}"
        change = _object(change, "a history line", at)
        _moment(change.get("at"), "a history line's `at`", at)
        game_number = change.get("game")
        if (isinstance(game_number, bool) or not isinstance(game_number, int)
                or change.get("action") not in HISTORY_ACTIONS):
            raise ImportRefused("a history line needs its `game` number and `action` (one of "
                                f"{', '.join(sorted(HISTORY_ACTIONS))})", at)
        if not 1 <= game_number <= planned:
            raise ImportRefused(f"a history line's `game` must be 1 to {planned} (the "
                                f"session's games), not {game_number}", at)
        summary = change.get("summary", "")
        if not isinstance(summary, str) or len(summary) > MAX_SUMMARY:
            raise ImportRefused(f"a history line's `summary` must be text of at most "
                                f"{MAX_SUMMARY} characters", at)
        for side in ("before", "after"):
            game = change.get(side)
            if game is None:
                continue
            if not isinstance(game, dict):
                raise ImportRefused(f"a history line's `{side}` must be a game (a JSON object) "
                                    "or null", at)
            try:  # a game the history keeps may come back by a redo: it must be a game
                _check_game(players, rules, game, f"{at}, `{side}`")
            except ScoringError as error:
                raise ImportRefused(str(error), f"{at}, `{side}`") from error
    return CheckedSession(session, created_at, players, rules, tuple(results))


def _key_hash(data: Mapping[str, Any], where: str) -> str:
    value = data.get("edit_key_hash")
    if not isinstance(value, str) or KEY_HASH_PATTERN.fullmatch(value) is None:
        raise ImportRefused("`edit_key_hash` must be the edit key's SHA-256 (64 hex digits)",
                            where)
    return value


def _fingerprint(created_at: datetime,
                 players: tuple[str, ...]) -> tuple[datetime, tuple[str, ...]]:
    """What makes a session the same one on any server: when it started and who sat where."""
    return created_at, players


def _stored_fingerprints() -> set[tuple[datetime, tuple[str, ...]]]:
    seated: dict[int, tuple[datetime, list[str]]] = {}
    for session_id, created_at, name in db.session.execute(
            select(ScoreSession.id, ScoreSession.created_at, Player.name)
            .join(Player, Player.session_id == ScoreSession.id).order_by(Player.seat)):
        seated.setdefault(session_id, (created_at, []))[1].append(name)
    return {_fingerprint(created_at, tuple(names)) for created_at, names in seated.values()}


def check_import(payload: object, *, keep_ids: bool = True
                 ) -> tuple[list[CheckedGroup], list[CheckedSession]]:
    """Everything in the file, checked; the first problem is refused with its place. Ids
    already here are refused only when the file's ids are kept (``keep_ids``)."""
    data = _object(payload, "the file", "")
    broken_text = broken_text_problem(data)
    if broken_text is not None:
        raise ImportRefused(broken_text[0], "the file")
    if (data.get("format") != FORMAT or isinstance(data.get("version"), bool)
            or data.get("version") != VERSION):
        raise ImportRefused(f"this is not a Companion export (format {FORMAT!r}, version "
                            f"{VERSION})", "the file", code="not_an_export")
    seen: dict[tuple[datetime, tuple[str, ...]], str] = {}
    stored = _stored_fingerprints()
    ids_seen: dict[str, str] = {}
    ids_stored = set(db.session.scalars(select(ScoreSession.public_id)))

    def check_new(checked: CheckedSession, where: str) -> CheckedSession:
        fingerprint = _fingerprint(checked.created_at, checked.players)
        if fingerprint in stored:
            raise ImportRefused("this session is already here (same start and players)", where,
                                code="session_here")
        if fingerprint in seen:
            raise ImportRefused(f"this session is in the file twice (also {seen[fingerprint]})",
                                where)
        public_id = checked.data.get("id") if keep_ids else None
        if public_id in ids_stored:
            raise ImportRefused(f"a session with the id {public_id} is already here", where,
                                code="session_here")
        if isinstance(public_id, str):
            if public_id in ids_seen:
                raise ImportRefused(f"the session id {public_id} is in the file twice (also "
                                    f"{ids_seen[public_id]})", where)
            ids_seen[public_id] = where
        seen[fingerprint] = where
        return checked

    groups = []
    known_groups = set(db.session.scalars(select(Group.public_id)))
    groups_here = {(name, started) for name, started in
                   db.session.execute(select(Group.name, Group.created_at))}
    known_members = set(db.session.scalars(select(GroupMember.public_id)))
    for g_index, raw_group in enumerate(_list(data.get("groups", []), "`groups`", "the file"),
                                        start=1):
        where = f"group {g_index}"
        group = _object(raw_group, "a group", where)
        try:
            name = check_group_name(group.get("name"))
        except ValueError as error:
            raise ImportRefused(str(error), where) from error
        where = f"group {g_index} ({name})"
        started = _moment(group.get("created_at"), "`created_at`", where)
        if (keep_ids and group.get("id") in known_groups) or (name, started) in groups_here:
            raise ImportRefused("this group is already here", where, code="group_here")
        groups_here.add((name, started))
        if keep_ids and group.get("id") is not None:
            if not _public_id(group.get("id")):
                raise ImportRefused("a group's `id` must be 8 to 32 letters, digits, '-' or "
                                    "'_'", where)
            known_groups.add(group["id"])
        member_names: dict[str, str] = {}
        for position, member in enumerate(_list(group.get("members", []), "`members`", where),
                                          start=1):
            member = _object(member, "a player", where)
            member_id = member.get("id")
            if not isinstance(member.get("name"), str) or not (member_id is None
                                                               or _public_id(member_id)):
                raise ImportRefused("a player needs a `name` (and an `id` of 8 to 32 letters, "
                                    "digits, '-' or '_')", where)
            try:
                name = check_name(member["name"], position)
            except ScoringError as error:
                raise ImportRefused(str(error), f"{where}, members") from error
            if name != member["name"] or not name:
                raise ImportRefused(f"player {position}: the name {member['name']!r} must be "
                                    "written as it is kept (trimmed, single spaces)",
                                    f"{where}, members")
            if name_key(name) in member_names:
                raise ImportRefused(f"player {name} is in the group twice (also as "
                                    f"{member_names[name_key(name)]})", f"{where}, members")
            member_names[name_key(name)] = name
            if keep_ids and member_id in known_members:
                raise ImportRefused(f"player {member['name']} is already here (its id is "
                                    "taken)", where)
            if keep_ids and member_id is not None:
                known_members.add(member_id)
        _key_hash(group, where)
        sessions = tuple(
            check_new(_check_session(s, f"{where}, session {i}"), f"{where}, session {i}")
            for i, s in enumerate(_list(group.get("sessions", []), "`sessions`", where), 1))
        for index, checked in enumerate(sessions, start=1):
            for seat in checked.players:
                spelled = member_names.get(name_key(seat), seat)
                if spelled != seat:
                    raise ImportRefused(f"{seat} is spelled {spelled} in the group's members: "
                                        "a seat and its player are written alike",
                                        f"{where}, session {index}")
        groups.append(CheckedGroup(group, name, sessions))
    loose = [check_new(_check_session(s, f"session {i}"), f"session {i}")
             for i, s in enumerate(_list(data.get("sessions", []), "`sessions`", "the file"), 1)]
    return groups, loose


@dataclass(frozen=True)
class Imported:
    """What an import stored: each group with its edit key and each session with its edit
    key, when the import made new ones (``None`` for a restore that kept the file's)."""

    groups: tuple[tuple[Group, str | None], ...]
    sessions: tuple[tuple[ScoreSession, str | None], ...]

    @property
    def counts(self) -> tuple[int, int]:
        return len(self.groups), len(self.sessions)


def import_data(payload: object, *, keep_ids: bool = True) -> tuple[int, int]:
    """Check the whole file, then store it in one transaction: (groups, sessions) imported.
    ``keep_ids`` keeps the file's public ids and edit-key hashes (the owner's restore)."""
    return import_file(payload, keep_ids=keep_ids).counts


def import_file(payload: object, *, keep_ids: bool) -> Imported:
    """``import_data``, answering what was stored and, without ``keep_ids``, the new keys."""
    groups, loose = check_import(payload, keep_ids=keep_ids)
    stored_groups: list[tuple[Group, str | None]] = []
    stored_sessions: list[tuple[ScoreSession, str | None]] = []
    for checked_group in groups:
        data = checked_group.data
        public_id = str(keep_ids and data.get("id") or new_public_id())
        group_key = None if keep_ids else group_edit_key(public_id)
        group = Group(public_id=public_id, name=checked_group.name,
                      created_at=_moment(data.get("created_at"), "", ""),
                      edit_key_hash=data["edit_key_hash"] if group_key is None
                      else hash_key(group_key))
        db.session.add(group)
        stored_groups.append((group, group_key))
        members: dict[str, GroupMember] = {}
        for member in data.get("members") or []:
            if isinstance(member, dict) and isinstance(member.get("name"), str):
                members[name_key(member["name"])] = GroupMember(
                    public_id=str(keep_ids and member.get("id") or new_public_id()),
                    name=member["name"])
        for checked in checked_group.sessions:
            for name in checked.players:
                members.setdefault(name_key(name),
                                   GroupMember(public_id=new_public_id(), name=name))
        group.members = list(members.values())
        for checked in checked_group.sessions:
            stored_sessions.append(_store_session(checked, group, members, keep_ids=keep_ids))
    for checked in loose:
        stored_sessions.append(_store_session(checked, None, {}, keep_ids=keep_ids))
    db.session.commit()
    return Imported(tuple(stored_groups), tuple(stored_sessions))


def imported_version() -> int:
    """An imported session's version starts at a random number, not 1: the sheet views kept
    in memory are keyed by public id and version, and one computed for a session deleted
    here and now imported back under its public id must never be served for it."""
    return 1_000_000 + secrets.randbelow(1_000_000_000)


def _store_session(checked: CheckedSession, group: Group | None,
                   members: Mapping[str, GroupMember], *,
                   keep_ids: bool) -> tuple[ScoreSession, str | None]:
    data = checked.data
    score_session = ScoreSession(
        public_id=keep_ids and data.get("id") or new_session_id(),
        version=imported_version(),
        created_at=checked.created_at,
        updated_at=_moment(data.get("updated_at"), "", "", optional=True) or checked.created_at,
        preset_key=get_preset(data.get("preset")).key, rule_overrides=dict(data.get("rules") or {}),
        rounds=data["rounds"], edit_key_hash=data["edit_key_hash"],
        finished_at=_moment(data.get("finished_at"), "", "", optional=True))
    key = None
    if not keep_ids:  # the key a new session gets (derived from the server's secret)
        key = edit_key_of(score_session)
        score_session.edit_key_hash = hash_key(key)
    if group is not None:
        group.sessions.append(score_session)
    players = {name: Player(seat=seat, name=name, member=members.get(name_key(name)))
               for seat, name in enumerate(checked.players, start=1)}
    score_session.players = list(players.values())
    for result, game_data in zip(checked.results, data["games"], strict=True):
        game = Game(number=game_data["number"], ending=result.ending.value,
                    winner=players[result.winner],
                    recorded_at=_moment(game_data["recorded_at"], "", ""),
                    edited_at=_moment(game_data.get("edited_at"), "", "", optional=True))
        for name, points, rack in zip(result.players, result.scores, result.racks, strict=True):
            entry = GameEntry(player=players[name], score=points)
            if rack is not None and rack.tiles is not None:
                entry.rack = format_tiles(rack.tiles)
            elif rack is not None:
                entry.rack_points, entry.rack_jokers = rack.points, rack.jokers
            game.entries.append(entry)
        score_session.games.append(game)
    for change in data.get("history") or []:
        score_session.changes.append(GameChange(
            game_number=change.get("game"), action=change.get("action"),
            at=_moment(change.get("at"), "", ""), summary=change.get("summary") or "",
            before=change.get("before"), after=change.get("after")))
    db.session.add(score_session)
    return score_session, key

