"""Second looks at a table photo from the detector's tile map, where it says more than the
outlines found in it.

Where the tile map marks a tile that no found outline covers (``tiles_unclaimed``: a tile
given no core, as under glare on a dense table), boxes are laid as the sure tiles nearest;
a squarish box is outlined again from its own stretch of the tile map
(``squarish_reoutlined``). Each is kept as ``refine_table``'s boxes beside a tile are
(``refine_table.tile_slots``).
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

from companion.vision.crops import SQUARISH
from companion.vision.detect import TILE_THRESHOLD, FoundTile
from companion.vision.refine import (
    NEIGHBOURS,
    Alternative,
    Kept,
    across_axis,
    covers_sure,
    long_axis,
)
from companion.vision.refine_table import (
    BESIDE_STEP,
    read_slots,
    shift_plausible,
    slot_placer,
    tile_slots,
)

# Tile-map area no found tile claims, at least this share of a typical tile's area, may hold a
# tile the detector gave no core (a dense table washed out by glare).
UNCLAIMED_AREA = 0.5
UNCLAIMED_FILL = 0.5  # a box laid there must lie at least this much on unclaimed tile map
# Boxes are laid on a grid of tile-sized steps, at these offsets (fractions of a step across
# and along the tile), so that one of them sits about on each missed tile.
UNCLAIMED_PHASES = ((0.0, 0.0), (1 / 3, 0.0), (2 / 3, 0.0), (0.0, 0.5), (1 / 3, 0.5),
                    (2 / 3, 0.5))
UNCLAIMED_MAX_BOXES = 400  # a photo's tile map gone wrong is not read box by box


def tiles_unclaimed(found: list[FoundTile], confidence: np.ndarray, tile_map: np.ndarray,
                    map_scale: float, *, threshold: float, source: np.ndarray,
                    crop_factor: int, corners_of: Callable[[FoundTile], np.ndarray]
                    ) -> list[Kept]:
    """Tiles the detector marked in its tile map but gave no core, so none was found there.

    Areas of the tile map (``map_scale`` photo pixels per map pixel) over TILE_THRESHOLD that
    no found tile's outline covers, about a tile large, are laid with boxes of the size and
    slant of the sure tiles nearest (a grid at a few offsets); a box is kept as in
    ``tiles_beside``: read as a tile at ``threshold`` or more (``_may_be_taken``: not as no
    tile; a joker only by a reader that knows "no tile"), over no sure tile, replacing the
    unsure ones it covers.
    """
    sure = confidence >= threshold
    if sure.sum() < 2:
        return []
    unclaimed = (tile_map > TILE_THRESHOLD).astype(np.uint8)
    for tile in found:
        cv2.fillPoly(unclaimed, [np.rint(cv2.boxPoints(tile.rect) / map_scale).astype(np.int32)],
                     0)
    unclaimed = cv2.morphologyEx(unclaimed, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(unclaimed, connectivity=4)
    sure_tiles = [tile for tile, is_sure in zip(found, sure) if is_sure]
    placed = slot_placer(found, sure, source.shape[1] * crop_factor,
                          source.shape[0] * crop_factor)
    sure_centres = np.array([tile.centre for tile in sure_tiles], np.float64)
    sure_sizes = np.array([sorted(tile.size) for tile in sure_tiles], np.float64)
    tile_area = float(np.median(sure_sizes[:, 0] * sure_sizes[:, 1])) / map_scale ** 2
    alternatives: list[Alternative] = []
    for label in range(1, count):
        if stats[label, cv2.CC_STAT_AREA] < UNCLAIMED_AREA * tile_area:
            continue
        region = labels == label
        points = (np.argwhere(region)[:, ::-1] + 0.5) * map_scale
        middle = points.mean(axis=0)
        nearest = np.argsort(np.linalg.norm(sure_centres - middle, axis=1))[:NEIGHBOURS]
        short, long = np.median(sure_sizes[nearest], axis=0)
        like = sure_tiles[int(nearest[0])]
        along = long_axis(like)
        across = across_axis(along)
        size = (float(long), float(short)) if like.size[0] >= like.size[1] \
            else (float(short), float(long))
        step_across, step_along = short * BESIDE_STEP, long * BESIDE_STEP
        spans = [(float((points @ axis).min()), float((points @ axis).max()))
                 for axis in (across, along)]
        for phase_across, phase_along in UNCLAIMED_PHASES:
            for at_across in np.arange(spans[0][0] + step_across * (phase_across - 0.5),
                                       spans[0][1] + step_across / 2, step_across):
                for at_along in np.arange(spans[1][0] + step_along * (phase_along - 0.5),
                                          spans[1][1] + step_along / 2, step_along):
                    centre = across * at_across + along * at_along
                    alternative = placed(FoundTile((0.0, 0.0), size, like.angle, like.score),
                                         centre)
                    if alternative is None or _share_on(
                            alternative.tiles[0], region, map_scale) < UNCLAIMED_FILL:
                        continue
                    alternatives.append(alternative)
    if not alternatives or len(alternatives) > UNCLAIMED_MAX_BOXES:
        return []
    readings = read_slots(alternatives, source, crop_factor, corners_of)
    shift_plausible(alternatives, [a.tiles[0] for a in alternatives], readings,
                     threshold=threshold, placed=placed, source=source,
                     crop_factor=crop_factor, corners_of=corners_of)
    return tile_slots(alternatives, readings, confidence, threshold)


# A squarish box's own stretch of the tile map, for a second outline: the map's tile pixels
# nearer its centre than any other box's, within this share of its diagonal of the centre.
SQUARE_REACH = 0.75
SQUARE_AREA = (0.7, 1.5)  # the outline so found, against the box's area


def squarish_reoutlined(found: list[FoundTile], confidence: np.ndarray, tile_map: np.ndarray,
                        map_scale: float, *, threshold: float, source: np.ndarray,
                        crop_factor: int, corners_of: Callable[[FoundTile], np.ndarray]
                        ) -> list[Kept]:
    """Squarish boxes (short side over SQUARISH of the long) outlined again from the
    detector's tile map, sure or not.

    A tile turned on the table (a photo taken from the side of the table, or a tile lying
    askew) may get a core too small for its tile: its share of the tile map is then cut to a
    disc about the core (``detect.tile_regions``' reach), and its box comes out square and
    turned from the tile (`valid/`'s rummy4-29 turned 30°: a lone B1, 47×66 px, boxed 55×55
    along the photo's axes and read B7 at 0.92). The tile map itself still has the tile's
    shape: the map's tile pixels (``map_scale`` photo pixels per map pixel) nearer this box's
    centre than any other box's, within SQUARE_REACH of its diagonal, give the outline, tried
    when it is shaped like a tile and SQUARE_AREA of the box's area. Kept as in
    ``tiles_beside`` (``tile_slots``): read as a tile at ``threshold`` or more and more
    surely than the box, over no other tile read surely.
    """
    squarish = [index for index, tile in enumerate(found)
                if tile.short_side > SQUARISH * tile.long_side]
    if not squarish:
        return []
    sure = confidence >= threshold
    centres = np.array([tile.centre for tile in found], np.float64)
    on_map = centres / map_scale - 0.5  # map pixel indexes
    alternatives: list[Alternative] = []
    for index in squarish:
        tile = found[index]
        reach = SQUARE_REACH * float(np.hypot(*tile.size)) / map_scale
        (x, y) = on_map[index]
        x0, y0 = max(0, int(x - reach)), max(0, int(y - reach))
        x1 = min(tile_map.shape[1], int(x + reach) + 2)
        y1 = min(tile_map.shape[0], int(y + reach) + 2)
        rows, columns = np.nonzero(tile_map[y0:y1, x0:x1] > TILE_THRESHOLD)
        points = np.stack([columns + x0, rows + y0], axis=1).astype(np.float64)
        own = np.hypot(*(points - on_map[index]).T)
        others = np.flatnonzero(np.hypot(*(on_map - on_map[index]).T) < 2 * reach)
        others = others[others != index]
        nearer = np.zeros(len(points), bool)
        for other in others:
            nearer |= np.hypot(*(points - on_map[other]).T) < own
        points = points[(own <= reach) & ~nearer]
        if len(points) < 8:
            continue
        (cx, cy), (width, height), angle = cv2.minAreaRect(points.astype(np.float32))
        size = ((width + 1) * map_scale, (height + 1) * map_scale)
        area = size[0] * size[1] / (tile.size[0] * tile.size[1])
        if min(size) > SQUARISH * max(size) or not SQUARE_AREA[0] <= area <= SQUARE_AREA[1]:
            continue
        outline = FoundTile(((cx + 0.5) * map_scale, (cy + 0.5) * map_scale), size, angle,
                            tile.score)
        alternative = Alternative((index,), (outline,))
        if not covers_sure(alternative, centres, sure):
            alternatives.append(alternative)
    if not alternatives:
        return []
    # tile_slots keeps only a box read at ``threshold`` or more: a crop that cannot get there
    # need not be read turned round (networks.read_crops), as in second_outlines
    return tile_slots(alternatives, read_slots(alternatives, source, crop_factor, corners_of,
                                                 least=threshold), confidence, threshold)


def _share_on(slot: FoundTile, region: np.ndarray, map_scale: float) -> float:
    """The share of a box (photo pixels) lying on ``region`` (a boolean map, map pixels),
    sampled at 5 × 5 points spread over the box."""
    corners = cv2.boxPoints(slot.rect) / map_scale
    fractions = (np.arange(5) + 0.5) / 5
    first, second = corners[1] - corners[0], corners[3] - corners[0]
    points = corners[0] + fractions[:, None, None] * first + fractions[None, :, None] * second
    columns = np.clip(points[..., 0].astype(int), 0, region.shape[1] - 1)
    rows = np.clip(points[..., 1].astype(int), 0, region.shape[0] - 1)
    return float(region[rows, columns].mean())
