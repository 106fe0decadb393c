"""Placing the mirror and colour-change jokers (Twist) before the search lays the rest.

Their sets depend on the order of the tiles, which the search over numbers does not see, so
the solver builds the sets the per-set rules allow for each of them (as ``melds`` reads them,
see its docstring), smallest first, and lets the search lay the remaining tiles:

* colour-change joker: a run fragment of one colour, the joker (one number), a fragment of
  another colour: ``R5 R6 C B8``. Fragments of up to four tiles are tried: a longer fragment
  can always give its far end away as a run of its own (it still keeps two tiles).
* mirror joker: a side, the joker, the same side reversed: ``R3 R4 M R4 R3``,
  ``R7 B7 M B7 R7``; a side is a run fragment of two or more tiles or a group fragment of two
  to four colours.

Missing tiles of such a set may be regular jokers, two missing neighbours a double joker. What
is not tried, and so where the solver answers that it found no set for the joker: a second
mirror or colour-change joker inside the same set.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations

from companion.core.melds import check_meld
from companion.core.presets import Preset
from companion.core.tiles import HIGHEST_NUMBER, LOWEST_NUMBER, Colour, JokerKind, Meld, Tile

SPECIAL_KINDS = (JokerKind.MIRROR, JokerKind.COLOUR_CHANGE)
LONGEST_COLOUR_CHANGE_FRAGMENT = 4
JOKER = Tile.of_joker(JokerKind.REGULAR)
DOUBLE = Tile.of_joker(JokerKind.DOUBLE)


def _legal(meld: Meld, preset: Preset) -> bool:
    return check_meld(meld, preset=preset).legal


@dataclass(frozen=True, slots=True)
class SpecialPlacement:
    """Sets built around the special jokers, and the tiles left for the search."""

    melds: tuple[Meld, ...]
    required: tuple[Tile, ...]
    optional: tuple[Tile, ...]
    from_optional: tuple[Tile, ...]
    value: int


def place_specials(required: Sequence[Tile], optional: Sequence[Tile], *,
                   preset: Preset) -> Iterator[SpecialPlacement]:
    """Every way to place the special jokers (the optional ones may stay on the rack)."""
    must = [t for t in required if t.joker in SPECIAL_KINDS]
    may = [t for t in optional if t.joker in SPECIAL_KINDS]
    if not must and not may:  # the usual case: nothing to place, nothing to filter out
        yield SpecialPlacement((), tuple(required), tuple(optional), (), 0)
        return
    start = SpecialPlacement((), tuple(t for t in required if t.joker not in SPECIAL_KINDS),
                             tuple(t for t in optional if t.joker not in SPECIAL_KINDS), (), 0)
    yield from _place(start, [(t, True) for t in must] + [(t, False) for t in may], preset)


def _place(done: SpecialPlacement, todo: list[tuple[Tile, bool]],
           preset: Preset) -> Iterator[SpecialPlacement]:
    if not todo:
        yield done
        return
    (special, needed), rest = todo[0], todo[1:]
    if not needed:
        yield from _place(done, rest, preset)
    required, optional = Counter(done.required), Counter(done.optional)
    available = required + optional
    for shape in _shapes(special.joker):
        realised = next((tiles for tiles in _realisations(shape, available)
                         if _legal(tuple(special if t is None else t for t in tiles), preset)),
                        None)
        if realised is None:
            continue
        tiles = realised
        meld = tuple(special if t is None else t for t in tiles)
        verdict = check_meld(meld, preset=preset)
        taken = Counter(t for t in tiles if t is not None)
        from_required = taken & required
        from_optional = taken - from_required
        placement = SpecialPlacement(
            done.melds + (meld,),
            tuple((required - from_required).elements()),
            tuple((optional - from_optional).elements()),
            done.from_optional + tuple(from_optional.elements())
            + (() if needed else (special,)),
            done.value + (verdict.value or 0))
        yield from _place(placement, rest, preset)


def _realisations(shape: tuple[Tile | None, ...],
                  available: Counter[Tile]) -> Iterator[list[Tile | None]]:
    """The shape's tiles from what is available, a missing one replaced by a regular joker
    and two missing neighbours (two numbers of a run, or two colours of a number) perhaps by
    one double joker (seed 003: "in a run it represents two consecutive numbers")."""

    def fill(i: int, left: Counter[Tile], tiles: list[Tile | None]
             ) -> Iterator[list[Tile | None]]:
        if i == len(shape):
            if not all(t in (JOKER, DOUBLE) or t is None for t in tiles):
                yield tiles
            return
        tile = shape[i]
        if tile is None:
            yield from fill(i + 1, left, tiles + [None])
            return
        if left[tile]:
            yield from fill(i + 1, left - Counter([tile]), tiles + [tile])
            return
        if left[JOKER]:
            yield from fill(i + 1, left - Counter([JOKER]), tiles + [JOKER])
        after = shape[i + 1] if i + 1 < len(shape) else None
        if left[DOUBLE] and after is not None and not left[after] and _neighbours(tile, after):
            yield from fill(i + 2, left - Counter([DOUBLE]), tiles + [DOUBLE])

    yield from fill(0, Counter(available), [])


def _neighbours(first: Tile, second: Tile) -> bool:
    """Whether one double joker can stand for both tiles."""
    if first.colour == second.colour:
        return abs((first.number or 0) - (second.number or 0)) == 1
    return first.number == second.number


@cache
def _shapes(kind: JokerKind | None) -> tuple[tuple[Tile | None, ...], ...]:
    """The sets to try for a special joker (None marks where it lies), smallest first."""
    shapes: list[tuple[Tile | None, ...]] = []
    if kind is JokerKind.COLOUR_CHANGE:
        shapes = list(_colour_change_shapes())
    elif kind is JokerKind.MIRROR:
        shapes = list(_mirror_shapes())
    return tuple(sorted(dict.fromkeys(shapes), key=len))


def _colour_change_shapes() -> Iterator[tuple[Tile | None, ...]]:
    longest = LONGEST_COLOUR_CHANGE_FRAGMENT
    for number in range(LOWEST_NUMBER, HIGHEST_NUMBER + 1):
        for before in range(longest + 1):
            for after in range(longest + 1):
                if (before + after < 2 or number - before < LOWEST_NUMBER
                        or number + after > HIGHEST_NUMBER):
                    continue
                for first in (list(Colour) if before else [None]):
                    for second in (list(Colour) if after else [None]):
                        if first is not None and first == second:
                            continue
                        left = tuple(Tile.numbered(first, n) for n in
                                     range(number - before, number)) if first else ()
                        right = tuple(Tile.numbered(second, n) for n in
                                      range(number + 1, number + after + 1)) if second else ()
                        yield (*left, None, *right)


def _mirror_shapes() -> Iterator[tuple[Tile | None, ...]]:
    sides: list[tuple[Tile, ...]] = []
    for colour in Colour:
        for start in range(LOWEST_NUMBER, HIGHEST_NUMBER):
            for end in range(start + 1, HIGHEST_NUMBER + 1):
                sides.append(tuple(Tile.numbered(colour, n) for n in range(start, end + 1)))
    for number in range(LOWEST_NUMBER, HIGHEST_NUMBER + 1):
        for size in (2, 3, 4):
            for colours in combinations(list(Colour), size):
                sides.append(tuple(Tile.numbered(c, number) for c in colours))
    for side in sides:
        yield (*side, None, *side[::-1])
