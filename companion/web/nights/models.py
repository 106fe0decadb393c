"""A night's tables (SQLAlchemy 2.0 typed). Games live in the tables' sessions; a night keeps
only who came, the format, who sat where in each round and who sat out."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from companion.web.models import Group, GroupMember, ScoreSession, db, new_public_id, utc_now


class Night(db.Model):  # type: ignore[name-defined,misc]
    __tablename__ = "night"

    id: Mapped[int] = mapped_column(primary_key=True)
    public_id: Mapped[str] = mapped_column(String(32), unique=True, default=new_public_id)
    created_at: Mapped[datetime] = mapped_column(default=utc_now)
    updated_at: Mapped[datetime] = mapped_column(default=utc_now, onupdate=utc_now)
    format: Mapped[str] = mapped_column(String(10))
    rounds: Mapped[int]
    games_per_table: Mapped[int]
    advance: Mapped[int] = mapped_column(default=1)
    pairs: Mapped[bool] = mapped_column(default=False)
    table_points: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    preset_key: Mapped[str] = mapped_column(String(20))
    seed: Mapped[int]
    edit_key_hash: Mapped[str] = mapped_column(String(64))
    version: Mapped[int] = mapped_column(default=1)
    group_id: Mapped[int | None] = mapped_column(
        ForeignKey("score_group.id", ondelete="SET NULL"), default=None, index=True)

    group: Mapped[Group | None] = relationship()
    players: Mapped[list[NightPlayer]] = relationship(
        back_populates="night", order_by="NightPlayer.position", cascade="all, delete-orphan",
        passive_deletes=True)
    rounds_played: Mapped[list[NightRound]] = relationship(
        back_populates="night", order_by="NightRound.number", cascade="all, delete-orphan",
        passive_deletes=True)


class NightPlayer(db.Model):  # type: ignore[name-defined,misc]
    """Who came: ``joined_round`` is the first round they could be seated at, ``left_after``
    the last round they played before leaving (their results stay in the standings)."""

    __tablename__ = "night_player"
    __table_args__ = (UniqueConstraint("night_id", "name", name="uq_night_player_name"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    night_id: Mapped[int] = mapped_column(ForeignKey("night.id", ondelete="CASCADE"))
    position: Mapped[int]
    name: Mapped[str] = mapped_column(String(60))
    joined_round: Mapped[int] = mapped_column(default=1)
    left_after: Mapped[int | None] = mapped_column(default=None)
    member_id: Mapped[int | None] = mapped_column(
        ForeignKey("score_group_member.id", ondelete="SET NULL"), default=None)

    night: Mapped[Night] = relationship(back_populates="players")
    member: Mapped[GroupMember | None] = relationship()


class NightRound(db.Model):  # type: ignore[name-defined,misc]
    __tablename__ = "night_round"
    __table_args__ = (UniqueConstraint("night_id", "number", name="uq_night_round_number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    night_id: Mapped[int] = mapped_column(ForeignKey("night.id", ondelete="CASCADE"))
    number: Mapped[int]
    sat_out: Mapped[list[str]] = mapped_column(JSON, default=list)
    created_at: Mapped[datetime] = mapped_column(default=utc_now)

    night: Mapped[Night] = relationship(back_populates="rounds_played")
    tables: Mapped[list[NightTable]] = relationship(
        back_populates="round", order_by="NightTable.number", cascade="all, delete-orphan",
        passive_deletes=True)


class NightTable(db.Model):  # type: ignore[name-defined,misc]
    """One table of a round: a score session. The seats are kept here too, so a table whose
    session was deleted still shows who sat there."""

    __tablename__ = "night_table"
    __table_args__ = (UniqueConstraint("round_id", "number", name="uq_night_table_number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("night_round.id", ondelete="CASCADE"))
    number: Mapped[int]
    players: Mapped[list[str]] = mapped_column(JSON)
    session_id: Mapped[int | None] = mapped_column(
        ForeignKey("score_session.id", ondelete="SET NULL"), default=None, index=True)

    round: Mapped[NightRound] = relationship(back_populates="tables")
    session: Mapped[ScoreSession | None] = relationship()
