"""What each joker can stand for: the search for every legal reading of a set.

A *reading* of a set says what every tile stands for and in which order the tiles lie; a set is
legal when it has at least one. How the readings are found is written in
``companion.core.melds`` (the verdicts built from them); this module is the search, bounded by
the input: jokers of one kind are interchangeable and share colours once, and the two sides of a
mirror joker are matched through a dictionary, so the worst set of the Twist box stays within a
few milliseconds (``python -m benchmarks.rules`` searches the joker mixes for the slowest).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import Enum
from itertools import pairwise, product

from companion.core.tiles import HIGHEST_NUMBER, LOWEST_NUMBER, Colour, JokerKind, Meld, Tile

MIN_SET_SIZE = 3  # "Every set on the table has at least 3 tiles" (seed 000, RULES.md "Sets")
MAX_GROUP_SIZE = 4  # "A group is a set of either three or four tiles" (seed 000)
MIN_MIRROR_SIDE = 2  # this app's reading of the mirror joker: each side is a run or group fragment

Slot = tuple[Colour | None, int]
"""One represented tile: a colour (None for a colour-change joker, which has none) and a number."""


class MeldKind(Enum):
    RUN = "run"
    GROUP = "group"


def slot_text(stands: tuple[Slot, ...]) -> str:
    """A joker's reading in the notation: ``R7``, ``R3+R4`` (double joker), ``7`` (a
    colour-change joker stands for a number, no colour)."""
    return "+".join(f"{colour.value}{number}" if colour else str(number)
                    for colour, number in stands)



@dataclass(frozen=True, slots=True)
class Reading:
    kind: MeldKind
    order: tuple[int, ...]
    """Indexes into the given tiles, in the order the tiles lie in this reading."""
    slots: tuple[tuple[Slot, ...], ...]
    """For each given tile (by index), the tiles it stands for."""

    @property
    def value(self) -> int:
        return sum(number for stands in self.slots for _colour, number in stands)


# --- readings: groups and runs where the tiles alone decide ---------------------------------

def tile_width(tile: Tile) -> int:
    """How many tiles a physical tile stands for in a set."""
    if tile.joker is JokerKind.DOUBLE:
        return 2
    if tile.joker is JokerKind.MIRROR:
        return 0
    return 1


def _group_readings(tiles: Meld, *, min_width: int = MIN_SET_SIZE) -> Iterator[Reading]:
    numbered = [t for t in tiles if not t.is_joker]
    colours = [t.colour for t in numbered]
    numbers = {t.number for t in numbered if t.number is not None}
    width = sum(tile_width(t) for t in tiles)
    if (len(numbers) > 1 or len(set(colours)) != len(colours)
            or not min_width <= width <= MAX_GROUP_SIZE):
        return
    joker_indexes = [i for i, t in enumerate(tiles) if t.is_joker]
    missing = [c for c in Colour if c not in colours]
    candidate_numbers = (list(numbers) if numbers
                         else list(range(LOWEST_NUMBER, HIGHEST_NUMBER + 1)))
    for number in candidate_numbers:
        for assignment in _share_colours(joker_indexes, tiles, missing):
            slots = tuple(
                ((t.colour, number),) if not t.is_joker
                else tuple((c, number) for c in assignment[i])
                for i, t in enumerate(tiles))
            yield Reading(MeldKind.GROUP, tuple(range(len(tiles))), slots)


def _share_colours(joker_indexes: Sequence[int], tiles: Meld, missing: Sequence[Colour],
                   floor: dict[JokerKind, int] | None = None,
                   ) -> Iterator[dict[int, tuple[Colour, ...]]]:
    """Every way to hand the missing colours to the jokers (a double joker takes two).

    Jokers of one kind are interchangeable, so only one order of handing out is tried among
    them (each later joker of a kind takes a colour after the one before): ``K9 J J J`` has 1
    sharing, not 6. ``_kind_reading`` gives every joker of a kind the options of all of them.
    """
    if not joker_indexes:
        yield {}
        return
    floor = floor or {}
    first, rest = joker_indexes[0], joker_indexes[1:]
    kind = tiles[first].joker
    assert kind is not None
    take = tile_width(tiles[first])
    for i, colour in enumerate(missing):
        rank = list(Colour).index(colour)
        if rank < floor.get(kind, 0):
            continue
        after = {**floor, kind: rank + 1}
        if take == 1:
            for tail in _share_colours(rest, tiles, [c for c in missing if c != colour], after):
                yield {first: (colour,), **tail}
        else:
            for other in missing[i + 1:]:
                remaining = [c for c in missing if c not in (colour, other)]
                for tail in _share_colours(rest, tiles, remaining, after):
                    yield {first: (colour, other), **tail}


def _run_readings(tiles: Meld) -> Iterator[Reading]:
    """Every way to lay numbered tiles, regular and double jokers as one run."""
    numbered = {t.number: i for i, t in enumerate(tiles) if not t.is_joker}
    colours = {t.colour for t in tiles if not t.is_joker}
    if len(colours) > 1 or len(numbered) != sum(not t.is_joker for t in tiles):
        return
    width = sum(tile_width(t) for t in tiles)
    if width < MIN_SET_SIZE:
        return
    singles = [i for i, t in enumerate(tiles) if t.joker is JokerKind.REGULAR]
    doubles = [i for i, t in enumerate(tiles) if t.joker is JokerKind.DOUBLE]
    # the run covers every numbered tile: it starts at the lowest number or before it, and
    # ends at the highest or after it (a start elsewhere leaves a tile out: no reading)
    numbers = [t.number for t in tiles if t.number is not None]
    first = max([LOWEST_NUMBER, *(n - width + 1 for n in numbers)])
    last = min([HIGHEST_NUMBER - width + 1, *numbers])
    for colour in (colours or set(Colour)):
        for start in range(first, last + 1):
            yield from _fill_run(tiles, colour, start, start + width - 1, numbered,
                                 singles, doubles)


def _fill_run(tiles: Meld, colour: Colour | None, number: int, last: int,
              numbered: dict[int | None, int], singles: list[int], doubles: list[int],
              order: tuple[int, ...] = (),
              slots: dict[int, tuple[Slot, ...]] | None = None) -> Iterator[Reading]:
    slots = slots or {}
    if number > last:
        yield Reading(MeldKind.RUN, order, tuple(slots[i] for i in range(len(tiles))))
        return
    if number in numbered:
        i = numbered[number]
        yield from _fill_run(tiles, colour, number + 1, last, numbered, singles, doubles,
                             order + (i,), {**slots, i: ((colour, number),)})
        return
    if singles:
        i = singles[0]
        yield from _fill_run(tiles, colour, number + 1, last, numbered, singles[1:], doubles,
                             order + (i,), {**slots, i: ((colour, number),)})
    if doubles and number + 1 <= last and number + 1 not in numbered:
        i = doubles[0]
        yield from _fill_run(tiles, colour, number + 2, last, numbered, singles, doubles[1:],
                             order + (i,), {**slots, i: ((colour, number), (colour, number + 1))})


# --- readings where the order given is the rule: colour-change and mirror jokers -----------

def _ordered_run_slots(tiles: Meld, *,
                       min_width: int = MIN_SET_SIZE) -> Iterator[tuple[tuple[Slot, ...], ...]]:
    """Read ``tiles`` left to right as ascending numbers; colour changes only at a ``C``.

    Yields, per tile, what it stands for. Segments between colour-change jokers each keep one
    colour, and neighbouring segments differ.
    """
    offsets, offset = [], 0
    for tile in tiles:
        offsets.append(offset)
        offset += tile_width(tile)
    width = offset
    if width < min_width:
        return
    starts = {t.number - o for t, o in zip(tiles, offsets) if not t.is_joker}  # type: ignore[operator]
    if len(starts) > 1:
        return
    segments: list[list[int]] = [[]]
    for i, tile in enumerate(tiles):
        if tile.joker is JokerKind.COLOUR_CHANGE:
            segments.append([])
        else:
            segments[-1].append(i)
    # A segment with no tile (two colour-change jokers side by side, or one at the end) shows
    # no colour: with four colours it can always differ from both neighbours, so only the
    # segments holding tiles are coloured, and only neighbours with nothing between must differ.
    filled = [segment for segment in segments if segment]
    touching = [bool(a) and bool(b) for a, b in pairwise(segments)]
    must_differ = []
    position = -1
    for index, segment in enumerate(segments):
        if segment:
            position += 1
            if index > 0 and touching[index - 1]:
                must_differ.append(position)
    choices: list[list[Colour]] = []
    for segment in filled:
        colours_seen: set[Colour] = {colour for i in segment
                                     if (colour := tiles[i].colour) is not None}
        if len(colours_seen) > 1:
            return
        choices.append(list(colours_seen) if colours_seen else list(Colour))
    candidate_starts = starts or set(range(LOWEST_NUMBER, HIGHEST_NUMBER + 1))
    for start in candidate_starts:
        if start < LOWEST_NUMBER or start + width - 1 > HIGHEST_NUMBER:
            continue
        for segment_colours in product(*choices):
            if any(segment_colours[p] == segment_colours[p - 1] for p in must_differ):
                continue
            colour_of = {i: segment_colours[s] for s, seg in enumerate(filled) for i in seg}
            yield tuple(
                ((None, start + offsets[i]),) if t.joker is JokerKind.COLOUR_CHANGE
                else tuple((colour_of[i], start + offsets[i] + k) for k in range(tile_width(t)))
                for i, t in enumerate(tiles))


def _colour_change_readings(tiles: Meld) -> Iterator[Reading]:
    forward = tuple(range(len(tiles)))
    for order in (forward, forward[::-1]):
        laid = tuple(tiles[i] for i in order)
        found = False
        for slots in _ordered_run_slots(laid):
            found = True
            by_index = [()] * len(tiles)  # type: list[tuple[Slot, ...]]
            for position, i in enumerate(order):
                by_index[i] = slots[position]
            yield Reading(MeldKind.RUN, order, tuple(by_index))
        if found:
            return


def side_readings(side: Meld) -> Iterator[tuple[MeldKind, tuple[tuple[Slot, ...], ...]]]:
    """Readings of one side of a mirror joker: a run fragment (ascending or descending, left
    to right) or a group fragment, of at least two tiles."""
    if any(t.joker is JokerKind.COLOUR_CHANGE for t in side):
        return  # a colour change inside a mirror side is not a reading this app takes
    for slots in _ordered_run_slots(side, min_width=MIN_MIRROR_SIDE):
        yield MeldKind.RUN, slots
    for slots in _ordered_run_slots(side[::-1], min_width=MIN_MIRROR_SIDE):
        yield MeldKind.RUN, tuple(stands[::-1] for stands in slots[::-1])
    for reading in _group_readings(side, min_width=MIN_MIRROR_SIDE):
        yield MeldKind.GROUP, reading.slots


def _mirror_key(kind: MeldKind, slots: tuple[tuple[Slot, ...], ...],
                *, reverse: bool) -> tuple[object, ...]:
    """What two sides of a mirror joker must share: the same tiles in any order (a group), the
    same tiles in reverse order (a run)."""
    flat = [slot for stands in slots for slot in stands]
    if kind is MeldKind.GROUP:
        return (kind, frozenset(Counter(flat).items()))
    return (kind, tuple(flat[::-1] if reverse else flat))


def _mirror_readings(tiles: Meld) -> Iterator[Reading]:
    """Sides are matched through a dictionary, so the cost grows with the number of readings of
    each side, not with their product (a side of jokers alone has a hundred readings)."""
    (mirror,) = [i for i, t in enumerate(tiles) if t.joker is JokerKind.MIRROR]
    if any(t.joker is JokerKind.COLOUR_CHANGE for t in tiles):
        return  # a colour change inside a mirror side is not a reading this app takes
    left, right = tiles[:mirror], tiles[mirror + 1:]
    width = sum(tile_width(t) for t in left)
    if width < MIN_MIRROR_SIDE or width != sum(tile_width(t) for t in right):
        return
    left_readings = list(side_readings(left))
    if not left_readings:
        return
    right_by_key: dict[tuple[object, ...], list[tuple[tuple[Slot, ...], ...]]] = {}
    for right_kind, right_slots in side_readings(right):
        right_by_key.setdefault(_mirror_key(right_kind, right_slots, reverse=True),
                                []).append(right_slots)
    for left_kind, left_slots in left_readings:
        for right_slots in right_by_key.get(_mirror_key(left_kind, left_slots, reverse=False),
                                            []):
            yield Reading(left_kind, tuple(range(len(tiles))), left_slots + ((),) + right_slots)


# --- choosing a reading, and saying why there is none ---------------------------------------

def all_readings(tiles: Meld) -> list[Reading]:
    kinds = Counter(t.joker for t in tiles if t.is_joker)
    if kinds[JokerKind.MIRROR]:
        if kinds[JokerKind.MIRROR] > 1:
            return []
        return list(_mirror_readings(tiles))
    if kinds[JokerKind.COLOUR_CHANGE]:
        return list(_colour_change_readings(tiles))
    return list(_run_readings(tiles)) + list(_group_readings(tiles))
