"""What the reader saw: tiles with confidence and outline, sets in laid order, the verdict."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.core.melds import TableVerdict, check_meld, check_table
from companion.core.presets import PRESSMAN, Preset
from companion.core.tiles import ImpossibleTilesError, Table, Tile


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

    def to_json(self) -> dict[str, Any]:
        return {
            "tile": str(self.tile),
            "confidence": round(self.confidence, 4),
            "outline": [[x, y] for x, y in self.outline],
            "set": self.set_index,
            "low_confidence": self.low_confidence,
        }


@dataclass(frozen=True, slots=True)
class SetJudgement:
    legal: bool
    reason: str | None  # None for a legal set


@dataclass(frozen=True, slots=True)
class Judgement:
    """The rules core's word on a table read from a photo, given once.

    ``verdict`` is None when the core refused the table as impossible (a third red 7 read);
    ``error`` then says why, and each set is still judged on its own in ``sets``.
    """

    verdict: TableVerdict | None
    error: str | None
    sets: tuple[SetJudgement, ...]

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
        return Judgement(None, f"the tiles read cannot all be right: {error}", tuple(sets))
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

    def __post_init__(self) -> None:
        object.__setattr__(self, "judgement", judge(self.table, preset=self.preset))

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
        }
        if self.error is not None:
            answer["error"] = self.error
        return answer


def tiles_of(reading: PhotoReading) -> tuple[Tile, ...]:
    return tuple(tile.tile for tile in reading.tiles)
