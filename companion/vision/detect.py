"""Finding tiles: the detector network's core map, split into one component per tile.

The network marks where tiles are and each tile's core (the tile shrunk to half about its
centre), so tiles that touch in a set still give separate cores. The tile mask is then shared
out among the cores, and each share's rotated rectangle is the tile's outline.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from companion.vision.networks import detect_masks

WORK_SIZE = 512  # the photo's long side is scaled to this before detection (sides multiple of 16)
SMALL_TILE_WIDTH = 28  # tiles narrower than this at WORK_SIZE get a second, larger look
TARGET_TILE_WIDTH = 32
MAX_WORK_SIZE = 1024
# When over this share of the tile map lies outside every found tile, the first look saw tiles
# it could not tell apart: tiles about 14 px wide at WORK_SIZE come out as one box over a row of
# them, whose width hides how small they are (`valid/` shrunk to 18 px tiles, 640 px photos:
# 0.8 on a rack's row of 16 tiles found as one box). Every photo of `valid/`, the synthetic
# sets and the shadows whose tiles are not small anyway is at 0.34 or less.
UNCLAIMED_TILE_MAP = 0.5
# ...and when no tile was found but this many map pixels say tile (a tile 12 px wide in a
# 640 px photo covers about 35): a rack's row of 8 tiles 18 px wide gave no core at 512 px,
# eight at 1024. No photo of an empty table (21 in `valid/` and `train/`, up to 448 such
# pixels) gives a tile at 1024.
UNSEEN_TILE_PIXELS = 32
CORE_SCALE = 0.5  # as in training/train_detector.py
CORE_THRESHOLD = 0.5
TILE_THRESHOLD = 0.5
SEED_THRESHOLD = 0.75
# A seed that parts into two or more at a higher threshold is that many tiles: the cores of
# small touching tiles (about 25 px wide in the network's input, a soft photo) run together
# above SEED_THRESHOLD as a chain of beads, the dips between them at 0.8-0.9.
SPLIT_THRESHOLDS = (0.85, 0.9, 0.95)
MIN_SPLIT_PIXELS = 4  # a part smaller than this (map pixels) does not count as a tile's seed
SPLIT_FRACTION = 0.3  # ...nor one under this share of the seed's largest part
# Only a seed this many times as long as it is wide is split: one tile's core is about 1.3
# times as long as wide, two touching tiles' cores side by side about 2.2. A single core with
# a dip in it (the print, a shadow's edge) is left whole.
SPLIT_ELONGATION = 1.8
# Seeds are split only in a look this large or larger, taken for tiles under about 24 px wide
# at WORK_SIZE: at 608 px (tiles about 27 px at WORK_SIZE) a strongly slanted render's tall
# tile has a core as long as two (its 10 of 8 9 10 11 12 13 cut in two at its print)
SPLIT_LOOK = 672
# ...and only into pieces this many times its width apart, centre to centre: touching tiles'
# cores lie a tile's width apart, about 1.5 times a core's height; pieces closer than that are
# one core dipping between the digits of its number (rummy-8's B12 turned 165°)
SPLIT_SPACING = 1.0
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

    def scaled(self, factor: float) -> FoundTile:
        """The same tile in a photo ``factor`` times as large."""
        if factor == 1:
            return self
        return FoundTile((self.centre[0] * factor, self.centre[1] * factor),
                         (self.size[0] * factor, self.size[1] * factor), self.angle, self.score)

    @property
    def short_side(self) -> float:
        return min(self.size)

    @property
    def long_side(self) -> float:
        return max(self.size)


def letterbox(image: np.ndarray, size: int = WORK_SIZE) -> tuple[np.ndarray, float]:
    """The image scaled so its long side is ``size``, its short side padded with black up to
    a multiple of 16 (the detector halves the picture four times).

    Not padded to a square: a 4:3 photo would spend a quarter of the detector's work on black.
    """
    height, width = image.shape[:2]
    scale = size / max(height, width)
    new_width, new_height = max(1, round(width * scale)), max(1, round(height * scale))
    scaled = cv2.resize(image, (new_width, new_height),
                        interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
    padded = np.zeros((-(-new_height // 16) * 16, -(-new_width // 16) * 16, 3), np.uint8)
    padded[:new_height, :new_width] = scaled
    return padded, scale


def core_regions(core: np.ndarray, *, split: bool = False) -> np.ndarray:
    """One label per tile (0 none): confident core seeds grown over the less certain core.

    Where the cores of touching tiles blur into each other the probability still dips between
    them, so seeds taken at a high threshold stay apart; a watershed over the probability then
    gives each seed the pixels that fall towards it.
    """
    seed_labels = split_seeds(core) if split else \
        cv2.connectedComponents((core > SEED_THRESHOLD).astype(np.uint8), connectivity=4)[1]
    markers = seed_labels.astype(np.int32) + 1  # 1 = background, 2.. = seeds
    markers[(core >= CORE_THRESHOLD) & (seed_labels == 0)] = 0  # to be flooded
    relief = cv2.cvtColor((255 - core * 255).astype(np.uint8), cv2.COLOR_GRAY2BGR)
    cv2.watershed(relief, markers)
    markers[markers <= 1] = 1
    return markers - 1


def split_seeds(core: np.ndarray) -> np.ndarray:
    """The core map's seeds (over SEED_THRESHOLD), labelled; a seed that parts into two or
    more pieces at one of SPLIT_THRESHOLDS, each of MIN_SPLIT_PIXELS or more and at least
    SPLIT_FRACTION of the largest, is replaced by those pieces (its other pixels are left to
    the watershed), level after level, when it is SPLIT_ELONGATION times as long as wide and
    its pieces lie SPLIT_SPACING times its width apart."""
    _, labels = cv2.connectedComponents((core > SEED_THRESHOLD).astype(np.uint8), connectivity=4)
    count = int(labels.max()) + 1
    for threshold in SPLIT_THRESHOLDS:
        parts, pieces, stats, centres = cv2.connectedComponentsWithStats(
            (core > threshold).astype(np.uint8), connectivity=4)
        areas = stats[:, cv2.CC_STAT_AREA]
        parent = np.zeros(parts, np.int64)
        parent[pieces.ravel()] = labels.ravel()
        largest = np.zeros(count, np.int64)
        np.maximum.at(largest, parent[1:], areas[1:])
        large = (areas >= MIN_SPLIT_PIXELS) & (areas >= SPLIT_FRACTION * largest[parent])
        large[0] = False
        split = np.bincount(parent[large], minlength=count) >= 2
        split[0] = False
        for label in np.flatnonzero(split):
            rows, columns = np.nonzero(labels == label)
            points = np.stack([columns, rows], axis=1).astype(np.float32)
            width, length = sorted(side + 1 for side in cv2.minAreaRect(points)[1])
            ends = centres[np.flatnonzero(large & (parent == label))]
            apart = np.linalg.norm(ends[:, None] - ends[None], axis=2)
            np.fill_diagonal(apart, np.inf)
            split[label] = length >= SPLIT_ELONGATION * width \
                and apart.min() >= SPLIT_SPACING * width
        if not split.any():
            continue
        in_split = split[labels]
        labels = labels.copy()
        labels[in_split] = 0
        taken = in_split & large[pieces]
        labels[taken] = count + pieces[taken]
        _, compact = np.unique(labels, return_inverse=True)
        labels = compact.reshape(labels.shape).astype(np.int32)
        count = int(labels.max()) + 1
    return labels


def tile_regions(tile: np.ndarray, cores: np.ndarray) -> np.ndarray:
    """Each tile's full extent: the tile mask shared out to the nearest core (0 none).

    Tiles of a set form one blob in the tile mask; a pixel of the blob belongs to the tile whose
    core is nearest, so the blob splits halfway between neighbouring cores.
    """
    outside_cores = (cores == 0).astype(np.uint8)
    if outside_cores.all():
        return np.zeros_like(cores)
    distance, nearest = cv2.distanceTransformWithLabels(outside_cores, cv2.DIST_L2, 3,
                                                        labelType=cv2.DIST_LABEL_PIXEL)
    # DIST_LABEL_PIXEL numbers the zero pixels (core pixels) in raster order from 1
    core_pixel_labels = cores[cores > 0]
    lookup = np.concatenate([[0], core_pixel_labels]).astype(np.int32)
    regions = lookup[nearest]
    # a tile reaches a quarter of its size beyond its core (≈0.6 × √core area): allow some slack,
    # so a stretch of table the mask got wrong is not taken for part of the tile
    areas = np.bincount(cores.ravel()).astype(np.float32)
    reach = np.sqrt(areas) * 0.8 + 1.5
    reach[0] = 0
    regions[(tile <= TILE_THRESHOLD) & (cores == 0)] = 0
    regions[distance > reach[regions]] = 0
    return regions


@dataclass(frozen=True, eq=False)
class Detection:
    """The tiles found and the detector's tile map they came from.

    ``tile_map`` is P(tile) per map pixel; ``map_scale`` photo pixels per map pixel. Where the
    map says tile (over TILE_THRESHOLD) and no found tile's outline lies, a tile may have been
    missed: the detector gave it no core (glare washing a dense table out, for one).
    """

    found: list[FoundTile]
    tile_map: np.ndarray
    map_scale: float
    unclaimed: float = 0.0  # the share of the tile map outside every found tile


def find_tiles(image: np.ndarray) -> list[FoundTile]:
    """The tiles in a BGR photo (see ``detect``)."""
    return detect(image).found


def detect(image: np.ndarray, *, look_larger_when_empty: bool = True) -> Detection:
    """The tiles in a BGR photo and the tile map; photos of many small tiles are looked at a
    second time, larger.

    The detector learned tiles about 25–45 px wide in its input. When the tiles found at the
    usual working size are narrower than that, the photo is scaled up so they come out about
    TARGET_TILE_WIDTH wide and searched again. When most of the tile map lies outside the
    tiles found (UNCLAIMED_TILE_MAP), the tiles may be too small to be told apart at all: the
    photo is searched again at MAX_WORK_SIZE, and that look is kept when it finds more tiles;
    so is a photo in which no tile was found but the tile map marks some (UNSEEN_TILE_PIXELS),
    unless ``look_larger_when_empty`` is false (an empty table with a shadow divided out of it
    gave boxes of wood grain at MAX_WORK_SIZE).
    """
    detection = detect_at(image, WORK_SIZE)
    found = detection.found
    if not found:
        if not look_larger_when_empty or np.count_nonzero(
                detection.tile_map > TILE_THRESHOLD) < UNSEEN_TILE_PIXELS:
            return detection
        larger = detect_at(image, MAX_WORK_SIZE)
        return larger if larger.found else detection
    to_work = WORK_SIZE / max(image.shape[:2])
    width = float(np.median([tile.short_side for tile in found])) * to_work
    if width < SMALL_TILE_WIDTH:
        size = min(MAX_WORK_SIZE, round(WORK_SIZE * TARGET_TILE_WIDTH / width / 32) * 32)
        if size > WORK_SIZE:
            return detect_at(image, size)
    elif detection.unclaimed > UNCLAIMED_TILE_MAP:
        larger = detect_at(image, MAX_WORK_SIZE)
        if len(larger.found) > len(found):
            return larger
    return detection


def detect_at(image: np.ndarray, work_size: int) -> Detection:
    padded, scale = letterbox(image, work_size)
    masks = detect_masks(padded)
    to_photo = 2.0 / scale  # mask pixel -> photo pixel
    # the cores of small touching tiles run together only in a look taken for small tiles
    cores = core_regions(masks[1], split=work_size >= SPLIT_LOOK)
    count = int(cores.max()) + 1
    if count <= 1:
        return Detection([], masks[0], to_photo)
    regions = tile_regions(masks[0], cores)
    core_areas = np.bincount(cores.ravel(), minlength=count)[1:]
    typical = float(np.median(core_areas[core_areas >= 4])) if np.any(core_areas >= 4) else 0.0
    found = []
    claimed = np.zeros(count, bool)
    region_pixels, core_pixels = _pixels_by_label(regions, count), _pixels_by_label(cores, count)
    core_map = masks[1].ravel()
    width = regions.shape[1]
    for label in range(1, count):
        area = core_areas[label - 1]
        if area < 4 or area < MIN_CORE_FRACTION * typical:
            continue
        pixels = region_pixels[label]
        points = np.stack([pixels % width, pixels // width], axis=1).astype(np.float32)
        (cx, cy), (rw, rh), angle = cv2.minAreaRect(points)
        # pixel centres underestimate the extent by one pixel
        size = ((rw + 1) * to_photo, (rh + 1) * to_photo)
        centre = ((cx + 0.5) * to_photo, (cy + 0.5) * to_photo)
        score = float(core_map[core_pixels[label]].mean())
        found.append(FoundTile(centre, size, angle, score))
        claimed[label] = True
    tile = masks[0] > TILE_THRESHOLD
    unclaimed = float(np.count_nonzero(tile & ~claimed[regions])) / max(np.count_nonzero(tile), 1)
    return Detection(found, masks[0], to_photo, unclaimed)


def _pixels_by_label(labels: np.ndarray, count: int) -> list[np.ndarray]:
    """For each label below ``count``, the flat indexes of its pixels in raster order (as
    ``np.flatnonzero(labels == label)`` gives them; one sort instead of a pass over the whole
    map per tile, which cost 8 ms on a map of 54 tiles). Label 0 is left empty."""
    flat = labels.ravel()
    labelled = np.flatnonzero(flat)
    order = labelled[np.argsort(flat[labelled], kind="stable")]
    starts = np.searchsorted(flat[order], np.arange(count + 1))
    return [order[:0]] + [order[starts[label]:starts[label + 1]] for label in range(1, count)]
