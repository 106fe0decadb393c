"""The tiles found in a photo and read: the reading every step after the reader works on
(``pipeline.find_and_read`` makes it; the table's sets, the rack step and the rules that hold
a tile unsure take it from there)."""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from companion.vision.classes import TILE_CLASSES
from companion.vision.detect import FoundTile
from companion.vision.doubts import LOW_CONFIDENCE, noting
from companion.vision.light import LightMap
from companion.vision.quality import brightened
from companion.vision.reading import ReadTile

ALTERNATIVES = 5  # other readings kept per tile, for the rules' hint


@dataclass(frozen=True, eq=False)
class ReadFound:
    """The found tiles, read: outlines as canonical corners turned the way the ink is up
    (top-left, top-right, bottom-right, bottom-left), with the reader's best class and its
    probability."""

    found: list[FoundTile]
    corners: list[np.ndarray]
    best: np.ndarray
    confidence: np.ndarray
    ranking: np.ndarray  # per tile, class indexes from likeliest to least likely
    gain: float  # how much the photo was brightened to be read (quality.exposure_gain)
    light: LightMap | None = None  # the shadow divided out of it, if any (light.py)
    # the shadow found across the tiles, divided out or not (the tiles may read as surely
    # without): a rack's bar is looked for with it divided out
    shade: LightMap | None = None
    classic: bool = False  # read with the classic design's reader (find_and_read)
    # per tile, why a rule holds it unsure though the reader was sure ("" for none;
    # reading.DOUBTS): kept only while the tile stays unsure
    doubts: tuple[str, ...] = ()

    def prepared(self, image: np.ndarray) -> np.ndarray:
        """A decode of the photo (any size) lit as its tiles were read."""
        return prepared(image, self.gain, self.light)

    def tile(self, index: int) -> ReadTile:
        """Tile ``index`` as a ReadTile of set (or rack row) -1 until it is placed."""
        confidence = float(self.confidence[index])
        unsure = confidence < LOW_CONFIDENCE
        return ReadTile(
            tile=TILE_CLASSES[int(self.best[index])], confidence=confidence,
            outline=tuple((int(np.rint(x)), int(np.rint(y))) for x, y in self.corners[index]),
            set_index=-1, low_confidence=unsure,
            alternatives=tuple(TILE_CLASSES[int(c)] for c in self.ranking[index][1:1 + ALTERNATIVES]),
            doubt=self.doubts[index] if unsure and self.doubts else "")

    def held(self, confidence: np.ndarray, why: str) -> ReadFound:
        """This reading with a rule's ``confidence``: ``why`` noted for each tile the rule
        holds unsure that was sure."""
        doubts = list(self.doubts or [""] * len(self.found))
        return replace(self, confidence=noting(doubts, self.confidence, confidence, why),
                       doubts=tuple(doubts))


def prepared(image: np.ndarray, gain: float, light: LightMap | None) -> np.ndarray:
    """A decode of the photo (any size) brightened by ``gain`` and with ``light`` divided out,
    as the tiles were found and read in it."""
    image = brightened(image, gain)
    return image if light is None else light.applied(image)
