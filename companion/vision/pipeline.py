"""Reading a photo of the table: find the tiles, read each, group them into sets, judge."""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from companion.core.presets import PRESSMAN, Preset
from companion.vision.classes import TILE_CLASSES
from companion.vision.crops import canonical_corners, crop_tile, upright_corners
from companion.vision.decode import decode_image
from companion.vision.detect import FoundTile, find_tiles
from companion.vision.errors import PhotoError
from companion.vision.layout import group_into_sets
from companion.vision.networks import read_crops
from companion.vision.reading import PhotoReading, ReadTile

# Below this the tile is shown to the user to confirm. Chosen on held-out training photos
# (training/train_reader.py prints how many misreads each threshold catches).
LOW_CONFIDENCE = 0.8
MIN_TILE_PIXELS = 12  # a "tile" narrower than this in the photo cannot be read
SQUARISH = 0.8  # a real face is 26 × 36 mm (0.72); squarer outlines are foreshortened tiles


@dataclass(frozen=True, eq=False)
class ReadFound:
    """The found tiles, read: outlines as canonical corners turned the way the ink is up
    (top-left, top-right, bottom-right, bottom-left), with the reader's best class and its
    probability."""

    found: list[FoundTile]
    corners: list[np.ndarray]
    best: np.ndarray
    confidence: np.ndarray

    def tile(self, index: int) -> ReadTile:
        """Tile ``index`` as a ReadTile of set (or rack row) -1 until it is placed."""
        confidence = float(self.confidence[index])
        return ReadTile(
            tile=TILE_CLASSES[int(self.best[index])], confidence=confidence,
            outline=tuple((int(np.rint(x)), int(np.rint(y))) for x, y in self.corners[index]),
            set_index=-1, low_confidence=confidence < LOW_CONFIDENCE)


def find_and_read(image: np.ndarray, *, upright: bool = False) -> ReadFound:
    """Find every tile in a decoded BGR photo and read it; PhotoError when there is none.

    ``upright`` is for tiles standing on a rack: a tile seen from above at a slant looks
    almost square, and its long side may then lie across; it is read with its top towards
    the top of the photo instead.
    """
    found = [tile for tile in find_tiles(image) if tile.short_side >= MIN_TILE_PIXELS]
    if not found:
        raise PhotoError("no tiles found: photograph the tiles from above, the whole table in "
                         "the frame, in good light")
    corners = [canonical_corners(tile.rect) for tile in found]
    if upright:
        corners = [upright_corners(c) if tile.short_side > SQUARISH * tile.long_side else c
                   for c, tile in zip(corners, found)]
    crops = np.stack([crop_tile(image, tile_corners) for tile_corners in corners])
    probabilities, upside_down = read_crops(crops)
    best = probabilities.argmax(axis=1)
    corners = [c[[2, 3, 0, 1]] if turned > 0.5 else c for c, turned in zip(corners, upside_down)]
    confidence = probabilities[np.arange(len(found)), best]
    return ReadFound(found, corners, best, confidence)


def read_image(image: np.ndarray, *, preset: Preset = PRESSMAN) -> PhotoReading:
    """Read an already decoded BGR photo (see ``read_photo``)."""
    height, width = image.shape[:2]
    read = find_and_read(image)
    found, corners = read.found, read.corners

    centres = np.array([c.mean(axis=0) for c in corners], dtype=np.float64)
    ups = []
    for c in corners:
        up = (c[0] + c[1]) / 2 - (c[2] + c[3]) / 2
        ups.append(up / (np.linalg.norm(up) or 1.0))
    widths = np.array([tile.short_side for tile in found])
    heights = np.array([tile.long_side for tile in found])
    sets = group_into_sets(centres, np.array(ups), widths, heights)
    set_of = {index: number for number, meld in enumerate(sets) for index in meld}

    tiles = tuple(replace(read.tile(i), set_index=set_of[i]) for i in range(len(found)))
    # number the tiles in set order, so tile indexes read like the table
    order = [i for meld in sets for i in meld]
    renumber = {old: new for new, old in enumerate(order)}
    tiles = tuple(tiles[old] for old in order)
    set_indexes = tuple(tuple(renumber[i] for i in meld) for meld in sets)
    return PhotoReading(width, height, tiles, set_indexes, preset=preset)


def read_photo(data: bytes, *, preset: Preset = PRESSMAN) -> PhotoReading:
    """Read the tiles and sets in a photo of the table; PhotoError on bad input."""
    return read_image(decode_image(data), preset=preset)
