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


@dataclass(frozen=True, slots=True)
class JokerReading:
    """What the joker at ``position`` (1-based, in the order given) stands for.

    ``stands_for`` lists every reading left open by the chosen readings: ``("B7", "O7")`` for a
    joker in a group of three, ``("R3+R4",)`` for a double joker, ``("7",)`` for a
    colour-change joker (a number, no colour), ``()`` for a mirror joker.
    """

    position: int
    joker: JokerKind
    stands_for: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {"position": self.position, "joker": self.joker.value,
                "stands_for": list(self.stands_for)}

    def describe(self) -> str:
        if self.joker is JokerKind.MIRROR:
            return f"mirror joker at {self.position} reflects its sides"
        return f"{self.joker.word} at {self.position} = {' or '.join(self.stands_for)}"


@dataclass(frozen=True, slots=True)
class MeldVerdict:
    tiles: Meld
    legal: bool
    kind: MeldKind | None
    reason: str | None
    value: int | None
    jokers: tuple[JokerReading, ...]
    order: Meld
    reordered: bool
    rule: str

    def to_json(self) -> dict[str, Any]:
        return {
            "tiles": [str(t) for t in self.tiles],
            "legal": self.legal,
            "kind": self.kind.value if self.kind else None,
            "reason": self.reason,
            "value": self.value,
            "jokers": [j.to_json() for j in self.jokers],
            "reordered": self.reordered,
            "order": [str(t) for t in self.order],
            "rule": self.rule,
        }

    def describe(self) -> str:
        if not self.legal:
            return f"{format_tiles(self.tiles)}: not legal: {self.reason}"
        assert self.kind is not None
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
            lines.append(f"Table: NOT LEGAL ({illegal} of {len(self.sets)} sets illegal).")
        else:
            lines.append("Table: legal.")
        verb = "reaches" if self.total >= self.preset.initial_meld else "is below"
        lines.append(f"Legal sets are worth {self.total}, which {verb} the initial meld of "
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


def _share_colours(joker_indexes: Sequence[int], tiles: Meld,
                   missing: Sequence[Colour]) -> Iterator[dict[int, tuple[Colour, ...]]]:
    """Every way to hand the missing colours to the jokers (a double joker takes two)."""
    if not joker_indexes:
        yield {}
        return
    first, rest = joker_indexes[0], joker_indexes[1:]
    take = _width(tiles[first])
    for i, colour in enumerate(missing):
        if take == 1:
            for tail in _share_colours(rest, tiles, [c for c in missing if c != colour]):
                yield {first: (colour,), **tail}
        else:
            for other in missing[i + 1:]:
                remaining = [c for c in missing if c not in (colour, other)]
                for tail in _share_colours(rest, tiles, remaining):
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


def _mirror_readings(tiles: Meld) -> Iterator[_Reading]:
    (mirror,) = [i for i, t in enumerate(tiles) if t.joker is JokerKind.MIRROR]
    left, right = tiles[:mirror], tiles[mirror + 1:]
    right_readings = list(_side_readings(right))
    for left_kind, left_slots in _side_readings(left):
        left_flat = [slot for stands in left_slots for slot in stands]
        for right_kind, right_slots in right_readings:
            if right_kind is not left_kind:
                continue
            right_flat = [slot for stands in right_slots for slot in stands]
            mirrored = (Counter(left_flat) == Counter(right_flat) if left_kind is MeldKind.GROUP
                        else left_flat == right_flat[::-1])
            if mirrored:
                yield _Reading(left_kind, tuple(range(len(tiles))),
                               left_slots + ((),) + right_slots)


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


def _slot_text(stands: tuple[Slot, ...]) -> str:
    return "+".join(f"{colour.value}{number}" if colour else str(number)
                    for colour, number in stands)


def check_meld(tiles: Sequence[Tile], *, preset: Preset = PRESSMAN) -> MeldVerdict:
    """The verdict on one set: legal or not, why, its kind, joker readings and value."""
    tiles = tuple(tiles)
    missing_kind = next((t for t in tiles if t.joker and not preset.jokers.get(t.joker)), None)
    if missing_kind is not None:
        return _illegal(tiles, f"the {missing_kind.words} is not part of {preset.name}: "
                               "bonus jokers come only with Twist", RULE_JOKER)
    if len(tiles) < MIN_SET_SIZE:
        note = " (a double joker is still one tile)" if any(
            t.joker is JokerKind.DOUBLE for t in tiles) else ""
        return _illegal(tiles, f"a set needs at least {MIN_SET_SIZE} tiles{note}", RULE_SIZE)
    readings = _all_readings(tiles)
    if not readings:
        reason, rule = _why_illegal(tiles)
        return _illegal(tiles, reason, rule)

    given = tuple(range(len(tiles)))
    in_order = [r for r in readings if r.order == given]
    pool = in_order or readings
    best_value = max(r.value for r in pool)
    best = [r for r in pool if r.value == best_value]
    kind = MeldKind.RUN if any(r.kind is MeldKind.RUN for r in best) else MeldKind.GROUP
    best = [r for r in best if r.kind is kind]
    jokers = tuple(
        JokerReading(i + 1, t.joker,
                     tuple(sorted({_slot_text(r.slots[i]) for r in best} - {""})))
        for i, t in enumerate(tiles) if t.joker is not None)
    order = tuple(tiles[i] for i in best[0].order)
    return MeldVerdict(tiles=tiles, legal=True, kind=kind, reason=None, value=best_value,
                       jokers=jokers, order=order, reordered=order != tiles,
                       rule=_rule_for(tiles, kind))


def _rule_for(tiles: Meld, kind: MeldKind) -> str:
    rules = [RULE_RUN if kind is MeldKind.RUN else RULE_GROUP]
    jokers = {t.joker for t in tiles if t.joker}
    rules += [text for joker, text in ((JokerKind.REGULAR, RULE_JOKER),
                                       (JokerKind.DOUBLE, RULE_DOUBLE),
                                       (JokerKind.MIRROR, RULE_MIRROR),
                                       (JokerKind.COLOUR_CHANGE, RULE_COLOUR_CHANGE))
              if joker in jokers]
    return " ".join(rules)


def _illegal(tiles: Meld, reason: str, rule: str) -> MeldVerdict:
    return MeldVerdict(tiles=tiles, legal=False, kind=None, reason=reason, value=None,
                       jokers=(), order=tiles, reordered=False, rule=rule)


def _plural(word: str, count: int) -> str:
    return word if count == 1 else word + "s"


def _a_number(number: int | None) -> str:
    """ "a 7", "an 8", "an 11": numbers as a player says them."""
    return f"{'an' if number in (8, 11) else 'a'} {number}"


def _words_list(items: Sequence[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _why_illegal(tiles: Meld) -> tuple[str, str]:
    """The one reason a player accepts, for a set with no legal reading, and its rule."""
    kinds = Counter(t.joker for t in tiles if t.is_joker)
    if kinds[JokerKind.MIRROR] > 1:
        return "a set can hold only one mirror joker", RULE_MIRROR
    if kinds[JokerKind.MIRROR]:
        return _why_not_mirrored(tiles), RULE_MIRROR
    numbered = [t for t in tiles if not t.is_joker]
    if kinds[JokerKind.COLOUR_CHANGE]:
        return _why_not_colour_change_run(tiles, numbered), RULE_COLOUR_CHANGE
    if not numbered:
        return "these jokers cannot make a set", RULE_JOKER
    numbers = Counter(t.number for t in numbered)
    colours = Counter(t.colour for t in numbered)
    top_number, same_number = numbers.most_common(1)[0]
    top_colour, same_colour = colours.most_common(1)[0]
    if len(numbers) == 1 or (same_number > same_colour):
        return _why_not_group(tiles, numbered, top_number), RULE_GROUP
    if len(colours) == 1 or same_colour > same_number:
        return _why_not_run(tiles, numbered, top_colour), RULE_RUN
    if same_number == 1:
        return ("these tiles share neither a number (for a group) nor a colour (for a run)",
                f"{RULE_GROUP} {RULE_RUN}")
    both = (f"not a group ({_why_not_group(tiles, numbered, top_number)}) and not a run "
            f"({_why_not_run(tiles, numbered, top_colour)})")
    return both, f"{RULE_GROUP} {RULE_RUN}"


def _why_not_group(tiles: Meld, numbered: list[Tile], number: int | None) -> str:
    strangers = [t for t in numbered if t.number != number]
    if strangers:
        return (f"{_words_list([t.words for t in strangers])} "
                f"{'is' if len(strangers) == 1 else 'are'} not {_a_number(number)}: a group is "
                "one number in different colours")
    doubled = [c for c, n in Counter(t.colour for t in numbered).items() if n > 1]
    if doubled:
        assert doubled[0] is not None
        return f"a group can't hold two {doubled[0].word} {number}s"
    width = sum(_width(t) for t in tiles)
    doubles = " (a double joker counts as two)" if any(
        t.joker is JokerKind.DOUBLE for t in tiles) else ""
    return (f"a group has at most {MAX_GROUP_SIZE} tiles, one of each colour; this one would "
            f"have {width}{doubles}")


def _why_not_run(tiles: Meld, numbered: list[Tile], colour: Colour | None) -> str:
    assert colour is not None
    strangers = [t for t in numbered if t.colour != colour]
    if strangers:
        return (f"{_words_list([t.words for t in strangers])} "
                f"{'is' if len(strangers) == 1 else 'are'} not {colour.word}: a run is one "
                "colour")
    doubled = sorted(n for n, k in Counter(t.number for t in numbered).items() if k > 1
                     if n is not None)
    if doubled:
        return f"a run can't hold two {colour.word} {doubled[0]}s"
    numbers = sorted(t.number for t in numbered if t.number is not None)
    joker_width = sum(_width(t) for t in tiles if t.is_joker)
    width = len(numbers) + joker_width
    if width > HIGHEST_NUMBER:
        return f"a run can't be longer than {HIGHEST_NUMBER} tiles (1 to 13)"
    if HIGHEST_NUMBER in numbers and LOWEST_NUMBER in numbers and _fits_if_wrapping(
            numbers, joker_width):
        return "13 cannot be followed by 1: 1 is always the lowest number"
    missing = [n for n in range(numbers[0], numbers[-1] + 1) if n not in numbers]
    if len(missing) > joker_width:
        gap = _words_list([str(n) for n in missing])
        if joker_width == 0:
            return (f"a run needs consecutive numbers: {colour.word} {gap} "
                    f"{'is' if len(missing) == 1 else 'are'} missing")
        jokers = sum(1 for t in tiles if t.is_joker)
        return (f"{colour.word} {gap} {'is' if len(missing) == 1 else 'are'} missing and "
                f"{'only ' if jokers else ''}{jokers} {_plural('joker', jokers)} can fill "
                f"{joker_width} {_plural('place', joker_width)}")
    return ("the double joker can't fit: it stands for two numbers in a row, and the gaps "
            "here are not filled exactly")


def _fits_if_wrapping(numbers: list[int], joker_width: int) -> bool:
    """Would the numbers make a run if 1 could follow 13? (Only then is that the reason.)"""
    wrapped = sorted(n + HIGHEST_NUMBER if n <= HIGHEST_NUMBER // 2 else n for n in numbers)
    missing = (wrapped[-1] - wrapped[0] + 1) - len(wrapped)
    return missing <= joker_width


def _why_not_colour_change_run(tiles: Meld, numbered: list[Tile]) -> str:
    if len({t.number for t in numbered}) == 1 and len(numbered) > 1:
        return "a colour-change joker is used only in runs, not in groups"
    for laid in (tiles, tiles[::-1]):
        offsets, offset = [], 0
        for tile in laid:
            offsets.append(offset)
            offset += _width(tile)
        if len({t.number - o for t, o in zip(laid, offsets)  # type: ignore[operator]
                if not t.is_joker}) <= 1:
            break
    else:
        return ("the numbers are not consecutive in the order laid: with a colour-change "
                "joker the order given is the rule")
    segments: list[list[Tile]] = [[]]
    for tile in tiles:
        if tile.joker is JokerKind.COLOUR_CHANGE:
            segments.append([])
        elif not tile.is_joker:
            segments[-1].append(tile)
    for segment in segments:
        if len({t.colour for t in segment}) > 1:
            return ("between colour changes a run keeps one colour: "
                    f"{_words_list([t.words for t in segment])} are not one colour")
    for before, after in pairwise(segments):
        if before and after and before[-1].colour == after[0].colour:
            assert before[-1].colour is not None
            return (f"after a colour-change joker the colour must change: "
                    f"{before[-1].colour.word} on both sides")
    return "the run goes past 13 or below 1 in the order laid"


def _why_not_mirrored(tiles: Meld) -> str:
    mirror = next(i for i, t in enumerate(tiles) if t.joker is JokerKind.MIRROR)
    left, right = tiles[:mirror], tiles[mirror + 1:]
    if not left or not right:
        return "a mirror joker needs tiles on both sides to reflect"
    left_width = sum(_width(t) for t in left)
    right_width = sum(_width(t) for t in right)
    if left_width != right_width:
        return (f"the sides of the mirror joker must mirror each other: {left_width} "
                f"{_plural('tile', left_width)} on the left, {right_width} on the right")
    if left_width < MIN_MIRROR_SIDE:
        return "each side of a mirror joker must be a run or group of at least two tiles"
    for name, side in (("left", left), ("right", right)):
        if not any(True for _ in _side_readings(side)):
            return f"the {name} side of the mirror joker is neither a run nor a group"
    return (f"the sides of the mirror joker do not mirror each other: "
            f"{format_tiles(left)} against {format_tiles(right)}")


def check_table(table: Sequence[Sequence[Tile]], *, preset: Preset = PRESSMAN) -> TableVerdict:
    """The verdict on every set of a table.

    Raises ``ImpossibleTilesError`` when the table holds a third copy of a tile or more jokers
    than the edition has: that is an input error, not a verdict.
    """
    check_inventory((tile for meld in table for tile in meld), preset.jokers)
    return TableVerdict(sets=tuple(check_meld(tuple(meld), preset=preset) for meld in table),
                        preset=preset)
