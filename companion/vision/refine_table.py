"""Second looks at a table photo (not a rack): tiles the detector outlined as one, or missed.

An unsure box over a row of tiles side by side (a dense table) is cut into tiles as wide as
the sure ones around it (``tiles_in_rows``); a tile the detector missed altogether is looked
for **beside** a sure tile, where its set would go on (``tiles_beside``, a few rounds
outwards, after ``refine.second_outlines``); ``refine_map`` looks again where the detector's
tile map says more than its outlines. Each is kept as ``refine``'s alternatives are
(``refine.Kept``): read surely, surer than what it replaces, covering no sure tile.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

import cv2
import numpy as np

from companion.vision.crops import crop_tile
from companion.vision.detect import FoundTile
from companion.vision.networks import NO_TILE, joker_may_stand
from companion.vision.refine import (
    NEIGHBOURS,
    SIZE_SLACK,
    Alternative,
    Kept,
    across_axis,
    centres_near,
    long_axis,
    reach_of,
    read_unwashed,
)

ROW_MOST = 5  # a box over a row of tiles is cut into at most this many
ROW_SLACK = 0.15  # its long side within this share of so many tiles' width
ROW_TALLEST = 1.6  # and at most this many tiles tall (glare or a shadow taken in)

BESIDE_STEP = 1.04  # centre to centre of two tiles of a set, in tile widths (a hairline apart)
BESIDE_OVERLAP = 0.25  # a box beside a tile may cover this share of a sure tile, no more
# A reader that never learned "no tile", shown a stretch of bare table, says joker, often at
# 0.9 or more (250 such boxes beside the sets of the 537 train/ photos): with such a reader a
# box beside a set is taken only when it reads as a numbered tile (not a joker). One that
# has the "no tile" output (networks.joker_may_stand) may find a joker there too.
#
# A box beside a tile is read only when its middle has the colour of the tile's own middle
# (ΔE, CIELab): tiles share one face colour, a table seldom has it. Measured on a quarter of
# train/: of 1174 boxes beside sure tiles, the 6 read surely as a tile were all under ΔE 5,
# and 34 boxes in all under 10, so the reader is spared nearly every box of bare table.
FACE_LIKE = 12.0
PLAUSIBLE = 0.3  # a box beside a tile read as a tile at least this surely is tried shifted
# ...by these fractions of the tile's width (across the set) and height (along its long side)
BESIDE_SHIFTS = ((0.12, 0.0), (-0.12, 0.0), (0.0, 0.08), (0.0, -0.08))


def tiles_beside(found: list[FoundTile], confidence: np.ndarray, *, threshold: float,
                 source: np.ndarray, crop_factor: int,
                 corners_of: Callable[[FoundTile], np.ndarray],
                 around: Iterable[int] | None = None) -> list[Kept]:
    """Tiles the detector missed, or outlined badly, beside a tile read surely, where its set
    goes on.

    Tiles of a set lie side by side, so a box of the sure tile's size and slant is tried one
    tile width to either side of it (of the tiles ``around``, else of every sure tile), where
    it covers no sure tile; it replaces the unsure tiles whose centres it covers. A box read
    as a tile but unsure (the neighbour's own box a little off, or the gap between them wider)
    is tried again a little shifted each way (BESIDE_SHIFTS). Kept when the reader reads it
    at ``threshold`` or more, and more surely than what it replaces.
    """
    sure = confidence >= threshold
    starts = [int(i) for i in (np.flatnonzero(sure) if around is None else around) if sure[i]]
    if not starts:
        return []
    placed = slot_placer(found, sure, source.shape[1] * crop_factor,
                          source.shape[0] * crop_factor)
    alternatives: list[Alternative] = []
    origins: list[FoundTile] = []
    tried = np.empty((2 * len(starts), 2))  # the centres of ``alternatives``
    for index in starts:
        tile = found[index]
        across = across_axis(long_axis(tile))
        for sign in (-1.0, 1.0):
            centre = np.array(tile.centre) + sign * across * tile.short_side * BESIDE_STEP
            taken = tried[:len(alternatives)]
            if np.any(np.hypot(centre[0] - taken[:, 0], centre[1] - taken[:, 1])
                      < 0.5 * tile.short_side):
                continue
            alternative = placed(tile, centre)
            if alternative is None or _face_difference(
                    source, tile, alternative.tiles[0], crop_factor) > FACE_LIKE:
                continue
            tried[len(alternatives)] = alternative.tiles[0].centre
            alternatives.append(alternative)
            origins.append(tile)
    if not alternatives:
        return []
    readings = read_slots(alternatives, source, crop_factor, corners_of)
    shift_plausible(alternatives, origins, readings, threshold=threshold, placed=placed,
                     source=source, crop_factor=crop_factor, corners_of=corners_of)
    return tile_slots(alternatives, readings, confidence, threshold)


def slot_placer(found: list[FoundTile], sure: np.ndarray, width: int, height: int
                 ) -> Callable[[FoundTile, np.ndarray], Alternative | None]:
    """A function placing a box of a tile's size and slant at a centre: None when the centre
    is off the photo or the box lies over a sure tile, else the box replacing the unsure
    tiles whose centres it covers."""
    sure_tiles = [tile for tile, is_sure in zip(found, sure) if is_sure]
    sure_discs = _discs(sure_tiles)
    centres = np.array([tile.centre for tile in found], np.float64).reshape(-1, 2)
    unsure = np.flatnonzero(~sure)

    def placed(tile: FoundTile, centre: np.ndarray) -> Alternative | None:
        if not (0 <= centre[0] < width and 0 <= centre[1] < height):
            return None
        slot = FoundTile((float(centre[0]), float(centre[1])), tile.size, tile.angle, tile.score)
        if _overlaps(slot, sure_tiles, sure_discs):
            return None
        box = cv2.boxPoints(slot.rect).astype(np.float32)
        covered = tuple(int(other) for other in centres_near(slot, centres, unsure)
                        if cv2.pointPolygonTest(box, (float(found[other].centre[0]),
                                                      float(found[other].centre[1])),
                                                False) >= 0)
        return Alternative(covered, (slot,))

    return placed


def shift_plausible(alternatives: list[Alternative], origins: list[FoundTile],
                     readings: _SlotReadings, *, threshold: float,
                     placed: Callable[[FoundTile, np.ndarray], Alternative | None],
                     source: np.ndarray, crop_factor: int,
                     corners_of: Callable[[FoundTile], np.ndarray]) -> None:
    """Boxes read as a tile but unsure (PLAUSIBLE; a joker only by a reader that knows "no
    tile") tried again a little shifted (BESIDE_SHIFTS of their origin tile's size); a
    shifted box read more surely takes the box's place, in the lists and readings given."""
    surest = readings.probabilities.max(axis=1)
    plausible = [number for number in range(len(alternatives))
                 if PLAUSIBLE <= surest[number] < threshold
                 and _may_be_taken(readings, number)]
    shifted: list[tuple[int, Alternative]] = []
    for number in plausible:
        tile, slot = origins[number], alternatives[number].tiles[0]
        along = long_axis(tile)
        across = across_axis(along)
        for step_across, step_along in BESIDE_SHIFTS:
            centre = np.array(slot.centre) + across * step_across * tile.short_side \
                + along * step_along * tile.long_side
            alternative = placed(tile, centre)
            if alternative is not None:
                shifted.append((number, alternative))
    if not shifted:
        return
    more = read_slots([a for _, a in shifted], source, crop_factor, corners_of)
    for (number, alternative), reading, up, blank, tile_corners in zip(
            shifted, more.probabilities, more.upside_down, more.no_tile, more.corners):
        if reading.max() > surest[number]:
            alternatives[number], readings.corners[number] = alternative, tile_corners
            readings.probabilities[number], readings.upside_down[number] = reading, up
            readings.no_tile[number] = blank
            surest[number] = reading.max()


def _may_be_taken(readings: _SlotReadings, number: int, threshold: float = 0.0) -> bool:
    """Whether a box where no tile was found may be taken for what it reads as: never when
    it reads as no tile (NO_TILE); a joker only as networks.joker_may_stand allows (without
    a "no tile" output the reader reads bare table as a joker at up to 0.99)."""
    no_tile = float(readings.no_tile[number])
    return no_tile < NO_TILE and joker_may_stand(readings.probabilities[number], no_tile,
                                                 threshold)


def tile_slots(alternatives: list[Alternative], readings: _SlotReadings,
                confidence: np.ndarray, threshold: float) -> list[Kept]:
    """The one-tile alternatives read as a tile at ``threshold`` or more (``_may_be_taken``)
    and more surely than the tiles they replace, surest first, none over another or sharing
    a tile."""
    surest = readings.probabilities.max(axis=1)
    kept: list[Kept] = []
    taken: list[FoundTile] = []
    replaced: set[int] = set()
    for number in np.argsort(-surest):
        alternative = alternatives[number]
        beaten = max((float(confidence[i]) for i in alternative.replaces), default=0.0)
        if surest[number] < threshold or surest[number] <= beaten \
                or not _may_be_taken(readings, number, threshold) \
                or not replaced.isdisjoint(alternative.replaces) \
                or _overlaps(alternative.tiles[0], taken):
            continue
        taken.append(alternative.tiles[0])
        replaced.update(alternative.replaces)
        kept.append(Kept(alternative, (readings.corners[number],),
                         readings.probabilities[number:number + 1],
                         readings.upside_down[number:number + 1],
                         readings.no_tile[number:number + 1]))
    return kept


def tiles_in_rows(found: list[FoundTile], confidence: np.ndarray, *, threshold: float,
                  source: np.ndarray, crop_factor: int,
                  corners_of: Callable[[FoundTile], np.ndarray]) -> list[Kept]:
    """Tiles in an unsure box over a row of them (``_rows``: two to ROW_MOST side by side), as
    the detector outlines a run of tiles on a dense table. (``second_outlines`` cuts a box of
    two in the same way but keeps the cut only when both halves read surely.)

    The box is cut into tiles as wide as the sure tiles nearest it; each piece is read on its
    own (a piece read as a tile but unsure tried a little shifted, as beside a set). When a
    piece reads as a tile at ``threshold`` or more (never as no tile; a joker only as in
    ``_may_be_taken``) and more surely than the box, the box's pieces take its place: the sure
    ones, and at the row's other places the piece read best there if it reads as a tile at
    PLAUSIBLE or more (unsure, so flagged to the user, as the box was; ``tiles_beside`` may
    still lay a sure box over it).
    """
    sure = confidence >= threshold
    if sure.sum() < 2 or sure.all():
        return []
    centres = np.array([tile.centre for tile in found], np.float64)
    sizes = np.array([sorted(tile.size) for tile in found], np.float64)
    placed = slot_placer(found, sure, source.shape[1] * crop_factor,
                          source.shape[0] * crop_factor)
    pieces: list[Alternative] = []
    places: list[tuple[int, int]] = []  # (the box's index, the piece's place along the row)
    for index in np.flatnonzero(~sure):
        others = np.flatnonzero(sure)
        nearest = others[np.argsort(np.linalg.norm(centres[others] - centres[index], axis=1))
                         [:NEIGHBOURS]]
        for row in _rows(int(index), found[index], np.median(sizes[nearest], axis=0)):
            for place, piece in enumerate(row.tiles):
                alternative = placed(piece, np.array(piece.centre))
                if alternative is not None:
                    pieces.append(alternative)
                    places.append((int(index), place))
    if not pieces:
        return []
    readings = read_slots(pieces, source, crop_factor, corners_of)
    shift_plausible(pieces, [piece.tiles[0] for piece in pieces], readings,
                     threshold=threshold, placed=placed, source=source,
                     crop_factor=crop_factor, corners_of=corners_of)
    surest = readings.probabilities.max(axis=1)
    order = np.argsort(-surest)
    kept: list[Kept] = []
    replaced: set[int] = set()
    taken: list[FoundTile] = []
    for box in sorted({box for box, _ in places}):
        ours = [int(n) for n in order if places[n][0] == box
                and _may_be_taken(readings, int(n), threshold)]
        if not ours or surest[ours[0]] < threshold or surest[ours[0]] <= confidence[box]:
            continue
        chosen: list[int] = []
        filled: set[int] = set()
        for number in ours:
            if places[number][1] in filled or _overlaps(pieces[number].tiles[0], taken) \
                    or surest[number] < (threshold if not chosen else PLAUSIBLE):
                continue
            chosen.append(number)
            filled.add(places[number][1])
            taken.append(pieces[number].tiles[0])
        replaces = {box}.union(*(pieces[number].replaces for number in chosen))
        if not replaced.isdisjoint(replaces):
            continue
        replaced.update(replaces)
        kept.append(Kept(Alternative(tuple(sorted(replaces)),
                                     tuple(pieces[number].tiles[0] for number in chosen)),
                         tuple(readings.corners[number] for number in chosen),
                         readings.probabilities[chosen], readings.upside_down[chosen],
                         readings.no_tile[chosen]))
    return kept


@dataclass(frozen=True, eq=False)
class _SlotReadings:
    """What the reader read in one-tile alternatives (arrays changed in place by
    ``shift_plausible``), and the corners their crops were cut along."""

    probabilities: np.ndarray
    upside_down: np.ndarray
    no_tile: np.ndarray
    corners: list[np.ndarray]


def read_slots(alternatives: list[Alternative], source: np.ndarray, crop_factor: int,
                corners_of: Callable[[FoundTile], np.ndarray], *, least: float = 0.0
                ) -> _SlotReadings:
    """The reader's readings of one-tile alternatives (``least`` as in ``read_unwashed``:
    only for a caller to whom no reading under it matters, not even to compare two such)."""
    corners = [corners_of(alternative.tiles[0]) for alternative in alternatives]
    crops = np.stack([crop_tile(source, tile_corners / crop_factor) for tile_corners in corners])
    return _SlotReadings(*read_unwashed(crops, least=least), corners)


def _overlaps(slot: FoundTile, tiles: list[FoundTile], discs: np.ndarray | None = None
              ) -> bool:
    """Whether the slot lies over the centre of any of the tiles, or over more than
    BESIDE_OVERLAP of one (``discs``: the tiles' ``_discs``, if made already)."""
    corners = cv2.boxPoints(slot.rect).astype(np.float32)
    area = slot.size[0] * slot.size[1]
    for tile in _near(slot, tiles, discs):
        if cv2.pointPolygonTest(corners, (float(tile.centre[0]), float(tile.centre[1])),
                                False) >= 0:
            return True
        kind, region = cv2.rotatedRectangleIntersection(slot.rect, tile.rect)
        if kind != cv2.INTERSECT_NONE and region is not None and cv2.contourArea(
                cv2.convexHull(region)) > BESIDE_OVERLAP * min(area, tile.size[0] * tile.size[1]):
            return True
    return False




def _discs(tiles: list[FoundTile]) -> np.ndarray:
    """Each tile's centre and reach (``reach``), (N, 3)."""
    return np.array([(*tile.centre, reach_of(tile)) for tile in tiles], np.float64).reshape(-1, 3)


def _near(slot: FoundTile, tiles: list[FoundTile], discs: np.ndarray | None = None
          ) -> list[FoundTile]:
    """The ``tiles`` (in their order) that may touch the slot: their reaches and its overlap."""
    if not tiles:
        return tiles
    discs = _discs(tiles) if discs is None else discs
    apart = np.hypot(discs[:, 0] - slot.centre[0], discs[:, 1] - slot.centre[1])
    return [tiles[i] for i in np.flatnonzero(apart <= discs[:, 2] + reach_of(slot))]


def _face_difference(source: np.ndarray, tile: FoundTile, slot: FoundTile,
                     crop_factor: int) -> float:
    """ΔE between the median colours of the middles (half the width across) of a tile and of
    a box beside it, in ``source`` (the photo at 1/``crop_factor``)."""
    medians = []
    reach = max(1, round(tile.short_side / crop_factor / 4))
    for centre in (tile.centre, slot.centre):
        x, y = round(centre[0] / crop_factor), round(centre[1] / crop_factor)
        patch = source[max(0, y - reach):y + reach, max(0, x - reach):x + reach]
        if patch.size == 0:
            return float("inf")
        medians.append(np.median(patch.reshape(-1, 3), axis=0).astype(np.uint8))
    colours = cv2.cvtColor(np.stack(medians)[None], cv2.COLOR_BGR2LAB)[0].astype(np.float64) \
        * (100 / 255, 1.0, 1.0)
    return float(np.linalg.norm(colours[0] - colours[1]))


def _rows(index: int, box: FoundTile, typical: np.ndarray) -> list[Alternative]:
    """A box over a row of two to ROW_MOST tiles side by side, as on a dense table, cut across
    its long side into tiles; a box taller than a tile (glare or a shadow taken in) also cut
    to a tile's height about its middle or flush with either long side."""
    short, long = sorted(box.size)
    count = round(long / typical[0])
    if not 2 <= count <= ROW_MOST or abs(long / (count * typical[0]) - 1) > ROW_SLACK \
            or not 1 - SIZE_SLACK <= short / typical[1] <= ROW_TALLEST:
        return []
    along = long_axis(box)
    across = across_axis(along)
    angle = float(np.degrees(np.arctan2(along[1], along[0])))
    height = min(short, float(typical[1]))
    offsets = (0.0,) if height == short else (0.0, (short - height) / 2, (height - short) / 2)
    rows = []
    for offset in offsets:
        tiles = []
        for place in range(count):
            centre = np.array(box.centre) + along * (place + 0.5 - count / 2) * long / count \
                + across * offset
            tiles.append(FoundTile((float(centre[0]), float(centre[1])), (long / count, height),
                                   angle, box.score))
        rows.append(Alternative((index,), tuple(tiles)))
    return rows
