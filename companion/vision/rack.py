"""Reading a photo of one player's rack: the tiles standing on it and what they cost.

The photo is read as a table photo is (``pipeline.find_and_read``), each box outlined across
the rack's up read again turned to it (``_turned_to_the_rack``); ``rack_rows.find_rack``
then takes the rows of upright tiles standing on the rack, one to three tiers (or more rows
of tiles spread on the table to be photographed), and leaves every other tile out
(``ignored``). "No rack found" only when no such row is, or when most tiles as large lie off
the row taken, as on a table: never for want of a visible bar.

A tile is shown sure only when all of these hold, and the rack's value only when every tile is:
- it was read at ``doubts.LOW_CONFIDENCE`` or surer, and no tile of the rack under
  ``quality.POOR_READING`` (rummy3-18 under a 15 px line blur: O5 for O6 at 0.91 beside B1
  for B2 at 0.78);
- a 6 or a 9 is not read turned round both from the rack's up and from most of the tiles of
  the rack whose number reads one way up only (``doubts.ONE_WAY_UP``; rummy3-16 turned 20°
  read its R9 as R6 at 0.96). Agreeing with its neighbours is enough: the labelled photos'
  black racks are read upside down whole, their 6s and 9s right. A classic 6 or 9
  whose figure, cut the way most of those tiles stand, reads as the other number is shown as
  that number, unsure (``figures.read_by_figure``);
- the rack is seen whole (``seen_whole``): a bar is seen under its lowest row
  (``rack_bar.bar_under``; evidence, not a gate: without it a table's rows of sets look as a
  rack's tiers do); no box read as surely as DOUBTFUL_BOX lies off the rack as large as its
  tiles (the row taken may be the wrong one) or within NEAR of it (rummy4-89 at JPEG quality
  40: an end tile outlined half as tall, left off); no standing tile was found on the rack's
  lines off its rows; the reader, shown each gap of a row wider than a tile and a tile's
  pitch past each end of a row, reads no tile there (its "no tile" output under GAP_TILE:
  rummy4-89 out of focus lost K5 to the detector, its value shown sure); the detector,
  shown the rack's band of the photo with its light evened out, finds no tile there either
  that the reading has no box on (``_tiles_in_the_shade``: a hard shadow hides a tier from
  it; the tiles it finds are read in, and the rack found again with them); and the rack was
  read the way up its tiles point (``RackRows.turned``: turned round, a tile lying in front
  is an upper tier of one);
- the rack holds two tiles or more, on one or two tiers: a photo of one tile lying on a
  cloth, and a table's grid of three rows touching over a straight edge (rummy4-36,
  rummy2-7, rummy2-28), were read as sure racks without this, and no real photo of a
  three-tier rack was at hand to tell such a grid from one.
Any other reading is offered for the player to confirm, every tile unsure. Measured in
docs/vision.md ("Racks"). The value is the rules core's (``scoring.rack_value``: face values,
the preset's joker penalty for each joker).
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, replace
from itertools import pairwise

import cv2
import numpy as np

from companion.core.presets import PRESSMAN, Preset
from companion.core.scoring import rack_value
from companion.vision.crops import canonical_corners, crop_tile, top_towards
from companion.vision.decode import DecodedPhoto, decode_for_reading
from companion.vision.detect import WORK_SIZE, FoundTile, detect_at
from companion.vision.doubts import ONE_WAY_UP, SIX_OR_NINE
from companion.vision.errors import PhotoError
from companion.vision.figures import as_the_other, read_by_figure
from companion.vision.found import ReadFound
from companion.vision.networks import NO_TILE, read_crops, reading_classic
from companion.vision.pipeline import find_and_read
from companion.vision.quality import POOR_READING
from companion.vision.rack_bar import bar_under
from companion.vision.rack_rows import LIKE_SIZED, RackRows, Tiles, find_rack
from companion.vision.reading import (
    PHOTO_READ_POORLY,
    RACK_NOT_WHOLE,
    TURNED_FROM_THE_RACK,
    RackReading,
)

NO_TILES = ("no tiles found on a rack: photograph the rack from the front, close enough that "
            "the tiles fill most of the photo's width, in good light")
DOUBTFUL_BOX = 0.5  # a box read under this is likelier not one tile than one
NEAR = 1.0  # tile heights above and below the rack (and a width along: Tiles.span)
GAP_TILE = 0.35  # P(no tile) under this in a gap: a tile there (the 24 real racks' empty
# slots read 0.57-0.88; rummy3-7's joker left off, 0.11; a tile the detector missed, 0.0)
ACROSS_COS = np.cos(np.radians(60))  # a box whose up lies over 60° from the rack's lies across it
GAP_PITCH = 1.05  # tile widths from one tile's middle to the next's on a rack
NEXT_SLOT = 1.5  # a neighbour under this many pitches away stands in the next slot
GAP_WIDE = 1.35  # pitches between two neighbours with a slot between them (a rack seen from
# one end shrinks its steps towards the far end: a tile missing there left a gap of 1.47)
GAP_STEP = 0.25  # pitches between the slots read in a gap
GAP_NEAREST = 0.85  # pitches from a tile's middle to the nearest a tile beside it stands
# (its box outlined wider than it: rummy4-86's O3 stands 0.89 pitches from the other O3)
EVEN_CLIP, EVEN_GRID = 3.0, 8  # CLAHE's clip limit and grid: the light evened (_tiles_in_the_shade)
SURE_AT_LEAST = 2  # one tile makes no row: a photo of one tile lying is read so too
SURE_TIERS = 2  # three rows stacked are what a table's grid of sets shows too (see below)

def read_rack(data: bytes, *, preset: Preset = PRESSMAN) -> RackReading:
    """Read the tiles on the rack in a photo and the rack's value; PhotoError on bad input."""
    return read_rack_image(decode_for_reading(data), preset=preset)


def read_rack_image(photo: DecodedPhoto | np.ndarray, *,
                    preset: Preset = PRESSMAN) -> RackReading:
    """Read a decoded rack photo (see ``read_rack``). A photo that came sideways or upside
    down needs no second reading: the reader reads each tile at any turn, and the rack's up
    is the up its standing tiles share (``rack_rows``)."""
    if isinstance(photo, np.ndarray):
        photo = DecodedPhoto.of_image(photo)
    try:
        read = find_and_read(photo)
    except PhotoError as error:
        # a photo too small to find tiles in (code too_small) is answered with its size
        if error.code == "no_tiles":
            raise PhotoError(NO_TILES, "no_rack_tiles") from error
        raise
    # the photo lit as its tiles were read (a dim photo brightened: under-exposed 1.5 stops,
    # 12 of the 24 real racks lost their bar), for the crops read again and the bar alike
    image, scale = read.prepared(photo.image), 1 / photo.factor
    read = _turned_to_the_rack(image, scale, read)
    rack = find_rack(read)
    around = _Around.of(rack)
    shaded = _tiles_in_the_shade(image, scale, read, around)
    if shaded is not None:
        # tiles a shadow hid from the first look, read in and the rack found again (as it
        # was, should that fail); such a rack is not seen whole
        with_shaded = _with_tiles(read, *shaded, rack.tiles.up)
        with contextlib.suppress(PhotoError):
            read, rack = with_shaded, find_rack(with_shaded)
    seen_whole = shaded is None and _seen_whole(image, scale, read, rack, around)
    # every tile checked: the rack maybe not read whole, or its tiles read poorly as a whole
    doubt_all = ""
    if not seen_whole:
        doubt_all = RACK_NOT_WHOLE
    elif float(min(read.confidence[list(rack.on_rack)])) < POOR_READING:
        doubt_all = PHOTO_READ_POORLY
    turned_round = _six_or_nine_turned_round(read, rack)
    figure_other = read_by_figure(image, scale, read, list(rack.on_rack), rack.tiles.ups,
                                  rack.tiles.up)
    placed = []
    for row_number, row in enumerate(rack.rows):
        for index in row:
            tile = read.tile(index)
            if index in figure_other:
                tile = as_the_other(tile, figure_other[index])
            why = "" if tile.low_confidence else (
                TURNED_FROM_THE_RACK if index in turned_round else doubt_all)
            placed.append(replace(
                tile, set_index=row_number, outline=rack.tiles.outline_upright(index),
                low_confidence=tile.low_confidence or bool(why), doubt=tile.doubt or why))
    ignored = tuple(read.tile(index).outline for index in range(len(read.found))
                    if index not in rack.on_rack)
    held = tuple(tile.tile for tile in placed)
    return RackReading(photo.width, photo.height, tuple(placed), ignored,
                       value=rack_value(held, joker_penalty=preset.joker_penalty),
                       jokers=sum(tile.is_joker for tile in held), preset=preset,
                       seen_whole=seen_whole)


def _turned_to_the_rack(image: np.ndarray, scale: float, read: ReadFound) -> ReadFound:
    """The boxes outlined across the rack's up read again with their top towards it, each
    kept so where it reads surer. A rack seen from one end stretches its near tiles along it
    until they are outlined wider than tall, turned a quarter (a near K13 read at 0.4999 that
    way was left off, and the rack's value shown sure without it)."""
    tiles = Tiles.of(read)
    across = [int(i) for i in np.flatnonzero(np.abs(tiles.ups @ tiles.up) < ACROSS_COS)]
    if not across:
        return read
    turned = [top_towards(read.corners[i], tiles.up) for i in across]
    crops = np.stack([crop_tile(image, corners * scale) for corners in turned])
    with reading_classic(read.classic):
        probabilities, _, no_tile = read_crops(crops)
    corners, best = list(read.corners), read.best.copy()
    confidence, ranking = read.confidence.copy(), read.ranking.copy()
    doubts = list(read.doubts or [""] * len(read.found))
    for k, index in enumerate(across):
        if probabilities[k].max() > confidence[index] and no_tile[k] < NO_TILE:
            corners[index], best[index] = turned[k], probabilities[k].argmax()
            confidence[index] = probabilities[k].max()
            ranking[index] = np.argsort(-probabilities[k])
            doubts[index] = ""  # read again: the rule's doubt was of the first reading
    return replace(read, corners=corners, best=best, confidence=confidence, ranking=ranking,
                   doubts=tuple(doubts))


def _ways_up(read: ReadFound, rack: RackRows) -> tuple[dict[int, bool], list[int]]:
    """Whether each tile on the rack points the rack's way up, and which of them have a
    number that reads one way up only (``doubts.ONE_WAY_UP``)."""
    tiles = rack.tiles
    way = {index: float(tiles.ups[index] @ tiles.up) >= 0 for index in rack.on_rack}
    return way, [index for index in rack.on_rack if int(read.best[index]) in ONE_WAY_UP]


def _six_or_nine_turned_round(read: ReadFound, rack: RackRows) -> set[int]:
    """The 6s and 9s on the rack read turned round both from the rack's up and from at least
    half of the rack's tiles whose number reads one way up only (or with none such to
    compare): a rack's tiles stand one way up, and a 6 turned round is a 9."""
    way, one_way = _ways_up(read, rack)
    return {index for index in rack.on_rack if int(read.best[index]) in SIX_OR_NINE
            and not way[index]
            and 2 * sum(way[other] == way[index] for other in one_way) <= len(one_way)}


@dataclass(frozen=True, eq=False)
class _Around:
    """Where a tile found off the rack says the rack was not read whole: by the rack (along
    its span, from NEAR under its lowest row to NEAR over its top row), or anywhere as large
    as its tiles (the row taken may be the wrong one)."""

    tiles: Tiles
    span: tuple[float, float]
    band: tuple[float, float]  # from the lowest to the highest place up the rack
    height: float

    @classmethod
    def of(cls, rack: RackRows) -> _Around:
        tiles = rack.tiles
        height = tiles.height_of(list(rack.on_rack))
        lowest = tiles.feet[rack.rows[-1]].min() - NEAR * height
        highest = (tiles.feet + tiles.heights)[rack.rows[0]].max() + NEAR * height
        return cls(tiles, tiles.span(rack.on_rack), (lowest, highest), height)

    def left_off(self, centre: np.ndarray, tall: float) -> bool:
        return (self.span[0] <= centre @ self.tiles.right <= self.span[1]
                and self.band[0] <= centre @ self.tiles.up <= self.band[1]
                or tall >= LIKE_SIZED * self.height)


def _seen_whole(image: np.ndarray, scale: float, read: ReadFound, rack: RackRows,
                around: _Around) -> bool:
    """Whether the photo shows plainly that the rows read are one rack (``around`` it: where
    a tile left off matters), read whole (see the module's docstring; the evened look is
    ``read_rack_image``'s)."""
    if (rack.strays or rack.turned or len(rack.on_rack) < SURE_AT_LEAST
            or len(rack.rows) > SURE_TIERS):
        return False
    tiles = rack.tiles
    if any(around.left_off(tiles.centres[index], tiles.heights[index])
           for index in range(len(read.found))
           if index not in rack.on_rack and read.confidence[index] >= DOUBTFUL_BOX):
        return False
    return not _tile_in_a_gap(image, scale, read, rack) \
        and bar_under(image, scale, tiles, rack.rows[-1])


def _tile_in_a_gap(image: np.ndarray, scale: float, read: ReadFound, rack: RackRows) -> bool:
    """Whether the reader reads a tile (P(no tile) under GAP_TILE) where the detector found
    none: in a gap of a row wider than a tile, or a tile's pitch past either end of a row (a
    rack seen from one end hides its far end tile in a few pixels). A tile the rack was read
    without. (A reader with no "no tile" output gives P(no tile) 0: every such slot then
    reads as a tile, unsure.)"""
    tiles, slots = rack.tiles, []
    for row in rack.rows:
        line = tiles.line(row)
        spots = tiles.along[row]
        steps = np.diff(spots)
        for end, step, side in ((row[0], steps[:1], -1), (row[-1], steps[-1:], 1)):
            # past an end, a tile's pitch is the end tile's step from its neighbour when
            # that is the next slot (a rack's tiles may stand apart), else its width's
            width, height = float(tiles.widths[end]), float(tiles.heights[end])
            pitch = GAP_PITCH * width
            if len(step) and step[0] < NEXT_SLOT * pitch:
                pitch = float(step[0])
            slots.append(_slot(tiles, line, tiles.along[end] + side * pitch, width, height))
        for k, (before, after) in enumerate(pairwise(row)):
            # the gap measured in its neighbours' own sizes and steps, not the row's: a rack
            # seen from one end shrinks its tiles along it (a row's median width put two
            # slots astride a near tile the detector had missed, its value shown sure), and
            # a far end's few-pixel tiles are outlined too wide (a J 60 px wide for 40)
            width = float(tiles.widths[[before, after]].mean())
            height = float(tiles.heights[[before, after]].mean())
            pitch = min([GAP_PITCH * width, *steps[max(k - 1, 0):k], *steps[k + 1:k + 2]])
            if steps[k] < GAP_WIDE * pitch:
                continue
            # slots a quarter of a pitch apart from as near one neighbour as a tile stands
            # to the other: the reader reads a tile as one only within about a sixth of its
            # width of its middle (rummy4-86 in an arm's shade: the O3 beside O3, between
            # two slots evenly apart, was read as no tile, the value shown sure)
            first = spots[k] + GAP_NEAREST * pitch
            last = spots[k + 1] - GAP_NEAREST * pitch
            alongs = (np.linspace(first, last, int(np.ceil((last - first) / (GAP_STEP * pitch))) + 1)
                      if last > first else [(first + last) / 2])
            slots += [_slot(tiles, line, along, width, height) for along in alongs]
    return _reads_a_tile([crop_tile(image, corners * scale) for corners in slots], read.classic)


def _tiles_in_the_shade(image: np.ndarray, scale: float, read: ReadFound, around: _Around
                        ) -> tuple[list[FoundTile], np.ndarray] | None:
    """The tiles the detector finds when shown the rack's band of the photo (``around.band``,
    the photo's whole width along the rack) with its light evened out (CLAHE on lightness, at
    the detector's working scale), where the reading has no box, where ``around`` says it
    matters and where the reader reads a tile (as in a gap, GAP_TILE, and at DOUBTFUL_BOX or
    surer): their boxes (in the photo's pixels) and the reader's probabilities; None when
    there is none. A hard shadow across a tier hides its tiles from the detector altogether
    (the labelled racks with a shadow cast: a lower tier of five in the shade, the value shown
    sure without them), and over a black rack no table beside the tiles shows the shade to
    divide out (``light``). The band, not the whole photo: the look costs as many pixels as it
    takes; smaller than the working scale it misses them (the rack's tiles shrunk to the 32 px
    the detector learned: none of the four shadowed racks' tiles found; to 44 px: rummy3-5's
    O8 lost)."""
    tiles = around.tiles
    height, width = image.shape[:2]
    photo_corners = np.array([[0, 0], [width, 0], [width, height], [0, height]]) / scale
    along = photo_corners @ tiles.right
    corners = np.array([a * tiles.right + u * tiles.up for a in (along.min(), along.max())
                        for u in around.band]) * scale
    x0, y0 = np.clip(np.floor(corners.min(axis=0)), 0, None).astype(int)
    x1, y1 = np.minimum(np.ceil(corners.max(axis=0)), (width, height)).astype(int)
    if x1 - x0 < 16 or y1 - y0 < 16:  # the band lies off the photo
        return None
    to_small = WORK_SIZE / max(height, width)
    small = cv2.resize(image[y0:y1, x0:x1], None, fx=to_small, fy=to_small,
                       interpolation=cv2.INTER_AREA)
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2Lab)
    lab[..., 0] = cv2.createCLAHE(EVEN_CLIP, (EVEN_GRID, EVEN_GRID)).apply(lab[..., 0])
    evened = cv2.cvtColor(lab, cv2.COLOR_Lab2BGR)
    offset = np.array([x0, y0], np.float32)

    def in_photo(found: FoundTile) -> FoundTile:
        centre = (np.asarray(found.centre) / to_small + offset) / scale
        return FoundTile(tuple(map(float, centre)),
                         tuple(side / to_small / scale for side in found.size),
                         found.angle, found.score)

    boxes = [((np.asarray(c, np.float32) * scale - offset) * to_small).reshape(-1, 1, 2)
             for c in read.corners]
    with reading_classic(read.classic):
        found = [(small_box, in_photo(small_box))
                 for small_box in detect_at(evened, max(evened.shape[:2])).found]
        unread = [(small_box, box) for small_box, box in found
                  if not any(cv2.pointPolygonTest(read_box, small_box.centre, False) >= 0
                             for read_box in boxes)
                  and around.left_off(np.asarray(box.centre), box.long_side)]
        if not unread:
            return None
        probabilities, _, no_tile = read_crops(np.stack(
            [crop_tile(evened, canonical_corners(small_box.rect)) for small_box, _ in unread]))
    tile = (no_tile < GAP_TILE) & (probabilities.max(axis=1) >= DOUBTFUL_BOX)
    if not tile.any():
        return None
    return [unread[k][1] for k in np.flatnonzero(tile)], probabilities[tile]


def _with_tiles(read: ReadFound, found: list[FoundTile], probabilities: np.ndarray,
                up: np.ndarray) -> ReadFound:
    """The reading with these tiles found (in the photo's pixels) and read so, each box's
    long side kept as its height (as the first look's are: a box lying across the rack stands
    on none of its rows) and the end nearer the rack's ``up`` its top."""
    corners = [top_towards(canonical_corners(tile.rect).astype(np.float64), up,
                           quarter_turns=False) for tile in found]
    return replace(read, found=[*read.found, *found], corners=[*read.corners, *corners],
                   best=np.concatenate([read.best, probabilities.argmax(axis=1)]),
                   confidence=np.concatenate([read.confidence, probabilities.max(axis=1)]),
                   ranking=np.concatenate([read.ranking, np.argsort(-probabilities, axis=1)]),
                   doubts=(*(read.doubts or [""] * len(read.found)), *[""] * len(found)))


def _reads_a_tile(crops: list[np.ndarray], classic: bool) -> bool:
    """Whether the reader (the classic design's for a classic reading) reads any of these
    crops as a tile: P(no tile) under GAP_TILE."""
    with reading_classic(classic):
        _, _, no_tile = read_crops(np.stack(crops))
    return bool((no_tile < GAP_TILE).any())


def _slot(tiles: Tiles, line: tuple[float, float], along: float, width: float,
          height: float) -> np.ndarray:
    """The corners of a tile ``width`` × ``height`` standing on the row's ``line`` at
    ``along`` (clockwise from the top left)."""
    intercept, slope = line
    half, up = tiles.right * width / 2, tiles.up * height
    foot = along * tiles.right + (intercept + slope * along) * tiles.up
    return np.array([foot + up - half, foot + up + half, foot + half, foot - half])
