"""What the night's pages and API share: store a night, seat its rounds, read its standings.

No seating or standings rule lives here: who sits where comes from ``core.nights.seat_round``,
the room's standings from ``core.nights.room_standings``. A round's tables are score sessions
made by the scores feature's own ``add_session``, all of a round in one write transaction with
the night's row locked, so two taps on "Seat the next round" seat one round.
"""

from __future__ import annotations

import csv
import hashlib
import hmac
import io
import math
import secrets
from collections.abc import Sequence
from typing import Any

from flask import current_app
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import selectinload

from companion.core.nights import (
    MAX_GAMES_PER_TABLE,
    MAX_NIGHT_PLAYERS,
    MAX_NIGHT_ROUNDS,
    NightError,
    NightFormat,
    NightRules,
    PlayedRound,
    PlayedTable,
    RoomStanding,
    TablePoints,
    advance_rounds,
    check_new_name,
    check_night_players,
    night_over,
    room_standings,
    seat_round,
)
from companion.core.presets import UnknownPresetError, get_preset
from companion.core.scoring import ScoringError, check_name
from companion.web.groups.service import member_named
from companion.web.groups.service import new_public_id as new_member_id
from companion.web.models import Game, Group, GroupMember, ScoreSession, db, utc_now
from companion.web.nights.models import Night, NightPlayer, NightRound, NightTable
from companion.web.scores import service as scores
from companion.web.scores.service import csv_cell
from companion.web.transactions import begin_read, begin_write


class NightStateError(Exception):
    """A change the night's state does not allow now (a table still playing, the night over):
    answered 409 with what to do."""

    def __init__(self, message: str, *, field: str, code: str,
                 params: dict[str, object] | None = None) -> None:
        super().__init__(message)
        self.field = field
        self.code = code
        self.params = params or {}


# Keys ------------------------------------------------------------------------------------

def edit_key_of(night: Night) -> str:
    """Derived from the server's secret as a session's is: the host page can show it again."""
    secret = str(current_app.config["SECRET_KEY"]).encode()
    digest = hmac.new(secret, b"night-edit-key:" + night.public_id.encode(),
                      hashlib.sha256).digest()
    return scores._urlsafe(digest[:24])


def key_opens(night: Night, key: str | None) -> bool:
    return bool(key) and hmac.compare_digest(scores.hash_key(key or ""), night.edit_key_hash)


# Reading ---------------------------------------------------------------------------------

def _options() -> list[Any]:
    tables = selectinload(Night.rounds_played).selectinload(NightRound.tables)
    session = tables.selectinload(NightTable.session)
    return [selectinload(Night.players), selectinload(Night.group),
            session.selectinload(ScoreSession.players),
            session.selectinload(ScoreSession.games).selectinload(Game.entries)]


def read_night(public_id: str) -> Night | None:
    begin_read()
    return db.session.scalar(select(Night).where(Night.public_id == public_id)
                             .options(*_options()))


def lock_night(public_id: str) -> Night | None:
    begin_write()
    return db.session.scalar(select(Night).where(Night.public_id == public_id)
                             .options(*_options()).with_for_update())


def rules_of(night: Night) -> NightRules:
    return NightRules(NightFormat(night.format), night.rounds, night.games_per_table,
                      advance=night.advance, pairs=night.pairs,
                      points=TablePoints.parse(night.table_points or None, pairs=night.pairs))


def played_table(night: Night, round_number: int, table: NightTable) -> PlayedTable:
    """The table as the core sees it: the first ``games_per_table`` games of its session."""
    session = table.session
    results = () if session is None else tuple(session.results()[:night.games_per_table])
    players = tuple(table.players) if session is None else session.player_names
    return PlayedTable(round_number, table.number, players, results,
                       0 if session is None else night.games_per_table)


def played_rounds(night: Night) -> list[PlayedRound]:
    return [PlayedRound(r.number, tuple(played_table(night, r.number, t) for t in r.tables),
                        tuple(r.sat_out or ())) for r in night.rounds_played]


def everyone(night: Night) -> list[str]:
    return [player.name for player in night.players]


def present(night: Night, round_number: int) -> list[str]:
    """Who can be seated at round ``round_number``: came by then and has not left."""
    return [p.name for p in night.players
            if p.joined_round <= round_number and p.left_after is None]


def standings_of(night: Night) -> tuple[RoomStanding, ...]:
    return room_standings(everyone(night), played_rounds(night), rules_of(night))


def planned_rounds(night: Night) -> int:
    """Fixed and re-seat: as the host chose; winners advance: down to the final table, as
    counted from the players of the first round."""
    return night.rounds


# Creating and seating --------------------------------------------------------------------

def check_numbers(fmt: object, rounds: object, games_per_table: object, advance: object
                  ) -> tuple[NightFormat, int, int, int]:
    formats = {f.value: f for f in NightFormat}
    if not isinstance(fmt, str) or fmt not in formats:
        raise NightError(f"`format` must be one of {', '.join(formats)}", field="format",
                         code="format")
    for name, value, most in (("rounds", rounds, MAX_NIGHT_ROUNDS),
                              ("games_per_table", games_per_table, MAX_GAMES_PER_TABLE)):
        if (not isinstance(value, int) or isinstance(value, bool)
                or not 1 <= value <= most):
            raise NightError(f"`{name}` must be a whole number, 1 to {most}", field=name,
                             code="number", params={"field": name, "most": most})
    if advance not in (1, 2) or isinstance(advance, bool):
        raise NightError("`advance` (how many of each table go on) must be 1 or 2",
                         field="advance", code="advance")
    assert isinstance(rounds, int) and isinstance(games_per_table, int)
    assert isinstance(advance, int)
    return formats[fmt], rounds, games_per_table, advance


def create_night(names: Sequence[object], fmt: object, rounds: object,
                 games_per_table: object, *, advance: object = 1, pairs: bool = False,
                 table_points: object = None, preset_key: str | None = None,
                 group: Group | None = None) -> tuple[Night, str]:
    """A new night with its first round seated; its edit key (only the hash is kept)."""
    players = check_night_players(names)
    if fmt == NightFormat.ADVANCE.value and rounds is None:
        rounds = 1
    night_format, rounds_n, games, advance_n = check_numbers(fmt, rounds, games_per_table,
                                                             advance)
    points = TablePoints.parse(table_points, pairs=pairs)
    try:
        preset = get_preset(preset_key)
    except UnknownPresetError as error:
        raise NightError(str(error), field="preset", code="preset") from error
    if night_format is NightFormat.ADVANCE:
        rounds_n = advance_rounds(len(players), advance=advance_n, pairs=pairs)
    begin_write()
    night = Night(format=night_format.value, rounds=rounds_n, games_per_table=games,
                  advance=advance_n, pairs=pairs, table_points=points.as_json(),
                  preset_key=preset.key, seed=secrets.randbelow(2**31), edit_key_hash="",
                  group_id=None if group is None else group.id)
    night.players = [NightPlayer(position=i, name=name) for i, name in enumerate(players, 1)]
    db.session.add(night)
    db.session.flush()
    key = edit_key_of(night)
    night.edit_key_hash = scores.hash_key(key)
    if group is not None:
        _link_members(night, group)
    _seat(night)
    return night, key


def _link_members(night: Night, group: Group) -> None:
    """Each player links to the group's member of that name; a new name joins the group."""
    for player in night.players:
        if player.member_id is not None:
            continue
        member = member_named(group, player.name)
        if member is None:
            member = GroupMember(public_id=new_member_id(), name=player.name)
            group.members.append(member)
            db.session.flush()
        player.name = member.name
        player.member_id = member.id


def still_playing(night: Night) -> list[tuple[int, PlayedTable]]:
    """The tables of the last round that have not recorded all their games yet."""
    if not night.rounds_played:
        return []
    last = played_rounds(night)[-1]
    return [(last.number, t) for t in last.tables if not t.complete]


def _playing_words(tables: list[tuple[int, PlayedTable]], games: int) -> str:
    return "; ".join(f"table {t.number} ({', '.join(t.players)}) has {len(t.results)} of "
                     f"{games} games" for _, t in tables)


def seat_next_round(night: Night) -> NightRound:
    """``night`` comes from ``lock_night``: seat the next round, or say why not."""
    busy = still_playing(night)
    if busy:
        raise NightStateError(
            f"round {busy[0][0]} is still being played: {_playing_words(busy, night.games_per_table)}"
            "; seat the next round once every table has recorded its games",
            field="round", code="still_playing",
            params={"round": busy[0][0], "tables": [t.number for _, t in busy]})
    if night_over(played_rounds(night), rules_of(night)):
        raise NightStateError(f"the night is over: all {len(night.rounds_played)} rounds are "
                              "played", field="round", code="night_over",
                              params={"rounds": len(night.rounds_played)})
    return _seat(night)


def _seat(night: Night) -> NightRound:
    number = len(night.rounds_played) + 1
    rules = rules_of(night)
    here = present(night, number)
    if len(here) < (2 if night.pairs else 3):
        raise NightStateError(f"{len(here)} players are left: too few to seat a round",
                              field="players", code="too_few", params={"count": len(here)})
    seating = seat_round(here, played_rounds(night), rules, seed=night.seed)
    members = {p.name: p.member_id for p in night.players}
    night_round = NightRound(number=number, sat_out=list(seating.sat_out))
    for table_number, names in enumerate(seating.tables, 1):
        rounds = max(1, math.ceil(night.games_per_table / len(names)))
        session, _key = scores.add_session(list(names), rounds, night.preset_key, {})
        if night.group_id is not None:
            session.group_id = night.group_id
            for seat in session.players:
                seat.member_id = members.get(seat.name)
        night_round.tables.append(NightTable(number=table_number, players=list(names),
                                             session=session))
    night.rounds_played.append(night_round)
    _changed(night)
    try:
        db.session.commit()
    except IntegrityError as error:
        db.session.rollback()
        raise NightStateError(f"round {number} was seated from another phone at the same "
                              "moment: reload the night", field="round", code="taken",
                              params={"round": number}) from error
    return night_round


def _changed(night: Night) -> None:
    night.updated_at = utc_now()
    night.version = (night.version or 0) + 1


# Arrivals and leavers --------------------------------------------------------------------

def add_player(night: Night, raw_name: object, member: GroupMember | None = None) -> str:
    """A late arrival, seated from the next round on (``night`` from ``lock_night``)."""
    if not isinstance(raw_name, str):
        raise NightError("`name` must be the new player's name", field="name", code="name")
    try:
        name = check_name(raw_name, 1)
    except ScoringError as error:
        raise NightError(str(error).replace("player 1: ", ""), field="name",
                         code="name_bad") from error
    if not name:
        raise NightError("say the new player's name", field="name", code="name_blank")
    check_new_name(name, everyone(night))
    if len(night.players) >= MAX_NIGHT_PLAYERS:
        raise NightError(f"a night has at most {MAX_NIGHT_PLAYERS} players", field="name",
                         code="night_full", params={"most": MAX_NIGHT_PLAYERS})
    if night.format == NightFormat.ADVANCE.value and night.rounds_played:
        raise NightStateError("winners advance: a player who did not play the first round "
                              "cannot join a later one", field="name", code="advance_late")
    position = max((p.position for p in night.players), default=0) + 1
    player = NightPlayer(position=position, name=name,
                         joined_round=len(night.rounds_played) + 1)
    night.players.append(player)
    if night.group is not None:
        _link_members(night, night.group)
    _changed(night)
    db.session.commit()
    return player.name


def remove_player(night: Night, name: object) -> str:
    """A player leaves between rounds: their results stay; they are not seated again."""
    player = next((p for p in night.players if isinstance(name, str)
                   and p.name.casefold() == name.strip().casefold()), None)
    if player is None:
        raise NightError(f"there is no player {name!r} in this night", field="name",
                         code="no_player", params={"name": str(name)})
    if player.left_after is not None:
        raise NightError(f"{player.name} has left already", field="name", code="left",
                         params={"name": player.name})
    for round_number, table in still_playing(night):
        if player.name in table.players:
            raise NightStateError(
                f"{player.name} is playing at table {table.number} of round {round_number} "
                f"({len(table.results)} of {night.games_per_table} games recorded): they can "
                "leave once that table has recorded its games", field="name",
                code="leaving_mid_round",
                params={"name": player.name, "table": table.number, "round": round_number})
    player.left_after = len(night.rounds_played)
    _changed(night)
    db.session.commit()
    return player.name


# JSON and CSV ----------------------------------------------------------------------------

def standing_json(standing: RoomStanding, left: set[str]) -> dict[str, Any]:
    return {"name": standing.name, "place": standing.place,
            "table_points": standing.table_points, "games_won": standing.games_won,
            "score": standing.score, "rounds_played": standing.rounds_played,
            "stage": standing.stage, "left": standing.name in left}


def night_json(night: Night, *, with_keys: bool = False) -> dict[str, Any]:
    rounds = played_rounds(night)
    rules = rules_of(night)
    left = {p.name for p in night.players if p.left_after is not None}

    def table_json(stored: NightTable, played: PlayedTable) -> dict[str, Any]:
        found: dict[str, Any] = {
            "number": stored.number,
            "session": None if stored.session is None else stored.session.public_id,
            "players": list(played.players), "games_played": len(played.results),
            "games_planned": night.games_per_table, "complete": played.complete,
            "places": played.places() if played.results else {}}
        if with_keys and stored.session is not None:
            found["edit_key"] = scores.edit_key_of(stored.session)
        return found

    return {
        "id": night.public_id, "format": night.format, "rounds": planned_rounds(night),
        "games_per_table": night.games_per_table, "advance": night.advance,
        "pairs": night.pairs, "table_points": rules.points.as_json(),
        "preset": night.preset_key,
        "group": None if night.group is None else night.group.public_id,
        "players": [{"name": p.name, "joined_round": p.joined_round,
                     "left_after": p.left_after} for p in night.players],
        "rounds_played": [{"number": r.number, "sat_out": list(played.sat_out),
                           "complete": played.complete,
                           "tables": [table_json(t, pt) for t, pt
                                      in zip(r.tables, played.tables, strict=True)]}
                          for r, played in zip(night.rounds_played, rounds, strict=True)],
        "over": night_over(rounds, rules) and all(r.complete for r in rounds),
        "standings": [standing_json(s, left) for s in standings_of(night)],
        "version": night_version(night),
    }


def night_version(night: Night) -> str:
    """Changes with the night and with every game at any of its tables."""
    parts = [str(night.version)] + [str(t.session.version) for r in night.rounds_played
                                    for t in r.tables if t.session is not None]
    return hashlib.sha256(".".join(parts).encode()).hexdigest()[:16]


def night_csv(night: Night) -> str:
    """The room's standings, then every table of every round with its places."""
    out = io.StringIO()
    writer = csv.writer(out)

    def row(*cells: object) -> None:
        writer.writerow([csv_cell(cell) for cell in cells])

    row("place", "player", "table points", "games won", "score", "rounds played")
    for s in standings_of(night):
        row(s.place, s.name, s.table_points, s.games_won, s.score, s.rounds_played)
    row()
    row("round", "table", "player", "table place", "games won", "score")
    for played in played_rounds(night):
        for table in played.tables:
            places = table.places()
            for name in table.players:
                row(played.number, table.number, name, places[name] if table.results else "",
                    sum(r.winner == name for r in table.results),
                    sum(r.scores_by_name()[name] for r in table.results))
        for name in played.sat_out:
            row(played.number, "sat out", name, "", "", "")
    return out.getvalue()
