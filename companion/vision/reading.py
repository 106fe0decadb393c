"""What the reader saw: tiles with confidence and outline, sets in laid order, the verdict."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.core.melds import TableVerdict, check_meld
from companion.core.presets import PRESSMAN, Preset
from companion.core.tiles import Meld, Table, Tile


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
class PhotoReading:
    """The whole table as read from one photo.

    ``sets`` holds indexes into ``tiles``, each set in laid order. ``verdict`` is the rules
    core's verdict on ``table``; it is None when the core refused the table as impossible
    (``error`` says why, e.g. a third red 7 was read). The JSON then still judges each set on
    its own, and calls the table not legal.
    """

    width: int
    height: int
    tiles: tuple[ReadTile, ...]
    sets: tuple[tuple[int, ...], ...]
    verdict: TableVerdict | None
    error: str | None = None
    preset: Preset = PRESSMAN

    @property
    def table(self) -> Table:
        return tuple(tuple(self.tiles[index].tile for index in meld) for meld in self.sets)

    @property
    def low_confidence_count(self) -> int:
        return sum(tile.low_confidence for tile in self.tiles)

    def to_json(self) -> dict[str, Any]:
        sets = []
        for number, meld in enumerate(self.sets):
            tiles: Meld = tuple(self.tiles[index].tile for index in meld)
            verdict = (self.verdict.sets[number] if self.verdict is not None
                       else check_meld(tiles, preset=self.preset))
            sets.append({
                "tiles": [str(tile) for tile in tiles],
                "tile_indexes": list(meld),
                "legal": verdict.legal,
                "reason": verdict.reason,
            })
        answer: dict[str, Any] = {
            "width": self.width,
            "height": self.height,
            "tiles": [tile.to_json() for tile in self.tiles],
            "sets": sets,
            "legal": self.verdict is not None and self.verdict.legal,
        }
        if self.error is not None:
            answer["error"] = self.error
        return answer


def tiles_of(reading: PhotoReading) -> tuple[Tile, ...]:
    return tuple(tile.tile for tile in reading.tiles)
