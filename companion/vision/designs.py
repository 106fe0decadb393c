"""What the classic pass's reading may claim of a photo of current tiles.

A photo the shipped reader reads poorly is read again with the classic design's networks, and
the reading whose median tile reads surer is kept (``pipeline.find_and_read``). The classic
networks read small, soft and blurred current tiles better than the shipped ones, so that
reading is often kept for a photo of current tiles; but a classic reader taught to read its
own design well also reads poor current tiles surely wrong (a candidate classic reader read
an R10 of `valid/`'s rummy3-33, shrunk to 24 px tall tiles, as another tile at 0.901, shown
sure). Which design a photo shows is told apart by a network of its own
(``networks.classic_design``, ``training/train_design.py``): its median tile. When that is
the current design, the classic pass's reading is kept, but it is sure only of the tiles the
shipped reader read alike; every other tile is offered to be checked. Taking the classic
pass away from such photos instead (a veto) read them worse: `valid/` shrunk to 30 px and
softened, 99.53% → 93.36% of tiles found (docs/vision-history.md, 2026-12-07).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import cv2
import numpy as np

from companion.vision.crops import crop_tile
from companion.vision.doubts import LOW_CONFIDENCE
from companion.vision.networks import classic_design
from companion.vision.reading import OTHER_DESIGN

if TYPE_CHECKING:  # the pipeline asks this module about the classic pass's reading
    from companion.vision.decode import DecodedPhoto
    from companion.vision.found import ReadFound

CLASSIC_PHOTO = 0.5  # the median tile's P(classic design) from which a photo is of classic tiles
# how sure the classic pass may be of a current tile the shipped reader read otherwise: under
# LOW_CONFIDENCE, so it is offered to be checked (a tile it read less surely keeps its own)
DOUBTED = LOW_CONFIDENCE - 0.01


def of_classic_tiles(photo: DecodedPhoto, read: ReadFound) -> bool:
    """Whether the tiles read in the photo are of the classic design (its median tile)."""
    image, scale = read.prepared(photo.image), 1 / photo.factor
    crops = np.stack([crop_tile(image, corners * scale) for corners in read.corners])
    return float(np.median(classic_design(crops))) >= CLASSIC_PHOTO


def as_the_classic_pass_may(classic: ReadFound, shipped: ReadFound | None,
                            photo: DecodedPhoto) -> ReadFound:
    """The classic pass's reading of the photo, kept whole for classic tiles; for current
    tiles, each tile the shipped reader (``shipped``; None when it refused the photo) did not
    read as the same tile, in a box holding its centre, held under LOW_CONFIDENCE."""
    if not classic.found or of_classic_tiles(photo, classic):
        return classic
    confidence = classic.confidence.copy()
    for index, corners in enumerate(classic.corners):
        if _read_otherwise(shipped, np.asarray(corners).mean(axis=0), int(classic.best[index])):
            confidence[index] = min(confidence[index], DOUBTED)
    return classic.held(confidence, OTHER_DESIGN)


def _read_otherwise(shipped: ReadFound | None, centre: np.ndarray, tile: int) -> bool:
    if shipped is None:
        return True
    point = (float(centre[0]), float(centre[1]))
    for corners, best in zip(shipped.corners, shipped.best):
        outline = np.asarray(corners, np.float32).reshape(-1, 1, 2)
        if cv2.pointPolygonTest(outline, point, False) >= 0:
            return int(best) != tile
    return True
