"""A club night: many tables at once, re-seated between rounds, one standings for the room.

A night is a list of players and a format. Each round seats the players still in the night at
tables of 4, with tables of 3 where the count needs it (tables of 2 only for two-player
matches); each table is a session of its own. Who sits where in the next round follows from
the format and the tables played so far (``seat_round``); the room's standings follow from the
tables' games (``room_standings``). docs/nights.md says where each format comes from.

>>> table_sizes(22)
(4, 4, 4, 4, 3, 3)
>>> table_sizes(9)
(3, 3, 3)
>>> table_sizes(7, pairs=True)
(2, 2, 2)
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from itertools import combinations, pairwise

from companion.core.scoring import GameResult, ScoringError, check_name, name_key
from companion.core.standings import ranked_places, standings

MIN_NIGHT_PLAYERS = 8
"""Fewer players fit at two tables: a session each, no need for a night."""
MAX_NIGHT_PLAYERS = 40
"""Ten tables of four: what one host keeps track of in one room."""
MAX_NIGHT_ROUNDS = 12
MAX_GAMES_PER_TABLE = 12
MIN_TABLE = 3
"""Rummikub is for 2 to 4 players; a night seats 3 or 4 at a table (never 2 unless the host
asks for two-player matches), so that every table plays the game as the box means it."""
MAX_TABLE = 4


class NightFormat(Enum):
    """How the next round is seated (docs/nights.md)."""

    FIXED = "fixed"
    """The same tables all night (a league evening's "home tables")."""
    RESEAT = "reseat"
    """Re-seated by the room's standings after each round, avoiding repeat opponents (Swiss)."""
    ADVANCE = "advance"
    """The first (or first two) of each table go on, down to a final table."""


class NightError(ValueError):
    """Input a night cannot take: ``field`` says where, ``code`` and ``params`` let a page say
    it in its own language."""

    def __init__(self, message: str, *, field: str, code: str,
                 params: Mapping[str, object] | None = None) -> None:
        super().__init__(message)
        self.field = field
        self.code = code
        self.params = dict(params or {})


@dataclass(frozen=True, slots=True)
class TablePoints:
    """Points for each place at a table, by the table's size (4–2–1–0 at four, 4–2–0 at three,
    4–0 at two), and the points of a round sat out (``bye``)."""

    by_size: tuple[tuple[int, ...], ...] = ((4, 0), (4, 2, 0), (4, 2, 1, 0))
    bye: int = 2

    def for_place(self, size: int, place: int) -> int:
        """A shared place earns that place's points, as on a sheet (1, 1, 3 → 4, 4, 1)."""
        row = next((row for row in self.by_size if len(row) == size), None)
        if row is None:
            raise NightError(f"no table points are set for a table of {size}",
                             field="table_points", code="no_points", params={"size": size})
        return row[place - 1]

    @classmethod
    def parse(cls, value: object, *, pairs: bool = False) -> TablePoints:
        """``{"4": [4, 2, 1, 0], "3": [4, 2, 0], "2": [4, 0], "bye": 2}``: any part may be
        left out (the default stays); each row has one whole number per place, best first,
        never rising."""
        default = cls.default(pairs=pairs)
        if value is None:
            return default
        if not isinstance(value, Mapping):
            raise NightError("table points must be an object such as {\"4\": [4, 2, 1, 0]}",
                             field="table_points", code="points_shape")
        rows = {len(row): row for row in default.by_size}
        bye = default.bye
        for key, given in value.items():
            if key == "bye":
                if not _whole(given) or not 0 <= given <= 100:
                    raise NightError("`bye` must be a whole number of points, 0 to 100",
                                     field="table_points", code="points_bye")
                bye = given
                continue
            size = int(key) if isinstance(key, str) and key.isdigit() else 0
            if size not in (2, 3, 4):
                raise NightError(f"table points are set for tables of 2, 3 or 4, not {key!r}",
                                 field="table_points", code="points_size")
            if (not isinstance(given, Sequence) or isinstance(given, str)
                    or len(given) != size or not all(_whole(p) and 0 <= p <= 100
                                                     for p in given)):
                raise NightError(f"the points at a table of {size} must be {size} whole "
                                 "numbers, 0 to 100, best place first",
                                 field="table_points", code="points_row",
                                 params={"size": size})
            if any(later > earlier for earlier, later in pairwise(given)):
                raise NightError(f"the points at a table of {size} may not rise from one "
                                 "place to the next", field="table_points",
                                 code="points_rise", params={"size": size})
            rows[size] = tuple(given)
        return cls(tuple(rows[size] for size in sorted(rows)), bye)

    @classmethod
    def default(cls, *, pairs: bool = False) -> TablePoints:
        """A bye earns a middle place's points at tables of 3–4, a win in two-player matches
        (as FIDE and NASPA score a pairing bye)."""
        return cls(bye=4 if pairs else 2)

    def as_json(self) -> dict[str, object]:
        return {**{str(len(row)): list(row) for row in self.by_size}, "bye": self.bye}


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True, slots=True)
class NightRules:
    """What the host chose: format, rounds (fixed and re-seat), games at each table, how many
    of each table go on (advance), two-player matches, and the table points."""

    format: NightFormat
    rounds: int
    games_per_table: int
    advance: int = 1
    pairs: bool = False
    points: TablePoints = field(default_factory=TablePoints)


# Players and table sizes ---------------------------------------------------------------------

def check_night_players(names: Sequence[object]) -> tuple[str, ...]:
    """Trimmed, unique (as a session compares names) names, 8 to 40 of them."""
    players: list[str] = []
    for position, raw in enumerate(names, start=1):
        if not isinstance(raw, str):
            raise NightError(f"player {position} must be a name", field="players",
                             code="name_shape", params={"position": position})
        try:
            name = check_name(raw, position)
        except ScoringError as error:
            raise NightError(str(error), field="players", code="name_bad",
                             params={"position": position}) from error
        if not name:
            raise NightError(f"player {position} has no name", field="players",
                             code="name_blank", params={"position": position})
        check_new_name(name, players, position=position)
        players.append(name)
    if not MIN_NIGHT_PLAYERS <= len(players) <= MAX_NIGHT_PLAYERS:
        raise NightError(f"a night has {MIN_NIGHT_PLAYERS} to {MAX_NIGHT_PLAYERS} players, "
                         f"not {len(players)}", field="players", code="night_count",
                         params={"least": MIN_NIGHT_PLAYERS, "most": MAX_NIGHT_PLAYERS,
                                 "count": len(players)})
    return tuple(players)


def check_new_name(name: str, others: Sequence[str], *, position: int | None = None) -> None:
    """A name already in the night (not case, not width) is refused, naming both."""
    for other in others:
        if name_key(name) == name_key(other):
            where = f"player {position}: " if position else ""
            raise NightError(f"{where}{name} is in the night already"
                             + (f" (as {other})" if other != name else "")
                             + ": names must differ", field="players", code="name_twice",
                             params={"name": name, "other": other})


def table_sizes(count: int, *, pairs: bool = False) -> tuple[int, ...]:
    """Tables of 4 with as few tables of 3 as the count allows (tables of 2 in two-player
    matches); who is left over sits out (``sit_out_count``)."""
    if pairs:
        return (2,) * (count // 2)
    if count < MIN_TABLE:
        return ()
    threes = (-count) % MAX_TABLE
    if 3 * threes > count:  # 5 players: one table of 4, one sits out
        return (MAX_TABLE,) * (count // MAX_TABLE)
    return (MAX_TABLE,) * ((count - 3 * threes) // MAX_TABLE) + (MIN_TABLE,) * threes


def sit_out_count(count: int, *, pairs: bool = False) -> int:
    return count - sum(table_sizes(count, pairs=pairs))


# What was played -----------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class PlayedTable:
    """One table of one round: its players in seating order and the games that count (the
    first ``games_planned`` recorded at its session)."""

    round: int
    number: int
    players: tuple[str, ...]
    results: tuple[GameResult, ...]
    games_planned: int

    @property
    def complete(self) -> bool:
        return len(self.results) >= self.games_planned

    def places(self) -> dict[str, int]:
        """The table's places as its sheet ranks them (games won, then score, shared)."""
        return {s.name: s.place for s in standings(self.players, self.results)}

    def finish_order(self) -> tuple[str, ...]:
        """Best first; equal places keep the seating order (a tie at the cut goes to the seat
        the draw gave first, as a coin toss would)."""
        return tuple(s.name for s in standings(self.players, self.results))


@dataclass(frozen=True, slots=True)
class PlayedRound:
    number: int
    tables: tuple[PlayedTable, ...]
    sat_out: tuple[str, ...] = ()

    @property
    def complete(self) -> bool:
        return all(table.complete for table in self.tables)

    @property
    def seated(self) -> tuple[str, ...]:
        return tuple(name for table in self.tables for name in table.players)


@dataclass(frozen=True, slots=True)
class RoomStanding:
    name: str
    table_points: int
    games_won: int
    score: int
    place: int
    rounds_played: int
    stage: int
    """The last round the player was seated at (winners advance ranks by it first)."""


def room_standings(players: Sequence[str], rounds: Sequence[PlayedRound], rules: NightRules
                   ) -> tuple[RoomStanding, ...]:
    """Table points, then games won, then score; equal on all three share the place. In the
    winners-advance format the last round reached comes first (the final table above the
    semi-finals). A table still playing counts as it stands (its places so far). Whoever
    sat at a table or sat out is ranked, listed in ``players`` or not (a player who left)."""
    seen = [name for r in rounds for name in (*r.seated, *r.sat_out)]
    players = list(dict.fromkeys([*players, *seen]))
    points = dict.fromkeys(players, 0)
    won = dict.fromkeys(players, 0)
    score = dict.fromkeys(players, 0)
    played = dict.fromkeys(players, 0)
    stage = dict.fromkeys(players, 0)
    for played_round in rounds:
        for name in played_round.sat_out:
            points[name] += rules.points.bye
        for table in played_round.tables:
            places = table.places()
            for name in table.players:
                stage[name] = played_round.number
                played[name] += 1
                if table.results:
                    points[name] += rules.points.for_place(len(table.players), places[name])
            for result in table.results:
                won[result.winner] += 1
                for name, points_scored in result.scores_by_name().items():
                    score[name] += points_scored
    advance = rules.format is NightFormat.ADVANCE

    def key(name: str) -> tuple[int, ...]:
        return ((-stage[name],) if advance else ()) + (-points[name], -won[name], -score[name])

    return tuple(RoomStanding(name, points[name], won[name], score[name], place, played[name],
                              stage[name])
                 for name, place in ranked_places(players, key))


# Seating the next round ----------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Seating:
    tables: tuple[tuple[str, ...], ...]
    sat_out: tuple[str, ...]
    final: bool = False


def advancing(rounds: Sequence[PlayedRound], rules: NightRules) -> tuple[str, ...]:
    """Who goes on from the last round: the first ``advance`` of each table."""
    last = rounds[-1]
    return tuple(name for table in last.tables for name in table.finish_order()[:rules.advance])


def night_over(rounds: Sequence[PlayedRound], rules: NightRules) -> bool:
    if not rounds:
        return False
    if rules.format is NightFormat.ADVANCE:
        return len(rounds[-1].tables) <= 1 and not rounds[-1].sat_out
    return len(rounds) >= rules.rounds


def advance_rounds(count: int, *, advance: int = 1, pairs: bool = False) -> int:
    """How many rounds winners-advance takes from ``count`` players to the final table."""
    rounds = 1
    while count > (2 if pairs else MAX_TABLE):
        count = _field_size(len(table_sizes(count, pairs=pairs)) * advance, pairs=pairs)
        rounds += 1
    return rounds


def _field_size(count: int, *, pairs: bool) -> int:
    """A field that cannot be seated without someone sitting out (5 at tables of 3–4, an odd
    number in two-player matches) goes on with its best: 4, or one fewer."""
    if pairs:
        return count - count % 2 if count > 2 else count
    return 4 if count == 5 else count


def seat_round(players: Sequence[str], rounds: Sequence[PlayedRound], rules: NightRules, *,
               seed: int) -> Seating:
    """The next round's tables for the players still in the night (``players``, in the order
    they came), from the rounds played; the same inputs always seat the same way."""
    fmt = rules.format
    if fmt is NightFormat.ADVANCE and rounds:
        still_in = [name for name in advancing(rounds, rules) if name in players]
        standing = {s.name: s.place for s in room_standings(players, rounds, rules)}
        still_in.sort(key=lambda name: standing.get(name, 0))
        still_in = still_in[:_field_size(len(still_in), pairs=rules.pairs)]
        if len(still_in) <= (2 if rules.pairs else MAX_TABLE):
            return Seating((tuple(still_in),), (), final=True)
        return _seat_by_standings(still_in, rounds, rules)
    if fmt is NightFormat.FIXED and rounds:
        kept = _fixed_tables(players, rounds[-1], rules)
        if kept is not None:
            return kept
    if not rounds:
        drawn = list(players)
        random.Random(seed).shuffle(drawn)
        return _fill(drawn, rounds, rules)
    order = [s.name for s in room_standings(players, rounds, rules) if s.name in players]
    return _seat_by_standings(order, rounds, rules)


def _fixed_tables(players: Sequence[str], last: PlayedRound, rules: NightRules
                  ) -> Seating | None:
    """Last round's tables again, without who left and with who came (each to a table with
    room, smallest first); None when that leaves a table outside 3–4 (then a new draw)."""
    present = set(players)
    tables = [[name for name in table.players if name in present] for table in last.tables]
    tables = [table for table in tables if table]
    seated = {name for table in tables for name in table}
    for name in [name for name in players if name not in seated]:
        roomy = sorted((t for t in tables if len(t) < (2 if rules.pairs else MAX_TABLE)), key=len)
        if not roomy:
            return None
        roomy[0].append(name)
    low = 2 if rules.pairs else MIN_TABLE
    high = 2 if rules.pairs else MAX_TABLE
    if not all(low <= len(table) <= high for table in tables):
        return None
    return Seating(tuple(tuple(table) for table in tables), ())


def _sit_outs(order: Sequence[str], rounds: Sequence[PlayedRound], count: int) -> list[str]:
    """Who sits out: those who sat out least so far, the lowest in the standings first (the
    Swiss bye), so nobody sits out twice while another has not sat out once."""
    times = {name: sum(name in r.sat_out for r in rounds) for name in order}
    ranked = sorted(range(len(order)), key=lambda i: (times[order[i]], -i))
    return [order[i] for i in ranked[:count]]


def _fill(order: list[str], rounds: Sequence[PlayedRound], rules: NightRules) -> Seating:
    """Tables filled in the order given, after the sit-outs are taken out."""
    out = _sit_outs(order, rounds, sit_out_count(len(order), pairs=rules.pairs))
    seated = [name for name in order if name not in out]
    sizes = table_sizes(len(seated), pairs=rules.pairs)
    tables: list[tuple[str, ...]] = []
    start = 0
    for size in sizes:
        tables.append(tuple(seated[start:start + size]))
        start += size
    return Seating(tuple(tables), tuple(out))


def met_before(rounds: Sequence[PlayedRound]) -> dict[frozenset[str], int]:
    """How many times each pair of players sat at one table."""
    met: dict[frozenset[str], int] = {}
    for played_round in rounds:
        for table in played_round.tables:
            for pair in combinations(table.players, 2):
                key = frozenset(pair)
                met[key] = met.get(key, 0) + 1
    return met


REPEAT_COST = 1000
"""A pair meeting again costs more than any move in the standings order can: repeats are
avoided first, then players sit as near their place in the standings as they can."""


def _seat_by_standings(order: list[str], rounds: Sequence[PlayedRound], rules: NightRules
                       ) -> Seating:
    """Swiss-like: fill tables top down in standings order, then swap players between tables
    while that lowers the repeats (first) and the distance from their standings (second)."""
    seating = _fill(order, rounds, rules)
    met = met_before(rounds)
    rank = {name: index for index, name in enumerate(order)}
    tables = [list(table) for table in seating.tables]
    ideal = {name: t for t, table in enumerate(tables) for name in table}

    def table_cost(table: Sequence[str], index: int) -> int:
        repeats = sum(met.get(frozenset(pair), 0) for pair in combinations(table, 2))
        return REPEAT_COST * repeats + sum(abs(ideal[name] - index) for name in table)

    improved = True
    passes = 0
    while improved and passes < 50:
        improved, passes = False, passes + 1
        for a, b in combinations(range(len(tables)), 2):
            for i in range(len(tables[a])):
                for j in range(len(tables[b])):
                    before = table_cost(tables[a], a) + table_cost(tables[b], b)
                    tables[a][i], tables[b][j] = tables[b][j], tables[a][i]
                    if table_cost(tables[a], a) + table_cost(tables[b], b) < before:
                        improved = True
                    else:
                        tables[a][i], tables[b][j] = tables[b][j], tables[a][i]
    seated = tuple(tuple(sorted(table, key=rank.__getitem__)) for table in tables)
    return Seating(seated, seating.sat_out)


__all__ = ["MAX_GAMES_PER_TABLE", "MAX_NIGHT_PLAYERS", "MAX_NIGHT_ROUNDS", "MIN_NIGHT_PLAYERS",
           "NightError", "NightFormat", "NightRules", "PlayedRound", "PlayedTable",
           "RoomStanding", "Seating", "TablePoints", "advance_rounds", "advancing",
           "check_new_name", "check_night_players", "met_before", "night_over",
           "room_standings", "seat_round", "sit_out_count", "table_sizes"]
