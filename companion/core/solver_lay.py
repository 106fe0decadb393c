"""The solver's main search: lay every required tile and as much of the optional ones as can be.

A dynamic program over the numbers 1 to 13, after van Rijn, Takes and Vis, "The Complexity
of Rummikub Problems" (2015). The tiles are taken number by number and, inside a number,
colour by colour. The state says, for each colour, the runs still open (how many tiles each
holds, counted up to 3: beyond that a run may end whenever), the tiles of this number the
colours so far put into groups, and the jokers left. A run is open wherever a tile or a
joker covers the number, so a colour may hold more than two open runs: a joker may stand for
a tile whose both copies lie in other runs (seed 000: "Each joker can be used as any tile in
a set"; ``check_meld`` judges each set alone, and so does this search).

What is asked is a budget: can every required tile be laid while the optional tiles left
unlaid weigh at most ``budget``? The search is fail-soft: a failure answers the least budget
it proved necessary, and every state remembers that proof, so asking again with a larger
budget (``lay``: the least budget first, until one succeeds) revisits little. A proof also
holds for a state with fewer jokers left, or without one of its long runs. Bounds prune it:
each colour alone, from a state on, needs some jokers and must leave some weight unlaid
for each count of jokers it gets (a relaxation: its tiles may join any group the other
colours' tiles could make, a group's jokers shared among its tiles); the jokers are shared
out among the colours in the best way.

Where the proof is hard depends on the direction: a joker short at 13 is found at once from
13 down and only after every way through 1..12 from 1 up. So ``lay`` runs the search on the
tiles as they are and mirrored (13 read as 1, a run read backwards) in turns of doubling
length, and takes the first answer; both are exact.

Regular and double jokers are laid only where a set needs them (a joker never starts a run
below 9 — ``D D R13`` must — never ends one that was already long enough, never fills a group
that has three tiles); a joker left over joins a set afterwards (``solver._attach_jokers``).
A double joker stands for two numbers in a run and counts one tile of its length (seed 003:
"Run: 2 - Double Joker - 5"), or for two colours in a group.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from functools import cache
from operator import add, itemgetter, mul
from typing import Any

from companion.core.solver_search import (
    COLOUR_COUNT,
    Counts,
    GroupPlan,
    Piece,
    Plan,
    SearchTimeout,
    _group_plans,
)
from companion.core.tiles import HIGHEST_NUMBER, LOWEST_NUMBER

LONG = 3  # "Every set on the table has at least 3 tiles" (seed 000): a run of 3 may end
DUE = 4  # flag: a double joker's second number is due at the next number
SPARE = 8  # flag: the run ends with a joker it did not need, so a tile must follow
LATEST_JOKER_START = 9  # J R12 R13, D D R13: a joker starts a run only where it must
INFINITE = 10**9
UNLIMITED = INFINITE // 2  # a budget this large asks for any way at all
UNITS_PER_JOKER = 2  # jokers are counted in halves: two tiles of a group may share one
UNITS_PER_DOUBLE = 4
_first = itemgetter(0)

Places = tuple[int, ...]
"""The open runs of one colour, by code (length | flags), sorted."""

State = tuple[int, int, tuple[Places, ...], tuple[int, ...], int, int]
"""(number, colour, open runs by colour, tiles in groups so far by colour, jokers left,
double jokers left)."""

Move = tuple[Places, int, int, int, tuple[str, ...]]
"""A colour's run moves at one number: (runs after, tiles, jokers, doubles used, what each
run did: one word per run before, in order, then one per run started)."""


@cache
def _moves_within(places: Places, number: int, doubles_exist: bool, most_tiles: int,
                  most_jokers: int, most_doubles: int) -> tuple[Move, ...]:
    """Every way the open runs of a colour can go on at ``number``, and new runs start,
    taking at most so many tiles, jokers and double jokers (two of each at most: what one
    colour's number can use)."""
    joker_start = number >= LATEST_JOKER_START
    double_ok = doubles_exist and number < HIGHEST_NUMBER  # seed 003: never after 12
    options: list[list[tuple[int | None, str, int, int, int]]] = []
    for code in places:
        length = code & 3
        if code & DUE:
            options.append([(code & ~DUE, "second", 0, 0, 0)])
            continue
        mine: list[tuple[int | None, str, int, int, int]] = []
        if length == LONG and not code & SPARE:
            mine.append((None, "end", 0, 0, 0))
        longer = min(length + 1, LONG)
        mine.append((longer, "tile", 1, 0, 0))
        after_joker = LONG | SPARE if length == LONG else longer
        mine.append((after_joker, "joker", 0, 1, 0))
        if double_ok:
            mine.append((after_joker | DUE, "double", 0, 0, 1))
        options.append(mine)
    found: dict[tuple[Places, int, int, int], Move] = {}

    def walk(i: int, codes: list[int], words: list[str], tiles: int, jokers: int,
             doubles: int) -> None:
        if tiles > most_tiles or jokers > most_jokers or doubles > most_doubles:
            return
        if i == len(options):
            if "end" in words:  # a run ending where another starts: one run instead
                key = (tuple(sorted(codes)), tiles, jokers, doubles)
                found.setdefault(key, (*key, tuple(words)))
                return
            for new_tiles in range(most_tiles + 1 - tiles):
                for new_jokers in range((most_jokers + 1 - jokers) if joker_start else 1):
                    for new_doubles in range((most_doubles + 1 - doubles)
                                             if double_ok and joker_start else 1):
                        new = (codes + [1] * new_tiles + [1] * new_jokers
                               + [1 | DUE] * new_doubles)
                        key = (tuple(sorted(new)), tiles + new_tiles, jokers + new_jokers,
                               doubles + new_doubles)
                        if key not in found:
                            found[key] = (*key, tuple(words + ["tile"] * new_tiles
                                                      + ["joker"] * new_jokers
                                                      + ["double"] * new_doubles))
            return
        for code, word, tile, joker, double in options[i]:
            walk(i + 1, codes if code is None else codes + [code], words + [word],
                 tiles + tile, jokers + joker, doubles + double)

    walk(0, [], [], 0, 0, 0)
    return tuple(sorted(found.values(), key=lambda m: (m[2] + m[3], -m[1], len(m[0]))))


ColourStep = tuple[Places, Move, int, int, int, tuple[tuple[int, int], ...]]
"""A colour's way on at one number: (its runs after, the move, the joker units the runs
spend, jokers, double jokers, then (tiles put in groups, tiles left unlaid) for each count of
tiles in groups the move leaves possible)."""


@cache
def _colour_steps(places: Places, number: int, doubles_exist: bool, available: int,
                  jokers: int, doubles: int, required: int) -> tuple[ColourStep, ...]:
    """The moves of ``_moves_within`` with what the search asks of each worked out once for
    every search: the numbers here are those of one colour at one number, few and small."""
    steps = []
    for move in _moves_within(places, number, doubles_exist, available, jokers, doubles):
        new_places, tiles, more_jokers, more_doubles, _words = move
        groupings = tuple((in_groups, available - tiles - in_groups) for in_groups in
                          range(max(0, required - tiles), min(2, available - tiles) + 1))
        steps.append((new_places, move, UNITS_PER_JOKER * more_jokers
                      + UNITS_PER_DOUBLE * more_doubles, more_jokers, more_doubles, groupings))
    return tuple(steps)


@cache
def _need_steps(places: Places, number: int, doubles_exist: bool, available: int,
                jokers: int, doubles: int, required: int) -> tuple[tuple[Places, int, int], ...]:
    """For ``Layer.need``: each move's runs after, the joker units its runs spend and the
    tiles it must put in groups (every required tile not in a run; at most two)."""
    return tuple((new_places, UNITS_PER_JOKER * more_jokers + UNITS_PER_DOUBLE * more_doubles,
                  max(0, required - tiles))
                 for new_places, tiles, more_jokers, more_doubles, _words in _moves_within(
                     places, number, doubles_exist, available, jokers, doubles)
                 if required - tiles <= 2)


@cache
def _with_long(places: Places) -> Places:
    """The open runs with one more of three or more."""
    return tuple(sorted((*places, LONG)))


def _share(members: int) -> int:
    """Joker units (halves) each of ``members`` tiles of one group needs at least."""
    return {1: 2 * UNITS_PER_JOKER, 2: UNITS_PER_JOKER // 2}.get(members, 0)


@cache
def _group_need(present: int, others: int, unit_cap: int) -> tuple[int, int, int]:
    """Joker units (halves) one or two tiles of a colour need in groups, when ``present``
    other colours hold ``others`` tiles of the number. Two tiles of a colour lie in two
    groups, sharing the other colours' tiles."""
    one = _share(1 + present)
    two = min((_share(1 + a) + _share(1 + b) for a in range(present + 1)
               for b in range(present + 1) if a + b <= others), default=INFINITE)
    return (0, one if one <= unit_cap else INFINITE, two if two <= unit_cap else INFINITE)


@cache
def _group_column(column: tuple[int, ...], unit_cap: int) -> tuple[tuple[int, int, int], ...]:
    """``_group_need`` for each colour, given how many tiles of one number each colour has."""
    present = sum(1 for here in column if here)
    everything = sum(column)
    return tuple(_group_need(present - (here > 0), everything - here, unit_cap)
                 for here in column)


class Layer:
    """One search: the pool, the weights, the remembered proofs."""

    def __init__(self, required: Counts, optional: Counts, *, jokers: int, doubles: int,
                 weights: tuple[int, ...], deadline: float) -> None:
        self.required = required
        self.optional = optional
        self.available = tuple(tuple(map(add, row_r, row_o))
                               for row_r, row_o in zip(required, optional))
        self.jokers = jokers
        self.doubles = doubles
        self.weights = weights
        self.deadline = deadline
        self.doubles_exist = doubles > 0
        self.joker_cap = min(jokers, 2)
        self.double_cap = min(doubles, 2)
        self.capped = tuple(min(count, 2) for count in range(max(jokers, doubles) + 1))
        """Jokers of a kind one colour's number can use, by jokers of that kind left."""
        self.proved: list[list[dict[tuple[tuple[int, ...], int],
                                    dict[tuple[Places, ...], list[int]]]]] = [
            [{} for _ in range(COLOUR_COUNT + 1)] for _ in range(HIGHEST_NUMBER + 2)]
        """What each state was proved to need, by number and colour, then by the tiles in groups
        so far and double jokers left, then by the open runs: one list by jokers left."""
        self.cost_memo: list[list[dict[tuple[Places, int], int]]] = [
            [{} for _ in range(HIGHEST_NUMBER + 2)] for _ in range(COLOUR_COUNT)]
        """By colour and number: what ``cost`` found for each set of open runs and joker units."""
        self.need_memo: list[list[dict[Places, int]]] = [
            [{} for _ in range(HIGHEST_NUMBER + 2)] for _ in range(COLOUR_COUNT)]
        """By colour and number: what ``need`` found for each set of open runs."""
        self.bound_memo: dict[tuple[int, tuple[Places, ...], int], int] = {}
        self.units = UNITS_PER_JOKER * jokers + UNITS_PER_DOUBLE * doubles
        self.weighed = any(any(row) for row in optional)
        self.path: list[tuple[object, ...]] = []
        self.calls = 0
        self.limit = INFINITE
        self.group_units = self._group_units()

    def _group_units(self) -> list[list[tuple[int, int, int]]]:
        """For each colour and number: joker units (halves) its 0, 1 or 2 tiles in groups
        need at least (``INFINITE``: no group could hold them, even with every joker)."""
        unit_cap = UNITS_PER_JOKER * self.jokers + UNITS_PER_DOUBLE * self.doubles
        nothing = (0, INFINITE, INFINITE)
        columns = [_group_column(column, unit_cap)
                   for column in list(zip(*self.available))[LOWEST_NUMBER:HIGHEST_NUMBER + 1]]
        return [[nothing, *(column[colour] for column in columns), nothing]
                for colour in range(COLOUR_COUNT)]

    # --- bounds: one colour alone -----------------------------------------------------------

    def cost(self, colour: int, number: int, places: Places, units: int) -> int:
        """The least weight of this colour's optional tiles from ``number`` on left unlaid,
        with ``units`` joker halves to spend on its runs and its share of groups
        (``INFINITE``: its runs cannot all close)."""
        memo = self.cost_memo[colour][number]
        known = memo.get((places, units))
        if known is not None:
            return known
        if number > HIGHEST_NUMBER:
            result = 0 if all(code == LONG for code in places) else INFINITE
        else:
            weight = self.weights[number]
            group_units = self.group_units[colour][number]
            result = INFINITE
            for new_places, _move, spent, _jokers, _doubles, groupings in _colour_steps(
                    places, number, self.doubles_exist, self.available[colour][number],
                    self.joker_cap, self.double_cap, self.required[colour][number]):
                left = units - spent
                if left < 0:
                    continue
                for in_groups, unlaid in groupings:
                    if group_units[in_groups] > left:
                        continue
                    skipped = weight * unlaid
                    if skipped >= result:
                        continue
                    later = self.cost(colour, number + 1, new_places,
                                      left - group_units[in_groups])
                    result = min(result, later + skipped)
                if result == 0:
                    break
        memo[places, units] = result
        return result

    def need(self, colour: int, number: int, places: Places) -> int:
        """The least joker units (halves) this colour needs from ``number`` on to lay all its
        required tiles, on its runs and its share of groups (``INFINITE``: it cannot)."""
        memo = self.need_memo[colour][number]
        known = memo.get(places)
        if known is not None:
            return known
        if number > HIGHEST_NUMBER:
            result = 0 if all(code == LONG for code in places) else INFINITE
        else:
            group_units = self.group_units[colour][number]
            most = self.units
            result = INFINITE
            for new_places, spent, in_groups in _need_steps(  # optional tiles may stay unlaid
                    places, number, self.doubles_exist, self.available[colour][number],
                    self.joker_cap, self.double_cap, self.required[colour][number]):
                if spent >= result or spent > most:
                    continue
                spent += group_units[in_groups]
                if spent >= result:
                    continue
                result = min(result, spent + self.need(colour, number + 1, new_places))
                if result == 0:
                    break
        memo[places] = result
        return result

    def bound(self, number: int, places: tuple[Places, ...], jokers: int, doubles: int,
              budget: int) -> int:
        """The least budget any way on from this number's start needs (``INFINITE``: none).

        Each colour alone leaves some weight unlaid for each number of joker units it may
        spend; the units are shared out among the colours in the best way (a min-plus sum)."""
        units = UNITS_PER_JOKER * jokers + UNITS_PER_DOUBLE * doubles
        cost = self.cost
        need_memo = self.need_memo
        needed = 0
        for colour in range(COLOUR_COUNT):
            known_need = need_memo[colour][number].get(places[colour])
            needed += (self.need(colour, number, places[colour]) if known_need is None
                       else known_need)
            if needed > units:
                return INFINITE
        if not self.weighed or budget >= UNLIMITED:
            return 0
        key = (number, places, units)
        known = self.bound_memo.get(key)
        if known is not None:
            return known
        joint = [cost(0, number, places[0], u) for u in range(units + 1)]
        for colour in range(1, COLOUR_COUNT):
            mine = [cost(colour, number, places[colour], u) for u in range(units + 1)]
            joint = [min(joint[spent] + mine[u - spent] for spent in range(u + 1))
                     for u in range(units + 1)]
        self.bound_memo[key] = least = min(joint[units], INFINITE)
        return least

    # --- the search -------------------------------------------------------------------------

    def reach(self, number: int, colour: int, places: tuple[Places, ...],
              grouped: tuple[int, ...], jokers: int, doubles: int, budget: int) -> int:
        """The least budget this state (see ``State``) needs, as far as proved: a result at
        most ``budget`` means success (the choices are on ``self.path``, last first).

        The hot loop of the solver: the state comes as arguments and the next states are
        tried as they are made, the first that succeeds sparing the rest."""
        # a state with more jokers left does at least as well (a spare joker joins a set
        # afterwards): what was proved for one with as many or more holds here too
        known = 0
        by_state = self.proved[number][colour]
        if by_state:
            by_places = by_state.get((grouped, doubles))
            if by_places is not None:
                proofs = by_places.get(places)
                if proofs is not None:
                    known = max(proofs[jokers:])
                    if known > budget:
                        return known
                # one more run of three or more open does at least as well (it may end at
                # once): what was proved with it holds here too
                for other, mine in enumerate(places):
                    more = by_places.get(places[:other] + (_with_long(mine),)
                                         + places[other + 1:])
                    if more is not None and max(more[jokers:]) > budget:
                        return max(more[jokers:])
        calls = self.calls = self.calls + 1
        if calls > self.limit:
            raise _Paused
        if calls & 1023 == 0 and time.monotonic() > self.deadline:
            raise SearchTimeout
        if colour == 0:
            if number > HIGHEST_NUMBER:
                if all(code == LONG for mine in places for code in mine):
                    return 0
                return self._proved(number, colour, places, grouped, doubles, jokers,
                                    INFINITE)
            least = self.bound(number, places, jokers, doubles, budget)
            if least > budget:
                return self._proved(number, colour, places, grouped, doubles, jokers, least)
        need = INFINITE
        if colour == COLOUR_COUNT:
            for more_jokers, more_doubles, groups in _group_steps(
                    grouped, jokers, doubles, number == LOWEST_NUMBER):
                found = self.reach(number + 1, 0, places, (), jokers - more_jokers,
                                   doubles - more_doubles, budget)
                if found <= budget:
                    self.path.append(("groups", groups))
                    return found
                need = min(need, found)
        else:
            steps: Iterable[tuple[int, Places, int, Move]] = self._colour_steps(
                number, colour, places, jokers, doubles)
            if self.weighed:  # optional tiles: the cheapest next states first
                steps = sorted(steps, key=_first)
            # else every tile is required: nothing is skipped, and the steps are made lazily,
            # the first that succeeds sparing the rest
            for skipped, new_places, in_groups, move in steps:
                if skipped > budget:
                    need = min(need, skipped)
                    continue
                found = self.reach(number, colour + 1, (*places[:colour], new_places,
                                                        *places[colour + 1:]),
                                   (*grouped, in_groups), jokers - move[2],
                                   doubles - move[3], budget - skipped) + skipped
                if found <= budget:
                    self.path.append(("runs", move, in_groups))
                    return found
                need = min(need, found)
        return self._proved(number, colour, places, grouped, doubles, jokers,
                            max(need, known))

    def _proved(self, number: int, colour: int, places: tuple[Places, ...],
                grouped: tuple[int, ...], doubles: int, jokers: int, need: int) -> int:
        """Remember that the state needs at least ``need``; answer it."""
        by_places = self.proved[number][colour].setdefault((grouped, doubles), {})
        proofs = by_places.get(places)
        if proofs is None:
            proofs = by_places[places] = [0] * (self.jokers + 1)
        proofs[jokers] = need
        return need

    def _colour_steps(self, number: int, colour: int, places: tuple[Places, ...], jokers: int,
                      doubles: int) -> Iterator[tuple[int, Places, int, Move]]:
        """The ways on for one colour at a number that the bound does not rule out, laying
        tiles first: (weight left unlaid, its open runs after, its tiles put in groups, the
        move of its runs)."""
        weight = self.weights[number]
        group_units = self.group_units[colour][number]
        need_memo = self.need_memo[colour][number + 1]
        units = UNITS_PER_JOKER * jokers + UNITS_PER_DOUBLE * doubles
        for new_places, move, spent, _jokers, _doubles, groupings in _colour_steps(
                places[colour], number, self.doubles_exist, self.available[colour][number],
                self.capped[jokers], self.capped[doubles], self.required[colour][number]):
            least = need_memo.get(new_places)
            if least is None:
                least = self.need(colour, number + 1, new_places)
            left = units - spent
            for in_groups, unlaid in groupings:
                if least > left - group_units[in_groups]:
                    continue
                yield weight * unlaid, new_places, in_groups, move

    def solve(self, budget: int) -> int:
        self.path = []
        return self.reach(LOWEST_NUMBER, 0, ((),) * COLOUR_COUNT, (), self.jokers,
                          self.doubles, budget)

    def plan(self, score: int) -> Plan:
        """Lay the sets the last successful ``solve`` chose."""
        choices: list[Any] = self.path[::-1]
        runs: list[list[tuple[int, list[Piece]]]] = [[] for _ in range(COLOUR_COUNT)]
        sets: list[tuple[Piece, ...]] = []
        jokers = doubles = 0
        step = 0
        for number in range(LOWEST_NUMBER, HIGHEST_NUMBER + 1):
            for colour in range(COLOUR_COUNT):
                kind, move, _in_groups = choices[step]
                step += 1
                assert kind == "runs"
                _new_places, _tiles, more_jokers, more_doubles, words = move
                if not words:  # no run open, none started
                    continue
                jokers += more_jokers
                doubles += more_doubles
                old = runs[colour]
                after: list[tuple[int, list[Piece]]] = []
                for i, word in enumerate(words):
                    code, pieces = old[i] if i < len(old) else (0, [])
                    if word == "end":
                        sets.append(tuple(pieces))
                    elif word == "second":
                        after.append((code & ~DUE, pieces))
                    else:
                        pieces.append((word, colour, number))
                        after.append((_CODE_AFTER[word][code], pieces))
                if len(after) > 1:
                    after.sort(key=_first)
                runs[colour] = after
            kind, groups = choices[step]
            step += 1
            assert kind == "groups"
            for members, group_jokers, group_doubles in groups:
                sets.append(tuple([("tile", c, number) for c in members]
                                  + [("joker", None, number)] * group_jokers
                                  + [("double", None, number)] * group_doubles))
                jokers += group_jokers
                doubles += group_doubles
        for colour_runs in runs:
            for _code, pieces in colour_runs:
                sets.append(tuple(pieces))
        return Plan(score=score, sets=tuple(sets), jokers_used=jokers,
                    doubles_used=doubles)


@cache
def _group_steps(grouped: tuple[int, ...], jokers: int, doubles: int,
                 first_number: bool) -> tuple[tuple[int, int, GroupPlan], ...]:
    """The ways to lay the tiles of one number put in groups, with so many jokers and double
    jokers left: (jokers, double jokers, the groups). A group of jokers alone stands for any
    number: it is tried at 1 only."""
    return tuple((more_jokers, more_doubles, groups)
                 for (more_jokers, more_doubles), groups in _group_plans(grouped, True).items()
                 if more_jokers <= jokers and more_doubles <= doubles
                 and (first_number or all(group[0] for group in groups)))


class _Paused(Exception):
    """A search used up its share of steps; its proofs so far are kept for its next turn."""


FIRST_SHARE = 200  # steps a direction gets on its first turn; each turn doubles it


def _code_after(word: str, code: int) -> int:
    """A run's code after a tile, joker or double joker covers the number (see ``Places``)."""
    length = min((code & 3) + 1, LONG)
    if word != "tile" and code & 3 == LONG:
        length = LONG | SPARE
    return length | DUE if word == "double" else length


_CODE_AFTER = {word: tuple(_code_after(word, code) for code in range(16))
               for word in ("tile", "joker", "double")}


def _mirrored(counts: Counts) -> Counts:
    return tuple((0, *row[HIGHEST_NUMBER:0:-1]) for row in counts)


def _mirror_plan(plan: Plan) -> Plan:
    """A plan for the mirrored tiles (13 read as 1) read back: runs reversed, a double joker
    in a run now starting at the other of its two numbers."""
    top = HIGHEST_NUMBER + LOWEST_NUMBER
    sets = []
    for meld in plan.sets:
        pieces = []
        for kind, colour, number in reversed(meld):
            first = top - number - (1 if kind == "double" and colour is not None else 0)
            pieces.append((kind, colour, first))
        sets.append(tuple(pieces))
    return Plan(score=plan.score, sets=tuple(sets),
                jokers_used=plan.jokers_used, doubles_used=plan.doubles_used)


class _Race:
    """The same search run on the tiles as they are and mirrored (13 read as 1), in turns.

    Which way round proves a thing quickly depends on the tiles (where the jokers are
    scarce, say): each direction gets turns of doubling length until one answers; both are
    exact, and each keeps its proofs between turns. The mirrored search is set up only when
    the first turn does not answer."""

    def __init__(self, forward: Layer, backward: Callable[[], Layer]) -> None:
        self.layers = [forward]
        self.make_backward = backward
        self.share = FIRST_SHARE
        self.winner = 0

    def solve(self, budget: int) -> int:
        while True:
            for index, layer in enumerate(self.layers):
                layer.limit = layer.calls + self.share
                try:
                    found = layer.solve(budget)
                except _Paused:
                    continue
                self.winner = index
                return found
            if len(self.layers) == 1:
                self.layers.append(self.make_backward())
            else:
                self.share *= 2

    def plan(self, score: int) -> Plan:
        plan = self.layers[self.winner].plan(score)
        return _mirror_plan(plan) if self.winner else plan


def lay(required: Counts, optional: Counts, *, jokers: int, doubles: int,
        doubles_required: int, weights: tuple[int, ...], double_weight: int, deadline: float,
        on_better: Callable[[Plan], None] | None = None,
        most_left: int | None = None) -> Plan | None:
    """The plan leaving the least weight of optional tiles unlaid, or None when the required
    tiles cannot all be laid (or, given ``most_left``, not while leaving at most that much).
    ``Plan.score`` is the weight of the optional tiles laid (every regular joker counts as
    laid: a spare one joins a set afterwards).

    First any plan (the search tries laying tiles first, so it is a good one), handed to
    ``on_better``; then the least budget the search has not disproved, until one succeeds.
    Raises ``SearchTimeout`` when ``time.monotonic()`` passes ``deadline``.
    """
    def layer(required: Counts, optional: Counts, weights: tuple[int, ...]) -> Layer:
        return Layer(required, optional, jokers=jokers, doubles=doubles, weights=weights,
                     deadline=deadline)

    race = _Race(layer(required, optional, weights),
                 lambda: layer(_mirrored(required), _mirrored(optional),
                               (weights[0], *weights[HIGHEST_NUMBER:0:-1])))
    total = (sum(sum(map(mul, weights, row)) for row in optional)
             + double_weight * (doubles - doubles_required))
    best = None
    if most_left is None:
        first = race.solve(INFINITE - 1)  # any way at all: whether the table can be kept
        if first >= INFINITE:
            return None
        best = race.plan(total - first)
        if on_better is not None:
            on_better(best)
    else:
        first = most_left + 1
    budget = 0
    while budget < first:
        found = race.solve(budget)
        if found <= budget:
            best = race.plan(total - found)
            if on_better is not None:
                on_better(best)
            break
        budget = found
    return best
