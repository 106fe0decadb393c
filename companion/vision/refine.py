"""Second outlines for the tiles the reader was unsure of.

The detector sometimes outlines a tile wrongly, and the reader then reads a wrong crop: a tile
split in two pieces (a two-digit tile under glare, a tile seen at a strong slant), two tiles
side by side in one box twice as wide as a tile, only part of a tile, or a foreshortened tile
whose nearly square box was read with its long side across. Each of these comes back unsure.
For such a tile a few other outlines are tried, sized like the sure tiles around it:

- **join**: it and an unsure neighbour are two pieces of one tile;
- **split**: its box is two tiles side by side, cut across the middle;
- **whole**: it is a piece of a tile, and the whole tile's box lies over it, one way or another;
- **turned**: its nearly square box read the other way across (not on a rack);
- **like its neighbour** (on a rack only): a box turned from its nearest sure neighbour's,
  sure or not, taken again along the neighbour's sides, since tiles on a rack stand alike.

Off a rack more is tried (``refine_table``, ``refine_map``): boxes over a row of tiles cut into
tiles, tiles the detector missed looked for beside the sets and in its tile map, squarish
boxes outlined again from it.

An alternative is kept only when the reader reads every tile of it with confidence of at
least LOW_CONFIDENCE and more confidently than the tiles it replaces (on a rack, an askew box
needs only the first), and when it covers no other tile the reader was sure of. All
alternatives of a photo are read in one batch, so this costs a few milliseconds and only on
photos with unsure (or, on a rack, askew) tiles.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

import cv2
import numpy as np

from companion.vision.crops import SQUARISH, crop_tile
from companion.vision.detect import FoundTile
from companion.vision.networks import read_crops

NEIGHBOURS = 6  # the sure tiles nearest an unsure one give the size a tile has there
SIZE_SLACK = 0.25  # a second outline may be this much larger or smaller than that size
ASKEW = 15  # degrees a tile on a rack may turn from its neighbour before it is re-outlined
PIECE_AREA = 0.7  # an outline smaller than this share of a tile's area may be a piece of one
FRAGMENT_AREA = 0.4  # a piece this small may be any part of its tile
PIECE_SIDE = 0.8  # a piece cut off across a tile is at most this share of the tile's side
SHARED_AREA = 1.15  # two pieces of one tile share it out: together they are not much larger
# A box the reader reads as no tile at all (its likeliest class under this, about five times a
# uniform guess, as for a rack's blank board in rack.py) is bare table, not a piece of a tile:
# no whole tile is laid over it (a box half over bare table reads as a joker, at up to 0.91).
BLANK = 0.1


# A network's buffers grow with the largest batch it has been given, and a photo's batches
# change size from call to call (its tiles, then the unsure ones turned round, then the
# alternatives...). Through cv2.dnn, which allocated them anew at every new shape, one batch
# of the 12 MP photo's 54 crops cost 16 000 page faults and 20–25 ms of system time per read;
# through onnxruntime about 1 800 faults, and in batches of at most this many about 5 (both
# measured on 2026-12-02). The reader reads every crop the same, bit for bit, whatever batch
# it is in, and at the same cost per crop.
READ_BATCH = 16


def read_batched(crops: np.ndarray, *, least: float = 0.0
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``networks.read_crops`` of the crops (``least`` as there), in batches of at most
    READ_BATCH."""
    if len(crops) <= READ_BATCH:
        return read_crops(crops, least=least)
    parts = [read_crops(crops[start:start + READ_BATCH], least=least)
             for start in range(0, len(crops), READ_BATCH)]
    probabilities, upside_down, no_tile = zip(*parts)
    return np.concatenate(probabilities), np.concatenate(upside_down), np.concatenate(no_tile)


# Glare on a tile adds light until its face is clipped white and its ink is a faint smudge
# (a dense table under a lamp): a crop whose middle is that bright (WASHED_FACE, the 90th
# percentile of its lightness) with so little ink below it (WASHED_INK, to the 2nd percentile)
# is read a second time with that ink stretched to STRETCHED_INK below a face of
# STRETCHED_FACE (at most STRETCH_MOST times), and the surer of the two readings is taken.
# The reader's confidence in such a crop is not to be trusted (a K10 washed to four blobs
# read K11 at 0.92), so a table's tile whose crop is washed out is flagged
# (pipeline.find_and_read).
WASHED_FACE = 245.0
WASHED_INK = 50.0
STRETCHED_FACE = 225.0
STRETCHED_INK = 150.0
STRETCH_MOST = 6.0


def _lightness(crops: np.ndarray) -> np.ndarray:
    """Each crop's lightness, three times the mean of its channels (integers), in its middle
    (the crop less a sixth on every side: no table, no edge of the tile), (N, pixels)."""
    height, width = crops.shape[1:3]
    middle = crops[:, height // 6:height - height // 6, width // 6:width - width // 6]
    lightness = middle[..., 0].astype(np.uint16)
    lightness += middle[..., 1]
    lightness += middle[..., 2]
    return lightness.reshape(len(crops), -1)


def _face_and_ink(lightness: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The face (90th percentile) and ink (2nd percentile) of each row of ``_lightness``,
    as the mean of the channels."""
    face, ink = np.percentile(lightness, [90, 2], axis=1) / 3
    return face, ink


def washed_out(crops: np.ndarray) -> np.ndarray:
    """Which crops are washed out by glare (WASHED_FACE, WASHED_INK)."""
    washed = np.zeros(len(crops), bool)
    if len(crops) == 0:
        return washed
    lightness = _lightness(crops)
    # the percentiles only of crops with about a tenth of their middle that bright (a face
    # at WASHED_FACE needs it): most photos have none
    bright = np.flatnonzero(np.count_nonzero(lightness >= 3 * WASHED_FACE - 1, axis=1)
                            >= 0.09 * lightness.shape[1])
    if len(bright):
        face, ink = _face_and_ink(lightness[bright])
        washed[bright] = (face >= WASHED_FACE) & (face - ink < WASHED_INK)
    return washed


def _stretched(crops: np.ndarray) -> np.ndarray:
    """The crops with their ink stretched away from their face (see WASHED_FACE)."""
    face, ink = _face_and_ink(_lightness(crops))
    gain = np.clip(STRETCHED_INK / np.maximum(face - ink, 1.0), 1.0, STRETCH_MOST)
    out = STRETCHED_FACE - (face[:, None, None, None] - crops.astype(np.float32)) \
        * gain[:, None, None, None]
    return np.clip(out, 0, 255).astype(np.uint8)


def read_unwashed(crops: np.ndarray, *, least: float = 0.0
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``read_batched`` of the crops; a crop washed out by glare (``washed_out``) is also
    read stretched, and the surer reading of the two kept.

    With ``least`` (``networks.read_crops``) a crop's reading is the same as without it
    whenever it is ``least`` or surer: a reading it changes is under ``least`` either way, so
    it loses to any reading at ``least`` or more, and what it wins is under ``least`` too."""
    probabilities, upside_down, no_tile = read_batched(crops, least=least)
    washed = np.flatnonzero(washed_out(crops))
    if len(washed) == 0:
        return probabilities, upside_down, no_tile
    again, again_up, again_blank = read_batched(_stretched(crops[washed]), least=least)
    surer = again.max(axis=1) > probabilities[washed].max(axis=1)
    chosen = washed[surer]
    probabilities[chosen], upside_down[chosen] = again[surer], again_up[surer]
    no_tile[chosen] = again_blank[surer]
    return probabilities, upside_down, no_tile


@dataclass(frozen=True)
class Alternative:
    """Other outlines in place of the found tiles ``replaces``."""

    replaces: tuple[int, ...]
    tiles: tuple[FoundTile, ...]
    turned: bool = False  # read with the box's long side across (its corners turned a quarter)
    askew: bool = False  # the outline replaced cannot be right: kept even if it read surely


@dataclass(frozen=True)
class Kept:
    """An alternative the reader read surely: its tiles' class probabilities, P(upside down)
    and P(no tile)."""

    alternative: Alternative
    corners: tuple[np.ndarray, ...]  # each tile's corners as its crop was cut (photo pixels)
    probabilities: np.ndarray
    upside_down: np.ndarray
    no_tile: np.ndarray


def second_outlines(found: list[FoundTile], confidence: np.ndarray, *, threshold: float,
                    source: np.ndarray, crop_factor: int,
                    corners_of: Callable[[FoundTile], np.ndarray], upright: bool = False
                    ) -> list[Kept]:
    """The alternatives to keep, none sharing a found tile, best first.

    ``source`` is the photo decoded at 1/``crop_factor`` of its size; ``corners_of`` turns a
    found tile into the canonical corners the reader's crop is cut along (in photo pixels).
    Off a rack, squarish unsure tiles are also tried turned a quarter. On a rack
    (``upright``), where the tiles stand side by side alike, a tile askew to its nearest sure
    neighbour, sure or not, is also tried as a box like the neighbour's, and cut in two if it
    is as wide as two tiles lying across.
    """
    sure = confidence >= threshold
    if sure.sum() < 2 or (sure.all() and not upright):
        return []
    centres = np.array([tile.centre for tile in found], np.float64)
    sizes = np.array([sorted(tile.size) for tile in found], np.float64)
    alternatives: list[Alternative] = []
    for index in range(len(found)):
        if sure[index] and not upright:
            continue
        others = np.flatnonzero(sure & (np.arange(len(found)) != index))
        nearest = others[np.argsort(np.linalg.norm(centres[others] - centres[index], axis=1))
                         [:NEIGHBOURS]]
        typical = np.median(sizes[nearest], axis=0)
        tile = found[index]
        if not sure[index]:
            alternatives += _joins(index, found, sure, typical)
            alternatives += _splits(index, tile, typical)
            if confidence[index] >= BLANK:
                alternatives += _wholes(index, found, sure, typical)
            if not upright and tile.short_side > SQUARISH * tile.long_side:
                alternatives.append(Alternative((index,), (tile,), turned=True))
        if upright and _askew(tile, found[nearest[0]]):
            alternatives.append(_like_neighbour(index, tile, typical, found[nearest[0]]))
            if sure[index]:
                alternatives += [replace(split, askew=True)
                                 for split in _splits(index, tile, typical)]
    alternatives = [a for a in alternatives if not covers_sure(a, centres, sure)]
    if not alternatives:
        return []
    corners = [np.roll(corners_of(tile), 1, axis=0) if alternative.turned else corners_of(tile)
               for alternative in alternatives for tile in alternative.tiles]
    crops = np.stack([crop_tile(source, tile_corners / crop_factor) for tile_corners in corners])
    # an alternative is kept only when each of its tiles reads at ``threshold`` or more: a crop
    # that cannot get there need not be read turned round (networks.read_crops)
    probabilities, upside_down, no_tile = (read_batched if upright else read_unwashed)(
        crops, least=threshold)
    kept: list[tuple[float, Kept]] = []
    start = 0
    for alternative in alternatives:
        end = start + len(alternative.tiles)
        surest = probabilities[start:end].max(axis=1)
        weakest = float(surest.min())
        if weakest >= threshold and (alternative.askew or weakest > float(
                confidence[list(alternative.replaces)].max())):
            kept.append((weakest, Kept(alternative, tuple(corners[start:end]),
                                       probabilities[start:end], upside_down[start:end],
                                       no_tile[start:end])))
        start = end
    kept.sort(key=lambda pair: -pair[0])
    chosen: list[Kept] = []
    taken: set[int] = set()
    for _, candidate in kept:
        if taken.isdisjoint(candidate.alternative.replaces):
            chosen.append(candidate)
            taken.update(candidate.alternative.replaces)
    return chosen


def _fits(size: tuple[float, float], typical: np.ndarray) -> bool:
    short, long = sorted(size)
    return bool(abs(short / typical[0] - 1) <= SIZE_SLACK
                and abs(long / typical[1] - 1) <= SIZE_SLACK)


def _is_piece(tile: FoundTile, typical: np.ndarray) -> bool:
    return bool(tile.size[0] * tile.size[1] <= PIECE_AREA * typical[0] * typical[1])


def _axes(tile: FoundTile) -> tuple[np.ndarray, np.ndarray]:
    """Unit vectors along the tile's first and second side (as cv2.boxPoints lays them)."""
    angle = np.radians(tile.angle)
    first = np.array([np.cos(angle), np.sin(angle)])
    return first, np.array([-first[1], first[0]])


def _joins(index: int, found: list[FoundTile], sure: np.ndarray,
           typical: np.ndarray) -> list[Alternative]:
    """It and an unsure neighbour as the two pieces of one tile: each smaller than the joined
    tile, and together about its size (a whole tile read unsure beside a piece of the next
    tile is not joined to it)."""
    piece = found[index]
    if not _is_piece(piece, typical):
        return []
    joins = []
    for other in range(index + 1, len(found)):
        if sure[other] or not _is_piece(found[other], typical):
            continue
        apart = np.hypot(found[other].centre[0] - piece.centre[0],
                         found[other].centre[1] - piece.centre[1])
        if apart > typical[1]:
            continue
        points = np.concatenate([cv2.boxPoints(piece.rect), cv2.boxPoints(found[other].rect)])
        (x, y), (width, height), angle = cv2.minAreaRect(points.astype(np.float32))
        centre, size = (float(x), float(y)), (float(width), float(height))
        area = size[0] * size[1]
        pieces = [piece.size[0] * piece.size[1], found[other].size[0] * found[other].size[1]]
        if _fits(size, typical) and max(pieces) <= PIECE_AREA * area \
                and sum(pieces) <= SHARED_AREA * area:
            joins.append(Alternative((index, other), (FoundTile(
                centre, size, angle, (piece.score + found[other].score) / 2),)))
    return joins


def _splits(index: int, box: FoundTile, typical: np.ndarray) -> list[Alternative]:
    """A box as wide as two tiles side by side, cut across its long side into two tiles; a
    box taller than a tile (glare or a shadow taken in) also cut to a tile's height about its
    middle."""
    short, long = sorted(box.size)
    if abs(long / (2 * typical[0]) - 1) > SIZE_SLACK or abs(short / typical[1] - 1) > SIZE_SLACK:
        return []
    along = long_axis(box)
    angle = float(np.degrees(np.arctan2(along[1], along[0])))
    splits = []
    for height in (short,) if short <= typical[1] else (short, float(typical[1])):
        halves = []
        for sign in (-1, 1):
            centre = np.array(box.centre) + along * sign * long / 4
            halves.append(FoundTile((float(centre[0]), float(centre[1])), (long / 2, height),
                                    angle, box.score))
        splits.append(Alternative((index,), tuple(halves)))
    return splits


def _wholes(index: int, found: list[FoundTile], sure: np.ndarray,
            typical: np.ndarray) -> list[Alternative]:
    """A piece of a tile: the whole tile's box laid over it, either way round. A piece cut off
    across one side (as long as the tile one way, shorter the other) sits flush with either
    end of the box; a small fragment (FRAGMENT_AREA) may lie anywhere in it: at either end
    or in the middle, each way. Other unsure pieces inside the box go with it; a box over the
    middle of another tile-sized outline, sure or not, is not tried."""
    piece = found[index]
    if not _is_piece(piece, typical):
        return []
    axes = _axes(piece)
    fragment = piece.size[0] * piece.size[1] <= FRAGMENT_AREA * typical[0] * typical[1]
    wholes = []
    for size in ((typical[1], typical[0]), (typical[0], typical[1])):
        spare = (np.array(size) - np.array(piece.size)) / 2  # the box's reach past the piece
        if fragment:
            places = [(along_first, along_second) for along_first in (0.0, -1.0, 1.0)
                      for along_second in (0.0, -1.0, 1.0)]
        else:
            places = []
            for kept_side in (0, 1):
                cut_side = 1 - kept_side
                if abs(piece.size[kept_side] / size[kept_side] - 1) <= SIZE_SLACK \
                        and piece.size[cut_side] <= PIECE_SIDE * size[cut_side]:
                    places += [(-1.0, 0.0), (1.0, 0.0)] if cut_side == 0 \
                        else [(0.0, -1.0), (0.0, 1.0)]
        for along_first, along_second in places:
            centre = np.array(piece.centre) + axes[0] * along_first * max(spare[0], 0.0) \
                + axes[1] * along_second * max(spare[1], 0.0)
            wholes.append(FoundTile((float(centre[0]), float(centre[1])),
                                    (float(size[0]), float(size[1])), piece.angle, piece.score))
    alternatives = []
    centres = np.array([tile.centre for tile in found], np.float32)
    for whole in wholes:
        box = cv2.boxPoints(whole.rect).astype(np.float32)
        inside = [int(other) for other in centres_near(whole, centres, np.flatnonzero(~sure),
                                                         always=index)
                  if other == index or cv2.pointPolygonTest(
                      box, (float(centres[other][0]), float(centres[other][1])), False) >= 0]
        if all(_is_piece(found[other], typical) for other in inside):
            alternatives.append(Alternative(tuple(inside), (whole,)))
    return alternatives


def long_axis(tile: FoundTile) -> np.ndarray:
    first, second = _axes(tile)
    return first if tile.size[0] >= tile.size[1] else second


def across_axis(along: np.ndarray) -> np.ndarray:
    """The unit vector a quarter turn from ``along`` (across a tile, from its long axis)."""
    return along @ np.array([[0.0, -1.0], [1.0, 0.0]])


def _askew(tile: FoundTile, neighbour: FoundTile) -> bool:
    """Whether the box is turned from its neighbour's by more than ASKEW degrees: its sides
    (a box about square may have either side as its long one), or its long side."""
    turn = (tile.angle - neighbour.angle) % 90
    if min(turn, 90 - turn) > ASKEW:
        return True
    if tile.short_side > SQUARISH * tile.long_side:
        return False
    return bool(abs(float(long_axis(tile) @ long_axis(neighbour))) < np.cos(np.radians(ASKEW)))


def _like_neighbour(index: int, tile: FoundTile, typical: np.ndarray,
                    neighbour: FoundTile) -> Alternative:
    """A box of a tile's size at the tile's centre, its sides along its neighbour's."""
    short, long = float(typical[0]), float(typical[1])
    size = (long, short) if neighbour.size[0] >= neighbour.size[1] else (short, long)
    return Alternative((index,), (FoundTile(tile.centre, size, neighbour.angle, tile.score),),
                       askew=True)


def covers_sure(alternative: Alternative, centres: np.ndarray, sure: np.ndarray) -> bool:
    """Whether a tile of the alternative lies over the centre of a tile read surely (other than
    those it replaces)."""
    for tile in alternative.tiles:
        box = cv2.boxPoints(tile.rect).astype(np.float32)
        for other in centres_near(tile, centres, np.flatnonzero(sure)):
            if other in alternative.replaces:
                continue
            if cv2.pointPolygonTest(box, (float(centres[other][0]), float(centres[other][1])),
                                    False) >= 0:
                return True
    return False


def reach_of(tile: FoundTile) -> float:
    """Half the box's diagonal: no point of the box lies further from its centre (a pixel
    more, so a rounding of the corners never matters)."""
    return float(np.hypot(*tile.size)) / 2 + 1.0


def centres_near(box: FoundTile, centres: np.ndarray, candidates: np.ndarray, *,
                  always: int | None = None) -> np.ndarray:
    """The ``candidates`` (indexes into ``centres``, in their order) whose centres may lie
    in the box: within its reach (and ``always``, if it is one of them). The exact test
    (cv2.pointPolygonTest) is then asked only of these, not of every tile of the photo."""
    if len(candidates) == 0:
        return candidates
    apart = np.hypot(centres[candidates, 0] - box.centre[0], centres[candidates, 1] - box.centre[1])
    return candidates[(apart <= reach_of(box)) | (candidates == always)]
