"""Sets on the table: groups, runs, jokers and their readings, meld values.

A *reading* of a set says what every tile stands for and in which order the tiles lie.
A set is legal when it has at least one legal reading. How readings are found:

* Numbered tiles, regular jokers (``J``) and double jokers (``D``): the tiles alone decide.
  A set is legal when its tiles can be laid as a legal group or run; the given order only
  picks between legal readings (``R5 R6 J``: the joker is R7; ``J R5 R6``: R4). When the
  given order is itself a legal run, that reading is used; otherwise the set is *reordered*
  and shown in a legal order (``R12 R13 J`` is legal as ``J R12 R13``).
* Colour-change jokers (``C``) and mirror jokers (``M``): the order given is the rule. A run
  with a colour-change joker is read left to right (or, failing that, right to left, which is
  reported as reordered): the tiles before each ``C`` share one colour, the tiles after it
  share another, and the numbers stay consecutive through it (``C`` stands for one number).
* Mirror joker, the reading this app takes (seed 003 shows it only in pictures): the
  mirror stands between two *sides* that reflect each other tile for tile. Each side is a run
  fragment (consecutive numbers of one colour, read towards or away from the mirror) or a
  group fragment (one number, different colours), of at least two tiles (a double joker
  counts for two); the right side is the left side in reverse order (for a group, the same
  tiles in any order). ``R3 R4 R5 M R5 R4 R3`` and ``R7 B7 M B7 R7`` are legal. A set holds at
  most one mirror joker, and the mirror is worth 0.
* A double joker stands for two tiles: two consecutive numbers in a run, two missing colours in
  a group; it can never stand for 0 or 14, and a set still needs 3 physical tiles.

The meld value of a set is the value of its chosen reading: the highest among the readings
the given order allows (or among all readings when the set had to be reordered).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import Enum
from itertools import pairwise, product
from typing import Any

from companion.core.presets import PRESSMAN, Preset
from companion.core.reasons import Reason
from companion.core.tiles import (
    HIGHEST_NUMBER,
    LOWEST_NUMBER,
    Colour,
    JokerKind,
    Meld,
    Tile,
    check_inventory,
    format_tiles,
)

MIN_SET_SIZE = 3  # "Every set on the table has at least 3 tiles" (seed 000, RULES.md "Sets")
MAX_GROUP_SIZE = 4  # "A group is a set of either three or four tiles" (seed 000)
MIN_MIRROR_SIDE = 2  # this app's reading of the mirror joker: each side is a run or group fragment

RULE_GROUP = "A group is 3 or 4 tiles of one number, every colour different."
RULE_RUN = ("A run is 3 or more consecutive numbers of one colour; 1 is always the lowest, "
            "so 13 cannot be followed by 1.")
RULE_SIZE = "Every set on the table has at least 3 tiles."
RULE_JOKER = "A joker stands for any one tile that makes the set legal."
RULE_DOUBLE = ("A double joker stands for two tiles: two consecutive numbers in a run or two "
               "colours in a group; never 0 or 14.")
RULE_MIRROR = ("A mirror joker stands between two sides that mirror each other; it is worth 0 "
               "(this app: each side a run or group fragment of at least two tiles).")
RULE_COLOUR_CHANGE = ("A colour-change joker is used only in runs: the tiles before it are one "
                      "colour, the tiles after it another, and the numbers stay consecutive.")

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
class JokerReading:
    """What the joker at ``position`` (1-based, in the order the set is *laid*) stands for.

    ``options`` lists every reading left open by the chosen readings, as tiles: (B7,) and (O7,)
    for a joker in a group of three, (R3, R4) for a double joker, (7,) (a number, no colour)
    for a colour-change joker, none for a mirror joker. ``typed_position`` is where the joker
    stands in the order given (the same unless the set was reordered).
    """

    position: int
    joker: JokerKind
    options: tuple[tuple[Slot, ...], ...]
    typed_position: int = 0

    @property
    def stands_for(self) -> tuple[str, ...]:
        """The options in the notation, sorted: ``("O9", "R9")``."""
        return tuple(sorted({slot_text(option) for option in self.options} - {""}))

    def to_json(self) -> dict[str, Any]:
        return {"position": self.position, "typed_position": self.typed_position or self.position,
                "joker": self.joker.value, "stands_for": list(self.stands_for)}

    def describe(self) -> str:
        if self.joker is JokerKind.MIRROR:
            return f"mirror joker at {self.position} reflects its sides"
        return f"{self.joker.word} at {self.position} = {' or '.join(self.stands_for)}"


@dataclass(frozen=True, slots=True)
class KindReading:
    """The readings of a set as one kind (run or group): the best value, the order laid, and
    what each joker stands for."""

    kind: MeldKind
    value: int
    order: Meld
    jokers: tuple[JokerReading, ...]

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind.value, "value": self.value,
                "order": [str(t) for t in self.order],
                "jokers": [j.to_json() for j in self.jokers]}

    def describe(self) -> str:
        jokers = "; ".join(j.describe() for j in self.jokers)
        return f"as a {self.kind.value} ({format_tiles(self.order)}, value {self.value})" + (
            f": {jokers}" if jokers else "")


@dataclass(frozen=True, slots=True)
class MeldVerdict:
    """The verdict on one set. ``why`` is the reason code (None when legal); ``reason`` its
    English sentence. ``readings`` lists every kind the set can be read as (the chosen one
    first); ``kind``, ``value``, ``jokers`` and ``order`` are the chosen reading's."""

    tiles: Meld
    legal: bool
    kind: MeldKind | None
    why: Reason | None
    value: int | None
    jokers: tuple[JokerReading, ...]
    order: Meld
    reordered: bool
    rule: str
    readings: tuple[KindReading, ...] = ()

    @property
    def reason(self) -> str | None:
        return None if self.why is None else str(self.why)

    @property
    def kinds(self) -> tuple[MeldKind, ...]:
        return tuple(reading.kind for reading in self.readings)

    def to_json(self) -> dict[str, Any]:
        return {
            "tiles": [str(t) for t in self.tiles],
            "legal": self.legal,
            "kind": self.kind.value if self.kind else None,
            "reason": self.reason,
            "reason_code": None if self.why is None else self.why.code,
            "reason_params": None if self.why is None else self.why.params_json(),
            "value": self.value,
            "jokers": [j.to_json() for j in self.jokers],
            "readings": [r.to_json() for r in self.readings],
            "reordered": self.reordered,
            "order": [str(t) for t in self.order],
            "rule": self.rule,
        }

    def describe(self) -> str:
        if not self.legal:
            return f"{format_tiles(self.tiles)}: not legal: {self.reason}"
        assert self.kind is not None
        if len(self.readings) > 1:
            return (f"{format_tiles(self.tiles)}: legal, "
                    + " or ".join(r.describe() for r in self.readings))
        parts = [f"{format_tiles(self.tiles)}: legal {self.kind.value}, value {self.value}"]
        if self.reordered:
            parts.append(f"laid as {format_tiles(self.order)}")
        parts.extend(j.describe() for j in self.jokers)
        return "; ".join(parts)


@dataclass(frozen=True, slots=True)
class TableVerdict:
    sets: tuple[MeldVerdict, ...]
    preset: Preset

    @property
    def legal(self) -> bool:
        return bool(self.sets) and all(s.legal for s in self.sets)

    @property
    def total(self) -> int:
        """The value of the legal sets (an illegal set counts for nothing)."""
        return sum(s.value or 0 for s in self.sets if s.legal)

    @property
    def meets_initial_meld(self) -> bool:
        return self.legal and self.total >= self.preset.initial_meld

    def to_json(self) -> dict[str, Any]:
        return {
            "legal": self.legal,
            "sets": [s.to_json() for s in self.sets],
            "total": self.total,
            "preset": self.preset.key,
            "initial_meld": self.preset.initial_meld,
            "meets_initial_meld": self.meets_initial_meld,
        }

    def describe(self) -> str:
        lines = [f"Set {i}: {s.describe()}" for i, s in enumerate(self.sets, start=1)]
        illegal = sum(not s.legal for s in self.sets)
        if illegal:
            lines.append(f"Table: NOT LEGAL ({illegal} of {len(self.sets)} "
                         f"{'set' if len(self.sets) == 1 else 'sets'} illegal).")
            lines.append(f"Legal sets are worth {self.total}; a table that is not legal is no "
                         f"initial meld ({self.preset.initial_meld} needed, "
                         f"{self.preset.name}).")
        else:
            lines.append("Table: legal.")
            verb = "reaches" if self.meets_initial_meld else "is below"
            lines.append(f"The sets are worth {self.total}, which {verb} the initial meld of "
                         f"{self.preset.initial_meld} ({self.preset.name}).")
        return "\n".join(lines)


@dataclass(frozen=True, slots=True)
class _Reading:
    kind: MeldKind
    order: tuple[int, ...]
    """Indexes into the given tiles, in the order the tiles lie in this reading."""
    slots: tuple[tuple[Slot, ...], ...]
    """For each given tile (by index), the tiles it stands for."""

    @property
    def value(self) -> int:
        return sum(number for stands in self.slots for _colour, number in stands)


# --- readings: groups and runs where the tiles alone decide ---------------------------------

def _width(tile: Tile) -> int:
    """How many tiles a physical tile stands for in a set."""
    if tile.joker is JokerKind.DOUBLE:
        return 2
    if tile.joker is JokerKind.MIRROR:
        return 0
    return 1


def _group_readings(tiles: Meld, *, min_width: int = MIN_SET_SIZE) -> Iterator[_Reading]:
    numbered = [t for t in tiles if not t.is_joker]
    colours = [t.colour for t in numbered]
    numbers = {t.number for t in numbered if t.number is not None}
    width = sum(_width(t) for t in tiles)
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
            yield _Reading(MeldKind.GROUP, tuple(range(len(tiles))), slots)


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
    take = _width(tiles[first])
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


def _run_readings(tiles: Meld) -> Iterator[_Reading]:
    """Every way to lay numbered tiles, regular and double jokers as one run."""
    numbered = {t.number: i for i, t in enumerate(tiles) if not t.is_joker}
    colours = {t.colour for t in tiles if not t.is_joker}
    if len(colours) > 1 or len(numbered) != sum(not t.is_joker for t in tiles):
        return
    width = sum(_width(t) for t in tiles)
    if width < MIN_SET_SIZE:
        return
    singles = [i for i, t in enumerate(tiles) if t.joker is JokerKind.REGULAR]
    doubles = [i for i, t in enumerate(tiles) if t.joker is JokerKind.DOUBLE]
    for colour in (colours or set(Colour)):
        for start in range(LOWEST_NUMBER, HIGHEST_NUMBER - width + 2):
            yield from _fill_run(tiles, colour, start, start + width - 1, numbered,
                                 singles, doubles)


def _fill_run(tiles: Meld, colour: Colour | None, number: int, last: int,
              numbered: dict[int | None, int], singles: list[int], doubles: list[int],
              order: tuple[int, ...] = (),
              slots: dict[int, tuple[Slot, ...]] | None = None) -> Iterator[_Reading]:
    slots = slots or {}
    if number > last:
        yield _Reading(MeldKind.RUN, order, tuple(slots[i] for i in range(len(tiles))))
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
        offset += _width(tile)
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
    known: list[Colour | None] = []
    for segment in segments:
        colours_seen = {tiles[i].colour for i in segment if not tiles[i].is_joker}
        if len(colours_seen) > 1:
            return
        known.append(next(iter(colours_seen)) if colours_seen else None)
    choices = [[c] if c else list(Colour) for c in known]
    candidate_starts = starts or set(range(LOWEST_NUMBER, HIGHEST_NUMBER + 1))
    for start in candidate_starts:
        if start < LOWEST_NUMBER or start + width - 1 > HIGHEST_NUMBER:
            continue
        for segment_colours in product(*choices):
            if any(a == b for a, b in pairwise(segment_colours)):
                continue
            colour_of = {i: segment_colours[s] for s, seg in enumerate(segments) for i in seg}
            yield tuple(
                ((None, start + offsets[i]),) if t.joker is JokerKind.COLOUR_CHANGE
                else tuple((colour_of[i], start + offsets[i] + k) for k in range(_width(t)))
                for i, t in enumerate(tiles))


def _colour_change_readings(tiles: Meld) -> Iterator[_Reading]:
    forward = tuple(range(len(tiles)))
    for order in (forward, forward[::-1]):
        laid = tuple(tiles[i] for i in order)
        found = False
        for slots in _ordered_run_slots(laid):
            found = True
            by_index = [()] * len(tiles)  # type: list[tuple[Slot, ...]]
            for position, i in enumerate(order):
                by_index[i] = slots[position]
            yield _Reading(MeldKind.RUN, order, tuple(by_index))
        if found:
            return


def _side_readings(side: Meld) -> Iterator[tuple[MeldKind, tuple[tuple[Slot, ...], ...]]]:
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


def _mirror_readings(tiles: Meld) -> Iterator[_Reading]:
    """Sides are matched through a dictionary, so the cost grows with the number of readings of
    each side, not with their product (a side of jokers alone has a hundred readings)."""
    (mirror,) = [i for i, t in enumerate(tiles) if t.joker is JokerKind.MIRROR]
    left, right = tiles[:mirror], tiles[mirror + 1:]
    width = sum(_width(t) for t in left)
    if width < MIN_MIRROR_SIDE or width != sum(_width(t) for t in right):
        return
    left_readings = list(_side_readings(left))
    if not left_readings:
        return
    right_by_key: dict[tuple[object, ...], list[tuple[tuple[Slot, ...], ...]]] = {}
    for right_kind, right_slots in _side_readings(right):
        right_by_key.setdefault(_mirror_key(right_kind, right_slots, reverse=True),
                                []).append(right_slots)
    for left_kind, left_slots in left_readings:
        for right_slots in right_by_key.get(_mirror_key(left_kind, left_slots, reverse=False),
                                            []):
            yield _Reading(left_kind, tuple(range(len(tiles))), left_slots + ((),) + right_slots)


# --- choosing a reading, and saying why there is none ---------------------------------------

def _all_readings(tiles: Meld) -> list[_Reading]:
    kinds = Counter(t.joker for t in tiles if t.is_joker)
    if kinds[JokerKind.MIRROR]:
        if kinds[JokerKind.MIRROR] > 1:
            return []
        return list(_mirror_readings(tiles))
    if kinds[JokerKind.COLOUR_CHANGE]:
        return list(_colour_change_readings(tiles))
    return list(_run_readings(tiles)) + list(_group_readings(tiles))


def check_meld(tiles: Sequence[Tile], *, preset: Preset = PRESSMAN) -> MeldVerdict:
    """The verdict on one set: legal or not, why, its kind, joker readings and value."""
    tiles = tuple(tiles)
    missing_kind = next((t for t in tiles if t.joker and not preset.jokers.get(t.joker)), None)
    if missing_kind is not None:
        return _illegal(tiles, Reason("joker_not_in_edition", {
            "joker": missing_kind.words, "preset": preset.name}), RULE_JOKER)
    if len(tiles) < MIN_SET_SIZE:
        double = any(t.joker is JokerKind.DOUBLE for t in tiles)
        return _illegal(tiles, Reason("too_few_tiles", {
            "least": MIN_SET_SIZE, "double_joker": "yes" if double else "no"}), RULE_SIZE)
    readings = _all_readings(tiles)
    if not readings:
        reason, rule = _why_illegal(tiles)
        return _illegal(tiles, reason, rule)

    given = tuple(range(len(tiles)))
    pool = [r for r in readings if r.order == given] or readings
    by_kind = [_kind_reading(tiles, [r for r in pool if r.kind is kind])
               for kind in (MeldKind.RUN, MeldKind.GROUP) if any(r.kind is kind for r in pool)]
    by_kind.sort(key=lambda reading: -reading.value)  # stable: a run first on equal value
    chosen = by_kind[0]
    return MeldVerdict(tiles=tiles, legal=True, kind=chosen.kind, why=None, value=chosen.value,
                       jokers=chosen.jokers, order=chosen.order, reordered=chosen.order != tiles,
                       rule=_rule_for(tiles, chosen.kind), readings=tuple(by_kind))


def _kind_reading(tiles: Meld, readings: list[_Reading]) -> KindReading:
    """The best readings of one kind: their value, the order laid and every joker's options,
    the jokers numbered in the order laid."""
    best_value = max(r.value for r in readings)
    best = [r for r in readings if r.value == best_value]
    order = best[0].order
    laid_position = {index: place for place, index in enumerate(order, start=1)}
    options: dict[int, set[tuple[Slot, ...]]] = {}
    for index, tile in enumerate(tiles):
        if tile.joker is not None:
            options[index] = {r.slots[index] for r in best}
    if readings[0].kind is MeldKind.GROUP:  # interchangeable jokers: see _share_colours
        for kind in {t.joker for t in tiles if t.joker is not None}:
            same = [i for i in options if tiles[i].joker is kind]
            shared = set().union(*(options[i] for i in same))
            for i in same:
                options[i] = shared
    jokers = tuple(sorted(
        (JokerReading(laid_position[i], t.joker, tuple(sorted(options[i], key=_slot_key)),
                      typed_position=i + 1)
         for i, t in enumerate(tiles) if t.joker is not None),
        key=lambda reading: reading.position))
    return KindReading(readings[0].kind, best_value, tuple(tiles[i] for i in order), jokers)


def _slot_key(stands: tuple[Slot, ...]) -> str:
    return slot_text(stands)


def _rule_for(tiles: Meld, kind: MeldKind) -> str:
    rules = [RULE_RUN if kind is MeldKind.RUN else RULE_GROUP]
    jokers = {t.joker for t in tiles if t.joker}
    rules += [text for joker, text in ((JokerKind.REGULAR, RULE_JOKER),
                                       (JokerKind.DOUBLE, RULE_DOUBLE),
                                       (JokerKind.MIRROR, RULE_MIRROR),
                                       (JokerKind.COLOUR_CHANGE, RULE_COLOUR_CHANGE))
              if joker in jokers]
    return " ".join(rules)


def _illegal(tiles: Meld, reason: Reason, rule: str) -> MeldVerdict:
    return MeldVerdict(tiles=tiles, legal=False, kind=None, why=reason, value=None,
                       jokers=(), order=tiles, reordered=False, rule=rule)


def _why_illegal(tiles: Meld) -> tuple[Reason, str]:
    """The one reason a player accepts, for a set with no legal reading, and its rule."""
    kinds = Counter(t.joker for t in tiles if t.is_joker)
    if kinds[JokerKind.MIRROR] > 1:
        return Reason("mirror_twice"), RULE_MIRROR
    if kinds[JokerKind.MIRROR]:
        return _why_not_mirrored(tiles), RULE_MIRROR
    numbered = [t for t in tiles if not t.is_joker]
    if kinds[JokerKind.COLOUR_CHANGE]:
        return _why_not_colour_change_run(tiles, numbered), RULE_COLOUR_CHANGE
    if not numbered:
        return Reason("jokers_only"), RULE_JOKER
    numbers = Counter(t.number for t in numbered)
    colours = Counter(t.colour for t in numbered)
    top_number, same_number = numbers.most_common(1)[0]
    top_colour, same_colour = colours.most_common(1)[0]
    assert top_number is not None and top_colour is not None
    if len(numbers) == 1 or (same_number > same_colour):
        return _why_not_group(tiles, numbered, top_number), RULE_GROUP
    if len(colours) == 1 or same_colour > same_number:
        return _why_not_run(tiles, numbered, top_colour), RULE_RUN
    if same_number == 1:
        return Reason("neither_number_nor_colour"), f"{RULE_GROUP} {RULE_RUN}"
    both = Reason("neither_group_nor_run", {
        "group": _why_not_group(tiles, numbered, top_number),
        "run": _why_not_run(tiles, numbered, top_colour)})
    return both, f"{RULE_GROUP} {RULE_RUN}"


def _why_not_group(tiles: Meld, numbered: list[Tile], number: int) -> Reason:
    strangers = tuple(t for t in numbered if t.number != number)
    if strangers:
        return Reason("group_wrong_number", {"tiles": strangers, "number": number})
    doubled = [c for c, n in Counter(t.colour for t in numbered).items() if n > 1]
    if doubled:
        assert doubled[0] is not None
        return Reason("group_repeats_colour", {"colour": doubled[0].word, "number": number})
    width = sum(_width(t) for t in tiles)
    doubles = any(t.joker is JokerKind.DOUBLE for t in tiles)
    return Reason("group_too_big", {"most": MAX_GROUP_SIZE, "width": width,
                                    "double_joker": "yes" if doubles else "no"})


def _why_not_run(tiles: Meld, numbered: list[Tile], colour: Colour) -> Reason:
    strangers = tuple(t for t in numbered if t.colour != colour)
    if strangers:
        return Reason("run_wrong_colour", {"tiles": strangers, "colour": colour.word})
    doubled = sorted(n for n, k in Counter(t.number for t in numbered).items() if k > 1
                     if n is not None)
    if doubled:
        return Reason("run_repeats_number", {"colour": colour.word, "number": doubled[0]})
    numbers = sorted(t.number for t in numbered if t.number is not None)
    joker_width = sum(_width(t) for t in tiles if t.is_joker)
    width = len(numbers) + joker_width
    if width > HIGHEST_NUMBER:
        return Reason("run_too_long", {"longest": HIGHEST_NUMBER})
    if HIGHEST_NUMBER in numbers and LOWEST_NUMBER in numbers and _fits_if_wrapping(
            numbers, joker_width):
        return Reason("run_wraps")
    missing = tuple(str(n) for n in range(numbers[0], numbers[-1] + 1) if n not in numbers)
    if len(missing) > joker_width:
        jokers = sum(1 for t in tiles if t.is_joker)
        return Reason("run_gap", {"colour": colour.word, "missing": missing, "jokers": jokers,
                                  "places": joker_width})
    return Reason("double_joker_misfit")


def _fits_if_wrapping(numbers: list[int], joker_width: int) -> bool:
    """Would the numbers make a run if 1 could follow 13? (Only then is that the reason.)"""
    wrapped = sorted(n + HIGHEST_NUMBER if n <= HIGHEST_NUMBER // 2 else n for n in numbers)
    missing = (wrapped[-1] - wrapped[0] + 1) - len(wrapped)
    return missing <= joker_width


def _why_not_colour_change_run(tiles: Meld, numbered: list[Tile]) -> Reason:
    if len({t.number for t in numbered}) == 1 and len(numbered) > 1:
        return Reason("colour_change_in_group")
    for laid in (tiles, tiles[::-1]):
        offsets, offset = [], 0
        for tile in laid:
            offsets.append(offset)
            offset += _width(tile)
        if len({t.number - o for t, o in zip(laid, offsets)  # type: ignore[operator]
                if not t.is_joker}) <= 1:
            break
    else:
        return Reason("colour_change_not_consecutive")
    segments: list[list[Tile]] = [[]]
    for tile in tiles:
        if tile.joker is JokerKind.COLOUR_CHANGE:
            segments.append([])
        elif not tile.is_joker:
            segments[-1].append(tile)
    for segment in segments:
        if len({t.colour for t in segment}) > 1:
            return Reason("colour_change_mixed_segment", {"tiles": tuple(segment)})
    for before, after in pairwise(segments):
        if before and after and before[-1].colour == after[0].colour:
            assert before[-1].colour is not None
            return Reason("colour_change_same_colour", {"colour": before[-1].colour.word})
    return Reason("colour_change_out_of_range")


def _why_not_mirrored(tiles: Meld) -> Reason:
    mirror = next(i for i, t in enumerate(tiles) if t.joker is JokerKind.MIRROR)
    left, right = tiles[:mirror], tiles[mirror + 1:]
    if not left or not right:
        return Reason("mirror_side_missing")
    left_width = sum(_width(t) for t in left)
    right_width = sum(_width(t) for t in right)
    if left_width != right_width:
        return Reason("mirror_sides_unequal", {"left": left_width, "right": right_width})
    if left_width < MIN_MIRROR_SIDE:
        return Reason("mirror_side_too_short", {"least": MIN_MIRROR_SIDE})
    for name, side in (("left", left), ("right", right)):
        if not any(True for _ in _side_readings(side)):
            return Reason("mirror_side_not_a_set", {"side": name})
    return Reason("mirror_sides_differ", {"left": left, "right": right})


def check_table(table: Sequence[Sequence[Tile]], *, preset: Preset = PRESSMAN) -> TableVerdict:
    """The verdict on every set of a table.

    Raises ``ImpossibleTilesError`` when the table holds a third copy of a tile or more jokers
    than the edition has: that is an input error, not a verdict.
    """
    check_inventory((tile for meld in table for tile in meld), preset.jokers)
    return TableVerdict(sets=tuple(check_meld(tuple(meld), preset=preset) for meld in table),
                        preset=preset)


JokerOptions = dict[JokerKind, frozenset[tuple[Slot, ...]]]
"""For each kind of joker in a set, every tile (or pair, for a double joker) it may stand for."""


def joker_options(tiles: Sequence[Tile], *, as_laid: bool,
                  preset: Preset = PRESSMAN) -> JokerOptions | None:
    """What the jokers of a set can stand for; None when the set is not legal.

    ``as_laid``: only the readings the given order allows (every one of them, not only the
    highest: ``J K5 J`` is the run K4 K5 K6 or a group of 5s), falling back on every reading
    when the set must be reordered. Otherwise every reading the tiles allow in any order
    (colour-change and mirror jokers keep their order: there, order is the rule).
    """
    tiles = tuple(tiles)
    if not check_meld(tiles, preset=preset).legal:
        return None
    readings = _all_readings(tiles)
    if as_laid:
        given = tuple(range(len(tiles)))
        readings = [r for r in readings if r.order == given] or readings
    options: dict[JokerKind, set[tuple[Slot, ...]]] = {}
    for reading in readings:
        for index, tile in enumerate(tiles):
            if tile.joker is not None:
                options.setdefault(tile.joker, set()).add(reading.slots[index])
    return {kind: frozenset(found) for kind, found in options.items()}
