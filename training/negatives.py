"""Boxes shaped like tiles where there is no tile: the reader's "no tile" examples.

The reader learned only tiles, so any crop it is shown comes back as some tile; bare table, a
rack's ledge, glare or a hand come back as a joker, often at 0.99 (docs/vision.md, "tiles
with no core"). These boxes, cut from the labelled photos' ``train/`` split and from renders
(every tile in them labelled), teach it a 54th class instead.

A box is the size and slant of the photo's own tiles (a little larger or smaller), laid
either anywhere in the photo (bare table, board, a hand) or just beside a labelled tile: off
the end of a set, where the pipeline looks for tiles the detector missed
(``refine_table.tiles_beside``), or under it, where a rack's ledge runs. It is kept only when it
lies over no labelled tile's centre and over at most ``max_overlap`` of its own area of
labelled tiles (so an edge of a tile may show in it, never most of one).

Only numpy and OpenCV: this module is tested without the ``train`` extra.
"""

from __future__ import annotations

import cv2
import numpy as np

Rect = tuple[tuple[float, float], tuple[float, float], float]

MAX_OVERLAP = 0.2  # at most this share of a "no tile" box may lie over labelled tiles
SIZE_RANGE = (0.85, 1.2)  # a box is the tiles' typical size times this, each side
BESIDE_SHARE = 0.6  # share of the boxes laid just beside a labelled tile, the rest anywhere
# a box beside a tile is this many of its widths across (off a set's end) or heights along
# (under it: a rack's ledge, the next row's gap) from the tile's centre
ACROSS_STEPS = (0.95, 1.5)
ALONG_STEPS = (0.9, 1.4)


def tile_rects(polygons: list[np.ndarray]) -> list[Rect]:
    """The rotated rectangles of labelled tile outlines."""
    return [cv2.minAreaRect(np.asarray(polygon, np.float32)) for polygon in polygons]


def overlap_share(box: Rect, tiles: list[Rect]) -> float:
    """The share of the box's area lying over the tiles (their overlaps summed, capped at 1)."""
    area = box[1][0] * box[1][1]
    if area <= 0:
        return 1.0
    covered = 0.0
    for tile in tiles:
        kind, region = cv2.rotatedRectangleIntersection(box, tile)
        if kind != cv2.INTERSECT_NONE and region is not None and len(region) >= 3:
            covered += float(cv2.contourArea(cv2.convexHull(region)))
    return min(covered / area, 1.0)


def covers_a_centre(box: Rect, tiles: list[Rect]) -> bool:
    corners = cv2.boxPoints(box).astype(np.float32)
    return any(cv2.pointPolygonTest(corners, (float(t[0][0]), float(t[0][1])), False) >= 0
               for t in tiles)


def is_negative(box: Rect, tiles: list[Rect], *, max_overlap: float = MAX_OVERLAP) -> bool:
    """Whether a box may be taught as "no tile": over no tile's centre, little tile in it."""
    return not covers_a_centre(box, tiles) and overlap_share(box, tiles) <= max_overlap


def _inside(box: Rect, width: int, height: int) -> bool:
    corners = cv2.boxPoints(box)
    return bool(corners[:, 0].min() >= 0 and corners[:, 1].min() >= 0
                and corners[:, 0].max() <= width - 1 and corners[:, 1].max() <= height - 1)


def negative_boxes(image_size: tuple[int, int], polygons: list[np.ndarray], count: int,
                   rng: np.random.Generator, *, max_overlap: float = MAX_OVERLAP,
                   tries: int = 20) -> list[Rect]:
    """Up to ``count`` "no tile" boxes in a picture of ``image_size`` (width, height) whose
    labelled tiles are ``polygons`` (every tile in it; a picture with none gives none, its
    tiles' size being unknown). Each box lies wholly inside the picture."""
    tiles = tile_rects(polygons)
    if not tiles:
        return []
    width, height = image_size
    sides = np.array([sorted(size) for _, size, _ in tiles], np.float64)
    short, long = np.median(sides, axis=0)
    boxes: list[Rect] = []
    for _ in range(count * tries):
        if len(boxes) == count:
            break
        like = tiles[int(rng.integers(len(tiles)))]
        angle = float(like[2] + rng.normal(0, 6))
        theta = np.radians(angle)
        first = np.array([np.cos(theta), np.sin(theta)])
        second = np.array([-first[1], first[0]])
        # minAreaRect's first side lies along ``first``: keep the tile's long side where it is
        size = (float(long), float(short)) if like[1][0] >= like[1][1] \
            else (float(short), float(long))
        long_axis, short_axis = (first, second) if like[1][0] >= like[1][1] else (second, first)
        size = (size[0] * rng.uniform(*SIZE_RANGE), size[1] * rng.uniform(*SIZE_RANGE))
        if rng.random() < BESIDE_SHARE:
            sign = 1.0 if rng.random() < 0.5 else -1.0
            if rng.random() < 0.5:
                offset = short_axis * short * rng.uniform(*ACROSS_STEPS)
            else:
                offset = long_axis * long * rng.uniform(*ALONG_STEPS)
            centre = np.array(like[0]) + sign * offset
        else:
            centre = np.array([rng.uniform(0, width), rng.uniform(0, height)])
        box: Rect = ((float(centre[0]), float(centre[1])), size, angle)
        if _inside(box, width, height) and is_negative(box, tiles, max_overlap=max_overlap):
            boxes.append(box)
    return boxes
