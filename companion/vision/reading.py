"""What the reader saw: tiles with confidence and outline, sets in laid order, the verdict; a
rack's tiles and their value."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.core.melds import TableVerdict, check_meld, check_table
from companion.core.presets import PRESSMAN, Preset
from companion.core.tiles import ImpossibleTilesError, Table, Tile

# Why a tile is held unsure though the reader was sure of it (``ReadTile.doubt``): one code a
# rule (``doubts`` and the rack step apply them), said in English here (the CLI, the API's
# "doubt"), in the page's language by the web layer (``web.tool_text.DOUBT_MESSAGES``). A tile
# the reader itself was unsure of has no code: its percentage says it.
SHADED_SIX_OR_NINE = "six_or_nine_in_shade"
TURNED_FROM_NEIGHBOURS = "turned_from_its_neighbours"
WASHED_OUT = "washed_out"
TWO_IN_ONE_BOX = "two_tiles_in_one_box"
OTHER_DESIGN = "other_design"
FIGURE_SAYS_OTHER = "figure_reads_the_other"
PHOTO_READ_POORLY = "photo_read_poorly"
RACK_NOT_WHOLE = "rack_not_seen_whole"
TURNED_FROM_THE_RACK = "turned_from_the_rack"
DOUBTS: dict[str, str] = {
    SHADED_SIX_OR_NINE: "a 6 or a 9 in a shadow, where which way up it lies is hard to see",
    TURNED_FROM_NEIGHBOURS: "a small 6 or 9 read the other way up from the tiles beside it",
    WASHED_OUT: "its face is washed out by glare",
    TWO_IN_ONE_BOX: "it may be two tiles side by side, read as one",
    OTHER_DESIGN: "read as a classic tile, though the tiles look like the current design",
    FIGURE_SAYS_OTHER: "its figure reads as the other of 6 and 9",
    PHOTO_READ_POORLY: "most tiles in this photo were read unsurely (blur?), so every tile is "
                       "checked",
    RACK_NOT_WHOLE: "the whole rack may not have been read, so every tile is checked",
    TURNED_FROM_THE_RACK: "a 6 or a 9 the other way up from the rack's tiles",
}
# the codes that hold every tile of a photo: said once for the photo, not tile by tile
WHOLE_PHOTO_DOUBTS = frozenset({PHOTO_READ_POORLY, RACK_NOT_WHOLE})


@dataclass(frozen=True, slots=True)
class ReadTile:
    """One tile found in the photo.

    ``outline`` is in pixels of the original photo after its EXIF rotation; ``set_index`` is
    the index of its set in ``PhotoReading.sets``.
    """

    tile: Tile
    confidence: float
    outline: tuple[tuple[int, int], ...]
    set_index: int
    low_confidence: bool
    # the reader's next likeliest readings, likeliest first (empty when not kept)
    alternatives: tuple[Tile, ...] = ()
    # why the tile is unsure though the reader was sure of it: a code of DOUBTS ("" when
    # the reader itself was unsure, or the tile is sure)
    doubt: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "tile": str(self.tile),
            "confidence": round(self.confidence, 4),
            "outline": [[x, y] for x, y in self.outline],
            "set": self.set_index,
            "low_confidence": self.low_confidence,
            "doubt": self.doubt or None,
        }

    def unsure_words(self) -> str:
        """How sure the reader was of an unsure tile, or, when a rule of its own holds it
        unsure, that rule's reason (the percentage is then the rule's cap, not the reader's)."""
        if self.doubt and self.doubt not in WHOLE_PHOTO_DOUBTS:
            return DOUBTS[self.doubt]
        return f"{self.confidence:.0%} sure"


@dataclass(frozen=True, slots=True)
class SetJudgement:
    legal: bool
    reason: str | None  # None for a legal set


@dataclass(frozen=True, slots=True)
class Suggestion:
    """A set read illegal only because of one unsure tile: reading that tile as ``suggested``
    (the reader's next likeliest reading that makes the set legal) would make it legal.
    Offered to the user, never applied."""

    set_index: int
    position: int  # the tile's place in the set, from 0
    tile_index: int
    read: Tile
    suggested: Tile

    def to_json(self) -> dict[str, Any]:
        return {"set": self.set_index, "position": self.position, "tile": self.tile_index,
                "read": str(self.read), "suggested": str(self.suggested)}


def suggestions_for(tiles: tuple[ReadTile, ...], sets: tuple[tuple[int, ...], ...],
                    judged: tuple[SetJudgement, ...], *, preset: Preset) -> tuple[Suggestion, ...]:
    """The rules as a hint: for each illegal set with exactly one unsure tile, the likeliest
    other reading of that tile that makes the set legal."""
    found = []
    for set_index, (meld, judgement) in enumerate(zip(sets, judged)):
        unsure = [position for position, index in enumerate(meld) if tiles[index].low_confidence]
        if judgement.legal or len(unsure) != 1:
            continue
        position = unsure[0]
        tile_index = meld[position]
        for other in tiles[tile_index].alternatives:
            trial = tuple(other if place == position else tiles[index].tile
                          for place, index in enumerate(meld))
            try:
                legal = check_meld(trial, preset=preset).legal
            except ImpossibleTilesError:
                continue
            if legal:
                found.append(Suggestion(set_index, position, tile_index,
                                        tiles[tile_index].tile, other))
                break
    return tuple(found)


@dataclass(frozen=True, slots=True)
class Judgement:
    """The rules core's word on a table read from a photo, given once.

    ``verdict`` is None when the core refused the table as impossible (a third red 7 read);
    ``error`` then says why, and each set is still judged on its own in ``sets``.
    """

    verdict: TableVerdict | None
    error: str | None
    sets: tuple[SetJudgement, ...]
    impossible: ImpossibleTilesError | None = None
    """The core's refusal behind ``error`` (its ``code`` for a page to say)."""

    @property
    def legal(self) -> bool:
        return self.verdict is not None and self.verdict.legal


def judge(table: Table, *, preset: Preset) -> Judgement:
    """The one place a photo's table meets the rules: the table's verdict under ``preset``."""
    try:
        verdict = check_table(table, preset=preset)
    except ImpossibleTilesError as error:
        sets = []
        for meld in table:
            try:
                meld_verdict = check_meld(meld, preset=preset)
                sets.append(SetJudgement(meld_verdict.legal, meld_verdict.reason))
            except ImpossibleTilesError as impossible:
                sets.append(SetJudgement(False, str(impossible)))
        return Judgement(None, f"the tiles read cannot all be right: {error}", tuple(sets),
                         error)
    return Judgement(verdict, None,
                     tuple(SetJudgement(meld.legal, meld.reason) for meld in verdict.sets))


@dataclass(frozen=True, slots=True)
class PhotoReading:
    """The whole table as read from one photo, judged once under its ``preset``.

    ``sets`` holds indexes into ``tiles``, each set in laid order. ``judgement`` (and its
    ``verdict`` and ``error``) is computed when the reading is made, from its own tiles and
    preset; nothing else judges a reading again.
    """

    width: int
    height: int
    tiles: tuple[ReadTile, ...]
    sets: tuple[tuple[int, ...], ...]
    preset: Preset = PRESSMAN
    judgement: Judgement = field(init=False, repr=False, compare=False)
    suggestions: tuple[Suggestion, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        judgement = judge(self.table, preset=self.preset)
        object.__setattr__(self, "judgement", judgement)
        object.__setattr__(self, "suggestions", suggestions_for(
            self.tiles, self.sets, judgement.sets, preset=self.preset))

    @property
    def verdict(self) -> TableVerdict | None:
        return self.judgement.verdict

    @property
    def error(self) -> str | None:
        return self.judgement.error

    @property
    def table(self) -> Table:
        return tuple(tuple(self.tiles[index].tile for index in meld) for meld in self.sets)

    @property
    def low_confidence_count(self) -> int:
        return sum(tile.low_confidence for tile in self.tiles)

    def to_json(self) -> dict[str, Any]:
        sets = []
        for meld, judged in zip(self.sets, self.judgement.sets):
            sets.append({
                "tiles": [str(self.tiles[index].tile) for index in meld],
                "tile_indexes": list(meld),
                "legal": judged.legal,
                "reason": judged.reason,
            })
        answer: dict[str, Any] = {
            "width": self.width,
            "height": self.height,
            "tiles": [tile.to_json() for tile in self.tiles],
            "sets": sets,
            "legal": self.judgement.legal,
            "preset": self.preset.key,
            "suggestions": [suggestion.to_json() for suggestion in self.suggestions],
        }
        if self.error is not None:
            answer["error"] = self.error
        return answer


def tiles_of(reading: PhotoReading) -> tuple[Tile, ...]:
    return tuple(tile.tile for tile in reading.tiles)


@dataclass(frozen=True, slots=True)
class RackReading:
    """The tiles standing on one rack (top row first, each row left to right) and their value.

    ``tiles[i].set_index`` is the tile's row (0 top); ``ignored`` holds the outlines of the
    tiles found elsewhere. ``seen_whole`` is False when the photo does not show plainly that
    the rows read are one rack, read whole: every tile is then unsure (see ``rack``).
    """

    width: int
    height: int
    tiles: tuple[ReadTile, ...]
    ignored: tuple[tuple[tuple[int, int], ...], ...]
    value: int
    jokers: int
    preset: Preset = PRESSMAN
    seen_whole: bool = True

    @property
    def rack(self) -> tuple[Tile, ...]:
        return tuple(read.tile for read in self.tiles)

    @property
    def rows(self) -> int:
        return len({read.set_index for read in self.tiles})

    def to_json(self) -> dict[str, Any]:
        return {
            "width": self.width,
            "height": self.height,
            "tiles": [_tile_json(read) for read in self.tiles],
            "value": self.value,
            "jokers": self.jokers,
            "ignored": [[[x, y] for x, y in outline] for outline in self.ignored],
            "preset": self.preset.key,
            "seen_whole": self.seen_whole,
        }


def _tile_json(read: ReadTile) -> dict[str, Any]:
    shown = read.to_json()
    shown["row"] = shown.pop("set")
    return shown
