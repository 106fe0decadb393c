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

from sqlalchemy import select
from sqlalchemy.orm import aliased, selectinload

from companion.core.league import LeagueRow, PlayedSession, league
from companion.core.scoring import Ending, GameResult
from companion.core.stats import Period, PlayerStats, player_stats, session_totals
from companion.web.models import (
    Game,
    GameEntry,
    Group,
    GroupMember,
    Player,
    ScoreSession,
    db,
)
from companion.web.scores.service import hash_key

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


def create_group(name: object) -> tuple[Group, str]:
    """A new group and its edit key (only the key's hash is stored)."""
    key = secrets.token_urlsafe(24)
    group = Group(public_id=new_public_id(), name=check_group_name(name),
                  edit_key_hash=hash_key(key))
    db.session.add(group)
    db.session.commit()
    return group, key


def find_group(public_id: str) -> Group | None:
    return db.session.scalar(select(Group).where(Group.public_id == public_id))


def find_member(public_id: str) -> GroupMember | None:
    return db.session.scalar(select(GroupMember).where(GroupMember.public_id == public_id))


def group_key_opens(group: Group, key: str | None) -> bool:
    return bool(key) and hmac.compare_digest(hash_key(key or ""), group.edit_key_hash)


def member_named(group: Group, name: str) -> GroupMember | None:
    wanted = name.casefold()
    return next((m for m in group.members if m.name.casefold() == wanted), None)


def join_group(score_session: ScoreSession, group: Group) -> None:
    """Put a new session in a group: each seat links to the member of that name (ignoring
    case, spelled as the group spells it); a new name joins the group."""
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


def session_link_id(score_session: ScoreSession) -> int:
    """The id a session's pages and API are reached by (the scores feature's choice)."""
    return score_session.id


# Statistics --------------------------------------------------------------------------------

def played_sessions(group: Group, period: Period = Period.ALL,
                    moment: datetime | None = None) -> list[PlayedSession]:
    """Every session of the group in the period with its games, from one query of the
    stored scores (rows come ordered by session, game and seat)."""
    winner = aliased(Player)
    query = (select(ScoreSession.id, ScoreSession.created_at, ScoreSession.rounds,
                    Game.number, Game.ending, winner.name, Player.name, GameEntry.score)
             .select_from(GameEntry)
             .join(Game, GameEntry.game_id == Game.id)
             .join(Player, GameEntry.player_id == Player.id)
             .join(winner, Game.winner_id == winner.id)
             .join(ScoreSession, Game.session_id == ScoreSession.id)
             .where(ScoreSession.group_id == group.id)
             .order_by(ScoreSession.created_at, ScoreSession.id, Game.number, Player.seat))
    start = period.start(moment or now())
    if start is not None:
        query = query.where(ScoreSession.created_at >= start)
    sessions: list[PlayedSession] = []
    current: tuple[int, datetime, int] | None = None
    games: list[GameResult] = []
    game_rows: list[tuple[str, str, str, int]] = []

    def close_game() -> None:
        if game_rows:
            ending, winner_name = game_rows[0][0], game_rows[0][1]
            games.append(GameResult(Ending(ending), winner_name,
                                    tuple(row[2] for row in game_rows),
                                    tuple(row[3] for row in game_rows),
                                    tuple(None for _ in game_rows)))
            game_rows.clear()

    def close_session() -> None:
        close_game()
        if current is not None and games:
            sessions.append(PlayedSession(str(current[0]), current[1], games[0].players,
                                          current[2], tuple(games)))
            games.clear()

    last_game: tuple[int, int] | None = None
    for (session_id, created_at, rounds, number, ending, winner_name, name,
         score) in db.session.execute(query):
        if current is None or current[0] != session_id:
            close_session()
            current = (session_id, created_at, rounds)
        if last_game != (session_id, number):
            close_game()
            last_game = (session_id, number)
        game_rows.append((ending, winner_name, name, score))
    close_session()
    return sessions


def group_overview(group: Group, period: Period = Period.ALL,
                   moment: datetime | None = None) -> tuple[tuple[LeagueRow, ...],
                                                            list[dict[str, object]]]:
    """The league of the period and every session of the group, from one query."""
    played = played_sessions(group)
    start = period.start(moment or now())
    in_period = [s for s in played if start is None or s.played_at >= start]
    return (league([member.name for member in group.members], in_period),
            session_summaries(group, played))


def member_stats(member: GroupMember, period: Period = Period.ALL) -> PlayerStats:
    return player_stats(member.name, played_sessions(member.group, period))


def member_session_totals(member: GroupMember,
                          period: Period = Period.ALL) -> tuple[tuple[datetime, int], ...]:
    return session_totals(member.name, played_sessions(member.group, period))


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
                      played: Iterable[PlayedSession]) -> list[dict[str, object]]:
    """The group's sessions, newest first, with their winner(s) when finished."""
    by_key = {session.key: session for session in played}
    stored = db.session.scalars(
        select(ScoreSession).where(ScoreSession.group_id == group.id)
        .options(selectinload(ScoreSession.players))
        .order_by(ScoreSession.created_at.desc(), ScoreSession.id.desc()))
    summaries = []
    for score_session in stored:
        played_session = by_key.get(str(score_session.id))
        summaries.append({
            "id": session_link_id(score_session),
            "date": score_session.created_at.date().isoformat(),
            "players": list(score_session.player_names),
            "games_played": 0 if played_session is None else len(played_session.results),
            "games_planned": score_session.rounds * len(score_session.players),
            "winners": [] if played_session is None else list(played_session.winners()),
        })
    return summaries
