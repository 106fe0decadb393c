"""Could these tiles be laid? The solver, and the disputes it settles.

* ``arrange(tiles, preset=...)``: can these tiles (a whole table, up to every tile in the box)
  be split into legal sets? One arrangement, or the reason a player understands.
* ``best_play(table, rack, preset=..., opened=...)``: the most rack tiles (``goal="tiles"``)
  or the highest rack value (``goal="value"``: face value, a joker 30, what leaves the rack)
  that can be laid while the whole table stays legal. Before the initial meld only new sets
  from the rack count, they must reach the preset's minimum, and the table is not touched
  (RULES.md "Initial meld": "may not use or touch tiles on the table"). By default only a
  play the referee allows (``solver_rules``: each candidate judged by ``referee_turn``);
  ``any_table=True``: any legal table after the turn, as integer-programming solvers define it.
* ``arrangement_hint`` and ``turn_hint`` (``solver_hints``): the check, turn and photo pages'
  "these tiles can be laid as ...", the turn's held to the same referee.

The search (``solver_lay``) is a dynamic program over the numbers 1..13 after van Rijn, Takes
and Vis, run on the tiles as they are and mirrored (13 read as 1) in turns; before the initial
meld, and should a spare joker fit nowhere, the older search of ``solver_search`` (the value
laid so far in its state). The rules stay in ``melds``: every set the solver answers with is
judged by ``check_meld`` before it is returned. Numbered tiles, regular and double jokers take
part fully (a joker may stand for a tile whose both copies lie elsewhere). Mirror and
colour-change jokers are placed first, by trying the sets the per-set rules allow for them
(``solver_special``), smallest first; when none fits, the solver says so. A search that runs
past its time limit answers with what it has and ``complete=False``.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal

from companion.core.melds import MeldVerdict, check_meld
from companion.core.presets import PRESSMAN, Preset
from companion.core.reasons import Reason
from companion.core.referee import referee_turn
from companion.core.solver_lay import lay
from companion.core.solver_rules import Laid, Referee, refereed_play
from companion.core.solver_search import (
    COLOUR_COUNT,
    Plan,
    Pool,
    SearchTimeout,
    empty_counts,
    freeze,
    search,
)
from companion.core.solver_special import SpecialPlacement, place_specials
from companion.core.tiles import (
    HIGHEST_NUMBER,
    JOKER_RACK_PENALTY,
    LOWEST_NUMBER,
    Colour,
    JokerKind,
    Meld,
    Table,
    Tile,
    check_inventory,
    format_tiles,
)

Goal = Literal["tiles", "value"]
GOALS: tuple[str, ...] = ("tiles", "value")
DEFAULT_TIME_LIMIT = 2.0
REASON_TIME_LIMIT = 0.1  # looking for "the one tile too many" is a courtesy, kept short
COLOURS = tuple(Colour)


class SolverError(AssertionError):
    """The search answered with a set the core judges illegal: a bug, never a verdict."""


@dataclass(frozen=True, slots=True)
class Solution:
    """What the solver found.

    ``sets`` is the arrangement (``arrange``) or the new table (``best_play``), each set judged
    by the core; ``played`` the rack tiles laid; ``value`` the table's value (``arrange``) or
    the value the rack tiles laid take off the rack (``best_play``: face value, a joker 30).
    """

    possible: bool
    sets: tuple[MeldVerdict, ...]
    played: Meld
    value: int
    reason: str | None
    complete: bool
    why: Reason | None = None
    """``reason`` as a code with parameters (rendered in English by ``companion.core.english``),
    for a page to say in its language."""

    @property
    def table(self) -> Table:
        return tuple(verdict.order for verdict in self.sets)

    def to_json(self) -> dict[str, Any]:
        return {
            "possible": self.possible,
            "sets": [[str(tile) for tile in verdict.order] for verdict in self.sets],
            "played": [str(tile) for tile in self.played],
            "value": self.value,
            "reason": self.reason,
            "reason_code": None if self.why is None else self.why.code,
            "reason_params": None if self.why is None else self.why.params_json(),
            "complete": self.complete,
        }

    def describe(self) -> str:
        """The answer as the CLI prints it."""
        if self.played:
            tiles = "tile" if len(self.played) == 1 else "tiles"
            lines = [(f"Lay {format_tiles(self.played)} from your rack ({len(self.played)} "
                      f"{tiles}, value {self.value}); the table becomes:")]
        elif self.possible:
            lines = ["These tiles can be laid as:"]
        else:
            lines = [f"Not possible: {self.reason}"]
        if self.possible:
            lines += [f"Set {i}: {format_tiles(v.order)}" for i, v in
                      enumerate(self.sets, start=1)]
        if not self.complete:
            lines.append("(The search stopped at its time limit: this is the best found so far.)")
        return "\n".join(lines)


def _not_possible(sets: tuple[MeldVerdict, ...], why: Reason, complete: bool) -> Solution:
    return Solution(False, sets, (), 0, str(why), complete, why)


# --- counting tiles ---------------------------------------------------------------------------

COLOUR_INDEX = {colour: index for index, colour in enumerate(COLOURS)}
NUMBERED = tuple(tuple(Tile.numbered(colour, number) if number else None
                       for number in range(HIGHEST_NUMBER + 1)) for colour in COLOURS)
"""Every numbered tile by colour index and number, made once (a ``Tile`` checks itself)."""
REGULAR_JOKER = Tile.of_joker(JokerKind.REGULAR)
DOUBLE_JOKER = Tile.of_joker(JokerKind.DOUBLE)


def _counts(tiles: Sequence[Tile]) -> tuple[list[list[int]], int, int]:
    """The numbered tiles as counts, the regular jokers and the double jokers, in one pass."""
    counts = empty_counts()
    colour_index = COLOUR_INDEX
    jokers = doubles = 0
    for tile in tiles:
        kind = tile.joker
        if kind is None:
            assert tile.colour is not None and tile.number is not None
            counts[colour_index[tile.colour]][tile.number] += 1
        elif kind is JokerKind.REGULAR:
            jokers += 1
        elif kind is JokerKind.DOUBLE:
            doubles += 1
    return counts, jokers, doubles


def _tally(tiles: Iterable[Tile]) -> tuple[list[list[int]], list[JokerKind]]:
    """The tiles as counts, for comparing two lots quickly (a ``Counter`` hashes each tile)."""
    tiles = list(tiles)
    return _counts(tiles)[0], sorted((t.joker for t in tiles if t.joker is not None),
                                  key=lambda kind: kind.value)


def _tile_of(piece: tuple[str, int | None, int]) -> Tile:
    kind, colour, number = piece
    if kind == "tile":
        assert colour is not None
        tile = NUMBERED[colour][number]
        assert tile is not None
        return tile
    return REGULAR_JOKER if kind == "joker" else DOUBLE_JOKER


PIECE_TILES: dict[tuple[str, int | None, int], Tile] = {
    (kind, colour, number): _tile_of((kind, colour, number))
    for kind in ("tile", "joker", "double")
    for colour in ((*range(COLOUR_COUNT), None) if kind != "tile" else range(COLOUR_COUNT))
    for number in range(LOWEST_NUMBER - 1, HIGHEST_NUMBER + 2)
    if kind != "tile" or LOWEST_NUMBER <= number <= HIGHEST_NUMBER}
"""The tile each piece of a plan stands for, looked up rather than worked out: a plan of the
whole box has a hundred pieces."""


def _melds_of(plan: Plan) -> list[Meld]:
    return [tuple(map(PIECE_TILES.__getitem__, pieces)) for pieces in plan.sets]


@lru_cache(maxsize=4096)
def _verdict(meld: Meld, preset: Preset) -> MeldVerdict:
    """The core's verdict, remembered: the solver lays the same short sets again and again."""
    return check_meld(meld, preset=preset)


def _judge(melds: Sequence[Meld], preset: Preset) -> tuple[MeldVerdict, ...]:
    """Every set judged by the core: one holding a joker through ``_verdict`` (a set a spare
    joker joined was judged then, and is not judged twice), one without directly (quicker than
    looking it up)."""
    verdicts = tuple(_verdict(meld, preset) if any(tile.joker for tile in meld)
                     else check_meld(meld, preset=preset) for meld in melds)
    for verdict in verdicts:
        if not verdict.legal:
            raise SolverError(f"the solver laid an illegal set {format_tiles(verdict.tiles)}: "
                              f"{verdict.reason}")
    return verdicts


def _sorted_sets(melds: Sequence[Meld]) -> list[Meld]:
    """Runs by colour then first number, groups by number: the order a player lays them."""
    def key(meld: Meld) -> tuple[int, int, int]:
        numbered = [t for t in meld if t.number is not None]
        if not numbered:
            return (2, 0, 0)
        colours = {t.colour for t in numbered}
        first = numbered[0]
        assert first.colour is not None and first.number is not None
        if len(colours) == 1 and len(numbered) > 1 and len({t.number for t in numbered}) > 1:
            return (0, COLOUR_INDEX[first.colour], first.number)
        return (1, first.number, 0)
    return sorted(melds, key=key)


# --- the search with the special jokers placed first ------------------------------------------

@dataclass(frozen=True, slots=True)
class _Found:
    melds: tuple[Meld, ...]
    score: int
    complete: bool = True

    @property
    def used(self) -> Counter[Tile]:
        return Counter(tile for meld in self.melds for tile in meld)


def _solve(required: Sequence[Tile], optional: Sequence[Tile], *, weight: dict[str, Any],
           minimum_value: int, preset: Preset, deadline: float,
           most_left: int | None = None) -> _Found | None:
    """The best way to lay every required tile and some optional ones, or None."""
    best: _Found | None = None
    for placement in place_specials(required, optional, preset=preset):
        if time.monotonic() > deadline:
            raise SearchTimeout
        found = _solve_plain(placement, weight=weight,
                             minimum_value=max(0, minimum_value - placement.value),
                             preset=preset, deadline=deadline, most_left=most_left)
        if found is not None and (best is None or found.score > best.score):
            best = found
            if not optional or not found.complete:
                break
    return best


def _solve_plain(placement: SpecialPlacement, *, weight: dict[str, Any], minimum_value: int,
                 preset: Preset, deadline: float,
                 most_left: int | None = None) -> _Found | None:
    """The search on what the special jokers left.

    After the initial meld (no minimum to reach) the dynamic program of ``solver_lay``, which
    lays a regular joker only where a set needs it and lets a spare one join a set afterwards;
    should a spare joker fit nowhere, or a minimum value be asked, the older search of
    ``solver_search``, which lays every joker itself."""
    required, optional = placement.required, placement.optional
    required_counts, jokers_required, doubles_required = _counts(required)
    optional_counts, jokers_optional, doubles_optional = _counts(optional)
    pool = Pool(required=freeze(required_counts), optional=freeze(optional_counts),
                jokers_required=jokers_required, jokers_optional=jokers_optional,
                doubles_required=doubles_required, doubles_optional=doubles_optional)
    jokers = pool.jokers_required + pool.jokers_optional
    special_score = sum(weight["joker"] if tile.is_joker else weight["numbers"][tile.number or 0]
                        for tile in placement.from_optional)
    if minimum_value == 0:
        found_plans: list[Plan] = []
        try:
            plan = lay(pool.required, pool.optional, jokers=jokers,
                       doubles=pool.doubles_required + pool.doubles_optional,
                       doubles_required=pool.doubles_required, weights=weight["numbers"],
                       double_weight=weight["joker"], deadline=deadline,
                       on_better=found_plans.append, most_left=most_left)
        except SearchTimeout:
            if not found_plans:
                raise
            plan, complete = found_plans[-1], False
        else:
            complete = True
        if plan is None:
            return None
        melds = [*placement.melds, *_melds_of(plan)]
        spare = ([Tile.of_joker(JokerKind.REGULAR)] * (jokers - plan.jokers_used)
                 + [Tile.of_joker(JokerKind.DOUBLE)] * (pool.doubles_required
                                                         + pool.doubles_optional
                                                         - plan.doubles_used))
        if not spare or _attach_jokers(melds, spare, preset):
            return _Found(melds=tuple(melds), score=plan.score + special_score
                          + weight["joker"] * pool.jokers_optional, complete=complete)
    found: list[Plan] = []
    try:
        plan = search(pool, weights=weight["numbers"], joker_weight=weight["joker"],
                      double_weight=weight["joker"], minimum_value=minimum_value,
                      deadline=deadline, canonical=False, on_better=found.append)
    except SearchTimeout:
        if not found:
            raise
        plan, complete = found[-1], False
    else:
        complete = True
    if plan is None:
        return None
    melds = [*placement.melds, *_melds_of(plan)]
    return _Found(melds=tuple(melds), score=plan.score + special_score, complete=complete)


def _attach_jokers(melds: list[Meld], spare: list[Tile], preset: Preset) -> bool:
    """Let each spare joker join a set it keeps legal (a run's end, a group of three)."""
    for joker in spare:
        for i, meld in enumerate(melds):
            longer = next((m for m in (meld + (joker,), (joker,) + meld)
                           if _verdict(m, preset).legal), None)
            if longer is not None:
                melds[i] = longer
                break
        else:
            return False
    return True


def _weights(goal: str) -> dict[str, Any]:
    if goal == "tiles":
        return {"numbers": (1,) * (HIGHEST_NUMBER + 1), "joker": 1}
    return {"numbers": tuple(range(HIGHEST_NUMBER + 1)), "joker": JOKER_RACK_PENALTY}


# --- arrange ----------------------------------------------------------------------------------

def arrange(tiles: Sequence[Tile], *, preset: Preset = PRESSMAN,
            time_limit: float = DEFAULT_TIME_LIMIT) -> Solution:
    """Can these tiles be split into legal sets? One arrangement, or why not.

    Raises ``ImpossibleTilesError`` for a third copy of a tile or a joker the edition lacks.
    """
    tiles = tuple(tiles)
    check_inventory(tiles, preset.jokers)
    deadline = time.monotonic() + time_limit
    if not tiles:
        return _not_possible((), Reason("solver_no_tiles"), True)
    try:
        found = _solve(tiles, (), weight=_weights("tiles"), minimum_value=0, preset=preset,
                       deadline=deadline)
    except SearchTimeout:
        return _not_possible((), Reason("solver_timeout_arrange", {"seconds": f"{time_limit:g}"}),
                             False)
    if found is None:
        return _not_possible((), _why_not(tiles, preset, deadline), True)
    if _tally(tile for meld in found.melds for tile in meld) != _tally(tiles):
        raise SolverError("the arrangement does not use exactly the tiles given")
    verdicts = _judge(_sorted_sets(found.melds), preset)
    return Solution(True, verdicts, (), sum(v.value or 0 for v in verdicts), None, True)


def _why_not(tiles: Sequence[Tile], preset: Preset, deadline: float) -> Reason:
    """The reason a player understands: a tile that fits nowhere, or the one tile too many."""
    counts, jokers, doubles = _counts(tiles)
    joker_width = jokers + 2 * doubles
    special = [t for t in tiles if t.joker in (JokerKind.MIRROR, JokerKind.COLOUR_CHANGE)]
    loners = [tile for tile in sorted(set(tiles), key=Tile.sort_key)
              if tile.number is not None and not _fits_somewhere(tile, counts, joker_width)]
    if loners and not special:  # a mirror or colour-change joker makes other sets possible
        return Reason("solver_tiles_fit_nowhere", {"tiles": tuple(loners)})
    if len(tiles) < 3:
        return Reason("solver_too_few_tiles", {"least": 3})
    if special and not any(True for _ in place_specials(tiles, (), preset=preset)):
        plain = [t for t in tiles if t not in special]
        alone = [t for t in special
                 if not any(True for _ in place_specials([*plain, t], (), preset=preset))]
        if alone:
            return Reason("solver_special_joker_alone", {"joker": alone[0].words})
        return Reason("solver_special_jokers_together",
                      {"jokers": tuple(t.words for t in special)})
    deadline = min(deadline, time.monotonic() + REASON_TIME_LIMIT)
    try:  # every tile optional: the most that can be laid leaves out the tile too many
        found = _solve((), tiles, weight=_weights("tiles"), minimum_value=0, preset=preset,
                       deadline=deadline, most_left=1)
    except SearchTimeout:
        found = None
    if found is not None and found.complete:
        left = Counter(tiles) - found.used
        if sum(left.values()) == 1:
            tile = next(iter(left))
            return Reason("solver_tile_too_many", {"tile": (tile,)})
    return Reason("solver_tile_over")


def _fits_somewhere(tile: Tile, counts: list[list[int]], joker_width: int) -> bool:
    assert tile.colour is not None and tile.number is not None
    colour, number = COLOUR_INDEX[tile.colour], tile.number
    others = sum(1 for c in range(COLOUR_COUNT) if c != colour and counts[c][number])
    if others + min(joker_width, 2) >= 2:
        return True
    for start in range(max(LOWEST_NUMBER, number - 2), min(number, HIGHEST_NUMBER - 2) + 1):
        missing = sum(1 for n in range(start, start + 3) if n != number and not counts[colour][n])
        if missing <= joker_width:
            return True
    return False


# --- best play --------------------------------------------------------------------------------

def best_play(table: Sequence[Sequence[Tile]], rack: Sequence[Tile], *,
              preset: Preset = PRESSMAN, opened: bool, goal: str = "tiles",
              time_limit: float = DEFAULT_TIME_LIMIT, any_table: bool = False) -> Solution:
    """The most rack tiles (or the highest value) that can be laid in one turn.

    By default only a play the referee allows (``referee_turn`` under the same preset, with
    its session options, and ``opened``: see ``solver_rules``). ``any_table=True``: any legal
    table after the turn counts, as integer-programming solvers define best play (a joker may
    then be freed and left where the referee refuses it).

    Raises ``ImpossibleTilesError`` when the table and rack together hold a third copy of a
    tile, and ``ValueError`` for an unknown goal.
    """
    if goal not in GOALS:
        raise ValueError(f"unknown goal `{goal}`: choose tiles or value")
    old: Table = tuple(tuple(meld) for meld in table)
    table_tiles = tuple(tile for meld in old for tile in meld)
    rack = tuple(rack)
    check_inventory(table_tiles + rack, preset.jokers)
    deadline = time.monotonic() + time_limit
    weight = _weights(goal)
    as_laid = tuple(check_meld(meld, preset=preset) for meld in table)
    table_laid = True
    if not rack:
        return _not_possible(as_laid, Reason("solver_rack_empty"), True)
    try:
        if opened:
            found = _solve(table_tiles, rack, weight=weight, minimum_value=0, preset=preset,
                           deadline=deadline)
            table_laid = found is not None
            if found is not None and not any_table:
                found = _refereed(old, rack, found, weight=weight, preset=preset,
                                  deadline=deadline)
        else:
            found = _solve((), rack, weight=weight, minimum_value=preset.initial_meld,
                           preset=preset, deadline=deadline)
            if (found is not None and not any_table
                    and not referee_turn(old, old + tuple(_sorted_sets(found.melds)),
                                         opened=False, preset=preset, rack=rack).legal):
                found = None  # never seen: the search lays new sets of rack tiles only
    except SearchTimeout:
        return _not_possible(as_laid, Reason("solver_timeout_play", {"seconds": f"{time_limit:g}"}),
                             False)
    if found is None:
        if opened and table_laid:  # the table can be laid; the referee allows no play with it
            return _not_possible(as_laid, Reason("solver_nothing_to_lay"), True)
        if opened:
            why = arrange(table_tiles, preset=preset, time_limit=max(0.1, deadline -
                                                                     time.monotonic()))
            assert why.why is not None
            return _not_possible(as_laid, Reason("solver_table_cannot_be_laid", {"why": why.why}),
                                 why.complete)
        return _not_possible(as_laid, Reason("solver_meld_out_of_reach", {
            "needed": preset.initial_meld, "preset": preset.name}), True)
    # after the initial meld every table tile is laid again, so what leaves the rack is the
    # new table less the old; before it the table is not touched and every tile laid is the
    # rack's, even where a copy of it lies on the table (the box holds two of every tile)
    played_counter = found.used - Counter(table_tiles) if opened else found.used
    played = tuple(sorted(played_counter.elements(), key=Tile.sort_key))
    if not played:
        return _not_possible(as_laid, Reason("solver_nothing_to_lay"), True)
    if opened:
        if found.used != Counter(table_tiles) + played_counter:
            raise SolverError("the new table lost a tile of the old one")
        verdicts = _judge(_sorted_sets(found.melds), preset)
    else:
        verdicts = as_laid + _judge(_sorted_sets(found.melds), preset)
        meld_value = sum(v.value or 0 for v in verdicts[len(as_laid):])
        if meld_value < preset.initial_meld:
            raise SolverError("the initial meld found is below the minimum")
    value = sum(tile.rack_value() for tile in played)
    return Solution(True, verdicts, played, value, None, found.complete)


def _refereed(table: Table, rack: Meld, found: _Found, *, weight: dict[str, Any],
              preset: Preset, deadline: float) -> _Found | None:
    """The best play the referee allows, ``found`` being the best table (``solver_rules``)."""
    def solve(required: Sequence[Tile], optional: Sequence[Tile]) -> Laid | None:
        done = _solve(required, optional, weight=weight, minimum_value=0, preset=preset,
                      deadline=deadline)
        return None if done is None else Laid(done.melds, done.complete)

    def worth(tile: Tile) -> int:
        return int(weight["joker"] if tile.is_joker else weight["numbers"][tile.number or 0])

    referee = Referee(table=table, rack=rack, opened=True, preset=preset, solve=solve,
                      worth=worth)
    laid = refereed_play(referee, Laid(tuple(_sorted_sets(found.melds)), found.complete))
    if laid is None:
        return None
    return _Found(melds=laid.melds, score=referee.score(laid.melds), complete=laid.complete)


# --- the hints of the check, turn and photo pages live in solver_hints ------------------------

from companion.core.solver_hints import (  # last: it builds on the searches above
    HINT_TIME_LIMIT,
    arrangement_hint,
    describe_arrangement,
    turn_hint,
)

__all__ = ["GOALS", "HINT_TIME_LIMIT", "Solution", "SolverError", "arrange",
           "arrangement_hint", "best_play", "describe_arrangement", "turn_hint"]
