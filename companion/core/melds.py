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
the given order allows (or among all readings when the set had to be reordered). A set that
reads as a run and as a group (``J K5 J``) lists both readings, the chosen one first; joker
positions count in the order the set is laid. The search itself is ``companion.core.readings``;
the reason a set is not legal is a code (``companion.core.reasons``) said in English by
``companion.core.english``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from companion.core.presets import PRESSMAN, Preset
from companion.core.readings import (
    MAX_GROUP_SIZE,
    MIN_MIRROR_SIDE,
    MIN_SET_SIZE,
    MeldKind,
    Reading,
    Slot,
    all_readings,
    slot_text,
)
from companion.core.reasons import (
    RULE_COLOUR_CHANGE,
    RULE_DOUBLE,
    RULE_GROUP,
    RULE_JOKER,
    RULE_MIRROR,
    RULE_RUN,
    RULE_SIZE,
    Reason,
    why_illegal,
)
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

__all__ = ["MAX_GROUP_SIZE", "MIN_MIRROR_SIDE", "MIN_SET_SIZE", "RULE_COLOUR_CHANGE",
           "RULE_DOUBLE", "RULE_GROUP", "RULE_JOKER", "RULE_MIRROR", "RULE_RUN", "RULE_SIZE",
           "JokerOptions", "JokerReading", "KindReading", "MeldKind", "MeldVerdict", "Slot",
           "TableVerdict", "check_meld", "check_table", "joker_options", "slot_text"]


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
            kinds = " or ".join(kind.value for kind in self.kinds)
            return "; ".join([f"{format_tiles(self.tiles)}: legal {kinds}, value {self.value}",
                              *(r.describe() for r in self.readings)])
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


def check_meld(tiles: Sequence[Tile], *, preset: Preset = PRESSMAN) -> MeldVerdict:
    """The verdict on one set: legal or not, why, its kind, joker readings and value."""
    tiles = tuple(tiles)
    if len(tiles) >= MIN_SET_SIZE:
        jokers = [index for index, tile in enumerate(tiles) if tile.joker is not None]
        if not jokers:
            return _joker_free_verdict(tiles)
        if (len(jokers) == 1 and tiles[jokers[0]].joker is JokerKind.REGULAR
                and preset.jokers.get(JokerKind.REGULAR)):
            return _one_joker_verdict(tiles, jokers[0])
    return _general_verdict(tiles, preset)


def _joker_free_verdict(tiles: Meld) -> MeldVerdict:
    """The verdict on three or more numbered tiles, built directly: the solver judges every
    set it lays, and most hold no joker. Without a joker a set has exactly one reading (a run
    of one colour and consecutive numbers, laid ascending, or a group of one number and
    different colours, laid as given) or none, and the preset plays no part; the general
    search of ``_general_verdict`` gives the same verdict (a property test holds them equal)."""
    count = len(tiles)
    colours = {tile.colour for tile in tiles}
    if len(colours) == 1:
        given = [tile.number or 0 for tile in tiles]
        numbers = sorted(given)
        low = numbers[0]
        if numbers == list(range(low, low + count)):
            reordered = given != numbers
            order = tuple(sorted(tiles, key=_number_of)) if reordered else tiles
            value = count * low + count * (count - 1) // 2
            reading = KindReading(MeldKind.RUN, value, order, ())
            return MeldVerdict(tiles, True, MeldKind.RUN, None, value, (), order, reordered,
                               RULE_RUN, (reading,))
    elif len(colours) == count:  # four colours: a group of at most four
        numbers_seen = {tile.number for tile in tiles}
        if len(numbers_seen) == 1:
            value = count * (tiles[0].number or 0)
            reading = KindReading(MeldKind.GROUP, value, tiles, ())
            return MeldVerdict(tiles, True, MeldKind.GROUP, None, value, (), tiles, False,
                               RULE_GROUP, (reading,))
    return _no_reading(tiles)


def _one_joker_verdict(tiles: Meld, joker: int) -> MeldVerdict:
    """The verdict on numbered tiles and one regular joker (the solver lays many such sets and
    tries a spare joker on many), built directly.

    Tiles of one colour can only be a run: it reads the joker as the one number missing
    inside it, or else just below or just above it (the reading the given order allows,
    failing that the highest). Tiles of several colours can only be a group: the joker is any
    missing colour. Neither, and the set has no reading. All as ``_general_verdict`` reads
    them (a property test holds them equal)."""
    numbered = tiles[:joker] + tiles[joker + 1:]
    count = len(tiles)
    colours = {tile.colour for tile in numbered}
    if len(colours) == 1:
        numbers = [tile.number or 0 for tile in numbered]
        low, high = min(numbers), max(numbers)
        if len(set(numbers)) != len(numbers):
            return _no_reading(tiles)
        if high - low + 2 == count:  # no gap: the joker goes below or above
            stands = [n for n in (low - 1, high + 1) if LOWEST_NUMBER <= n <= HIGHEST_NUMBER]
        elif high - low + 1 == count:  # one gap: the joker fills it
            stands = [n for n in range(low, high) if n not in numbers]
        else:
            return _no_reading(tiles)
        if not stands:
            return _no_reading(tiles)
        index_of = {tile.number: index for index, tile in enumerate(tiles) if index != joker}
        given = tuple(range(count))
        readings = []
        for number in stands:
            index_of[number] = joker
            start = min(low, number)
            readings.append((number, tuple(index_of[n] for n in range(start, start + count)),
                             count * start + count * (count - 1) // 2))
            del index_of[number]
        number, order, value = (next((r for r in readings if r[1] == given), None)
                                or max(readings, key=_value_of))
        (colour,) = colours
        laid = tuple(tiles[i] for i in order)
        jokers = (JokerReading(order.index(joker) + 1, JokerKind.REGULAR, (((colour, number),),),
                               typed_position=joker + 1),)
        reading = KindReading(MeldKind.RUN, value, laid, jokers)
        return MeldVerdict(tiles, True, MeldKind.RUN, None, value, jokers, laid, order != given,
                           _RUN_WITH_JOKER, (reading,))
    numbers_seen = {tile.number or 0 for tile in numbered}
    if len(colours) != len(numbered) or len(numbers_seen) != 1 or count > MAX_GROUP_SIZE:
        return _no_reading(tiles)
    (group_number,) = numbers_seen
    options = tuple(sorted((((colour, group_number),) for colour in Colour
                            if colour not in colours),
                           key=_slot_key))
    jokers = (JokerReading(joker + 1, JokerKind.REGULAR, options, typed_position=joker + 1),)
    value = count * group_number
    reading = KindReading(MeldKind.GROUP, value, tiles, jokers)
    return MeldVerdict(tiles, True, MeldKind.GROUP, None, value, jokers, tiles, False,
                       _GROUP_WITH_JOKER, (reading,))


def _no_reading(tiles: Meld) -> MeldVerdict:
    reason, rule = why_illegal(tiles)
    return _illegal(tiles, reason, rule)


_RUN_WITH_JOKER = f"{RULE_RUN} {RULE_JOKER}"
_GROUP_WITH_JOKER = f"{RULE_GROUP} {RULE_JOKER}"


def _value_of(reading: tuple[int, tuple[int, ...], int]) -> int:
    return reading[2]


def _number_of(tile: Tile) -> int:
    assert tile.number is not None
    return tile.number


def _general_verdict(tiles: Meld, preset: Preset) -> MeldVerdict:
    """The verdict through the search for every reading (``companion.core.readings``)."""
    missing_kind = next((t for t in tiles if t.joker and not preset.jokers.get(t.joker)), None)
    if missing_kind is not None:
        return _illegal(tiles, Reason("joker_not_in_edition", {
            "joker": missing_kind.words, "preset": preset.name}), RULE_JOKER)
    if len(tiles) < MIN_SET_SIZE:
        double = any(t.joker is JokerKind.DOUBLE for t in tiles)
        return _illegal(tiles, Reason("too_few_tiles", {
            "least": MIN_SET_SIZE, "double_joker": "yes" if double else "no"}), RULE_SIZE)
    readings = all_readings(tiles)
    if not readings:
        reason, rule = why_illegal(tiles)
        return _illegal(tiles, reason, rule)

    given = tuple(range(len(tiles)))
    pool = [r for r in readings if r.order == given] or readings
    by_kind = [_kind_reading(tiles, [r for r in pool if r.kind is kind])
               for kind in (MeldKind.RUN, MeldKind.GROUP) if any(r.kind is kind for r in pool)]
    by_kind.sort(key=lambda reading: -reading.value)  # stable: a run first on equal value
    chosen = by_kind[0]
    return MeldVerdict(tiles=tiles, legal=True, kind=chosen.kind, why=None, value=chosen.value,
                       jokers=_every_joker_option(chosen, by_kind), order=chosen.order,
                       reordered=chosen.order != tiles, rule=_rule_for(tiles, chosen.kind),
                       readings=tuple(by_kind))


def _every_joker_option(chosen: KindReading,
                        readings: list[KindReading]) -> tuple[JokerReading, ...]:
    """The chosen reading's jokers, each with the options of every reading of the same value
    (``J K5 J``: the first joker is K4 as a run, B5, O5 or R5 as a group)."""
    tied = [reading for reading in readings if reading.value == chosen.value]
    if len(tied) == 1:
        return chosen.jokers
    by_typed: dict[int, set[tuple[Slot, ...]]] = {}
    for reading in tied:
        for joker in reading.jokers:
            by_typed.setdefault(joker.typed_position, set()).update(joker.options)
    return tuple(replace(joker, options=tuple(sorted(by_typed[joker.typed_position],
                                                     key=_slot_key)))
                 for joker in chosen.jokers)


def _kind_reading(tiles: Meld, readings: list[Reading]) -> KindReading:
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
    readings = all_readings(tiles)
    if as_laid:
        given = tuple(range(len(tiles)))
        readings = [r for r in readings if r.order == given] or readings
    options: dict[JokerKind, set[tuple[Slot, ...]]] = {}
    for reading in readings:
        for index, tile in enumerate(tiles):
            if tile.joker is not None:
                options.setdefault(tile.joker, set()).add(reading.slots[index])
    return {kind: frozenset(found) for kind, found in options.items()}
