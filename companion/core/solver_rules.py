"""The solver's plays held to the referee: a play is offered only when the referee allows it.

The search (``solver``) finds the best *table*: any legal table after the turn that holds the
old table's tiles and some of the rack's, as integer-programming solvers define best play
(``best_play(..., any_table=True)``). A turn can break rules the table after it does not show:
a joker taken from a set must make a new set ("must play the joker on his/her current turn to
make a new set", seed 000); under the Sabra Way it is exchanged only for a tile "from your
hand", goes into a new set "with 2 more tiles from your hand", and a set holding a joker may
not be split (seed 004); a bonus joker cannot take a joker's place (seed 003); the tournament
rule of a session. Those rules live in ``referee`` once: this module never restates them, it
asks ``referee_turn`` about each candidate play (the same call ``companion turn`` makes, under
the same preset, opened flag and session options) and offers the best one it calls legal.

The candidates, best first (the first the referee allows among equals is kept):

1. the best table itself: when the referee allows it, it is the best legal play (every legal
   play is a legal table);
2. for each choice of the table's sets holding a joker to leave where they lie (every such
   choice while there are at most ``MOST_JOKER_SETS_CHOSEN`` of them; else none or all):
   the other table tiles laid anew with the rack's, the sets left in place lengthened by the
   rack tiles left over where the referee allows it (a fourth tile of a group, either end of
   a run); the jokers of the sets not left in place either laid by the search with the rest,
   or laid in new sets of rack tiles left over (what seed 000 and seed 004 ask of a freed
   joker).

Candidate 2 with every joker set left in place frees no joker, so the referee's joker rules
have nothing to refuse: some play is always found when one without a retrieval exists.

Decisions where the seeds are silent (written here, tested in tests/core/test_solver_rules.py):

* a play the referee refuses is never offered, not even with a warning: the table takes the
  solver's word (issue 26); the best legal play may lay fewer tiles than the best table;
* the search over candidates is not exhaustive: a retrieval that needs a rack tile both to
  lengthen a set left in place and elsewhere may be missed; then a play laying fewer tiles is
  offered, never an illegal one. The property test in tests/core/test_solver_rules.py holds
  every answer to the referee on random tables of every preset.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations

from companion.core.melds import check_meld
from companion.core.presets import Preset
from companion.core.referee import referee_turn
from companion.core.solver_search import SearchTimeout
from companion.core.tiles import Meld, Table, Tile

MOST_JOKER_SETS_CHOSEN = 3
"""Up to this many table sets holding a joker, every choice of which to leave in place is
tried (2³ searches at most); beyond it (Twist: up to eight jokers) only none and all."""
MOST_SMALL_SETS = 4
"""Of the smallest new sets a freed joker can make with two rack tiles, so many are tried."""


@dataclass(frozen=True, slots=True)
class Laid:
    """A candidate play: the sets of the table after it, and whether its search finished."""

    melds: tuple[Meld, ...]
    complete: bool = True


Solve = Callable[[Sequence[Tile], Sequence[Tile]], "Laid | None"]
"""The solver's search: lay every required tile and the most optional ones (None: cannot)."""


@dataclass(frozen=True, slots=True)
class Referee:
    """The turn's facts the referee judges a candidate with, and the search to ask for more."""

    table: Table
    rack: Meld
    opened: bool
    preset: Preset
    solve: Solve
    worth: Callable[[Tile], int]
    """What laying one rack tile scores (the goal: 1 a tile, or its value)."""
    rack_known: bool = True
    """False for a turn hint without the rack: ``rack`` is then the tiles the turn laid, and
    the referee is not told a rack (as the turn itself was judged)."""

    def allows(self, melds: Sequence[Meld]) -> bool:
        """The referee's verdict on the turn from the table to these sets, with the rack."""
        return referee_turn(self.table, tuple(melds), opened=self.opened, preset=self.preset,
                            rack=self.rack if self.rack_known else None).legal

    def played(self, melds: Sequence[Meld]) -> Counter[Tile]:
        """The rack tiles a play after the initial meld lays: the table after less before."""
        return (Counter(tile for meld in melds for tile in meld)
                - Counter(tile for meld in self.table for tile in meld))

    def score(self, melds: Sequence[Meld]) -> int:
        return sum(self.worth(tile) for tile in self.played(melds).elements())


def refereed_play(referee: Referee, first: Laid | None) -> Laid | None:
    """The best play the referee allows (after the initial meld), ``first`` being the best
    table; None when the referee allows none that lays a tile.

    Raises ``SearchTimeout`` only when the time ran out before any allowed play was found."""
    if first is not None and referee.allows(first.melds):
        return first
    # no legal play scores more than the best table: a candidate that scores as much is best
    bound = None if first is None else referee.score(first.melds)
    best: Laid | None = None
    best_score = 0
    try:
        for laid in _candidates(referee, first is not None):
            score = referee.score(laid.melds)
            if score > best_score and referee.allows(laid.melds):
                best, best_score = laid, score
                if bound is not None and score >= bound:
                    break
    except SearchTimeout:
        if best is None:
            raise
        return Laid(best.melds, complete=False)
    return best


def _candidates(referee: Referee, table_found: bool) -> Iterator[Laid]:
    table = referee.table
    joker_sets = [index for index, meld in enumerate(table) if any(t.is_joker for t in meld)]
    if len(joker_sets) <= MOST_JOKER_SETS_CHOSEN:
        choices = [frozenset(kept) for size in range(len(joker_sets), -1, -1)
                   for kept in combinations(joker_sets, size)]
    else:
        choices = [frozenset(joker_sets), frozenset()]
    for kept in choices:
        released = [index for index in joker_sets if index not in kept]
        loose = [tile for index, meld in enumerate(table) if index not in kept for tile in meld]
        if released and not table_found:
            continue  # the table's own tiles cannot be laid: releasing more cannot help
        if kept or not released:  # with nothing kept this is the best table, judged already
            rest = referee.solve(loose, referee.rack)
            if rest is not None:
                yield _lengthened(referee, kept, loose, rest)
        if released:
            yield from _jokers_in_new_sets(referee, kept, released)


def _jokers_in_new_sets(referee: Referee, kept: frozenset[int],
                        released: Sequence[int]) -> Iterator[Laid]:
    """The released sets' jokers laid in new sets of rack tiles (only jokers and rack tiles: a
    new set whatever else lies on the table), their numbered tiles laid with the rest: the
    rest first and the jokers with the rack tiles it left over; the jokers first with the most
    rack tiles, then the rest; and each smallest new set of a joker and two rack tiles
    (``MOST_SMALL_SETS`` of them), then the rest."""
    table = referee.table
    freed = [tile for index in released for tile in table[index] if tile.is_joker]
    loose = [tile for index, meld in enumerate(table) if index not in kept for tile in meld
             if not (index in released and tile.is_joker)]
    rack = Counter(referee.rack)
    rest = referee.solve(loose, referee.rack)
    if rest is not None:
        left = rack - (Counter(t for m in rest.melds for t in m) - Counter(loose))
        new = referee.solve(freed, tuple(left.elements()))
        if new is not None:
            yield _lengthened(referee, kept, loose + freed,
                              Laid(rest.melds + new.melds, rest.complete and new.complete))
    new_sets: list[Laid] = []
    new = referee.solve(freed, referee.rack)
    if new is not None:
        new_sets.append(new)
    if len(freed) == 1:
        small = [(freed[0], *pair) for pair in dict.fromkeys(combinations(
                     sorted(referee.rack, key=Tile.sort_key), 2))
                 if _legal_set((freed[0], *pair), referee)]
        new_sets.extend(Laid((meld,)) for meld in small[:MOST_SMALL_SETS])
    for new in new_sets:
        left = rack - (Counter(t for m in new.melds for t in m) - Counter(freed))
        rest = referee.solve(loose, tuple(left.elements()))
        if rest is not None:
            yield _lengthened(referee, kept, loose + freed,
                              Laid(new.melds + rest.melds, rest.complete and new.complete))


def _legal_set(meld: Meld, referee: Referee) -> bool:
    """A set of a freed joker and rack tiles that is legal (``check_meld``, the set validator
    the referee judges sets with; the joker's rules are judged with the whole turn)."""
    return check_meld(meld, preset=referee.preset).legal


def _lengthened(referee: Referee, kept: frozenset[int], loose: Sequence[Tile],
                rest: Laid) -> Laid:
    """The sets left in place, each lengthened by rack tiles the play left over where the
    referee allows the lengthening, and the rest of the play (``loose``: the table tiles
    in it)."""
    table = referee.table
    sets = {index: table[index] for index in sorted(kept)}
    left = Counter(referee.rack) - (Counter(t for m in rest.melds for t in m) - Counter(loose))
    grown = True
    while grown and left:
        grown = False
        for tile in sorted(left, key=Tile.sort_key):
            for index, meld in sets.items():
                ways = [meld + (tile,), (tile,) + meld]
                joker = next((t for t in left if t.is_joker and t != tile), None)
                if joker is not None:  # R3 + J: R3 J R5 R6
                    ways += [meld + (joker, tile), (tile, joker) + meld]
                longer = next((candidate for candidate in ways
                               if referee_turn((table[index],), (candidate,), opened=True,
                                               preset=referee.preset).legal),
                              None)
                if longer is not None:
                    sets[index] = longer
                    left -= Counter(longer) - Counter(meld)
                    grown = True
                    break
            if grown:
                break
    return Laid(tuple(sets.values()) + rest.melds, rest.complete)
