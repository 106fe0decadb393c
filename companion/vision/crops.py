"""Cutting one tile out of a photo into the reader network's canonical crop."""

from __future__ import annotations

import cv2
import numpy as np

CROP_WIDTH, CROP_HEIGHT = 48, 64  # the tile's long side runs down the crop
CROP_MARGIN = 1.06  # a little of the table around the tile, so its edges are in the crop
# A real face is 26 × 36 mm (0.72): an outline squarer than this is a foreshortened tile,
# whose long side may lie either way.
SQUARISH = 0.8


def canonical_corners(rect: tuple[tuple[float, float], tuple[float, float], float]) -> np.ndarray:
    """The rectangle's corners as top-left, top-right, bottom-right, bottom-left of an upright tile.

    "Up" is only a guess here (the end of the long side nearer the top of the photo): the reader
    network reads tiles either way up, and the laid order uses the ink, not this guess.
    """
    points = cv2.boxPoints(rect).astype(np.float32)
    # edges 0-1 and 1-2: make 0-1 a short side
    if np.linalg.norm(points[1] - points[0]) > np.linalg.norm(points[2] - points[1]):
        points = np.roll(points, -1, axis=0)
    # now 0-1 and 2-3 are the short sides; the top one is the one nearer the top of the photo
    if (points[0, 1] + points[1, 1]) > (points[2, 1] + points[3, 1]):
        points = np.roll(points, 2, axis=0)
    top_left, top_right = points[0], points[1]
    if top_left[0] > top_right[0]:
        points = points[[1, 0, 3, 2]]
    return points


def upright_corners(corners: np.ndarray) -> np.ndarray:
    """The same four corners turned so the top edge is the one nearest the photo's top."""
    turns = [np.roll(corners, -shift, axis=0) for shift in range(4)]
    # corner order stays clockwise: TL TR BR BL; pick the turn whose top edge is highest
    return min(turns, key=lambda c: float(c[0, 1] + c[1, 1]))


def top_towards(corners: np.ndarray, up: np.ndarray, *, quarter_turns: bool = True
                ) -> np.ndarray:
    """The same four corners (clockwise from the top left) turned so their top faces ``up``;
    not ``quarter_turns``: only end for end, the side taken as the height kept."""
    turns = [np.roll(corners, -shift, axis=0) for shift in ((0, 1, 2, 3) if quarter_turns
                                                             else (0, 2))]
    return max(turns, key=lambda c: float((c[0] + c[1] - c[2] - c[3]) @ up))


def crop_tile(image: np.ndarray, corners: np.ndarray, *, margin: float = CROP_MARGIN) -> np.ndarray:
    """Warp the tile with these canonical corners into a CROP_HEIGHT × CROP_WIDTH BGR crop."""
    centre = corners.mean(axis=0)
    grown = centre + (corners - centre) * margin
    source = grown[:3].astype(np.float32)
    target = np.float32([[0, 0], [CROP_WIDTH, 0], [CROP_WIDTH, CROP_HEIGHT]])
    matrix = cv2.getAffineTransform(source, target)
    # shrinking a big tile a lot: blur first so thin strokes are not lost to aliasing
    side = float(np.linalg.norm(grown[1] - grown[0]))
    if side > 2.5 * CROP_WIDTH:
        x, y, w, h = cv2.boundingRect(np.round(grown).astype(np.int32))
        x0, y0 = max(x, 0), max(y, 0)
        x1, y1 = min(x + w, image.shape[1]), min(y + h, image.shape[0])
        if x1 > x0 and y1 > y0:
            patch = image[y0:y1, x0:x1]
            factor = CROP_WIDTH * 1.5 / side
            small = cv2.resize(patch, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
            shifted = (grown[:3] - (x0, y0)) * factor
            matrix = cv2.getAffineTransform(shifted.astype(np.float32), target)
            return cv2.warpAffine(small, matrix, (CROP_WIDTH, CROP_HEIGHT), flags=cv2.INTER_LINEAR,
                                  borderMode=cv2.BORDER_REPLICATE)
    return cv2.warpAffine(image, matrix, (CROP_WIDTH, CROP_HEIGHT), flags=cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_REPLICATE)
