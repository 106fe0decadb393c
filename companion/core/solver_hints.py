"""The check, turn and photo pages' hint: "these tiles can be laid as: ...".

``arrangement_hint``: an illegal table (check, photo), its tiles arranged into legal sets.
``turn_hint``: the table after an illegal turn, its tiles arranged into a turn the referee
allows (``solver_rules``), never an arrangement the referee would refuse for that turn.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Sequence

from companion.core.melds import check_meld
from companion.core.presets import PRESSMAN, Preset
from companion.core.reasons import Reason
from companion.core.referee import referee_turn
from companion.core.solver import (
    Solution,
    _judge,
    _not_possible,
    _solve,
    _sorted_sets,
    _weights,
    arrange,
)
from companion.core.solver_rules import Laid, Referee, refereed_play
from companion.core.solver_search import SearchTimeout
from companion.core.tiles import Meld, Tile, format_tiles

HINT_TIME_LIMIT = 0.5


def arrangement_hint(table: Sequence[Sequence[Tile]], *, preset: Preset = PRESSMAN,
                     time_limit: float = HINT_TIME_LIMIT) -> Solution | None:
    """For an illegal table: could its tiles be laid legally, and how? None when it is legal.

    The check, turn and photo answers call this after their verdict; it never raises for a
    table the core already accepted as input.
    """
    melds = [tuple(meld) for meld in table]
    if not melds or all(check_meld(meld, preset=preset).legal for meld in melds):
        return None
    return arrange([tile for meld in melds for tile in meld], preset=preset,
                   time_limit=time_limit)


def turn_hint(before: Sequence[Sequence[Tile]], after: Sequence[Sequence[Tile]], *,
              opened: bool, preset: Preset = PRESSMAN, rack: Sequence[Tile] | None = None,
              time_limit: float = HINT_TIME_LIMIT) -> Solution | None:
    """For a turn whose table after holds an illegal set: could the same tiles be laid as a
    turn the referee allows (same preset and options, ``opened``, rack), and how? None when
    every set after the turn is legal.

    The tiles laid are the table after less the table before. Before the initial meld the
    table before stays as it was and the tiles laid are arranged into new sets; after it, every
    tile is laid anew as ``best_play`` would, every tile laid required. When no arrangement
    passes the referee (a tile went back to the rack, nothing was laid, a joker's rule no
    arrangement keeps), the answer says so: never an arrangement the referee would refuse.
    """
    melds = [tuple(meld) for meld in after]
    if not melds or all(check_meld(meld, preset=preset).legal for meld in melds):
        return None
    old = tuple(tuple(meld) for meld in before)
    old_tiles = Counter(tile for meld in old for tile in meld)
    new_tiles = Counter(tile for meld in melds for tile in meld)
    laid = tuple(sorted((new_tiles - old_tiles).elements(), key=Tile.sort_key))
    no_turn = _not_possible((), Reason("solver_no_legal_turn"), True)
    if not laid or old_tiles - new_tiles:
        return no_turn
    deadline = time.monotonic() + time_limit
    known = tuple(rack) if rack is not None else None
    try:
        if not opened:
            arranged = arrange(laid, preset=preset, time_limit=time_limit)
            if not arranged.possible:
                return arranged
            table = old + arranged.table
            return _hint_of(table, preset) if referee_turn(
                old, table, opened=False, preset=preset, rack=known).legal else no_turn
        everything = tuple(old_tiles.elements()) + laid
        found = _solve(everything, (), weight=_weights("tiles"), minimum_value=0,
                       preset=preset, deadline=deadline)
        if found is None:
            return arrange(everything, preset=preset, time_limit=time_limit)

        def solve(required: Sequence[Tile], optional: Sequence[Tile]) -> Laid | None:
            done = _solve((*required, *optional), (), weight=_weights("tiles"),
                          minimum_value=0, preset=preset, deadline=deadline)
            return None if done is None else Laid(done.melds, done.complete)

        referee = Referee(table=old, rack=known if known is not None else laid, opened=True,
                          preset=preset, solve=solve, worth=lambda _tile: 1,
                          rack_known=known is not None)
        play = refereed_play(referee, Laid(tuple(_sorted_sets(found.melds)), found.complete))
    except SearchTimeout:
        return _not_possible((), Reason("solver_timeout_arrange", {"seconds": f"{time_limit:g}"}),
                             False)
    if play is None or Counter(t for m in play.melds for t in m) != new_tiles:
        return no_turn
    return _hint_of(play.melds, preset)


def _hint_of(table: Sequence[Meld], preset: Preset) -> Solution:
    verdicts = _judge(table, preset)
    return Solution(True, verdicts, (), sum(v.value or 0 for v in verdicts), None, True)


def describe_arrangement(solution: Solution) -> str:
    """One line for the CLI: "These tiles can be laid as: ..." or why they cannot."""
    if solution.possible:
        return "These tiles can be laid as: " + " | ".join(
            format_tiles(meld) for meld in solution.table)
    return f"These tiles cannot all be laid: {solution.reason}."
