"""Finding tiles: the detector network's core map, split into one component per tile.

The network marks each tile's core (the tile shrunk to half about its centre), so tiles
that touch in a set still give separate components. Each component's rotated rectangle,
grown back to full size, is the tile's outline.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from companion.vision.networks import detect_masks

WORK_SIZE = 512  # the photo's long side is scaled to this before detection (sides multiple of 16)
CORE_SCALE = 0.5  # as in training/train_detector.py
CORE_THRESHOLD = 0.5
MIN_CORE_FRACTION = 0.2  # a core much smaller than the typical tile's is noise or a fragment


@dataclass(frozen=True)
class FoundTile:
    """A tile's rotated rectangle in photo pixels and how sure the detector is."""

    centre: tuple[float, float]
    size: tuple[float, float]
    angle: float
    score: float

    @property
    def rect(self) -> tuple[tuple[float, float], tuple[float, float], float]:
        return self.centre, self.size, self.angle

    @property
    def short_side(self) -> float:
        return min(self.size)

    @property
    def long_side(self) -> float:
        return max(self.size)


def letterbox(image: np.ndarray, size: int = WORK_SIZE) -> tuple[np.ndarray, float]:
    """The image scaled so its long side is ``size``, padded with black to a square."""
    height, width = image.shape[:2]
    scale = size / max(height, width)
    scaled = cv2.resize(image, (max(1, round(width * scale)), max(1, round(height * scale))),
                        interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
    square = np.zeros((size, size, 3), np.uint8)
    square[:scaled.shape[0], :scaled.shape[1]] = scaled
    return square, scale


def find_tiles(image: np.ndarray) -> list[FoundTile]:
    square, scale = letterbox(image)
    masks = detect_masks(square)
    core = (masks[1] > CORE_THRESHOLD).astype(np.uint8)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(core, connectivity=4)
    if count <= 1:
        return []
    areas = stats[1:, cv2.CC_STAT_AREA]
    typical = float(np.median(areas[areas >= 4])) if np.any(areas >= 4) else 0.0
    found = []
    to_photo = 2.0 / scale  # mask pixel -> photo pixel
    for label in range(1, count):
        area = stats[label, cv2.CC_STAT_AREA]
        if area < 4 or area < MIN_CORE_FRACTION * typical:
            continue
        x, y, w, h = stats[label, :4]
        window = labels[y:y + h, x:x + w] == label
        points = np.argwhere(window)[:, ::-1].astype(np.float32) + (x, y)
        (cx, cy), (rw, rh), angle = cv2.minAreaRect(points)
        # pixel centres underestimate the extent by one pixel; then grow the core back to a tile
        size = ((rw + 1) / CORE_SCALE * to_photo, (rh + 1) / CORE_SCALE * to_photo)
        centre = ((cx + 0.5) * to_photo, (cy + 0.5) * to_photo)
        score = float(masks[1][labels == label].mean())
        found.append(FoundTile(centre, size, angle, score))
    return found
