"""Referee one turn: compare the table before and after it, and list every rule it broke.

A turn is judged from what can be seen on the table (and, when given, the player's rack):
tiles are indistinguishable copies, so the table before and after are compared as multisets
of tiles and of sets. Where a move could be read several ways (two copies of R7, two jokers),
the referee reads it in the player's favour, as described below for each rule.

The violation codes are stable; other tools rely on them. They are reported in this order:

``tile_removed``
    A tile on the table before is gone after: it went back to a rack ("no tile taken from the
    table may go back to a rack", RULES.md, Turns). One violation naming every missing tile.
``nothing_played``
    No tile came from the rack: that turn is a draw, not a play ("every turn that is not a
    draw lays at least one tile from the rack").
``not_from_rack``
    Only when the rack is given: tiles laid that the rack did not hold.
``illegal_set``
    One per set that is illegal after the turn, with the set validator's own reason.
``meld_too_low``
    Initial meld only: the new sets are worth less than the preset's minimum. The value counts
    the legal new sets made only of tiles from the rack. Not reported on a draw.
``meld_touches_table``
    Initial meld only: a set on the table before is not still there, unchanged, after
    ("the initial meld may not use or touch tiles on the table").
``joker_before_meld``
    Initial meld only: a joker was retrieved ("no joker may be retrieved before or during it").
``joker_not_reused``
    A freed joker is not on the table after the turn in a set holding at least one other tile
    from the rack ("the freed joker must be played the same turn in a new set").
``joker_set_manipulated``
    Sabra Way only: a set holding a joker lost a tile or was split while its joker stayed
    ("no tile may be taken from it, nor may it be split, until its joker has been retrieved").
    Adding to it (a fourth tile of a group, either end of a run) is allowed.
``joker_needs_two_rack_tiles``
    Sabra Way only: a freed joker's new set holds fewer than two other tiles from the rack
    ("the freed joker goes into a new set with at least 2 tiles from the rack").

When is a joker *freed* (retrieved)? Each joker on the table before is matched to a joker of the
same kind after that still does its old job: it sits in a set sharing at least one numbered tile
with its old set, and the tiles it can stand for there overlap the tiles it could stand for
before (``JokerReading.stands_for``). The table before is read as laid (the order typed picks
the reading, as on the check page); a set after the turn counts every reading its tiles allow,
whatever order they were typed in, so retyping a set is never taken for moving its joker.
Adding a fourth tile to ``K5 R5 J`` leaves the joker its job (it stood for B5 or O5, it now
stands for the other one); splitting ``R3 R4 J R6 R7`` into ``R3 R4 J | R6 R7 R8`` leaves it
standing for R5. Replacing it (``R5 J R7`` becomes ``R5 R6 R7 J``: the joker now stands for R4
or R8) or carrying it into a set with none of its old neighbours frees it. When a set is
illegal (before or after) its jokers have no reading, and sharing a numbered tile is enough to
count as kept: an illegal set is reported as such, and is not also read as a retrieval.

Where does a freed joker end? The jokers after the turn that are not "kept" were either freed
or came from the rack; the freed ones are placed, in the player's favour, in the sets with the
most tiles from the rack. "Tiles from the rack" in a set are counted optimistically: a set that
is not an unchanged set from before holds as many rack tiles of a kind as it has copies of that
kind, up to the number of copies played. A freed joker that went back to the rack is in no set
(zero rack tiles): it is reported as ``tile_removed`` and ``joker_not_reused``.

Not checked (the table cannot show them): a tile drawn this turn being laid, the Sabra
tournament rule that a joker taken from a group of three must be replaced by both missing tiles.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import Enum
from itertools import combinations
from typing import Any, TypeVar

from companion.core.melds import MeldVerdict, check_meld
from companion.core.presets import Preset
from companion.core.tiles import (
    ImpossibleTilesError,
    JokerKind,
    Meld,
    NotationError,
    Table,
    Tile,
    check_inventory,
    format_tiles,
    parse_rack,
    parse_table,
)


class ViolationCode(Enum):
    """The stable codes, in the order violations are reported."""

    TILE_REMOVED = "tile_removed"
    NOTHING_PLAYED = "nothing_played"
    NOT_FROM_RACK = "not_from_rack"
    ILLEGAL_SET = "illegal_set"
    MELD_TOO_LOW = "meld_too_low"
    MELD_TOUCHES_TABLE = "meld_touches_table"
    JOKER_BEFORE_MELD = "joker_before_meld"
    JOKER_NOT_REUSED = "joker_not_reused"
    JOKER_SET_MANIPULATED = "joker_set_manipulated"
    JOKER_NEEDS_TWO_RACK_TILES = "joker_needs_two_rack_tiles"


_Parsed = TypeVar("_Parsed")

RACK_TILES_WITH_A_FREED_JOKER = 1  # "must also use at least one tile from his/her rack" (seed 000)
SABRA_RACK_TILES_WITH_A_FREED_JOKER = 2  # "immediately with 2 more tiles from your hand" (seed 004)


@dataclass(frozen=True, slots=True)
class Violation:
    code: ViolationCode
    message: str

    def to_json(self) -> dict[str, str]:
        return {"code": self.code.value, "message": self.message}


@dataclass(frozen=True, slots=True)
class TurnVerdict:
    """The referee's answer for one turn.

    ``played`` is after − before as a multiset of tiles (sorted: colours, numbers, jokers).
    ``value``: before the initial meld, the value of the legal new sets made only of tiles
    from the rack (what ``meld_too_low`` compares with the preset's minimum); after it, the
    value of the legal sets after the turn that hold a tile from the rack (0 on a draw).
    ``set_verdicts`` are the set validator's verdicts on the table after the turn.
    """

    legal: bool
    violations: tuple[Violation, ...]
    played: Meld
    removed: Meld
    value: int
    opened: bool
    preset: Preset
    set_verdicts: tuple[MeldVerdict, ...]

    @property
    def codes(self) -> tuple[str, ...]:
        return tuple(violation.code.value for violation in self.violations)

    def to_json(self) -> dict[str, Any]:
        return {
            "legal": self.legal,
            "violations": [violation.to_json() for violation in self.violations],
            "played": [str(tile) for tile in self.played],
            "removed": [str(tile) for tile in self.removed],
            "value": self.value,
            "opened": self.opened,
            "preset": self.preset.key,
            "sets": [verdict.to_json() for verdict in self.set_verdicts],
        }

    def describe(self) -> str:
        """A plain-text report for the command line."""
        lines = ["Legal turn." if self.legal else "Illegal turn."]
        lines.append(f"Played: {format_tiles(self.played) or 'nothing'}")
        label = "Meld value" if not self.opened else "Value of the sets played into"
        lines.append(f"{label}: {self.value}")
        lines.extend(f"- [{v.code.value}] {v.message}" for v in self.violations)
        if not self.legal:
            lines.append(f"Penalty: put the table back as it was, take back your tiles and draw "
                         f"{self.preset.failed_turn_draw}.")
        return "\n".join(lines)


@dataclass(frozen=True, slots=True)
class _JokerSlot:
    """One joker on the table: which set it sits in, its kind, what it can stand for.

    ``stands_for`` is None when the set is illegal and the validator gave no reading; it is
    empty for a joker that stands for no tile (a mirror joker).
    """

    set_index: int
    kind: JokerKind
    stands_for: frozenset[str] | None


def referee_turn(before: Table, after: Table, *, opened: bool, preset: Preset,
                 rack: Meld | None = None) -> TurnVerdict:
    """Judge one turn; see the module docstring for every rule and how it is read.

    Raises ``ImpossibleTilesError`` (bad input, not a verdict) when the table before, the table
    after, or the table before together with the rack hold more copies of a tile than a box.
    """
    for tiles in _tiles_a_box_must_hold(before, after, rack).values():
        check_inventory(tiles, preset.jokers)
    return _judge_turn(before, after, opened=opened, preset=preset, rack=rack)


def _tiles_a_box_must_hold(before: Table, after: Table,
                           rack: Meld | None) -> dict[str, list[Tile]]:
    """What one box must be able to hold, by input field: the table before, the table after,
    and the table before together with the rack."""
    before_tiles = [tile for meld in before for tile in meld]
    collections = {"before": before_tiles, "after": [tile for meld in after for tile in meld]}
    if rack is not None:
        collections["rack"] = before_tiles + list(rack)
    return collections


def _judge_turn(before: Table, after: Table, *, opened: bool, preset: Preset,
                rack: Meld | None) -> TurnVerdict:
    """``referee_turn`` once the tiles are known to fit in a box."""
    before_tiles = [tile for meld in before for tile in meld]
    after_tiles = [tile for meld in after for tile in meld]
    before_verdicts = tuple(check_meld(meld, preset=preset) for meld in before)
    after_verdicts = tuple(check_meld(meld, preset=preset) for meld in after)

    played_counts = Counter(after_tiles) - Counter(before_tiles)
    removed_counts = Counter(before_tiles) - Counter(after_tiles)
    played = _sorted_tiles(played_counts.elements())
    removed = _sorted_tiles(removed_counts.elements())
    unchanged_after = _match_unchanged_sets(before, after)
    changed_after = set(range(len(after))) - set(unchanged_after.values())

    violations: list[Violation] = []
    if removed:
        violations.append(Violation(ViolationCode.TILE_REMOVED, _removed_message(removed)))
    if not played:
        violations.append(Violation(ViolationCode.NOTHING_PLAYED,
                                    "no tile came from the rack: that turn is a draw"))
    if rack is not None:
        not_on_rack = _sorted_tiles((played_counts - Counter(rack)).elements())
        if not_on_rack:
            violations.append(Violation(ViolationCode.NOT_FROM_RACK,
                                        _not_on_rack_message(not_on_rack, rack)))
    for number, verdict in enumerate(after_verdicts, start=1):
        if not verdict.legal:
            violations.append(Violation(
                ViolationCode.ILLEGAL_SET,
                f"set {number} `{format_tiles(verdict.tiles)}` is not legal: {verdict.reason}"))

    if opened:
        value = sum(verdict.value or 0 for index, verdict in enumerate(after_verdicts)
                    if index in changed_after and verdict.legal
                    and _rack_tile_count(after[index], played_counts) > 0)
    else:
        value = _initial_meld_value(after, after_verdicts, changed_after, played_counts)
        if played and value < preset.initial_meld:
            violations.append(Violation(
                ViolationCode.MELD_TOO_LOW,
                f"the initial meld is worth {value}; {preset.name} asks for "
                f"{preset.initial_meld}"))
        touched = [meld for index, meld in enumerate(before) if index not in unchanged_after]
        if touched:
            violations.append(Violation(
                ViolationCode.MELD_TOUCHES_TABLE,
                "the initial meld uses or moves table tiles: "
                + _sets_words(touched) + " did not stay as they were"))

    freed, open_slots = _follow_jokers(before, before_verdicts, after, after_verdicts, preset)
    if freed and not opened:
        violations.append(Violation(
            ViolationCode.JOKER_BEFORE_MELD,
            "a joker was retrieved from " + _sets_words([before[s.set_index] for s in freed])
            + " before the initial meld"))
    violations.extend(_freed_joker_violations(before, after, freed, open_slots, changed_after,
                                              played_counts, preset))
    if preset.sabra_joker_rules:
        violations.extend(_sabra_manipulations(before, after, freed))

    return TurnVerdict(
        legal=not violations, violations=tuple(violations), played=played, removed=removed,
        value=value, opened=opened, preset=preset, set_verdicts=after_verdicts)


class TurnInputError(ValueError):
    """Typed turn input that cannot be judged, naming the field (before, after or rack)."""

    def __init__(self, field: str, message: str, where: dict[str, int | str]) -> None:
        self.field = field
        self.where: dict[str, int | str] = {"field": field, **where}
        super().__init__(f"{TURN_FIELD_WORDS[field]}: {message}")


TURN_FIELD_WORDS = {"before": "table before the turn", "after": "table after the turn",
                    "rack": "rack"}


def referee_typed_turn(before_text: str, after_text: str, *, opened: bool, preset: Preset,
                       rack_text: str | None = None) -> TurnVerdict:
    """Parse the typed notation of a turn and judge it: the one entry for CLI, API and page.

    An empty ``before_text`` is an empty table (the first meld of the game); ``rack_text``
    None or blank means the rack is not known. Raises ``TurnInputError`` for bad notation or
    impossible tiles, saying which field.
    """
    before = _parse_field("before", before_text, parse_table)
    after = _parse_field("after", after_text, parse_table)
    rack = _parse_field("rack", rack_text, parse_rack) if rack_text and rack_text.strip() else None
    for field, tiles in _tiles_a_box_must_hold(before, after, rack).items():
        try:
            check_inventory(tiles, preset.jokers)
        except ImpossibleTilesError as error:
            message = str(error)
            if field == "rack":
                message = "together with the table before the turn, " + message
            raise TurnInputError(field, message, error.where) from error
    return _judge_turn(before, after, opened=opened, preset=preset, rack=rack)


def _parse_field(field: str, text: str, parse: Callable[[str], _Parsed]) -> _Parsed:
    try:
        return parse(text)
    except NotationError as error:
        raise TurnInputError(field, str(error), error.where) from error


def _sorted_tiles(tiles: Iterable[Tile]) -> Meld:
    return tuple(sorted(tiles, key=Tile.sort_key))


def _match_unchanged_sets(before: Table, after: Table) -> dict[int, int]:
    """Pair each set before with a distinct set after holding exactly the same tiles.

    Returns {before index: after index} for the sets that stayed as they were.
    """
    free_after: dict[tuple[Tile, ...], list[int]] = {}
    for index, meld in enumerate(after):
        free_after.setdefault(_sorted_tiles(meld), []).append(index)
    pairs: dict[int, int] = {}
    for index, meld in enumerate(before):
        candidates = free_after.get(_sorted_tiles(meld))
        if candidates:
            pairs[index] = candidates.pop(0)
    return pairs


def _rack_tile_count(meld: Meld, played_counts: Counter[Tile],
                     leave_out: JokerKind | None = None) -> int:
    """How many tiles of this set can have come from the rack (read in the player's favour)."""
    counts = Counter(meld)
    if leave_out is not None:
        counts[Tile.of_joker(leave_out)] -= 1
    return sum(min(count, played_counts[tile]) for tile, count in counts.items() if count > 0)


def _initial_meld_value(after: Table, after_verdicts: Sequence[MeldVerdict],
                        changed_after: set[int], played_counts: Counter[Tile]) -> int:
    """The value of the legal new sets made only of tiles from the rack."""
    unused = Counter(played_counts)
    value = 0
    for index, meld in enumerate(after):
        if index not in changed_after:
            continue
        needed = Counter(meld)
        if needed - unused:
            continue
        unused -= needed
        verdict = after_verdicts[index]
        if verdict.legal and verdict.value is not None:
            value += verdict.value
    return value


def _joker_slots(table: Table, verdicts: Sequence[MeldVerdict], *,
                 preset: Preset | None = None) -> list[_JokerSlot]:
    """Every joker on the table with its reading; jokers of a kind in a set are interchangeable,
    so the readings of a kind are handed out in the order the validator lists them.

    With ``preset`` (used for the table after the turn), a set of numbered tiles and regular
    jokers gets every reading it allows in any order (see ``_readings_in_any_order``).
    """
    slots: list[_JokerSlot] = []
    for index, meld in enumerate(table):
        verdict = verdicts[index]
        any_order = (_readings_in_any_order(meld, preset)
                     if preset is not None and verdict.legal else None)
        for kind in JokerKind:
            count = sum(1 for tile in meld if tile.joker is kind)
            readings = [r for r in verdict.jokers if r.joker is kind]
            for rank in range(count):
                if any_order is not None:
                    slots.append(_JokerSlot(index, kind, any_order))
                elif verdict.legal and len(readings) == count:
                    slots.append(_JokerSlot(index, kind, frozenset(readings[rank].stands_for)))
                else:
                    slots.append(_JokerSlot(index, kind, None))
    return slots


def _readings_in_any_order(meld: Meld, preset: Preset) -> frozenset[str] | None:
    """Every tile a regular joker of this set could stand for, whatever order it was typed in.

    The table after the turn is read this way so that typing ``J R4 R5 R6`` rather than
    ``R4 R5 R6 J`` for the run a joker stood in as R7 does not count as moving the joker.
    None when the set holds a bonus joker (their order is the rule) or no joker.
    """
    jokers = [tile for tile in meld if tile.is_joker]
    if not jokers or any(tile.joker is not JokerKind.REGULAR for tile in jokers):
        return None
    numbered = sorted((tile for tile in meld if not tile.is_joker), key=Tile.sort_key)
    size = len(meld)
    readings: set[str] = set()
    for places in combinations(range(size), len(jokers)):
        rest = iter(numbered)
        arrangement = tuple(jokers[0] if place in places else next(rest)
                            for place in range(size))
        verdict = check_meld(arrangement, preset=preset)
        if verdict.legal:
            readings.update(tile for reading in verdict.jokers for tile in reading.stands_for)
    return frozenset(readings)


def _still_does_its_job(old: _JokerSlot, new: _JokerSlot, before: Table, after: Table) -> bool:
    if old.kind is not new.kind:
        return False
    old_numbered = Counter(t for t in before[old.set_index] if not t.is_joker)
    new_numbered = Counter(t for t in after[new.set_index] if not t.is_joker)
    if not old_numbered & new_numbered:
        return False
    if old.stands_for is None or new.stands_for is None:
        return True
    if not old.stands_for and not new.stands_for:
        return True  # a joker that stands for no tile (a mirror joker) keeps no other job
    return bool(old.stands_for & new.stands_for)


def _follow_jokers(before: Table, before_verdicts: Sequence[MeldVerdict], after: Table,
                   after_verdicts: Sequence[MeldVerdict],
                   preset: Preset) -> tuple[list[_JokerSlot], list[_JokerSlot]]:
    """Match every joker before to a joker after that still does its job.

    Returns the jokers freed (their slots before) and the jokers after the turn that are not
    matched (freed jokers laid again, or jokers from the rack). Among the jokers after that
    still do an old joker's job, the one sharing the most numbered tiles with its set wins.
    """
    old_slots = _joker_slots(before, before_verdicts)
    new_slots = _joker_slots(after, after_verdicts, preset=preset)
    kept: set[int] = set()
    freed: list[_JokerSlot] = []
    for old in old_slots:
        old_numbered = Counter(t for t in before[old.set_index] if not t.is_joker)
        candidates = [
            (sum((old_numbered & Counter(after[new.set_index])).values()), -index)
            for index, new in enumerate(new_slots)
            if index not in kept and _still_does_its_job(old, new, before, after)]
        if candidates:
            kept.add(-max(candidates)[1])
        else:
            freed.append(old)
    return freed, [slot for index, slot in enumerate(new_slots) if index not in kept]


def _freed_joker_violations(before: Table, after: Table, freed: list[_JokerSlot],
                            open_slots: list[_JokerSlot], changed_after: set[int],
                            played_counts: Counter[Tile], preset: Preset) -> list[Violation]:
    """Place the freed jokers in the open joker slots after the turn and judge their sets.

    The freed jokers of a kind take the open slots of that kind whose sets hold the most other
    tiles from the rack; the remaining open slots hold jokers played from the rack. Freed
    jokers beyond the open slots went back to a rack.
    """
    needed = (SABRA_RACK_TILES_WITH_A_FREED_JOKER if preset.sabra_joker_rules
              else RACK_TILES_WITH_A_FREED_JOKER)
    not_reused: list[Violation] = []
    too_few: list[Violation] = []
    for kind in JokerKind:
        freed_here = [slot for slot in freed if slot.kind is kind]
        if not freed_here:
            continue
        counts = sorted(
            (_rack_tile_count(after[slot.set_index], played_counts, leave_out=kind)
             if slot.set_index in changed_after else 0
             for slot in open_slots if slot.kind is kind),
            reverse=True)
        for rank, slot in enumerate(freed_here):
            source = f"`{format_tiles(before[slot.set_index])}`"
            if rank < len(counts):
                count = counts[rank]
                where = (f"it sits with {count} other tile{'' if count == 1 else 's'} "
                         "from the rack")
            else:
                count = 0
                where = "it is no longer on the table"
            if count < RACK_TILES_WITH_A_FREED_JOKER:
                not_reused.append(Violation(
                    ViolationCode.JOKER_NOT_REUSED,
                    f"the {kind.word} freed from {source} must be played again this turn in a "
                    f"set with a tile from the rack; {where}"))
            if preset.sabra_joker_rules and count < needed:
                too_few.append(Violation(
                    ViolationCode.JOKER_NEEDS_TWO_RACK_TILES,
                    f"{preset.name}: the {kind.word} freed from {source} must go into a new set "
                    f"with at least {needed} other tiles from the rack; {where}"))
    return not_reused + too_few


def _sabra_manipulations(before: Table, after: Table, freed: list[_JokerSlot]) -> list[Violation]:
    """Sets holding a joker that were split or lost a tile while the joker stayed."""
    freed_sets = {slot.set_index for slot in freed}
    taken: set[int] = set()
    violations = []
    for index, meld in enumerate(before):
        if not any(tile.is_joker for tile in meld) or index in freed_sets:
            continue
        needed = Counter(meld)
        home = next((a for a, candidate in enumerate(after)
                     if a not in taken and not needed - Counter(candidate)), None)
        if home is not None:
            taken.add(home)
            continue
        violations.append(Violation(
            ViolationCode.JOKER_SET_MANIPULATED,
            f"Sabra Way: `{format_tiles(meld)}` holds a joker: it may be added to, but not split "
            "nor have a tile taken from it, until its joker is retrieved"))
    return violations


def _removed_message(removed: Meld) -> str:
    names = ", ".join(f"{tile} ({tile.words})" for tile in removed)
    was, now = ("was", "is") if len(removed) == 1 else ("were", "are")
    return (f"{names} {was} on the table before the turn and {now} gone: no tile taken from "
            "the table may go back to a rack")


def _not_on_rack_message(tiles: Meld, rack: Meld) -> str:
    return (f"{format_tiles(tiles)} laid on the table but not on the rack "
            f"(`{format_tiles(_sorted_tiles(rack)) or 'empty'}`)")


def _sets_words(melds: Sequence[Meld]) -> str:
    unique = list(dict.fromkeys(format_tiles(meld) for meld in melds))
    return ", ".join(f"`{words}`" for words in unique)
