"""Readings held unsure though the reader is sure: where it is sure and wrong often enough.

A tile read under LOW_CONFIDENCE is shown to the user to confirm. The reader is sometimes
sure of a wrong reading in ways a photo shows: a 6 or a 9 in a shadow, or small and turned
round from the tiles beside it; a box over two tiles side by side; a face washed white by
glare. Each rule here holds such a tile at DOUBTED, just under LOW_CONFIDENCE, and says in
its docstring what photo showed the need (``pipeline`` applies them to a finished reading).
"""

from __future__ import annotations

import numpy as np

from companion.vision.classes import TILE_CLASSES
from companion.vision.crops import crop_tile
from companion.vision.detect import FoundTile
from companion.vision.light import IN_SHADOW, LightMap, face_brightness
from companion.vision.refine import NEIGHBOURS, washed_out

# Below this the tile is shown to the user to confirm. Calibrated with benchmarks/vision.py
# before the second outlines (refine.py): the most confident misread was 0.36 on valid/, 0.72
# on the synthetic set and 0.84 on the harder synthetic kinds (a dense table), so 0.85 would
# flag every misread there; 0.9 leaves a margin for photos unlike any of those, at the cost of
# flagging about 3% of the tiles read right on valid/ (11 of 476 now) and 5% on the harder
# kinds. The second outlines keep a new outline only when it reads at 0.9 or more, and none of
# them is a misread on any set; with them the most confident misread is 0.36, 0.72 and 0.37.
LOW_CONFIDENCE = 0.9

# A 6 or a 9 lying in the shade is read at DOUBTED at most (turned_numbers_doubted):
# flagged, just under LOW_CONFIDENCE.
SIX_OR_NINE = frozenset(index for index, tile in enumerate(TILE_CLASSES)
                        if tile.number in (6, 9))
DOUBTED = 0.89
# A 6 or a 9 under this tall (photo pixels) read the other way up from the tiles near it
# (nearer than TURNED_REACH of its height) is held at DOUBTED (turned_against_neighbours_doubted).
# On larger tiles the reader tells which way up from the print itself: such 6s and 9s on
# `valid/`, the synthetic sets and `valid/` shrunk to 30 px tiles (42–226 px tall) were all
# read right.
TURNED_SMALL = 40
TURNED_REACH = 1.5
ALIGNED = 0.7  # cosine: tiles lying one way, and a tile turned round from them
# ...those whose number turned round is no number (a 1, an 8, an 11 looks the same either way
# up: the reader's up for them comes from the same faint print as a 6's)
ONE_WAY_UP = frozenset(index for index, tile in enumerate(TILE_CLASSES)
                       if tile.number in (2, 3, 4, 5, 7, 10, 12, 13))
# A box on a table this much larger (its area) than the sure tiles nearest it, and this many
# of their widths long, lies over two tiles side by side (doubled): `valid/`'s rummy-36 turned
# round, seen from lower or over-exposed had O5 and O6 in one box read O8 at 0.92–0.97. Its
# reading is not trusted: the second outlines try it cut in two (and in a row of tiles), and
# a box left whole is held at DOUBTED. Over `valid/` as taken, upside down, turned 30°,
# over-exposed and seen from higher, a box read right over one tile reached 2.0 times the
# area of the sure tiles near it but then 1.6 of their widths long, or 2.4 times and 1.9 long
# (B11 of rummy3-33 seen from higher, nearer the phone than its neighbours: now flagged).
DOUBLED_AREA = 1.9
DOUBLED_LONG = 1.8


def noting(doubts: list[str], before: np.ndarray, after: np.ndarray, why: str) -> np.ndarray:
    """``after`` (a rule's confidences), ``why`` written in ``doubts`` for each tile the rule
    took from sure in ``before`` to unsure (the first rule's code kept)."""
    for index in np.flatnonzero((before >= LOW_CONFIDENCE) & (after < LOW_CONFIDENCE)):
        doubts[index] = doubts[index] or why
    return after


def turned_numbers_doubted(confidence: np.ndarray, best: np.ndarray,
                            corners: list[np.ndarray], image: np.ndarray, factor: int,
                            shade: LightMap) -> np.ndarray:
    """The confidences with every 6 and 9 lying in the shade (its face in ``image``, the
    photo as brightened before any shadow was divided out, under IN_SHADOW of a lit face)
    held under LOW_CONFIDENCE.

    A 6 is a 9 turned round: the reader tells them apart by which way up the tile lies,
    from the print under the number (the faint embossed logo), and in a shadow that is lost.
    On train/ photos with a hard shadow cast across, 9s in the shade were read as 6s at
    0.92–0.98; flagged, the user confirms them."""
    turned = [index for index in range(len(best)) if int(best[index]) in SIX_OR_NINE]
    if not turned:
        return confidence
    faces = face_brightness(np.stack([crop_tile(image, corners[index] / factor)
                                      for index in turned]))
    doubted = confidence.copy()
    for index, face in zip(turned, faces):
        if face < IN_SHADOW * shade.lit_face:
            doubted[index] = min(float(doubted[index]), DOUBTED)
    return doubted


def turned_against_neighbours_doubted(confidence: np.ndarray, best: np.ndarray,
                                       centres: np.ndarray, ups: np.ndarray,
                                       heights: np.ndarray) -> np.ndarray:
    """The confidences with every small 6 and 9 (under TURNED_SMALL tall) read turned round
    from the tiles near it (centres within TURNED_REACH of its height, numbers that only read
    one way up: ONE_WAY_UP), when those lie one way, held at DOUBTED at most.

    Tiles lying near each other on a table, and all tiles of a rack, lie the same way up,
    and a 6 is a 9 turned round: which it is comes from which way up the reader sees the tile
    (the print under the number). On small tiles that print is a pixel or two, and the reader
    may see a 6 upside down as a 9, surely (`valid/` shrunk to 24 px tiles and softened: a
    B6 on a rack read B9 at 0.94, the O5 under it read upright). Flagged, the user confirms
    it."""
    doubted = confidence
    one_way = np.isin(best, list(ONE_WAY_UP))
    for index in np.flatnonzero(np.isin(best, list(SIX_OR_NINE)) & (heights < TURNED_SMALL)):
        distance = np.linalg.norm(centres - centres[index], axis=1)
        near = (distance < TURNED_REACH * heights[index]) & (distance > 0) & one_way
        if not near.any():
            continue
        # the tiles near it lie one way (a set, a rack's row), the 6 or 9 turned round from them
        # (tiles scattered every way say nothing of which way up it lies)
        way = ups[near].sum(axis=0)
        way /= np.linalg.norm(way) or 1.0
        if (np.all(ups[near] @ way > ALIGNED) and float(ups[index] @ way) < -ALIGNED
                and doubted[index] > DOUBTED):
            doubted = doubted.copy()
            doubted[index] = DOUBTED
    return doubted


def doubled(found: list[FoundTile], confidence: np.ndarray) -> np.ndarray:
    """Which boxes lie over two tiles side by side: DOUBLED_AREA times the area of the sure
    tiles nearest it (the median of the NEIGHBOURS nearest; three sure tiles in the photo at
    least) and DOUBLED_LONG of their widths long. The reader reads such a box, two numbers
    squeezed into one crop, as one tile and may be sure of it (two tiles of a run, O6 and O5,
    read O8 at 0.97)."""
    sure = np.flatnonzero(confidence >= LOW_CONFIDENCE)
    if len(sure) < 3:
        return np.zeros(len(found), bool)
    centres = np.array([tile.centre for tile in found], np.float64)
    sizes = np.array([sorted(tile.size) for tile in found], np.float64)
    apart = np.linalg.norm(centres[:, None] - centres[None, sure], axis=2)
    apart[sure, np.arange(len(sure))] = np.inf  # a box is not its own neighbour
    order = np.argsort(apart, axis=1, kind="stable")[:, :min(NEIGHBOURS, len(sure))]
    nearest = sure[order]
    # a sure box among fewer than NEIGHBOURS others has itself last: left out of the medians
    itself = np.isinf(np.take_along_axis(apart, order, axis=1))
    areas = sizes[:, 0] * sizes[:, 1]
    return (areas >= DOUBLED_AREA * medians_of_rows(areas[nearest], itself)) \
        & (sizes[:, 1] >= DOUBLED_LONG * medians_of_rows(sizes[nearest, 0], itself))


def medians_of_rows(values: np.ndarray, left_out: np.ndarray) -> np.ndarray:
    """Each row's median of ``values`` where ``left_out`` is not set (at least one value a
    row): ``np.nanmedian`` of the values with those set to NaN, to the last bit, at a tenth of
    its cost (it goes through masked arrays, ≈ 0.25 ms a call on a photo of 15 tiles). As
    there: sorted with the left-out values last, the middle one, or the two middle ones'
    sum halved."""
    ordered = np.sort(np.where(left_out, np.inf, values), axis=1)
    counts = values.shape[1] - np.count_nonzero(left_out, axis=1)
    high = counts // 2
    low = np.where(counts % 2 == 1, high, high - 1)
    rows = np.arange(len(values))
    return (ordered[rows, low] + ordered[rows, high]) / 2


def held_at_doubted(confidence: np.ndarray, which: np.ndarray) -> np.ndarray:
    """The confidences with those ``which`` marks held at DOUBTED at most."""
    if not which.any():
        return confidence
    held = confidence.copy()
    held[which] = np.minimum(held[which], DOUBTED)
    return held


def washed_out_doubted(confidence: np.ndarray, corners: list[np.ndarray],
                        source: np.ndarray, crop_factor: int) -> np.ndarray:
    """The confidences with every tile whose crop is washed out by glare (refine.washed_out)
    held at DOUBTED at most: its ink is a faint smudge, read stretched (refine.read_unwashed),
    and the reader is then sure of wrong numbers too (a K10 washed to four blobs read K11 at
    0.92). Flagged, the user confirms them."""
    if not corners:
        return confidence
    crops = np.stack([crop_tile(source, tile_corners / crop_factor) for tile_corners in corners])
    washed = washed_out(crops)
    if not washed.any():
        return confidence
    doubted = confidence.copy()
    doubted[washed] = np.minimum(doubted[washed], DOUBTED)
    return doubted
