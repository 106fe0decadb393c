"""Referee one turn: compare the table before and after it, and list every rule it broke.

A turn is judged from what can be seen on the table (and, when given, the player's rack):
tiles are indistinguishable copies, so the table before and after are compared as multisets of
tiles and of sets, in the player's favour wherever a move could be read several ways. How
jokers are followed through a turn (kept, freed, which set is *new*) is written in
``companion.core.jokers``.

Each violation code has one small checker below; they report in this order (the codes are
stable, other tools rely on them):

``tile_removed``
    A tile on the table before is gone after: it went back to a rack ("no loose tiles",
    "take back the tiles they played" only on a failed turn). One violation naming every tile.
``nothing_played``
    No tile came from the rack. With the table unchanged that is a *draw* (penalty: draw one,
    "When players cannot play any tiles from their racks, or purposely choose not to, they must
    draw a tile from the pool", seed 000); with the table rearranged it is a failed turn ("must
    also use at least one tile from his/her rack on that turn (just as on any other turn)").
``not_from_rack``
    Only when the rack is given: tiles laid that the rack did not hold.
``illegal_set``
    One per set that is illegal after the turn, with the set validator's own reason.
``meld_too_low``
    Initial meld only: the new sets made only of tiles from the rack are worth less than the
    preset's minimum ("sets that total at least 30 points", seed 000; 50, seed 004).
``meld_touches_table``
    Initial meld only: a set on the table before is not still there unchanged ("for their
    initial meld, players may not use tiles already played on the table", seed 000).
``joker_before_meld``
    Initial meld only: a joker was freed ("A player cannot retrieve a joker before s/he has
    played his/her initial meld", seed 000).
``joker_not_reused``
    A freed joker is not in a *new* set after the turn ("must play the joker on his/her current
    turn to make a new set", seed 000): it went back to a rack, stayed in its own set, or went
    into a set that was on the table before. The rack tile the turn owes is owed by the turn
    ("and must also use at least one tile from his/her rack on that turn (just as on any other
    turn)"), not by the joker's set: ``nothing_played`` covers it.
``joker_set_manipulated``
    Sabra Way: a set still holding a joker lost a tile or was split ("You may not take a tile
    away from a meld which includes a Joker", "A meld containing a Joker may not be
    manipulated", seed 004), or its joker was taken away with no tile it stood for taking its
    place (the joker itself is a tile taken away; a set broken up to clear its joker too). Adding to it is allowed ("You can add a tile to a meld containing
    a Joker, either the fourth tile in a group or to either end of a run"). Once every joker of
    a set is exchanged, the set may be manipulated ("After a Joker has been taken from a meld
    as shown above, the meld may be manipulated"); a set that still holds a second joker stays
    locked.
``joker_needs_two_rack_tiles``
    Sabra Way: the freed joker's new set holds fewer than two other tiles from the rack ("You
    must use the Joker immediately with 2 more tiles from your hand to make another meld").
``joker_not_exchanged``
    Sabra Way: a joker left its set without a tile it stood for coming from the rack ("You may
    take a Joker from a run or group in exchange for a tile of the same value from your hand").
    Taking the joker off a group of four with nothing in exchange is this violation.
``joker_needs_both_missing_tiles``
    With the tournament rule on (a preset option, off by default; seed 004 "Under tournament
    rules, a Joker taken from a group of three tiles must be replaced with both missing tiles"):
    a joker freed from a group of three whose set after the turn lacks either missing tile.
    Under Sabra Way both must come from the rack.
``bonus_joker_replaced_joker``
    Twist: a bonus joker took the place of a freed joker ("Bonus Jokers cannot replace a Regular
    Joker or any other type of Bonus Joker", seed 003): the freed joker's old set gained a bonus
    joker and none of the tiles the freed joker stood for.

``over_time``
    Only when the caller says the player ran over the turn time. With nothing laid and the
    table unchanged the penalty is a draw of one ("Players who go over the time limit must draw
    a tile from the pool, ending their turns", seed 000); with tiles moved or laid the move was
    not completed in time: put everything back and draw three ("Players who cannot complete a
    move within the 1 minute time limit must replace the tiles ... and draw three tiles").

Not a violation but flagged (``notes``): ``table_before_illegal``, a set that was not legal
before the turn (the turn is judged all the same; the referee does not blame this player).

The penalty of every verdict: ``none`` (legal), ``draw_one`` (a draw: nothing laid, table
unchanged; "Players who go over the time limit must draw a tile from the pool") or
``draw_three`` (a failed turn: "must replace the tiles that were on the table to their previous
positions, take back the tiles they played, and draw three tiles from the pool as a penalty").

Not checked (the table cannot show them): a tile drawn this turn being laid.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from companion.core.jokers import (
    FreedJoker,
    descendant,
    follow_jokers,
    new_sets,
    numbered,
    option_tiles,
    rack_tile_count,
)
from companion.core.melds import MeldKind, MeldVerdict, check_meld, joker_options
from companion.core.presets import Preset
from companion.core.reasons import Param
from companion.core.tiles import (
    ImpossibleTilesError,
    JokerKind,
    Meld,
    NotationError,
    Table,
    Tile,
    check_inventory,
    parse_rack,
    parse_table,
)
from companion.core.turn_verdicts import (
    NoteCode,
    Penalty,
    TurnVerdict,
    Violation,
    ViolationCode,
    penalty_words,
)

_Parsed = TypeVar("_Parsed")

SABRA_RACK_TILES_WITH_A_FREED_JOKER = 2  # "immediately with 2 more tiles from your hand" (seed 004)
GROUP_OF_THREE = 3  # "a Joker taken from a group of three tiles" (seed 004, tournament rules)


def referee_turn(before: Table, after: Table, *, opened: bool, preset: Preset,
                 rack: Meld | None = None, over_time: bool = False) -> TurnVerdict:
    """Judge one turn; see the module docstring for every rule and how it is read.

    Raises ``ImpossibleTilesError`` (bad input, not a verdict) when the table before, the table
    after, or the table before together with the rack hold more copies of a tile than a box.
    """
    for tiles in _tiles_a_box_must_hold(before, after, rack).values():
        check_inventory(tiles, preset.jokers)
    return _judge_turn(before, after, opened=opened, preset=preset, rack=rack,
                       over_time=over_time)


def _tiles_a_box_must_hold(before: Table, after: Table,
                           rack: Meld | None) -> dict[str, list[Tile]]:
    """What one box must be able to hold, by input field: the table before, the table after,
    and the table before together with the rack."""
    before_tiles = [tile for meld in before for tile in meld]
    collections = {"before": before_tiles, "after": [tile for meld in after for tile in meld]}
    if rack is not None:
        collections["rack"] = before_tiles + list(rack)
    return collections


@dataclass(frozen=True, slots=True)
class _Turn:
    """What every checker needs to know about the turn, worked out once."""

    before: Table
    after: Table
    rack: Meld | None
    opened: bool
    preset: Preset
    before_verdicts: tuple[MeldVerdict, ...]
    after_verdicts: tuple[MeldVerdict, ...]
    played_counts: Counter[Tile]
    played: Meld
    removed: Meld
    unchanged: dict[int, int]
    changed_after: frozenset[int]
    new_after: frozenset[int]
    freed: tuple[FreedJoker, ...]
    meld_value: int
    over_time: bool = False

    @property
    def table_unchanged(self) -> bool:
        return (Counter(_sorted_tiles(meld) for meld in self.before)
                == Counter(_sorted_tiles(meld) for meld in self.after))


def _judge_turn(before: Table, after: Table, *, opened: bool, preset: Preset,
                rack: Meld | None, over_time: bool = False) -> TurnVerdict:
    """``referee_turn`` once the tiles are known to fit in a box."""
    before_tiles = [tile for meld in before for tile in meld]
    after_tiles = [tile for meld in after for tile in meld]
    played_counts = Counter(after_tiles) - Counter(before_tiles)
    unchanged = _match_unchanged_sets(before, after)
    changed_after = frozenset(range(len(after))) - frozenset(unchanged.values())
    new_after = new_sets(before, after, unchanged)
    after_verdicts = tuple(check_meld(meld, preset=preset) for meld in after)
    turn = _Turn(
        before=before, after=after, rack=rack, opened=opened, preset=preset,
        before_verdicts=tuple(check_meld(meld, preset=preset) for meld in before),
        after_verdicts=after_verdicts,
        played_counts=played_counts, played=_sorted_tiles(played_counts.elements()),
        removed=_sorted_tiles((Counter(before_tiles) - Counter(after_tiles)).elements()),
        unchanged=unchanged, changed_after=changed_after, new_after=new_after,
        freed=tuple(follow_jokers(before, after, preset=preset, played=played_counts,
                                  new=new_after)),
        meld_value=_turn_value(after, after_verdicts, changed_after, played_counts,
                               opened=opened),
        over_time=over_time)
    violations = tuple(violation for checker in CHECKERS for violation in checker(turn))
    notes = tuple(
        Violation(NoteCode.TABLE_BEFORE_ILLEGAL,
                  {"set": number, "tiles": verdict.tiles, "why": verdict.reason or ""})
        for number, verdict in enumerate(turn.before_verdicts, start=1) if not verdict.legal)
    if not violations:
        penalty = Penalty.NONE
    elif not turn.played and turn.table_unchanged:
        penalty = Penalty.DRAW_ONE
    else:
        penalty = Penalty.DRAW_THREE
    return TurnVerdict(
        legal=not violations, violations=violations, played=turn.played, removed=turn.removed,
        value=turn.meld_value, opened=opened, preset=preset, set_verdicts=after_verdicts,
        penalty=penalty, notes=notes)


def _turn_value(after: Table, verdicts: Sequence[MeldVerdict], changed_after: frozenset[int],
                played: Counter[Tile], *, opened: bool) -> int:
    if opened:
        return sum(verdict.value or 0 for index, verdict in enumerate(verdicts)
                   if index in changed_after and verdict.legal
                   and rack_tile_count(after[index], played) > 0)
    return _initial_meld_value(after, verdicts, changed_after, played)


# --- one checker per violation code, in the order they are reported -------------------------

def _tile_removed(turn: _Turn) -> list[Violation]:
    if not turn.removed:
        return []
    return [Violation(ViolationCode.TILE_REMOVED, {"tiles": turn.removed})]


def _nothing_played(turn: _Turn) -> list[Violation]:
    if turn.played:
        return []
    return [Violation(ViolationCode.NOTHING_PLAYED,
                      {"table_changed": "no" if turn.table_unchanged else "yes"})]


def _not_from_rack(turn: _Turn) -> list[Violation]:
    if turn.rack is None:
        return []
    not_on_rack = _sorted_tiles((turn.played_counts - Counter(turn.rack)).elements())
    if not not_on_rack:
        return []
    return [Violation(ViolationCode.NOT_FROM_RACK,
                      {"tiles": not_on_rack, "rack": _sorted_tiles(turn.rack)})]


def _illegal_sets(turn: _Turn) -> list[Violation]:
    return [Violation(ViolationCode.ILLEGAL_SET,
                      {"set": number, "tiles": verdict.tiles, "why": verdict.reason or ""})
            for number, verdict in enumerate(turn.after_verdicts, start=1) if not verdict.legal]


def _meld_too_low(turn: _Turn) -> list[Violation]:
    if turn.opened or not turn.played or turn.meld_value >= turn.preset.initial_meld:
        return []
    return [Violation(ViolationCode.MELD_TOO_LOW,
                      {"value": turn.meld_value, "needed": turn.preset.initial_meld,
                       "preset": turn.preset.name})]


def _meld_touches_table(turn: _Turn) -> list[Violation]:
    if turn.opened:
        return []
    touched = tuple(meld for index, meld in enumerate(turn.before) if index not in turn.unchanged)
    if not touched:
        return []
    return [Violation(ViolationCode.MELD_TOUCHES_TABLE, {"sets": touched})]


def _joker_before_meld(turn: _Turn) -> list[Violation]:
    if turn.opened or not turn.freed:
        return []
    return [Violation(ViolationCode.JOKER_BEFORE_MELD,
                      {"sets": tuple(turn.before[joker.was.set_index] for joker in turn.freed)})]


def _freed_from(joker: FreedJoker, turn: _Turn) -> dict[str, Param]:
    return {"joker": joker.was.kind.word, "from": turn.before[joker.was.set_index]}


def _joker_not_reused(turn: _Turn) -> list[Violation]:
    violations = []
    for joker in turn.freed:
        if joker.now_in is not None and joker.now_in in turn.new_after:
            continue
        if joker.now_in is not None and not turn.after_verdicts[joker.now_in].legal:
            continue  # reported as an illegal set; a new set being built is not blamed twice
        where: dict[str, Param] = (
            {"where": "gone"} if joker.now_in is None
            else {"where": "old_set", "into": turn.after[joker.now_in]})
        violations.append(Violation(ViolationCode.JOKER_NOT_REUSED,
                                    _freed_from(joker, turn) | where))
    return violations


def _joker_set_manipulated(turn: _Turn) -> list[Violation]:
    if not turn.preset.sabra_joker_rules:
        return []
    freed_by_set = Counter(joker.was.set_index for joker in turn.freed)
    broken: list[int] = []
    homes_wanted: dict[int, list[int]] = {}
    for index, meld in enumerate(turn.before):
        jokers = sum(1 for tile in meld if tile.is_joker)
        if not jokers:
            continue
        if jokers <= freed_by_set[index]:
            # every joker taken: "the meld may be manipulated", once a tile took the joker's
            # place; a joker simply taken away took a tile from a meld holding a joker
            if not _exchanged_in_place(index, turn):
                broken.append(index)
            continue
        still_there = Counter(meld)
        for joker in turn.freed:
            if joker.was.set_index == index:
                still_there[Tile.of_joker(joker.was.kind)] -= 1
        homes_wanted[index] = [a for a, candidate in enumerate(turn.after)
                               if not still_there - Counter(candidate)]
    homes = _distinct_homes(homes_wanted)
    broken.extend(index for index in homes_wanted if index not in homes)
    return [Violation(ViolationCode.JOKER_SET_MANIPULATED,
                      {"set": turn.before[index], "preset": turn.preset.name})
            for index in sorted(broken)]


def _distinct_homes(candidates: dict[int, list[int]]) -> dict[int, int]:
    """Give as many sets as possible a set after the turn of their own (a maximum bipartite
    matching by augmenting paths).

    Taking the first set that holds a set's tiles is not enough: with ``K1 J K3`` and
    ``K1 J K3 K4`` both left as they were, the first would take the longer one when it is typed
    first, and the longer one would seem broken up."""
    owner: dict[int, int] = {}

    def place(index: int, tried: set[int]) -> bool:
        for home in candidates[index]:
            if home in tried:
                continue
            tried.add(home)
            if home not in owner or place(owner[home], tried):
                owner[home] = index
                return True
        return False

    for index in candidates:
        place(index, set())
    return {index: home for home, index in owner.items()}


def _exchanged_in_place(index: int, turn: _Turn) -> bool:
    """Did a tile a freed joker stood for take its place: is it, new to the set, in a set
    after the turn that holds tiles of the old set?

    Not only the set holding *most* of them: once the joker is exchanged "the meld may be
    manipulated" (seed 004) in the same turn, so ``K3 K4 J K6 K7 K8`` may become
    ``K3 K4 K5 | K6 K7 K8`` with K5 from the rack (the K5 lies beside K4, where the joker
    stood, though ``K6 K7 K8`` keeps more of the old set)."""
    old = numbered(turn.before[index])
    options = frozenset().union(*(option_tiles(joker.was.options) for joker in turn.freed
                                  if joker.was.set_index == index))
    return any(old & numbered(meld)
               and any(tile in options for tile in numbered(meld) - old)
               for meld in turn.after)


def _joker_needs_two_rack_tiles(turn: _Turn) -> list[Violation]:
    if not turn.preset.sabra_joker_rules:
        return []
    violations = []
    for joker in turn.freed:
        if joker.now_in is None or joker.now_in not in turn.new_after:
            continue  # already joker_not_reused
        count = rack_tile_count(turn.after[joker.now_in], turn.played_counts,
                                leave_out=joker.was.kind)
        if count < SABRA_RACK_TILES_WITH_A_FREED_JOKER:
            violations.append(Violation(
                ViolationCode.JOKER_NEEDS_TWO_RACK_TILES,
                _freed_from(joker, turn) | {"count": count, "preset": turn.preset.name,
                                            "needed": SABRA_RACK_TILES_WITH_A_FREED_JOKER}))
    return violations


def _joker_not_exchanged(turn: _Turn) -> list[Violation]:
    if not turn.preset.sabra_joker_rules:
        return []
    violations = []
    unused = Counter(turn.played_counts)
    for joker in turn.freed:
        exchange = next((tile for tile in sorted(option_tiles(joker.was.options),
                                                 key=Tile.sort_key) if unused[tile] > 0), None)
        if exchange is not None:
            unused[exchange] -= 1
            continue
        violations.append(Violation(ViolationCode.JOKER_NOT_EXCHANGED,
                                    _freed_from(joker, turn) | {"preset": turn.preset.name}))
    return violations


def _was_group_of_three(meld: Meld, preset: Preset) -> bool:
    """A set of three tiles with one joker that every reading lays as a group."""
    if len(meld) != GROUP_OF_THREE or sum(1 for tile in meld if tile.is_joker) != 1:
        return False
    verdict = check_meld(meld, preset=preset)
    return verdict.legal and verdict.kinds == (MeldKind.GROUP,)


def _joker_needs_both_missing_tiles(turn: _Turn) -> list[Violation]:
    if not turn.preset.tournament_joker_rule:
        return []
    violations = []
    for joker in turn.freed:
        old = turn.before[joker.was.set_index]
        if joker.was.kind is not JokerKind.REGULAR or not _was_group_of_three(old, turn.preset):
            continue
        missing = _sorted_tiles(option_tiles(joker.was.options))
        home = descendant(old, turn.after)
        there: Counter[Tile] = Counter() if home is None else Counter(turn.after[home])
        if turn.preset.sabra_joker_rules:
            there &= turn.played_counts
        if all(there[tile] > 0 for tile in missing):
            continue
        violations.append(Violation(ViolationCode.JOKER_NEEDS_BOTH_MISSING_TILES,
                                    _freed_from(joker, turn) | {"missing": missing}))
    return violations


def _bonus_joker_replaced_joker(turn: _Turn) -> list[Violation]:
    if not turn.preset.has_bonus_jokers:
        return []
    violations = []
    for joker in turn.freed:
        old = turn.before[joker.was.set_index]
        home = descendant(old, turn.after)
        if home is None:
            continue
        new_meld = turn.after[home]
        gained = Counter(t for t in new_meld if t.is_joker and t.joker is not JokerKind.REGULAR)
        gained -= Counter(t for t in old if t.is_joker)
        replaced_by_a_tile = (numbered(new_meld) - numbered(old)).keys() & option_tiles(
            joker.was.options)
        if gained and not replaced_by_a_tile:
            bonus = _sorted_tiles(gained.elements())
            violations.append(Violation(
                ViolationCode.BONUS_JOKER_REPLACED_JOKER,
                _freed_from(joker, turn) | {"bonus": bonus[0].joker.word if bonus[0].joker
                                            else ""}))
    return violations


def _over_time(turn: _Turn) -> list[Violation]:
    if not turn.over_time:
        return []
    return [Violation(ViolationCode.OVER_TIME, {
        "seconds": turn.preset.turn_seconds,
        "table_changed": "no" if turn.table_unchanged and not turn.played else "yes"})]


CHECKERS: tuple[Callable[[_Turn], list[Violation]], ...] = (
    _tile_removed, _nothing_played, _not_from_rack, _illegal_sets, _meld_too_low,
    _meld_touches_table, _joker_before_meld, _joker_not_reused, _joker_set_manipulated,
    _joker_needs_two_rack_tiles, _joker_not_exchanged, _joker_needs_both_missing_tiles,
    _bonus_joker_replaced_joker, _over_time)
"""One checker per ``ViolationCode``, in the same order."""


# --- typed input --------------------------------------------------------------------------

class TurnInputError(ValueError):
    """Typed turn input that cannot be judged, naming the field (before, after or rack)."""

    def __init__(self, field: str, message: str, where: dict[str, int | str], *,
                 cause: NotationError | ImpossibleTilesError | None = None) -> None:
        self.field = field
        self.cause = cause
        """The parser's or the box's error behind it (its ``code`` for a page to say)."""
        self.where: dict[str, int | str] = {"field": field, **where}
        located = field == "rack" and " at rack, " in message  # the parser named the rack
        super().__init__(message if located else f"{TURN_FIELD_WORDS[field]}: {message}")


TURN_FIELD_WORDS = {"before": "table before the turn", "after": "table after the turn",
                    "rack": "rack"}


def referee_typed_turn(before_text: str, after_text: str, *, opened: bool, preset: Preset,
                       rack_text: str | None = None, over_time: bool = False) -> TurnVerdict:
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
            raise TurnInputError(field, message, error.where, cause=error) from error
    return _judge_turn(before, after, opened=opened, preset=preset, rack=rack,
                       over_time=over_time)


def _parse_field(field: str, text: str, parse: Callable[[str], _Parsed]) -> _Parsed:
    try:
        return parse(text)
    except NotationError as error:
        raise TurnInputError(field, str(error), error.where, cause=error) from error


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


def _initial_meld_value(after: Table, after_verdicts: Sequence[MeldVerdict],
                        changed_after: frozenset[int], played_counts: Counter[Tile]) -> int:
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


__all__ = ["NoteCode", "Penalty", "TurnInputError", "TurnVerdict", "Violation", "ViolationCode",
           "joker_options", "penalty_words", "referee_turn", "referee_typed_turn"]
