"""Database models (SQLAlchemy 2.0 typed). The score-keeping feature owns the tables.

Racks are stored in tile notation (``rack``) or, when only a total was given, as points and
jokers, so any game can be re-scored and audited. Scores are stored as recorded; the score
sheet (subtotals, totals, standings) is always derived from them by the core.

A session is known to the outside only by its ``public_id``, a random token: the integer
primary key stays internal, so ids cannot be guessed, counted or handed to the next session
after a delete. Which browser may change which session is a row of ``score_access`` keyed by
the hash of that browser's device token (one small cookie, whatever the number of sessions).
"""

from __future__ import annotations

import secrets
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, Index, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from companion.core.presets import Preset, get_preset
from companion.core.scoring import Ending, GameResult, Rack, apply_rule_overrides
from companion.core.tiles import parse_rack
from companion.web import transactions  # noqa: F401  (SQLite transactions begin as SQLAlchemy says)
from companion.web.extensions import db

__all__ = ["Game", "GameChange", "GameEntry", "Group", "GroupAccess", "GroupMember", "Player",
           "ScoreSession", "SessionAccess", "db", "new_public_id"]

PUBLIC_ID_BYTES = 12
"""96 random bits: 16 URL-safe characters that nobody guesses or counts through."""


def utc_now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


def new_public_id() -> str:
    return secrets.token_urlsafe(PUBLIC_ID_BYTES)


class ScoreSession(db.Model):  # type: ignore[name-defined,misc]
    """A session: players in seating order, the number of rounds, the rules played."""

    __tablename__ = "score_session"

    id: Mapped[int] = mapped_column(primary_key=True)
    public_id: Mapped[str] = mapped_column(String(32), unique=True, default=new_public_id)
    created_at: Mapped[datetime] = mapped_column(default=utc_now)
    updated_at: Mapped[datetime] = mapped_column(default=utc_now, onupdate=utc_now)
    preset_key: Mapped[str] = mapped_column(String(20))
    rule_overrides: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    rounds: Mapped[int]
    edit_key_hash: Mapped[str] = mapped_column(String(64))
    version: Mapped[int] = mapped_column(default=1, server_default="1")
    """Counts the session's changes: every write adds one, so a sheet computed at a version
    can be served again until the next change."""
    group_id: Mapped[int | None] = mapped_column(
        ForeignKey("score_group.id", ondelete="SET NULL"), default=None, index=True)
    finished_at: Mapped[datetime | None] = mapped_column(default=None)
    """When the table ended the session before its last planned game ("finish now"); None
    while it runs, or when it ended by playing every game."""

    players: Mapped[list[Player]] = relationship(
        back_populates="session", order_by="Player.seat", cascade="all, delete-orphan",
        passive_deletes=True)
    games: Mapped[list[Game]] = relationship(
        back_populates="session", order_by="Game.number", cascade="all, delete-orphan",
        passive_deletes=True)
    changes: Mapped[list[GameChange]] = relationship(
        back_populates="session", order_by="GameChange.id", cascade="all, delete-orphan",
        passive_deletes=True)

    @property
    def player_names(self) -> tuple[str, ...]:
        return tuple(player.name for player in self.players)

    @property
    def base_preset(self) -> Preset:
        return get_preset(self.preset_key)

    @property
    def rules(self) -> Preset:
        return apply_rule_overrides(self.base_preset, self.rule_overrides or {})

    def player_named(self, name: str) -> Player:
        return next(player for player in self.players if player.name == name)

    def results(self) -> list[GameResult]:
        return [game.to_result(self.players) for game in self.games]


class Player(db.Model):  # type: ignore[name-defined,misc]
    __tablename__ = "score_player"
    __table_args__ = (UniqueConstraint("session_id", "seat", name="uq_score_player_seat"),
                      UniqueConstraint("session_id", "name", name="uq_score_player_name"))

    id: Mapped[int] = mapped_column(primary_key=True)
    session_id: Mapped[int] = mapped_column(ForeignKey("score_session.id", ondelete="CASCADE"))
    seat: Mapped[int]
    name: Mapped[str] = mapped_column(String(60))
    member_id: Mapped[int | None] = mapped_column(
        ForeignKey("score_group_member.id", ondelete="SET NULL"), default=None, index=True)

    session: Mapped[ScoreSession] = relationship(back_populates="players")
    member: Mapped[GroupMember | None] = relationship()


class Game(db.Model):  # type: ignore[name-defined,misc]
    """One game; ``number`` runs 1.. across the session (the round follows from it)."""

    __tablename__ = "score_game"
    __table_args__ = (UniqueConstraint("session_id", "number", name="uq_score_game_number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    session_id: Mapped[int] = mapped_column(ForeignKey("score_session.id", ondelete="CASCADE"))
    number: Mapped[int]
    ending: Mapped[str] = mapped_column(String(12))
    winner_id: Mapped[int] = mapped_column(ForeignKey("score_player.id", ondelete="CASCADE"))
    recorded_at: Mapped[datetime] = mapped_column(default=utc_now)
    edited_at: Mapped[datetime | None] = mapped_column(default=None)

    session: Mapped[ScoreSession] = relationship(back_populates="games")
    winner: Mapped[Player] = relationship()
    entries: Mapped[list[GameEntry]] = relationship(
        back_populates="game", cascade="all, delete-orphan", passive_deletes=True)

    def to_result(self, players: list[Player]) -> GameResult:
        """The game as the core sees it. Entries are matched to seats by player id, so no
        per-entry query is needed once the session's players are loaded."""
        by_player = {entry.player_id: entry for entry in self.entries}
        names = {player.id: player.name for player in players}
        return GameResult(Ending(self.ending), names[self.winner_id],
                          tuple(player.name for player in players),
                          tuple(by_player[player.id].score for player in players),
                          tuple(by_player[player.id].to_rack() for player in players))


class GameEntry(db.Model):  # type: ignore[name-defined,misc]
    """One player's line in a game: the score and the rack it came from."""

    __tablename__ = "score_game_entry"
    __table_args__ = (UniqueConstraint("game_id", "player_id", name="uq_score_game_entry_player"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("score_game.id", ondelete="CASCADE"))
    player_id: Mapped[int] = mapped_column(ForeignKey("score_player.id", ondelete="CASCADE"))
    score: Mapped[int]
    rack: Mapped[str | None] = mapped_column(Text, default=None)
    rack_points: Mapped[int | None] = mapped_column(default=None)
    rack_jokers: Mapped[int | None] = mapped_column(default=None)

    game: Mapped[Game] = relationship(back_populates="entries")
    player: Mapped[Player] = relationship()

    def to_rack(self) -> Rack | None:
        if self.rack is not None:
            return Rack.of_tiles(parse_rack(self.rack))
        if self.rack_points is not None:
            return Rack.of_total(self.rack_points, self.rack_jokers or 0)
        return None


class GameChange(db.Model):  # type: ignore[name-defined,misc]
    """The history of a session's games: what was recorded, edited, undone or redone, and when.

    A write sent with an idempotency key keeps the key, a hash of the request and the answer
    given, so the same request sent again (a retry after a lost answer) gets the first answer
    instead of a second game.
    """

    __tablename__ = "score_game_change"
    __table_args__ = (UniqueConstraint("session_id", "idempotency_key",
                                       name="uq_score_game_change_idempotency_key"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    session_id: Mapped[int] = mapped_column(ForeignKey("score_session.id", ondelete="CASCADE"))
    game_number: Mapped[int]
    action: Mapped[str] = mapped_column(String(12))
    at: Mapped[datetime] = mapped_column(default=utc_now)
    summary: Mapped[str] = mapped_column(Text)
    before: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    after: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    idempotency_key: Mapped[str | None] = mapped_column(String(100), default=None)
    request_hash: Mapped[str | None] = mapped_column(String(64), default=None)
    answer: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)

    session: Mapped[ScoreSession] = relationship(back_populates="changes")


class SessionAccess(db.Model):  # type: ignore[name-defined,misc]
    """A browser that created or joined a session: it may change it and sees it in its list.

    ``device_hash`` is the SHA-256 of the browser's device token (the cookie holds the token,
    the database only its hash, as with edit keys).
    """

    __tablename__ = "score_access"
    __table_args__ = (UniqueConstraint("device_hash", "session_id",
                                       name="uq_score_access_device_session"),
                      Index("ix_score_access_session_id", "session_id"))

    id: Mapped[int] = mapped_column(primary_key=True)
    device_hash: Mapped[str] = mapped_column(String(64))
    session_id: Mapped[int] = mapped_column(ForeignKey("score_session.id", ondelete="CASCADE"))
    granted_at: Mapped[datetime] = mapped_column(default=utc_now)


# Groups: players across evenings -----------------------------------------------------------

class Group(db.Model):  # type: ignore[name-defined,misc]
    """A family or a club night: its players (members) and its sessions.

    Reached only through ``public_id`` (a random token): the integer key never leaves the
    server, so a stranger can neither list nor guess a group. Only the edit key's hash is kept.
    """

    __tablename__ = "score_group"

    id: Mapped[int] = mapped_column(primary_key=True)
    public_id: Mapped[str] = mapped_column(String(32), unique=True)
    name: Mapped[str] = mapped_column(String(60))
    created_at: Mapped[datetime] = mapped_column(default=utc_now)
    edit_key_hash: Mapped[str] = mapped_column(String(64))

    members: Mapped[list[GroupMember]] = relationship(
        back_populates="group", order_by="GroupMember.id", cascade="all, delete-orphan",
        passive_deletes=True)
    sessions: Mapped[list[ScoreSession]] = relationship(
        order_by="ScoreSession.created_at.desc(), ScoreSession.id.desc()",
        passive_deletes=True)


class GroupMember(db.Model):  # type: ignore[name-defined,misc]
    """A player of a group; each session's seat links to one (``Player.member_id``)."""

    __tablename__ = "score_group_member"
    __table_args__ = (UniqueConstraint("group_id", "name", name="uq_score_group_member_name"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    public_id: Mapped[str] = mapped_column(String(32), unique=True)
    group_id: Mapped[int] = mapped_column(ForeignKey("score_group.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(60))

    group: Mapped[Group] = relationship(back_populates="members")


class GroupAccess(db.Model):  # type: ignore[name-defined,misc]
    """A browser that started a group or used its share link: it may start the group's
    sessions, export it and see its share link. Keyed, as ``score_access``, by the SHA-256 of
    the browser's device token: the cookie never holds the group's edit key."""

    __tablename__ = "score_group_access"
    __table_args__ = (UniqueConstraint("device_hash", "group_id",
                                       name="uq_score_group_access_device_group"),
                      Index("ix_score_group_access_group_id", "group_id"))

    id: Mapped[int] = mapped_column(primary_key=True)
    device_hash: Mapped[str] = mapped_column(String(64))
    group_id: Mapped[int] = mapped_column(ForeignKey("score_group.id", ondelete="CASCADE"))
    granted_at: Mapped[datetime] = mapped_column(default=utc_now)


# A player's games across sessions are read through their seats: without this index every
# statistic would scan the entries of every group on the server.
Index("ix_score_game_entry_player_id", GameEntry.player_id)
