"""The solver's search for the initial meld (and its fallback): a dynamic program over 1..13.

``solver_lay`` lays the tiles after the initial meld; this older search, which keeps the value
laid so far in its state, finds the initial meld, and lays every joker itself when a spare
joker ``solver_lay`` left over fits in no set.

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

What this search does not try: a joker standing for a third copy of a tile inside a *run* (it
keeps two open runs per colour; ``solver_lay`` keeps any number), and the mirror and
colour-change jokers, which the solver places itself before calling it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from itertools import combinations, product
from typing import cast

from companion.core.tiles import COPIES_OF_EACH_TILE, HIGHEST_NUMBER, LOWEST_NUMBER

COLOUR_COUNT = 4
RUN_PLACES = COPIES_OF_EACH_TILE  # two open runs per colour at most: two copies of each tile
MIN_LENGTH = 3  # "Every set on the table has at least 3 tiles" (seed 000, RULES.md "Sets")
MAX_GROUP = 4  # "A group is a set of either three or four tiles" (seed 000)
SPARE = 8  # flag bit of a run place: it ends with a joker it does not need (canonical search)
LATEST_JOKER_START = 10  # J R12 R13 and D R12 R13 need a joker first; lower runs never do
DUE = 4  # flag bit of a run place: the double joker's second number is due next
NEGATIVE = -(10**9)
IMPOSSIBLE = 10**9

Piece = tuple[str, int | None, int]
"""One physical tile in a planned set: ("tile", colour index, number), ("joker", colour
index or None, number) or ("double", colour index or None, first number)."""

Counts = tuple[tuple[int, ...], ...]
"""Tile counts by colour index and number (index 0 unused, 1..13)."""


State = tuple[int, int, tuple[tuple[int, int], ...], tuple[int, ...], int, int, int]
"""(number, colour, run places by colour, tiles in groups by colour so far, jokers used,
double jokers used, value laid so far capped at the minimum)."""


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
    jokers_used: int
    doubles_used: int


def empty_counts() -> list[list[int]]:
    return [[0] * (HIGHEST_NUMBER + 1) for _ in range(COLOUR_COUNT)]


def freeze(counts: list[list[int]]) -> Counts:
    return tuple(tuple(row) for row in counts)


# --- the moves of one run place, of a colour's two places, and of the groups of a number ---

def _place_moves(code: int, number: int, canonical: bool) -> list[tuple[int, str | None]]:
    """Where a run place can go at ``number``: (new code, what covers the number).

    ``canonical``: a regular joker is never laid where it is not needed, since a spare joker
    can always join a set at the end (``attach_jokers``): it does not start a run below 10
    (``J R5 R6`` is laid as ``R5 R6 J``; ``J R12 R13`` must start with it), and a joker
    laid after three tiles must be followed by a tile (``R3 R4 R5 J R7``), never end the run.
    """
    length, due, spare = code & 3, code & DUE, code & SPARE
    if due:
        return [(length, "second")]
    moves: list[tuple[int, str | None]] = []
    if length in (0, MIN_LENGTH) and not spare:
        moves.append((0, None))  # stays empty, or a run of three or more ends here
    longer = min(length + 1, MIN_LENGTH)
    moves.append((longer, "tile"))
    if not canonical:
        moves.append((longer, "joker"))
    elif length == MIN_LENGTH:
        moves.append((MIN_LENGTH | SPARE, "joker"))
    elif length or number >= LATEST_JOKER_START:
        moves.append((longer, "joker"))
    if number < HIGHEST_NUMBER:  # "It cannot stand ... after 12 in a run" (RULES.md)
        moves.append((longer | DUE, "double"))
    return moves


PairMove = tuple[tuple[int, int], int, int, int, int, tuple[str | None, str | None]]
"""(new pair of codes, tiles used, jokers used, doubles used, numbers covered, both moves)."""


@cache
def _pair_moves(pair: tuple[int, int], number: int, canonical: bool) -> tuple[PairMove, ...]:
    found: dict[tuple[tuple[int, int], int, int, int], PairMove] = {}
    for (code_a, move_a), (code_b, move_b) in product(
            _place_moves(pair[0], number, canonical), _place_moves(pair[1], number, canonical)):
        moves = (move_a, move_b)
        new_pair = (code_a, code_b) if code_a <= code_b else (code_b, code_a)
        tiles, jokers, doubles = (moves.count("tile"), moves.count("joker"),
                                  moves.count("double"))
        covered = sum(m is not None for m in moves)
        found.setdefault((new_pair, tiles, jokers, doubles),
                         (new_pair, tiles, jokers, doubles, covered, moves))
    return tuple(found.values())


@cache
def _steps(pair: tuple[int, int], number: int, required: int, available: int, jokers: int,
           doubles: int, canonical: bool) -> tuple[tuple[PairMove, int], ...]:
    """A colour's possible steps at a number: a move of its run places and how many of its
    tiles go into groups; tiles in runs first, jokers last (the search stops at the first
    arrangement when it only asks whether one exists)."""
    steps = []
    for move in _pair_moves(pair, number, canonical):
        _new_pair, tiles, more_jokers, more_doubles, _covered, _moves = move
        if tiles > available or more_jokers > jokers or more_doubles > doubles:
            continue
        for in_groups in range(max(0, required - tiles), available - tiles + 1):
            steps.append((move, in_groups))
    steps.sort(key=lambda step: (required - step[0][1] - step[1], step[0][2] + step[0][3],
                                 step[1], -step[0][1]))
    return tuple(steps)


GroupPlan = tuple[tuple[tuple[int, ...], int, int], ...]
"""Groups of one number: (colour indexes of the tiles, jokers, double jokers) each."""


@cache
def _group_plans(tiles_by_colour: tuple[int, ...],
                 canonical: bool) -> dict[tuple[int, int], GroupPlan]:
    """Every (jokers, double jokers) count with which these tiles of one number make groups
    (``canonical``: no regular joker the group could do without)."""
    plans: dict[tuple[int, int], GroupPlan] = {}
    for jokers, doubles, groups in _groupings(tiles_by_colour, 2, 2, canonical):
        plans.setdefault((jokers, doubles), groups)
    return plans


def _groupings(left: tuple[int, ...], jokers: int, doubles: int,
               canonical: bool) -> Iterator[tuple[int, int, GroupPlan]]:
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
                if canonical and use_jokers and min(width, physical) > MIN_LENGTH:
                    continue  # the group is legal without one of its jokers: a spare joker
                for more_jokers, more_doubles, groups in _groupings(
                        rest, jokers - use_jokers, doubles - use_doubles, canonical):
                    yield (use_jokers + more_jokers, use_doubles + more_doubles,
                           ((members, use_jokers, use_doubles), *groups))


# --- the dynamic program ---------------------------------------------------------------------

class _Search:
    def __init__(self, pool: Pool, *, weights: tuple[int, ...], joker_weight: int,
                 double_weight: int, minimum_value: int, deadline: float,
                 canonical: bool) -> None:
        self.pool = pool
        self.canonical = canonical
        self.weights = weights
        self.joker_weight = joker_weight
        self.double_weight = double_weight
        self.minimum_value = minimum_value
        self.deadline = deadline
        self.jokers_max = pool.jokers_required + pool.jokers_optional
        self.doubles_max = pool.doubles_required + pool.doubles_optional
        self.memo: dict[State, tuple[int, int]] = {}
        self.viable_memo: dict[tuple[int, int, tuple[int, int], int], int] = {}
        self.available = [[required + optional for required, optional in zip(row_r, row_o)]
                          + [0] for row_r, row_o in zip(pool.required, pool.optional)]
        self.group_possible = [[0] * (HIGHEST_NUMBER + 2) for _ in range(COLOUR_COUNT)]
        self.group_room = [[[0] * (RUN_PLACES + 1) for _ in range(HIGHEST_NUMBER + 2)]
                           for _ in range(COLOUR_COUNT)]
        for number in range(LOWEST_NUMBER, HIGHEST_NUMBER + 1):
            column = [self.available[c][number] for c in range(COLOUR_COUNT)]
            present = sum(1 for n in column if n)  # with n <= 2: sum(min(1, n))
            everything = sum(column)  # sum(min(2, n))
            for colour, here in enumerate(column):
                self.group_possible[colour][number] = present - (here > 0)
                self.group_room[colour][number][1] = present - (here > 0)
                self.group_room[colour][number][2] = everything - here
        self.bound_after = self._bounds()
        self.choice: dict[tuple[object, ...], tuple[object, ...]] = {}
        self.calls = 0

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
        return self.skip_cost(colour, number, pair, units) < IMPOSSIBLE

    def skip_cost(self, colour: int, number: int, pair: tuple[int, int], units: int) -> int:
        """The least weight of optional tiles this colour must leave unlaid from ``number`` on,
        ignoring the other colours (``IMPOSSIBLE``: its runs cannot close at all).

        A relaxation, so a bound: any tile may go into a group when enough other colours or
        jokers are there at its number, every joker is this colour's to use, and a double
        joker counts as two jokers. Summed over the colours it bounds the whole search.
        """
        key = (colour, number, pair, units)
        known = self.viable_memo.get(key)
        if known is not None:
            return known
        if number > HIGHEST_NUMBER:
            result = 0 if all(code in (0, MIN_LENGTH) for code in pair) else IMPOSSIBLE
        else:
            required = self.pool.required[colour][number]
            available = self.available[colour][number]
            weight = self.weights[number]
            room = self.group_room[colour][number]
            result = IMPOSSIBLE
            for new_pair, tiles, jokers, doubles, _covered, _moves in _pair_moves(
                    pair, number, self.canonical):
                left = units - jokers - 2 * doubles
                if tiles > available or left < 0:
                    continue
                later = self.skip_cost(colour, number + 1, new_pair, left)
                if later >= IMPOSSIBLE:
                    continue
                for in_groups in range(max(0, required - tiles), available - tiles + 1):
                    if in_groups and room[in_groups] + left < 2 * in_groups:
                        continue
                    cost = later + weight * (available - tiles - in_groups)
                    result = min(result, cost)
                if result == 0:
                    break
        self.viable_memo[key] = result
        return result

    def reach(self, state: State, need: int) -> int:
        """Can ``need`` more be scored from ``state``? Fail-soft: a result of at least
        ``need`` is scored by the recorded choices; a smaller one bounds what can be."""
        number, colour = state[0], state[1]
        ceiling = self.bound_after[(number, colour)]
        if ceiling < need:
            return ceiling
        known = self.memo.get(state)
        if known is None:
            low, high = NEGATIVE, ceiling
        else:
            low, high = known
            if high < need:
                return high
            if low >= need:
                return low
        if number <= HIGHEST_NUMBER and known is None and ceiling > 0:
            ceiling -= self._least_skipped(state)
            if ceiling < need:
                self.memo[state] = (low, ceiling)
                return ceiling
            high = ceiling
        self.calls += 1
        if self.calls & 1023 == 0 and time.monotonic() > self.deadline:
            raise SearchTimeout
        if number > HIGHEST_NUMBER:
            result = self._final(state)
            self.memo[state] = (result, result)
            return result
        upper = NEGATIVE
        reach = self.reach
        for gain, child, choice in self._children(state):
            found = reach(child, need - gain) + gain
            if found >= need:
                self.choice[state] = choice
                self.memo[state] = (found, high)
                return found
            upper = max(upper, found)
        self.memo[state] = (low, min(high, upper))
        return upper

    def _least_skipped(self, state: State) -> int:
        """What the optional tiles still to come must lose at least, colour by colour."""
        number, colour, places, _grouped, jokers, doubles, _value = state
        units = self.jokers_max - jokers + 2 * (self.doubles_max - doubles)
        total = 0
        for other in range(COLOUR_COUNT):
            total += self.skip_cost(other, number if other >= colour else number + 1,
                                    places[other], units)
        return min(total, IMPOSSIBLE)

    def _final(self, state: State) -> int:
        _number, _colour, places, _grouped, jokers, doubles, value = state
        pool = self.pool
        if any(code not in (0, MIN_LENGTH) for pair in places for code in pair):
            return NEGATIVE
        if doubles < pool.doubles_required or value < self.minimum_value:
            return NEGATIVE
        if self.canonical:  # every joker not laid here joins a set afterwards
            return (self.joker_weight * pool.jokers_optional
                    + self.double_weight * (doubles - pool.doubles_required))
        if jokers < pool.jokers_required:
            return NEGATIVE
        return (self.joker_weight * (jokers - pool.jokers_required)
                + self.double_weight * (doubles - pool.doubles_required))

    def _children(self, state: State) -> Iterator[tuple[int, State, tuple[object, ...]]]:
        number, colour, places, grouped, jokers, doubles, value = state
        joker_room, double_room = self.jokers_max - jokers, self.doubles_max - doubles
        if colour == COLOUR_COUNT:
            plans = _group_plans(grouped, self.canonical)
            for (more_jokers, more_doubles), groups in plans.items():
                if more_jokers > joker_room or more_doubles > double_room:
                    continue
                width = sum(grouped) + more_jokers + 2 * more_doubles
                yield 0, (number + 1, 0, places, (), jokers + more_jokers,
                          doubles + more_doubles,
                          min(self.minimum_value, value + number * width)
                          if self.minimum_value else 0), (
                    "groups", groups, more_jokers, more_doubles)
            return
        required = self.pool.required[colour][number]
        available = self.available[colour][number]
        for move, in_groups in _steps(places[colour], number, required, available,
                                      min(joker_room, 2), min(double_room, 2), self.canonical):
            new_pair, tiles, more_jokers, more_doubles, covered, _moves = move
            if more_jokers > joker_room or more_doubles > double_room:
                continue
            units = joker_room - more_jokers + 2 * (double_room - more_doubles)
            if in_groups and self.group_room[colour][number][in_groups] + units < 2 * in_groups:
                continue
            if not self.viable(colour, number + 1, new_pair, units):
                continue
            yield (self.weights[number] * (tiles + in_groups - required),
                   (number, colour + 1, places[:colour] + (new_pair,) + places[colour + 1:],
                    grouped + (in_groups,), jokers + more_jokers, doubles + more_doubles,
                    min(self.minimum_value, value + number * covered)
                    if self.minimum_value else 0),
                   ("runs", move, in_groups))

    def plan(self, on_better: Callable[[Plan], None] | None = None) -> Plan | None:
        """The best plan. A first plan comes quickly (the search tries laying tiles first);
        then the search asks for the most the bounds allow and, each time that fails, for
        the bound the failure proved, until it finds a plan that scores it. Each plan found
        is handed to ``on_better``."""
        start: State = (LOWEST_NUMBER, 0, ((0, 0),) * COLOUR_COUNT, (), 0, 0, 0)
        found = self.reach(start, 0)
        if found < 0:
            return None
        best = self._follow(found, start[2])
        if on_better is not None:
            on_better(best)
        need = self.bound_after[(LOWEST_NUMBER, 0)] - self._least_skipped(start)
        while need > best.score:
            found = self.reach(start, need)
            if found >= need:
                best = self._follow(found, start[2])
                if on_better is not None:
                    on_better(best)
                break
            need = found
        return best

    def _follow(self, score: int, places: tuple[tuple[int, int], ...]) -> Plan:
        """Walk the recorded choices forward and lay the actual sets."""
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
                groups = cast(GroupPlan, choice[1])
                more_jokers, more_doubles = cast(int, choice[2]), cast(int, choice[3])
                for members, group_jokers, group_doubles in groups:
                    sets.append(tuple([("tile", c, number) for c in members]
                                      + [("joker", None, number)] * group_jokers
                                      + [("double", None, number)] * group_doubles))
                width = sum(grouped) + more_jokers + 2 * more_doubles
                value = min(self.minimum_value, value + number * width)
                jokers += more_jokers
                doubles += more_doubles
                number, colour, grouped = number + 1, 0, ()
                continue
            move, in_groups = cast(PairMove, choice[1]), cast(int, choice[2])
            new_pair, _tiles, more_jokers, more_doubles, covered, moves = move
            next_runs: list[tuple[int, list[Piece]]] = []
            new_codes = _codes_after(places[colour], moves, number, self.canonical)
            for (_code, pieces), step, new_code in zip(runs[colour], moves, new_codes,
                                                       strict=True):
                if step in ("tile", "joker", "double"):
                    pieces = pieces + [(step, colour, number)]
                elif step is None and pieces:
                    sets.append(tuple(pieces))
                    pieces = []
                next_runs.append((new_code, pieces))
            runs[colour] = sorted(next_runs, key=lambda place: place[0])
            places = places[:colour] + (new_pair,) + places[colour + 1:]
            grouped = grouped + (in_groups,)
            jokers += more_jokers
            doubles += more_doubles
            value = min(self.minimum_value, value + number * covered)
            colour += 1
        sets.extend(tuple(pieces) for places_of_colour in runs
                    for _code, pieces in places_of_colour if pieces)
        return Plan(score=score, sets=tuple(sets), jokers_used=jokers,
                    doubles_used=doubles)


@cache
def _codes_after(pair: tuple[int, int], moves: tuple[str | None, str | None],
                 number: int, canonical: bool) -> list[int]:
    """The new code of each place (in the pair's order) after its move."""
    codes = []
    for code, step in zip(pair, moves):
        codes.append(next(new for new, kind in _place_moves(code, number, canonical)
                          if kind == step))
    return codes


def search(pool: Pool, *, weights: tuple[int, ...], joker_weight: int, double_weight: int,
           minimum_value: int = 0, deadline: float, canonical: bool = False,
           on_better: Callable[[Plan], None] | None = None) -> Plan | None:
    """The best plan (highest total weight of optional tiles laid), or None if none exists.

    ``weights[n]`` is what laying an optional tile numbered n is worth. Raises
    ``SearchTimeout`` when ``time.monotonic()`` passes ``deadline``.
    """
    return _Search(pool, weights=weights, joker_weight=joker_weight,
                   double_weight=double_weight, minimum_value=minimum_value,
                   deadline=deadline, canonical=canonical).plan(on_better)
