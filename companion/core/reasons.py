"""Why a set or a turn is not legal: codes with parameters, never sentences.

The rules code returns a ``Reason`` (a stable code and its parameters: numbers, words, tiles);
``companion.core.english`` turns it into English, in one place, so a later translation replaces
that module and touches no rule. ``why_illegal`` finds the one reason a player accepts for a set
with no legal reading.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any, Union

from companion.core.readings import (
    MAX_GROUP_SIZE,
    MIN_MIRROR_SIDE,
    side_readings,
    tile_width,
)
from companion.core.tiles import HIGHEST_NUMBER, LOWEST_NUMBER, Colour, JokerKind, Meld, Tile

Param = Union[int, str, tuple[Tile, ...], tuple[tuple[Tile, ...], ...], tuple[str, ...], "Reason"]


@dataclass(frozen=True, slots=True)
class Reason:
    """A code such as ``group_repeats_colour`` and what the sentence needs to say it."""

    code: str
    params: Mapping[str, Param] = field(default_factory=dict, hash=False)

    def __str__(self) -> str:
        from companion.core.english import render  # the sentences import this module

        return render(self)

    def int(self, name: str) -> int:
        value = self.params[name]
        assert isinstance(value, int)
        return value

    def text(self, name: str) -> str:
        value = self.params[name]
        assert isinstance(value, str)
        return value

    def tiles(self, name: str) -> tuple[Tile, ...]:
        value = self.params[name]
        assert isinstance(value, tuple) and all(isinstance(t, Tile) for t in value)
        return value  # type: ignore[return-value]

    def melds(self, name: str) -> tuple[tuple[Tile, ...], ...]:
        value = self.params[name]
        assert isinstance(value, tuple)
        return value  # type: ignore[return-value]

    def reason(self, name: str) -> Reason:
        value = self.params[name]
        assert isinstance(value, Reason)
        return value

    def words(self, name: str) -> tuple[str, ...]:
        value = self.params[name]
        assert isinstance(value, tuple) and all(isinstance(t, str) for t in value)
        return value  # type: ignore[return-value]

    def params_json(self) -> dict[str, Any]:
        """The parameters as JSON values: tiles in the notation."""
        return {name: _json_value(value) for name, value in self.params.items()}


def _json_value(value: Param) -> Any:
    if isinstance(value, Reason):
        return {"code": value.code, "params": value.params_json()}
    if isinstance(value, tuple):
        return [_json_value(item) if isinstance(item, tuple) else str(item) for item in value]
    return value


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


def why_illegal(tiles: Meld) -> tuple[Reason, str]:
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
    width = sum(tile_width(t) for t in tiles)
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
    joker_width = sum(tile_width(t) for t in tiles if t.is_joker)
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
            offset += tile_width(tile)
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
    left_width = sum(tile_width(t) for t in left)
    right_width = sum(tile_width(t) for t in right)
    if left_width != right_width:
        return Reason("mirror_sides_unequal", {"left": left_width, "right": right_width})
    if left_width < MIN_MIRROR_SIDE:
        return Reason("mirror_side_too_short", {"least": MIN_MIRROR_SIDE})
    for name, side in (("left", left), ("right", right)):
        if not any(True for _ in side_readings(side)):
            return Reason("mirror_side_not_a_set", {"side": name})
    return Reason("mirror_sides_differ", {"left": left, "right": right})
