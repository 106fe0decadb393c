"""What the group pages, the API and the CLI share: groups, their members, their statistics.

Statistics never re-score a game: one query reads the stored scores of a group's games
(``played_sessions``) and the core (``companion.core.league``, ``companion.core.stats``)
counts from them.
"""

from __future__ import annotations

import hmac
import secrets
import unicodedata
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Executable, Result, case, func, select
from sqlalchemy.orm import aliased

from companion.core.league import LeagueRow, SessionTally, league
from companion.core.scoring import name_key
from companion.core.stats import Period, PlayerGame, PlayerStats, player_stats, session_totals
from companion.web.models import (
    Game,
    GameEntry,
    Group,
    GroupAccess,
    GroupMember,
    Player,
    ScoreSession,
    db,
)
from companion.web.scores.service import hash_key, server_key
from companion.web.transactions import begin_write

MAX_GROUP_NAME = 60


class GroupError(ValueError):
    """Input about a group the app refuses, naming the field it is about."""

    def __init__(self, message: str, *, field: str | None = None) -> None:
        self.field = field
        super().__init__(message)

    @property
    def where(self) -> dict[str, str]:
        return {} if self.field is None else {"field": self.field}


def now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


def new_public_id() -> str:
    """An unguessable id for links (128 random bits)."""
    return secrets.token_urlsafe(16)


def check_group_name(raw: object) -> str:
    if not isinstance(raw, str):
        raise GroupError("`name` must be the group's name, e.g. \"Thursday club\"",
                         field="name")
    name = unicodedata.normalize("NFC", " ".join(raw.split()))
    if not name:
        raise GroupError("give the group a name, e.g. \"Thursday club\"", field="name")
    if len(name) > MAX_GROUP_NAME:
        raise GroupError(f"a group's name has at most {MAX_GROUP_NAME} characters",
                         field="name")
    if any(unicodedata.category(ch).startswith("C") for ch in name):
        raise GroupError("the group's name holds a control character", field="name")
    return name


def create_group(name: object, *, device_hash: str | None = None) -> tuple[Group, str]:
    """A new group and its edit key (only the key's hash is stored); ``device_hash`` is the
    browser that may change it."""
    checked_name = check_group_name(name)
    begin_write()
    public_id = new_public_id()
    key = group_edit_key(public_id)
    group = Group(public_id=public_id, name=checked_name, edit_key_hash=hash_key(key))
    db.session.add(group)
    if device_hash:
        db.session.flush()
        db.session.add(GroupAccess(group_id=group.id, device_hash=device_hash))
    db.session.commit()
    return group, key


def group_edit_key(public_id: str) -> str:
    """A group's edit key, derived from the server's secret as a session's is: the share link
    can be shown again to a browser with access while the database keeps only the hash."""
    return server_key(b"score-group-edit-key:" + public_id.encode())


def shareable_group_key(group: Group) -> str | None:
    """The key for the group's share link, when the server can make it again (groups started
    before keys were derived keep the random key they were given, known only to their links)."""
    key = group_edit_key(group.public_id)
    return key if group_key_opens(group, key) else None


def group_access(group: Group, device_hash: str | None) -> bool:
    if not device_hash:
        return False
    return db.session.scalar(select(GroupAccess.id).where(
        GroupAccess.group_id == group.id, GroupAccess.device_hash == device_hash)) is not None


def grant_group_access(group: Group, device_hash: str) -> None:
    """Let a browser change a group (it started it, imported it or used its share link)."""
    begin_write()
    if not group_access(group, device_hash):
        db.session.add(GroupAccess(group_id=group.id, device_hash=device_hash))
    db.session.commit()


def find_group(public_id: str) -> Group | None:
    return db.session.scalar(select(Group).where(Group.public_id == public_id))


def find_member(public_id: str) -> GroupMember | None:
    return db.session.scalar(select(GroupMember).where(GroupMember.public_id == public_id))


def group_key_opens(group: Group, key: str | None) -> bool:
    return bool(key) and hmac.compare_digest(hash_key(key or ""), group.edit_key_hash)


def member_named(group: Group, name: str) -> GroupMember | None:
    wanted = name_key(name)
    return next((m for m in group.members if name_key(m.name) == wanted), None)


def join_group(score_session: ScoreSession, group: Group) -> None:
    """Put a new session in a group: each seat links to the member of that name (ignoring
    case, spelled as the group spells it); a new name joins the group.

    A write from its first read: the members are read under the write lock, so two sessions
    joining at once neither fail with "database is locked" (SQLite refuses to turn a read
    into a write while another writer waits) nor both add the same new name.
    """
    begin_write()
    score_session.group_id = group.id
    for player in score_session.players:
        member = member_named(group, player.name)
        if member is None:
            member = GroupMember(public_id=new_public_id(), name=player.name)
            group.members.append(member)
            db.session.flush()
        player.name = member.name
        player.member_id = member.id
    db.session.commit()


def session_link_id(score_session: ScoreSession) -> str:
    """The id a session's pages and API are reached by (its public id)."""
    return score_session.public_id


# Statistics ---------------------------------------------------------------------------------

def rows_of(query: Executable) -> Result[Any]:
    """Plain rows through the session's connection: no ORM bookkeeping for thousands of rows."""
    return db.session.connection().execute(query)


def session_tallies(group: Group, period: Period = Period.ALL,
                    moment: datetime | None = None, *,
                    member: GroupMember | None = None) -> list[SessionTally]:
    """Each session of the group in the period that has games (only those ``member`` sat
    in, when given), counted up by one SQL aggregate over the stored scores (per seat:
    games, games won, total)."""
    won = func.sum(case((Game.winner_id == Player.id, 1), else_=0))
    query = (select(ScoreSession.public_id, ScoreSession.created_at, ScoreSession.rounds,
                    Player.name, func.count(GameEntry.id), won, func.sum(GameEntry.score),
                    ScoreSession.finished_at)
             .select_from(GameEntry)
             .join(Player, GameEntry.player_id == Player.id)
             .join(Game, GameEntry.game_id == Game.id)
             .join(ScoreSession, Player.session_id == ScoreSession.id)
             .where(ScoreSession.group_id == group.id)
             .group_by(ScoreSession.id, ScoreSession.public_id, ScoreSession.created_at,
                       ScoreSession.rounds, ScoreSession.finished_at, Player.id, Player.seat,
                       Player.name)
             .order_by(ScoreSession.created_at, ScoreSession.id, Player.seat))
    if member is not None:
        query = query.where(ScoreSession.id.in_(
            select(Player.session_id).where(Player.member_id == member.id)))
    start = period.start(moment or now())
    if start is not None:
        query = query.where(ScoreSession.created_at >= start)
    tallies: list[SessionTally] = []
    seats: list[tuple[str, int, int, int]] = []
    current: tuple[str, datetime, int, bool] | None = None

    def close() -> None:
        if current is not None:
            tallies.append(SessionTally(
                current[0], current[1], tuple(s[0] for s in seats), current[2],
                max(s[1] for s in seats), tuple(s[2] for s in seats),
                tuple(s[3] for s in seats), finished_early=current[3]))
            seats.clear()

    for (session_id, created_at, rounds, name, games, games_won, total,
         finished_at) in rows_of(query):
        if current is None or current[0] != session_id:
            close()
            current = (session_id, created_at, rounds, finished_at is not None)
        seats.append((name, games, games_won, total))
    close()
    return tallies


def member_games(member: GroupMember, period: Period = Period.ALL,
                 moment: datetime | None = None) -> tuple[PlayerGame, ...]:
    """The member's games in the period, oldest first: one query of the stored scores."""
    winner = aliased(Player)
    query = (select(ScoreSession.public_id, ScoreSession.created_at, GameEntry.score,
                    winner.name)
             .select_from(GameEntry)
             .join(Player, GameEntry.player_id == Player.id)
             .join(Game, GameEntry.game_id == Game.id)
             .join(winner, Game.winner_id == winner.id)
             .join(ScoreSession, Player.session_id == ScoreSession.id)
             .where(Player.member_id == member.id)
             .order_by(ScoreSession.created_at, ScoreSession.id, Game.number))
    start = period.start(moment or now())
    if start is not None:
        query = query.where(ScoreSession.created_at >= start)
    return tuple(PlayerGame(session_id, created_at, score, winner_name)
                 for session_id, created_at, score, winner_name in rows_of(query))


def group_overview(group: Group, period: Period = Period.ALL,
                   moment: datetime | None = None) -> tuple[tuple[LeagueRow, ...],
                                                            list[dict[str, object]]]:
    """The league of the period and every session of the group, from two queries."""
    tallies = session_tallies(group)
    start = period.start(moment or now())
    in_period = [t for t in tallies if start is None or t.played_at >= start]
    return (league([member.name for member in group.members], in_period),
            session_summaries(group, tallies))


def group_league(group: Group, period: Period = Period.ALL) -> tuple[LeagueRow, ...]:
    return league([member.name for member in group.members], session_tallies(group, period))


def member_stats(member: GroupMember, period: Period = Period.ALL) -> PlayerStats:
    return player_stats(member.name, member_games(member, period),
                        session_tallies(member.group, period, member=member))


def member_session_totals(member: GroupMember,
                          period: Period = Period.ALL) -> tuple[tuple[datetime, int], ...]:
    return session_totals(member_games(member, period))


def stats_json(stats: PlayerStats) -> dict[str, object]:
    return {"name": stats.name, "sessions_played": stats.sessions_played,
            "sessions_won": stats.sessions_won, "games_played": stats.games_played,
            "games_won": stats.games_won, "win_rate": stats.win_rate,
            "total_score": stats.total_score, "average_score": stats.average_score,
            "best_game": stats.best_game, "worst_game": stats.worst_game,
            "longest_streak": stats.longest_streak, "nemesis": stats.nemesis}


def league_json(rows: Iterable[LeagueRow]) -> list[dict[str, object]]:
    return [{"name": row.name, "place": row.place, "sessions_played": row.sessions_played,
             "sessions_won": row.sessions_won, "games_played": row.games_played,
             "games_won": row.games_won, "total_score": row.total_score} for row in rows]


def session_summaries(group: Group,
                      tallies: Iterable[SessionTally]) -> list[dict[str, object]]:
    """The group's sessions, newest first, with their winner(s) when finished. Sessions with
    games come from their tallies; only those without a game yet are read again."""
    listed: dict[str, tuple[datetime, int, list[str], SessionTally | None]] = {
        t.key: (t.played_at, t.rounds, list(t.players), t) for t in tallies}
    empty = rows_of(
        select(ScoreSession.public_id, ScoreSession.created_at, ScoreSession.rounds,
               Player.name)
        .join(Player, Player.session_id == ScoreSession.id)
        .where(ScoreSession.group_id == group.id,
               ~select(Game.id).where(Game.session_id == ScoreSession.id).exists())
        .order_by(Player.seat))
    for session_id, created_at, rounds, name in empty:
        listed.setdefault(session_id, (created_at, rounds, [], None))[2].append(name)
    newest_first = sorted(listed.items(), key=lambda item: (item[1][0], item[0]), reverse=True)
    return [{"id": session_id, "date": created_at.date().isoformat(), "players": players,
             "games_played": 0 if tally is None else tally.games_played,
             "games_planned": rounds * len(players),
             "winners": [] if tally is None else list(tally.winners()),
             "finished_early": tally is not None and tally.finished_early}
            for session_id, (created_at, rounds, players, tally) in newest_first]
