"""The search behind the solver: a dynamic program over the numbers 1 to 13.

After van Rijn, Takes and Vis, "The Complexity of Rummikub Problems" (2015): the tiles are
taken number by number, 1 up to 13. The state after a number says, for each colour, how
long the runs still open are (two run places per colour, because the box holds two copies
of each tile); a length is counted only up to 3, as beyond that a run may end whenever.
Groups are decided inside one number, and jokers are counted, not placed, until the end.

Extensions used here:

* a tile may be *required* (on the table: it must be laid) or *optional* (on the rack: it
  may be laid), and the search maximises a weight of the optional tiles laid
  (``best_play``); with no optional tile it decides whether all can be laid (``arrange``);
* a double joker in a run covers two numbers: the run place carries a "second half due" flag
  into the next number; a run's length counts physical tiles, so a double joker can never
  make a 2-tile set look like a run of three (RULES.md: "A set still needs 3 physical tiles");
* before the initial meld the value laid so far is part of the state (capped at the minimum).

What the search does not try (the solver says so where it matters): a joker standing for a
third copy of a tile inside a *run* (in a group it may), and the mirror and colour-change
jokers, which the solver places itself before calling this search.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from itertools import combinations, product

from companion.core.tiles import HIGHEST_NUMBER, LOWEST_NUMBER, COPIES_OF_EACH_TILE

COLOUR_COUNT = 4
RUN_PLACES = COPIES_OF_EACH_TILE  # two open runs per colour at most: two copies of each tile
MIN_LENGTH = 3  # "Every set on the table has at least 3 tiles" (seed 000, RULES.md "Sets")
MAX_GROUP = 4  # "A group is a set of either three or four tiles" (seed 000)
DUE = 4  # flag bit of a run place: the double joker's second number is due next
NEGATIVE = -(10**9)

Piece = tuple[str, int | None, int]
"""One physical tile in a planned set: ("tile", colour index, number), ("joker", colour
index or None, number) or ("double", colour index or None, first number)."""

Counts = tuple[tuple[int, ...], ...]
"""Tile counts by colour index and number (index 0 unused, 1..13)."""


class SearchTimeout(Exception):
    """The time limit ran out before the search finished."""


@dataclass(frozen=True, slots=True)
class Pool:
    required: Counts
    optional: Counts
    jokers_required: int = 0
    jokers_optional: int = 0
    doubles_required: int = 0
    doubles_optional: int = 0


@dataclass(frozen=True, slots=True)
class Plan:
    score: int
    sets: tuple[tuple[Piece, ...], ...]
    used: Counts
    jokers_used: int
    doubles_used: int


def empty_counts() -> list[list[int]]:
    return [[0] * (HIGHEST_NUMBER + 1) for _ in range(COLOUR_COUNT)]


def freeze(counts: list[list[int]]) -> Counts:
    return tuple(tuple(row) for row in counts)


# --- the moves of one run place, of a colour's two places, and of the groups of a number ---

def _place_moves(code: int, number: int) -> list[tuple[int, str | None]]:
    """Where a run place can go at ``number``: (new code, what covers the number)."""
    length, due = code & 3, code & DUE
    if due:
        return [(length, "second")]
    moves: list[tuple[int, str | None]] = []
    if length in (0, MIN_LENGTH):
        moves.append((0, None))  # stays empty, or a run of three or more ends here
    longer = min(length + 1, MIN_LENGTH)
    moves += [(longer, "tile"), (longer, "joker")]
    if number < HIGHEST_NUMBER:  # "It cannot stand ... after 12 in a run" (RULES.md)
        moves.append((longer | DUE, "double"))
    return moves


PairMove = tuple[tuple[int, int], int, int, int, int, tuple[str | None, str | None]]
"""(new pair of codes, tiles used, jokers used, doubles used, numbers covered, both moves)."""


@cache
def _pair_moves(pair: tuple[int, int], number: int) -> tuple[PairMove, ...]:
    found: dict[tuple[tuple[int, int], int, int, int], PairMove] = {}
    for (code_a, move_a), (code_b, move_b) in product(_place_moves(pair[0], number),
                                                      _place_moves(pair[1], number)):
        moves = (move_a, move_b)
        new_pair = (code_a, code_b) if code_a <= code_b else (code_b, code_a)
        tiles, jokers, doubles = (moves.count("tile"), moves.count("joker"),
                                  moves.count("double"))
        covered = sum(m is not None for m in moves)
        found.setdefault((new_pair, tiles, jokers, doubles),
                         (new_pair, tiles, jokers, doubles, covered, moves))
    return tuple(found.values())


GroupPlan = tuple[tuple[tuple[int, ...], int, int], ...]
"""Groups of one number: (colour indexes of the tiles, jokers, double jokers) each."""


@cache
def _group_plans(tiles_by_colour: tuple[int, ...]) -> dict[tuple[int, int], GroupPlan]:
    """Every (jokers, double jokers) count with which these tiles of one number make groups."""
    plans: dict[tuple[int, int], GroupPlan] = {}
    for jokers, doubles, groups in _groupings(tiles_by_colour, 2, 2):
        plans.setdefault((jokers, doubles), groups)
    return plans


def _groupings(left: tuple[int, ...], jokers: int,
               doubles: int) -> Iterator[tuple[int, int, GroupPlan]]:
    first = next((c for c in range(COLOUR_COUNT) if left[c]), None)
    if first is None:
        yield 0, 0, ()
        if jokers >= 2 and doubles >= 1:  # J J D: a group of four from jokers alone
            yield 2, 1, (((), 2, 1),)
        return
    others = [c for c in range(first + 1, COLOUR_COUNT) if left[c]]
    for size in range(len(others) + 1):
        for partners in combinations(others, size):
            members = (first, *partners)
            rest = tuple(n - (c in members) for c, n in enumerate(left))
            for use_jokers, use_doubles in product(range(jokers + 1), range(doubles + 1)):
                width = len(members) + use_jokers + 2 * use_doubles
                physical = len(members) + use_jokers + use_doubles
                if not (MIN_LENGTH <= width <= MAX_GROUP and physical >= MIN_LENGTH):
                    continue
                for more_jokers, more_doubles, groups in _groupings(
                        rest, jokers - use_jokers, doubles - use_doubles):
                    yield (use_jokers + more_jokers, use_doubles + more_doubles,
                           ((members, use_jokers, use_doubles), *groups))


# --- the dynamic program ---------------------------------------------------------------------

class _Search:
    def __init__(self, pool: Pool, *, weights: tuple[int, ...], joker_weight: int,
                 double_weight: int, minimum_value: int, deadline: float) -> None:
        self.pool = pool
        self.weights = weights
        self.joker_weight = joker_weight
        self.double_weight = double_weight
        self.minimum_value = minimum_value
        self.deadline = deadline
        self.jokers_max = pool.jokers_required + pool.jokers_optional
        self.doubles_max = pool.doubles_required + pool.doubles_optional
        self.memo: dict[tuple[object, ...], int] = {}
        self.viable_memo: dict[tuple[int, int, tuple[int, int], int], bool] = {}
        self.group_possible = [[sum(1 for other in range(COLOUR_COUNT) if other != colour
                                    and self._available(other, number)) for number in
                                range(HIGHEST_NUMBER + 2)] for colour in range(COLOUR_COUNT)]
        self.bound_after = self._bounds()
        self.choice: dict[tuple[object, ...], tuple[object, ...]] = {}
        self.calls = 0

    def _available(self, colour: int, number: int) -> int:
        if number > HIGHEST_NUMBER:
            return 0
        return self.pool.required[colour][number] + self.pool.optional[colour][number]

    def _bounds(self) -> dict[tuple[int, int], int]:
        """The most the optional tiles from (number, colour) on can still add to the score."""
        bounds: dict[tuple[int, int], int] = {}
        total = (self.joker_weight * self.pool.jokers_optional
                 + self.double_weight * self.pool.doubles_optional)
        bounds[(HIGHEST_NUMBER + 1, 0)] = total
        for number in range(HIGHEST_NUMBER, LOWEST_NUMBER - 1, -1):
            bounds[(number, COLOUR_COUNT)] = total
            for colour in range(COLOUR_COUNT - 1, -1, -1):
                total += self.weights[number] * self.pool.optional[colour][number]
                bounds[(number, colour)] = total
        return bounds

    def viable(self, colour: int, number: int, pair: tuple[int, int], units: int) -> bool:
        """Could this colour's runs still close, ignoring the other colours?

        A relaxation for pruning: any tile may go into a group when some other colour or a
        joker is there at its number, and a double joker counts as two jokers.
        """
        key = (colour, number, pair, units)
        known = self.viable_memo.get(key)
        if known is not None:
            return known
        if number > HIGHEST_NUMBER:
            result = all(code in (0, MIN_LENGTH) for code in pair)
        else:
            required = self.pool.required[colour][number]
            available = required + self.pool.optional[colour][number]
            groups_ok = self.group_possible[colour][number] + units >= 2
            result = False
            for new_pair, tiles, jokers, doubles, _covered, _moves in _pair_moves(pair, number):
                spent = jokers + 2 * doubles
                if tiles > available or spent > units:
                    continue
                if tiles < required and not groups_ok:
                    continue
                if self.viable(colour, number + 1, new_pair, units - spent):
                    result = True
                    break
        self.viable_memo[key] = result
        return result

    def best(self, number: int, colour: int, places: tuple[tuple[int, int], ...],
             grouped: tuple[int, ...], jokers: int, doubles: int, value: int) -> int:
        key = (number, colour, places, grouped, jokers, doubles, value)
        known = self.memo.get(key)
        if known is not None:
            return known
        self.calls += 1
        if self.calls & 1023 == 0 and time.monotonic() > self.deadline:
            raise SearchTimeout
        result, choice = self._best(number, colour, places, grouped, jokers, doubles, value)
        self.memo[key] = result
        if choice is not None:
            self.choice[key] = choice
        return result

    def _best(self, number: int, colour: int, places: tuple[tuple[int, int], ...],
              grouped: tuple[int, ...], jokers: int, doubles: int,
              value: int) -> tuple[int, tuple[object, ...] | None]:
        pool = self.pool
        if number > HIGHEST_NUMBER:
            if any(code not in (0, MIN_LENGTH) for pair in places for code in pair):
                return NEGATIVE, None
            if (jokers < pool.jokers_required or doubles < pool.doubles_required
                    or value < self.minimum_value):
                return NEGATIVE, None
            return (self.joker_weight * (jokers - pool.jokers_required)
                    + self.double_weight * (doubles - pool.doubles_required)), None
        best, best_choice = NEGATIVE, None
        if colour == COLOUR_COUNT:
            for (more_jokers, more_doubles), groups in _group_plans(grouped).items():
                if jokers + more_jokers > self.jokers_max:
                    continue
                if doubles + more_doubles > self.doubles_max:
                    continue
                width = sum(grouped) + more_jokers + 2 * more_doubles
                new_value = min(self.minimum_value, value + number * width)
                score = self.best(number + 1, 0, places, (), jokers + more_jokers,
                                  doubles + more_doubles, new_value)
                if score > best:
                    best, best_choice = score, ("groups", groups, more_jokers, more_doubles)
                    if best >= self.bound_after[(number + 1, 0)]:
                        break
            return best, best_choice
        required = pool.required[colour][number]
        available = required + pool.optional[colour][number]
        for move in _pair_moves(places[colour], number):
            new_pair, tiles, more_jokers, more_doubles, covered, _moves = move
            if (tiles > available or jokers + more_jokers > self.jokers_max
                    or doubles + more_doubles > self.doubles_max):
                continue
            units = (self.jokers_max - jokers - more_jokers
                     + 2 * (self.doubles_max - doubles - more_doubles))
            if not self.viable(colour, number + 1, new_pair, units):
                continue
            new_places = places[:colour] + (new_pair,) + places[colour + 1:]
            new_value = min(self.minimum_value, value + number * covered)
            for in_groups in range(max(0, required - tiles), available - tiles + 1):
                gain = self.weights[number] * (tiles + in_groups - required)
                score = self.best(number, colour + 1, new_places, grouped + (in_groups,),
                                  jokers + more_jokers, doubles + more_doubles, new_value)
                if score > NEGATIVE and score + gain > best:
                    best, best_choice = score + gain, ("runs", move, in_groups)
                    if best >= self.bound_after[(number, colour)]:
                        return best, best_choice
        return best, best_choice

    def plan(self) -> Plan | None:
        start: tuple[tuple[int, int], ...] = ((0, 0),) * COLOUR_COUNT
        score = self.best(LOWEST_NUMBER, 0, start, (), 0, 0, 0)
        if score <= NEGATIVE:
            return None
        return self._follow(score, start)

    def _follow(self, score: int, places: tuple[tuple[int, int], ...]) -> Plan:
        """Walk the recorded choices forward and lay the actual sets."""
        used = empty_counts()
        runs: list[list[tuple[int, list[Piece]]]] = [[(0, []), (0, [])]
                                                     for _ in range(COLOUR_COUNT)]
        sets: list[tuple[Piece, ...]] = []
        grouped: tuple[int, ...] = ()
        jokers = doubles = value = 0
        number, colour = LOWEST_NUMBER, 0
        while number <= HIGHEST_NUMBER:
            key = (number, colour, places, grouped, jokers, doubles, value)
            choice = self.choice[key]
            if choice[0] == "groups":
                _kind, groups, more_jokers, more_doubles = choice
                for members, group_jokers, group_doubles in groups:  # type: ignore[attr-defined]
                    sets.append(tuple([("tile", c, number) for c in members]
                                      + [("joker", None, number)] * group_jokers
                                      + [("double", None, number)] * group_doubles))
                width = sum(grouped) + more_jokers + 2 * more_doubles  # type: ignore[operator]
                value = min(self.minimum_value, value + number * width)
                jokers += more_jokers  # type: ignore[operator]
                doubles += more_doubles  # type: ignore[operator]
                number, colour, grouped = number + 1, 0, ()
                continue
            _kind, move, in_groups = choice
            new_pair, tiles, more_jokers, more_doubles, covered, moves = move  # type: ignore[misc]
            next_runs: list[tuple[int, list[Piece]]] = []
            for (_code, pieces), step, new_code in zip(
                    runs[colour], moves, _codes_after(places[colour], moves, number)):
                if step in ("tile", "joker", "double"):
                    pieces = pieces + [(step, colour, number)]
                elif step is None and pieces:
                    sets.append(tuple(pieces))
                    pieces = []
                next_runs.append((new_code, pieces))
            runs[colour] = sorted(next_runs, key=lambda place: place[0])
            used[colour][number] += tiles + in_groups
            places = places[:colour] + (new_pair,) + places[colour + 1:]
            grouped = grouped + (in_groups,)
            jokers += more_jokers
            doubles += more_doubles
            value = min(self.minimum_value, value + number * covered)
            colour += 1
        sets.extend(tuple(pieces) for places_of_colour in runs
                    for _code, pieces in places_of_colour if pieces)
        return Plan(score=score, sets=tuple(sets), used=freeze(used), jokers_used=jokers,
                    doubles_used=doubles)


def _codes_after(pair: tuple[int, int], moves: tuple[str | None, str | None],
                 number: int) -> list[int]:
    """The new code of each place (in the pair's order) after its move."""
    codes = []
    for code, step in zip(pair, moves):
        codes.append(next(new for new, kind in _place_moves(code, number) if kind == step))
    return codes


def search(pool: Pool, *, weights: tuple[int, ...], joker_weight: int, double_weight: int,
           minimum_value: int = 0, deadline: float) -> Plan | None:
    """The best plan (highest total weight of optional tiles laid), or None if none exists.

    ``weights[n]`` is what laying an optional tile numbered n is worth. Raises
    ``SearchTimeout`` when ``time.monotonic()`` passes ``deadline``.
    """
    return _Search(pool, weights=weights, joker_weight=joker_weight,
                   double_weight=double_weight, minimum_value=minimum_value,
                   deadline=deadline).plan()
