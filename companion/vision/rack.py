"""Reading a photo of one player's rack: the tiles standing on it and what they cost.

The rack is found by what it looks like, not assumed to fill the photo: tiles standing on a
rack stand in a row, upright, their bottoms on one line, and under that line runs the rack's
ledge — a long bar of one colour with a straight lower edge, running on under the gaps between
the tiles. A row of tiles lying on a table has no such bar under it. Two rows of a two-tier
rack are two such rows stacked one tile apart. Every other tile in the photo (on the table, in
the pool, on a rack further away) is left out of the reading and reported as ``ignored``.

The value comes from the rules core (``companion.core.scoring.rack_value``): face values, and
the preset's joker penalty for each joker.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from functools import partial
from itertools import pairwise
from typing import Any

import cv2
import numpy as np

from companion.core.presets import PRESSMAN, Preset
from companion.core.scoring import rack_value
from companion.core.tiles import Tile
from companion.vision.crops import SQUARISH, crop_tile
from companion.vision.decode import DecodedPhoto, decode_for_reading
from companion.vision.detect import FoundTile
from companion.vision.errors import PhotoError
from companion.vision.light import IN_SHADOW, MOST_GAIN, face_brightness, lit_faces
from companion.vision.networks import NO_TILE, joker_may_stand, read_crops
from companion.vision.pipeline import (
    DOUBTED,
    LOW_CONFIDENCE,
    SIX_OR_NINE,
    ReadFound,
    crop_factor_for,
    find_and_read,
)
from companion.vision.quality import POOR_READING
from companion.vision.rack_rows import read_rows
from companion.vision.reading import ReadTile

NO_RACK = ("no rack found: photograph the rack from the front or a little from above, its "
           "ledge under the tiles in the frame, the tiles large and upright")
NO_TILES = ("no tiles found on a rack: photograph the rack from the front, close enough that "
            "the tiles fill most of the photo's width, in good light")

STANDING_COS = np.cos(np.radians(40))  # a standing tile's up is within 40° of the rack's up
TILT_ALIKE_DEGREES = 7.5  # tiles whose edges run within this of each other stand turned alike
ROW_UP_COS = np.cos(np.radians(15))  # tiles standing in one row lean alike
PARALLEL_COS = np.cos(np.radians(8))  # the two tiers of a rack run side by side
UNREADABLE = 0.1  # a "tile" read at under this (about 0.02 is a uniform guess) is no tile
RACK_ROW_HEIGHT = 0.8  # the rack's row is among the rows of tiles at least this tall
DOUBTFUL_BOX = 0.5  # a box read under this is likelier not one tile than one
TIER_HEIGHTS = (0.6, 1.4)  # the tiers' tile heights are alike (the upper one further off)
# the lower tier stands nearer the camera than the upper one, so its tiles look as tall or
# taller (on the real racks 1.10–1.18 times, on the renders 0.97–1.20); a row below the rack's
# row with shorter tiles is further off than a tier (tiles lying on the table in front, seen
# foreshortened), a row above with taller ones nearer
LOWER_TIER_AT_LEAST = 0.9
UPPER_TIER_AT_MOST = 1.12
TIER_APART = (0.9, 1.9)  # the tiers' bottom lines lie this many tile heights apart
NEARER_AT_LEAST = 0.9  # a rack further down the photo, its tiles this tall, is nearer
UNBARRED_NEARER_TILES = 3  # a row of this many further down, its bar not seen, may be too
HIDDEN_TIER_APART = (0.9, 1.5)  # a tile height and a ledge of up to half a tile apart
SPLIT_GAP = 3.0  # tile widths from a row's end tile's middle to the next's: it lies apart
ROW_TOLERANCE = 0.3  # bottoms of one row lie within this many tile heights of one line
STRIP_PIXELS_PER_HEIGHT = 40  # the band under a row is resampled at 40 px per tile height
BAR_EDGE_FROM, BAR_EDGE_TO = 0.1, 0.7  # where the bar's lower edge may be, in tile heights
DEEP_EDGE_TO = 1.8  # ... or, no ledge showing, the lower tier's board's (see _row_on_bar)
DEEP_EDGE_DELTA = 25.0  # ΔE between a rack's board and the table at the rack's lower edge
EDGE_STEP = 6.0  # a colour step (CIE ΔE over two pixels) that counts as an edge
DARK_BELOW, DARK_EDGE_SHARE = 15.0, 0.4  # below L 15, an edge steps less (see _strip_edges)
FAINT_EDGE_SHARE, FAINT_EDGE_OVER_TEXTURE = 0.5, 4.0  # see _faint_edge_shows
BAR_SUPPORT = 0.5  # share of the row's columns where the lower edge must show
BAR_EVEN = 0.55  # share of the row's columns whose bar colour is the bar's median colour
FREE_WIDTH = 0.5  # tile widths of the bar's edge that must show where no tile stands
BAR_EVEN_DELTA = 14.0
BAR_EVEN_WEIGHTS = (0.5, 1.0, 1.0)  # CIELab L, a, b: a lightness step counts half
BOARD_BAND = (0.2, 0.8)  # tile heights above a row's line: the board behind its tiles
BOARD_STEP = 10.0  # ΔE (lightness counted half): the board's end, a tile, no glare
BOARD_STEP_OVER = 0.2  # tile widths
LIKE_SIZED = 0.7  # a tile at least this large against the rack's tiles lies as near as they do
OFF_RACK_SHARE = 2  # more tiles that large off the rack than twice those on it: not a rack photo
FEW_AROUND = 3  # ... unless they are a few (a tile just drawn, the pool's edge)
FREE_RUN = 0.25  # tile widths
ABOVE_BOTTOM = 0.2  # the strip starts this many tile heights above the tiles' bottoms
TOP_EDGE_ROWS = 6  # the bar's top edge is looked for within 0.15 tile heights of the bottoms
FROM_ABOVE_SQUARISH = 0.85  # tile width over height past which a row is seen from above
TOP_SUPPORT = 0.35  # share of the free columns where it must show (glare and shade hide some)
EDGE_OVER_TEXTURE = 2.5  # an edge steps this many times the column's median step
# a tile standing in a rack's row whose outline is askew or cut short (seen from above, or at
# the row's end) is outlined again as the row's tiles stand: its centre within this many tile
# heights of the row's mid-height, the new box shifted along the row by these tile widths
REOUTLINE_BAND = 0.35
REOUTLINE_SHIFTS = (0.0, -0.15, 0.15)
REOUTLINE_APART = 0.75  # tile widths between the new box's middle and another row tile's
# a hard shadow across a rack hides the tiles in it from the detector: along a rack row, slot
# by slot out from its tiles, a box in the shade (its face under IN_SHADOW of the row's lit
# faces) is read lit to the lit faces' level; it is taken when read surely, SLOT_NO_TILE
# or less "no tile", and the walk ends at SLOT_MISSES slots in a row not taken
SLOT_NO_TILE = 0.5
SLOT_MISSES = 2
LIFT_KERNEL = 15  # crop pixels (of 48 × 64): wider than a digit's stroke
LEDGE_DEPTHS = (0.04, 0.08, 0.12)  # tile heights under the row's line: the ledge's top
FACE_CHROMA = 12.0  # ΔE in a, b between a lifted slot's face and the lit faces'
SLOT_PITCH = (0.9, 1.3)
# under a row found on the lower tier's edge (its own ledge not seen) the "ledge" is the
# lower tier, bright under its tiles and dark under its bare board: there a slot's face
# under this share of the lit faces' is bare board, not a tile in a shadow (a black board
# tinted blue by a cold light, lifted, read B8 surely)
SLOT_DARKEST = 0.15
# the detector's boxes of the lit tiles may run wide, and the pitch with them: a slot is
# laid at these shifts along the row (tile widths) and these shares of the row's width
SLOT_SHIFTS = (0.0, -0.1, 0.1, -0.2, 0.2, -0.3, 0.3)
SLOT_WIDTHS = (1.0, 0.85)  # tile widths from one tile's middle to the next's on a rack
# a rack row's gaps, where the detector may have outlined no tile (see _gap_slots): between
# neighbours this many pitches apart or more, a slot read at these shifts (tile widths)
GAP_ROOM = 1.5
GAP_SHIFTS = (0.0, -0.15, 0.15)
# a phone's wrong guess turns a photo by a quarter turn exactly, the hand a little more: a
# rack photo is taken for sideways when its tiles lie within 30° of across (see
# read_rack_image); past that, a photo of a table's sets at a slant is as likely
TURNED_LEAN = 30.0
# the tiles' edges give the rack's turn up to a quarter turn, its up taken as the nearest the
# photo's; past this many degrees from it (a phone turned about 45°) the other way is about as
# near, and the long sides of the tiles' outlines (a tile stands on its short side) decide
DIAGONAL_TILT = 35.0
# a rack's other tier left out of the reading (its bar not found: seen from higher or lower
# than the tiers were found at, or the photo upside down, the tier found standing on the
# other's board): readable tiles (DOUBTFUL_BOX or surer) as large as the rack's (0.8–1.5 of
# their height) standing as they stand (their up within 20° of the rack's), over the rack,
# their middles where the other tier's stand on the black two-tier racks: 1.1–1.9 tile
# heights above the top row's line, or 0.25–0.75 under the lowest row's (the lower tier's
# tops reach the upper tier's line). Measured on the real racks turned, seen from higher and
# lower, cropped and further off (benchmarks/rack_stress.py); the renders' tiles lying
# about a rack, a second rack further off (2.0 tile heights up or more) and a set in front
# (0.8 or more under) lie outside these bands.
LEFT_OFF_ABOVE = (1.1, 1.9)
LEFT_OFF_BELOW = (0.25, 0.75)
LEFT_OFF_HEIGHTS = (0.8, 1.5)
LEFT_OFF_PAST_END = 0.5  # tile heights past the end of the bar the tile stands over
LEFT_OFF_UP_COS = np.cos(np.radians(20))
# a tile standing between those bands, over the rack, at least this share of the rack's tiles'
# height (a far tier's tile outlined small, at the photo's slanted end) flags the rack
BY_RACK_HEIGHTS = (0.6, 1.5)
LEDGE_BAND = (0.1, 0.35)  # tile heights under a row's line: its ledge (see _ledge_runs_to)


@dataclass(frozen=True, slots=True)
class RackReading:
    """The tiles standing on one rack (top row first, each row left to right) and their value.

    ``tiles[i].set_index`` is the tile's row (0 top). ``ignored`` holds the outlines of the
    tiles found elsewhere in the photo. ``seen_whole`` is False when the rack may not have
    been read whole (tiles standing where a tier of it stands were left off it and added, a
    box read as a tile stands among its tiles or by the rack left off them, a box over two
    tiles was read in part, a gap in a row reads as a tile but not surely, or another row may
    be the player's rack): every tile is then unsure, and the player checks them against the
    photo.
    """

    width: int
    height: int
    tiles: tuple[ReadTile, ...]
    ignored: tuple[tuple[tuple[int, int], ...], ...]
    value: int
    jokers: int
    preset: Preset = PRESSMAN
    seen_whole: bool = True

    @property
    def rack(self) -> tuple[Tile, ...]:
        return tuple(read.tile for read in self.tiles)

    @property
    def rows(self) -> int:
        return len({read.set_index for read in self.tiles})

    def to_json(self) -> dict[str, Any]:
        return {
            "width": self.width,
            "height": self.height,
            "tiles": [{"tile": str(read.tile), "confidence": round(read.confidence, 4),
                       "outline": [[x, y] for x, y in read.outline],
                       "low_confidence": read.low_confidence, "row": read.set_index}
                      for read in self.tiles],
            "value": self.value,
            "jokers": self.jokers,
            "ignored": [[[x, y] for x, y in outline] for outline in self.ignored],
            "preset": self.preset.key,
            "seen_whole": self.seen_whole,
        }


def read_rack(data: bytes, *, preset: Preset = PRESSMAN) -> RackReading:
    """Read the tiles on the rack in a photo and the rack's value; PhotoError on bad input."""
    return read_rack_image(decode_for_reading(data), preset=preset)


def read_rack_image(photo: DecodedPhoto | np.ndarray, *,
                    preset: Preset = PRESSMAN) -> RackReading:
    """Read a decoded rack photo (see ``read_rack``): by the rack's bar (``_read_by_bar``)
    and, where no bar is found, by the rows of upright tiles the table reader reads
    (``rack_rows.read_rows``): a photo whose tiles are read is never refused for want of a
    visible bar, and "no rack found" is said only when no row of upright tiles is."""
    if isinstance(photo, np.ndarray):
        photo = DecodedPhoto(b"", photo, 1, photo.shape[1], photo.shape[0])
    try:
        return _read_by_bar(photo, preset=preset)
    except PhotoError as no_bar:
        if no_bar.code != "no_rack":
            raise
        return read_rows(photo, preset=preset)


def _read_by_bar(photo: DecodedPhoto, *, preset: Preset = PRESSMAN) -> RackReading:
    """Read a decoded rack photo by the bar under its rows.

    A phone held flat may guess its orientation wrong, and a rack photo then comes sideways
    or upside down. Sideways, most of its tiles' outlines lie across (a rack's tiles stand
    upright, their long sides up and down): the photo is read turned a quarter turn either
    way, and the reading with the most tiles on the rack is taken (turned the wrong way, the
    rack stands upside down: its tiles stand on no bar, and what is found there, if
    anything, is a part of them); the photo as it came is read only when neither finds a
    rack. Upside down, no rack is found under the tiles: the photo is read turned a half
    turn, and that reading is taken when more than half of the tiles read upside down by the
    reader's own sense of a tile's up (reading them at any turn, as a table's), or when it
    finds two tiers on their bars, none left off and no tile elsewhere (its 6s and 9s
    unsure). A rack found in part beside a tier left off is read turned too (see
    ``_read_upright``). A turned reading's outlines are given
    back in the photo as it came.
    """
    read = _found_upright(photo)
    if _lying_across(read):
        sideways = [candidate for turn in (cv2.ROTATE_90_COUNTERCLOCKWISE,
                                           cv2.ROTATE_90_CLOCKWISE)
                    if (candidate := _read_turned(photo, turn, preset)) is not None]
        if sideways:
            # the tiles of a tier left off and added (``_read_upright``) do not count for it
            return max(sideways, key=lambda candidate: (
                len(candidate[0].tiles) - candidate[1], -candidate[1],
                sum(tile.confidence for tile in candidate[0].tiles)))[0]
    try:
        reading, left_off, standing_by = _read_upright(photo, read, preset)
    except PhotoError as no_rack:
        if no_rack.code != "no_rack":
            raise
        turned = _read_turned(photo, cv2.ROTATE_180, preset)
        if turned is None:
            raise
        if _upside_down(photo):
            return turned[0]
        # whatever the reader's own sense of up says, two tiers on their bars turned round,
        # none left off and no tile elsewhere, are a two-tier rack photographed upside down
        if turned[0].rows != 2 or turned[1] or turned[0].ignored:
            raise
        return _six_and_nine_unsure(turned[0])
    if left_off or standing_by:
        # a rack's tier left out beside the tiers read (or a tile standing by the rack, left
        # off it): an upside-down photo shows one tier standing on the other's board, the
        # other turned over on no bar of its own. Which way up the photo is remains a guess,
        # so a 6 or a 9 read turned is unsure
        turned = _read_turned(photo, cv2.ROTATE_180, preset)
        if turned is not None and not turned[1] and len(turned[0].tiles) > len(reading.tiles):
            return _six_and_nine_unsure(turned[0])
    return reading


def _six_and_nine_unsure(reading: RackReading) -> RackReading:
    """The reading with every 6 and 9 unsure: which way up the photo is was guessed from
    where the rack's tiers were found, and a 6 turned round is a 9."""
    return replace(reading, tiles=tuple(
        replace(tile, low_confidence=True) if tile.tile.number in (6, 9) else tile
        for tile in reading.tiles))


def _read_turned(photo: DecodedPhoto, turn: int, preset: Preset
                 ) -> tuple[RackReading, int] | None:
    """The rack read in the photo turned by ``turn`` (a ``cv2.ROTATE_*`` code), its outlines
    put back in the photo as it came, and how many tiles left out were added to it
    (``_read_upright``); None when no rack is found so, or when what is found is not plainly
    a rack photo turned: more than half of the tiles found stand on the rack (a sets' row on
    a table, its other sets about it, is no rack photo; a rack photo is of the rack, and its
    turn is only guessed here), the tiles added not counted on it."""
    turned = _TurnedPhoto.of(photo, turn)
    try:
        reading, left_off, _ = _read_upright(turned, _found_upright(turned), preset)
    except PhotoError:
        return None
    if len(reading.tiles) - left_off <= len(reading.ignored) + left_off:
        return None
    return _turned_back(reading, turn, photo.width, photo.height), left_off


def _found_upright(photo: DecodedPhoto) -> ReadFound:
    """The tiles found and read as tiles standing on a rack (``find_and_read``)."""
    try:
        return find_and_read(photo, upright=True)
    except PhotoError as error:
        # only the plain "no tiles" refusal is said again for a rack: a photo too small to
        # find tiles in (code too_small) is answered with its size, as a table's is
        if error.code == "no_tiles":
            raise PhotoError(NO_TILES, "no_rack_tiles") from error
        raise


def _lying_across(read: ReadFound) -> bool:
    """Whether more than half of the readable tiles whose outline is elongated lie across
    the photo (their long side within TURNED_LEAN of its width): a rack photographed
    sideways (a squarish outline, a tile seen from above at a slant, tells nothing)."""
    def across(corners: np.ndarray) -> bool:
        sides = (corners[1] - corners[0], corners[2] - corners[1])
        long = max(sides, key=lambda side: float(np.linalg.norm(side)))
        return abs(float(long[1])) < np.tan(np.radians(TURNED_LEAN)) * abs(float(long[0]))

    return _most_elongated(read, across)


def _most_elongated(read: ReadFound, holds: Callable[[np.ndarray], bool]) -> bool:
    """Whether ``holds`` (of an outline's corners) for more than half of the readable tiles
    whose outline is elongated (a squarish outline's long side may lie either way)."""
    elongated = [corners for corners, tile, confidence
                 in zip(read.corners, read.found, read.confidence)
                 if confidence >= UNREADABLE and tile.short_side <= SQUARISH * tile.long_side]
    return 2 * sum(holds(corners) for corners in elongated) > len(elongated)


@dataclass(eq=False)
class _TurnedPhoto(DecodedPhoto):
    """A decoded photo turned by a quarter or a half turn (``turn``, a ``cv2.ROTATE_*``
    code), its finer decodes turned alike."""

    source: DecodedPhoto | None = None
    turn: int = cv2.ROTATE_180

    @classmethod
    def of(cls, photo: DecodedPhoto, turn: int) -> _TurnedPhoto:
        width, height = (photo.width, photo.height) if turn == cv2.ROTATE_180 \
            else (photo.height, photo.width)
        return cls(photo.data, cv2.rotate(photo.image, turn), photo.factor, width, height,
                   source=photo, turn=turn)

    def at(self, factor: int) -> np.ndarray:
        if factor == self.factor or self.source is None:
            return self.image
        if factor not in self._finer:
            self._finer[factor] = cv2.rotate(self.source.at(factor), self.turn)
        return self._finer[factor]


def _upside_down(photo: DecodedPhoto) -> bool:
    """Whether more than half of the photo's tiles whose outline is elongated (a squarish
    one's long side may lie either way) read upside down, read at any turn."""
    try:
        read = find_and_read(photo)
    except PhotoError:
        return False
    def down(corners: np.ndarray) -> bool:
        up = (corners[0] + corners[1]) / 2 - (corners[2] + corners[3]) / 2
        return float(up[1]) > abs(float(up[0]))  # y points down the photo

    return _most_elongated(read, down)


def _turned_back(reading: RackReading, turn: int, width: int, height: int) -> RackReading:
    """A reading of the photo turned by ``turn``, its outlines put back in the photo as it
    came (``width`` × ``height``)."""
    def back(outline: tuple[tuple[int, int], ...]) -> tuple[tuple[int, int], ...]:
        if turn == cv2.ROTATE_90_CLOCKWISE:  # (x, y) was turned to (height - y, x)
            return tuple((v, height - u) for u, v in outline)
        if turn == cv2.ROTATE_90_COUNTERCLOCKWISE:  # (x, y) was turned to (y, width - x)
            return tuple((width - v, u) for u, v in outline)
        return tuple((width - u, height - v) for u, v in outline)

    return replace(reading, width=width, height=height,
                   tiles=tuple(replace(tile, outline=back(tile.outline))
                               for tile in reading.tiles),
                   ignored=tuple(back(outline) for outline in reading.ignored))


def _read_upright(photo: DecodedPhoto, read: ReadFound, preset: Preset
                  ) -> tuple[RackReading, int, bool]:
    """Read a rack photo as it stands, its tiles found and read (``read``); PhotoError when
    no rack is found. Also how many tiles standing where a tier of the rack stands, left off
    it, were added (``_left_off_tier``): every tile is then unsure (the rack was not seen
    whole, and its value is not given as sure), as it is when a box read as a tile stands
    among the rack's tiles, left off them (``_box_among_tiles``), or by the rack, standing
    as its tiles stand (``_standing_by_rack``), when a box over two tiles was read in part
    (``_reoutlined``) and when a gap in a row reads as a tile, not surely (``_gap_slots``:
    one read surely there is added, itself unsure). And whether a tile stands by the rack
    (``_standing_by_rack``: the photo may be upside down, as with a tier left off)."""
    width, height = photo.width, photo.height
    # the bar is judged in the photo as taken, with a shadow across the rack divided out
    lit = photo.image if read.shade is None else read.shade.applied(photo.image)
    rack_rows, on_other_rack, unsure = _rack_rows(lit, read, scale=1 / photo.factor)
    if not rack_rows:
        raise PhotoError(NO_RACK, "no_rack")
    lit_crops = _LitCrops(photo, read)
    read, rows, partly_read = _reoutlined(photo, read, rack_rows, lit_crops,
                                          scale=1 / photo.factor)
    read, rows = _shaded_slots(photo, read, rack_rows, rows, lit_crops, scale=1 / photo.factor)
    read, rows, gap_unsure = _gap_slots(photo, read, rack_rows, rows, lit_crops,
                                        scale=1 / photo.factor)
    on_rack = {index for row in rows for index in row}
    if _mostly_off_rack(read, on_rack, on_other_rack - on_rack):
        raise PhotoError(NO_RACK, "no_rack")
    left_off = _left_off_tier(read, rack_rows, on_rack | on_other_rack, scale=1 / photo.factor)
    if left_off:
        rows = _with_left_off(read, rack_rows, rows, left_off, scale=1 / photo.factor)
        on_rack |= {index for index, _ in left_off}
    standing_by = _standing_by_rack(lit, read, rack_rows, on_rack | on_other_rack,
                                    scale=1 / photo.factor)
    doubtful = unsure or partly_read or gap_unsure or bool(left_off) or standing_by \
        or _box_among_tiles(read, rack_rows, on_rack | on_other_rack, scale=1 / photo.factor)
    poorly_read = _poorly_read(read, rows)
    tiles = tuple(replace(read.tile(index), set_index=row_number,
                          low_confidence=read.tile(index).low_confidence or doubtful
                          or poorly_read)
                  for row_number, row in enumerate(rows) for index in row)
    ignored = tuple(read.tile(index).outline for index in range(len(read.found))
                    if index not in on_rack)
    held = tuple(read.tile for read in tiles)
    return RackReading(width, height, tiles, ignored,
                       value=rack_value(held, joker_penalty=preset.joker_penalty),
                       jokers=sum(tile.is_joker for tile in held), preset=preset,
                       seen_whole=not doubtful), len(left_off), standing_by


def _poorly_read(read: ReadFound, rows: list[list[int]]) -> bool:
    """Whether the rack's tiles were read poorly as a whole: their median confidence under
    POOR_READING. Every tile is then unsure, the ones read surely too: a shaken phone's
    line blur leaves a tile's edges sharp across the blur (the Laplacian's sharpness,
    ``quality.sharpness``, passes for unblurred) while its number smears into another one,
    read at 0.91–0.92 among neighbours read at 0.2–0.85 (the real racks under 15 px of
    motion blur: B5 for B6 on rummy3-7, O5 for O6 on rummy3-18, O3 for O4 on rummy4-89).
    The real racks as taken read at a median of 0.90 or more."""
    confidence = [float(read.confidence[index]) for row in rows for index in row]
    return bool(confidence) and float(np.median(confidence)) < POOR_READING


def _readable_off_rack(read: ReadFound, placed: set[int], up: np.ndarray, *, scale: float
                       ) -> Iterator[tuple[int, np.ndarray, float, float]]:
    """Each box read as a tile (DOUBTFUL_BOX or surer) on no rack (``placed``): its index,
    its middle, its height and how upright it stands (the cosine of its up with ``up``)."""
    for i in range(len(read.found)):
        if i in placed or read.confidence[i] < DOUBTFUL_BOX:
            continue
        corners = read.corners[i] * scale
        squarish = read.found[i].short_side > SQUARISH * read.found[i].long_side
        _, own_up, own_height, _ = _tile_geometry(_turned_up(corners, squarish, up))
        yield i, corners.mean(axis=0), own_height, float(own_up @ up)


def _left_off_tier(read: ReadFound, rows: list[_Row], placed: set[int], *, scale: float
                   ) -> list[tuple[int, int]]:
    """The tiles standing where a tier of the rack stands, left off it: readable
    (DOUBTFUL_BOX or surer), as large as the rack's tiles, upright as they are, over the bar
    of the row they are measured from, and either where the other tier of a rack read as one
    row would stand — just above it (LEFT_OFF_ABOVE) or just under it (LEFT_OFF_BELOW) — or,
    on a rack of two rows, in the upper tier's band over the lower tier's bar. Each with the
    rack row it belongs to: -1 for a new row above the rack's, ``len(rows)`` for a new one
    under them. ``placed``: the tiles on this rack or on another one."""
    top, lowest = rows[0], rows[-1]
    up = -top.down
    height = float(np.median([row.tile_height for row in rows]))
    # (the row measured from, the row the tile goes to)
    places = [(lowest, len(rows) - 2), (top, -1)] if len(rows) > 1 else [(lowest, -1)]

    def over_bar(row: _Row, centre: np.ndarray) -> bool:
        along = float((centre - row.origin) @ row.right)
        reach = LEFT_OFF_PAST_END * row.tile_height
        return row.extent[0] - reach <= along <= row.extent[1] + reach

    left_off = []
    for i, centre, own_height, upright in _readable_off_rack(read, placed, up, scale=scale):
        if not (LEFT_OFF_HEIGHTS[0] <= own_height / height <= LEFT_OFF_HEIGHTS[1]
                and upright >= LEFT_OFF_UP_COS):
            continue
        for row, row_number in places:
            above = -float((centre - row.origin) @ row.down) / row.tile_height
            if LEFT_OFF_ABOVE[0] <= above <= LEFT_OFF_ABOVE[1] and over_bar(row, centre):
                left_off.append((i, row_number))
                break
        else:
            under = float((centre - lowest.origin) @ lowest.down) / lowest.tile_height
            if LEFT_OFF_BELOW[0] <= under <= LEFT_OFF_BELOW[1] and over_bar(lowest, centre):
                left_off.append((i, len(rows)))
    return left_off


def _standing_by_rack(image: np.ndarray, read: ReadFound, rows: list[_Row], placed: set[int],
                      *, scale: float) -> bool:
    """Whether a tile standing where the rack stands was left off it: a box read as a tile
    (DOUBTFUL_BOX or surer), on no rack (``placed``), of about the rack's tiles' size
    (BY_RACK_HEIGHTS of their height), standing as they stand (within 40° of the rack's up),
    its middle over the rack (the reach of its rows' bars, which runs a little past the
    rack's ends, or where the lowest row's ledge runs on to: ``_ledge_runs_to``) and between
    the bands the rack's tiers stand in (from LEFT_OFF_BELOW's far end under the lowest row's
    line to LEFT_OFF_ABOVE's far end over the top row's). Under the lowest row's line, where
    a tile lying on the table in front of the rack is seen too, only a tile read surely
    (LOW_CONFIDENCE) counts: a lying 11 read K11 at 0.56 in front of a render's grey rack,
    whose bar's colour ran on over the grey table far past the rack's end.

    Such a tile is not added (``_left_off_tier`` adds those that stand plainly where a tier
    stands): its outline may be poor (a far tier's tile outlined small, turned from its
    neighbours; a tile shortened at the photo's slanted end; one between the tiers, its feet
    off either row's line), so which row it stands on, if any, is not known. But the rack
    read without it may not be the whole rack, so its value is not shown as sure."""
    top, lowest = rows[0], rows[-1]
    up = -lowest.down
    height = float(np.median([row.tile_height for row in rows]))
    reach = [row.extent[k] + float((row.origin - lowest.origin) @ lowest.right)
             for row in rows for k in (0, 1)]
    for i, centre, own_height, upright in _readable_off_rack(read, placed, up, scale=scale):
        if not (BY_RACK_HEIGHTS[0] <= own_height / height <= BY_RACK_HEIGHTS[1]
                and upright > STANDING_COS):
            continue
        under = float((centre - lowest.origin) @ lowest.down) / lowest.tile_height
        above = -float((centre - top.origin) @ top.down) / top.tile_height
        if under > LEFT_OFF_BELOW[1] or above > LEFT_OFF_ABOVE[1] \
                or (under > 0 and read.confidence[i] < LOW_CONFIDENCE):
            continue
        along = float((centre - lowest.origin) @ lowest.right)
        if min(reach) <= along <= max(reach) \
                or _ledge_runs_to(image, read, lowest, along, scale=scale):
            return True
    return False


def _ledge_runs_to(image: np.ndarray, read: ReadFound, row: _Row, to: float, *, scale: float
                   ) -> bool:
    """Whether the ledge under ``row`` runs on unbroken from beside its nearest end tile to
    ``to`` (along the row), in ``image``'s pixels.

    The bar's extent is where its colour was seen to run; under a row of one tile the edge
    taken for the bar may be that tile's own bottom, its extent the tile's width (rummy3-14
    close up, rummy3-18 seen from the left), while the rack's ledge runs on under the rest of
    the rack. The band just under the row's line (LEDGE_BAND tile heights down) is sampled
    there: no colour step crosses it (the rack's end against the table, a tile lying there),
    only a lamp's smooth changes, as the board behind a tier is judged (``_board_runs_under``).
    """
    width = float(np.median([np.linalg.norm(read.corners[i][1] - read.corners[i][0])
                             for i in row.indexes])) * scale
    ends = [float((read.corners[i].mean(axis=0) * scale - row.origin) @ row.right)
            for i in row.indexes]
    start = max(ends) + 0.6 * width if to > max(ends) else min(ends) - 0.6 * width
    if (to - start) * (to - (max(ends) if to > max(ends) else min(ends))) <= 0:
        return False
    depths = np.linspace(LEDGE_BAND[0], LEDGE_BAND[1], 6) * row.tile_height
    return _band_unbroken(image, row, start, to, depths, width)


def _band_unbroken(image: np.ndarray, row: _Row, start: float, stop: float,
                   depths: np.ndarray, width: float) -> bool:
    """Whether a band along ``row`` (from ``start`` to ``stop`` along it, at ``depths`` down
    from its line; tiles ``width`` wide) lies in the photo with no colour step across it: no
    two places BOARD_STEP_OVER tile widths apart differ by BOARD_STEP or more in CIELab (a
    rack's end against the table or a tile lying there would; a lamp's glare brightens the
    board smoothly)."""
    column_step = max(1.0, width / 10)
    columns = np.arange(start, stop, np.sign(stop - start) * column_step, dtype=np.float64)
    points = (row.origin[None, None, :] + columns[None, :, None] * row.right
              + depths[:, None, None] * row.down)
    image_height, image_width = image.shape[:2]
    if (points < 0).any() or (points[..., 0] > image_width - 1).any() \
            or (points[..., 1] > image_height - 1).any():
        return False
    band = cv2.remap(image, points[..., 0].astype(np.float32), points[..., 1].astype(np.float32),
                     cv2.INTER_LINEAR)
    colours = np.median(cv2.cvtColor(band.astype(np.float32) / 255, cv2.COLOR_BGR2Lab), axis=0)
    apart = max(1, round(BOARD_STEP_OVER * width / column_step))
    if len(colours) <= apart:
        return False
    steps = np.linalg.norm((colours[apart:] - colours[:-apart]) * BAR_EVEN_WEIGHTS, axis=1)
    return bool(steps.max() < BOARD_STEP)


def _box_among_tiles(read: ReadFound, rows: list[_Row], placed: set[int], *, scale: float
                     ) -> bool:
    """Whether a box read at DOUBTFUL_BOX or surer stands in a rack row's band, over its
    bar, and is on no rack (``placed``): something there was not read as one of the rack's
    tiles (a box over two tiles of which one was read again and the other not, a tile a
    shadow hid read unsure), so the tiles read may not be all of them."""
    return any(read.confidence[i] >= DOUBTFUL_BOX
               and any(_in_band(row, read.corners[i].mean(axis=0) * scale) for row in rows)
               for i in range(len(read.found)) if i not in placed)


def _with_left_off(read: ReadFound, rack_rows: list[_Row], rows: list[list[int]],
                   left_off: list[tuple[int, int]], *, scale: float) -> list[list[int]]:
    """The rack's rows (tile indexes) with the tiles left off them (``_left_off_tier``) put
    in the row each belongs to, a new row above or under them as needed, each row left to
    right."""
    above = [index for index, row in left_off if row < 0]
    under = [index for index, row in left_off if row == len(rows)]
    rows = [list(row) + [index for index, number in left_off if number == row_number]
            for row_number, row in enumerate(rows)]
    rows = ([above] if above else []) + rows + ([under] if under else [])
    right = rack_rows[0].right
    return [sorted(row, key=lambda i: float(read.corners[i].mean(axis=0) * scale @ right))
            for row in rows]


def _mostly_off_rack(read: ReadFound, on_rack: set[int], on_other_rack: set[int]) -> bool:
    """Whether far more tiles of the rack's tiles' size lie off the rack than stand on it.

    A rack photo is taken of the rack, its tiles large in the frame: a few tiles may lie
    around it (on the table, in the pool) or further off and smaller, but when most tiles as
    large as the rack's are elsewhere, the photo is of the table (a set's row taken for a
    rack), or the reader missed most of the rack's tiles; a value read either way is wrong,
    so the player is asked for a photo of the rack instead. The tiles standing on another
    rack further off (``on_other_rack``) are not counted: they are where they belong.
    """
    size = float(np.median([read.found[i].long_side for i in on_rack]))
    off = sum(1 for i, tile in enumerate(read.found)
              if i not in on_rack and i not in on_other_rack
              and tile.long_side >= LIKE_SIZED * size)
    return off > max(OFF_RACK_SHARE * len(on_rack), FEW_AROUND)


@dataclass(frozen=True, eq=False)
class _Row:
    """Tiles standing with their bottoms on one line, and the bar found under them."""

    indexes: list[int]  # left to right
    origin: np.ndarray  # a point on the bottom line
    right: np.ndarray  # unit vector along the line
    down: np.ndarray  # unit vector from the tiles down into the bar
    tile_height: float
    extent: tuple[float, float]  # where the bar runs, along ``right`` from ``origin``
    ledge_seen: bool = True  # False: found on the lower tier's edge, its own ledge not seen
    tile_width: float = 0.0  # the tiles' median width (kept for a row whose bar was not seen)
    # found on the lower tier's edge: the tiles standing on that tier, in front of its board
    lower_tier: tuple[int, ...] = ()


def find_rack_rows(image: np.ndarray, read: ReadFound, *, scale: float = 1.0
                   ) -> list[list[int]]:
    """The rack's rows (top first) as lists of tile indexes, left to right; [] if no rack.

    ``image`` may be the photo at a reduced size: ``scale`` turns the outlines' photo pixels
    into its pixels.
    """
    return [row.indexes for row in _rack_rows(image, read, scale=scale)[0]]


def _rack_rows(image: np.ndarray, read: ReadFound, *, scale: float
               ) -> tuple[list[_Row], set[int], bool]:
    """The rack's rows (top first), in ``image``'s pixels, [] if no rack; the tiles standing
    on another rack further off, passed over for a nearer one; and whether another row may
    be the player's rack instead (the rack's tiles are then all read as unsure)."""
    # a box the reader cannot read as any tile is a blank stretch of the rack's board or a
    # shadow, not a tile standing on it
    readable = [i for i in range(len(read.found)) if read.confidence[i] >= UNREADABLE]
    rack_up = _rack_up(read, readable)
    geometry = [_tile_geometry(_turned_up(corners, tile.short_side > SQUARISH * tile.long_side,
                                          rack_up) * scale)
                for corners, tile in zip(read.corners, read.found)]
    standing = [i for i in readable if float(geometry[i][1] @ rack_up) > STANDING_COS]
    # where a tile stands (a box read as no tile is board: its ledge shows under it)
    outlines = {i: np.round(read.corners[i] * scale).astype(np.int32) for i in readable}
    covered = _mask_of(image.shape, outlines.values())
    groups = _rows_of(standing, geometry, rack_up)
    on_bars = [row for group in groups
               for row in _rows_on_bars(image, covered, outlines, group, geometry)]
    # a row whose ledge was not seen is a rack only when it and its rack's other tier are
    # every standing tile the photo shows (the tiles standing on the lower tier whose edge it
    # was found on, or a row on a bar of its own that is that tier; a tile lying turned on the
    # table about it does not count): a row of sets on a table may show the table's edge as
    # far under it (rummy-14)
    rows = [row for row in on_bars
            if row.ledge_seen or set(standing) <= set(row.indexes) | set(row.lower_tier).union(
                *(other.indexes for other in on_bars
                  if other.ledge_seen and _other_tier(row, other)))]
    if not rows:
        return [], set(), False
    # the rack is the row with the most tiles among the rows of the largest tiles (a row of
    # as large tiles further off, or a stray tile standing near, is not it); a row of one box
    # read as likely not one tile (a box over two tiles, or over a stretch of board, often
    # far taller than the tiles about it) does not set the size, unless it is all there is;
    # nor does a box alone in the band of a row of tiles on a bar (a tile of that row the
    # detector outlined too large, its bottom off the row's line: glare on a glossy tile)
    centres = [corners.mean(axis=0) * scale for corners in read.corners]
    sizing = [row for row in rows
              if len(row.indexes) > 1 or (read.confidence[row.indexes[0]] >= DOUBTFUL_BOX
                                          and not any(len(other.indexes) > 1
                                                      and _in_band(other, centres[row.indexes[0]])
                                                      for other in rows))] \
        or rows
    tallest = max(row.tile_height for row in sizing)
    first = max((row for row in sizing if row.tile_height >= RACK_ROW_HEIGHT * tallest),
                key=lambda row: (len(row.indexes), row.tile_height))
    rack = _with_tier(image, first, rows, groups, geometry)
    # another player's rack lies further off than the player's own, higher in the photo: a
    # rack on its bar further down, apart from this one, with tiles as large, is nearer and
    # is the player's (each step goes down the photo, so this ends)
    passed_over: set[int] = set()
    while nearer := [row for row in rows if _nearer_rack(rack[-1], row)]:
        passed_over |= {index for row in rack for index in row.indexes}
        first = max(nearer, key=lambda row: (len(row.indexes), row.tile_height))
        rack = _with_tier(image, first, rows, groups, geometry)
    # a row of tiles standing further down, looking as tall or taller, whose bar was not seen
    # (a black ledge on a black board), may be the player's rack, or its other tier: the
    # choice is then unsure
    on_rack = {index for row in rack for index in row.indexes}
    unsure = any(_maybe_nearer(rack[-1], _unbarred(group, geometry))
                 for group in groups if len(group) >= UNBARRED_NEARER_TILES
                 and on_rack.isdisjoint(group))
    return rack, passed_over - on_rack, unsure


def _rows_on_bars(image: np.ndarray, covered: np.ndarray, outlines: dict[int, np.ndarray],
                  group: list[int], geometry: list[tuple[np.ndarray, np.ndarray, float, float]]
                  ) -> list[_Row]:
    """The row on its bar (``_row_on_bar``); when no bar is found under it and a tile stands
    alone at an end of it, more than SPLIT_GAP tile widths from the next, the row without it.

    Tiles are grouped by their bottoms' line alone, however far apart: a tile lying on the
    table off the rack's end, its bottom (taken upright) in line with the rack's tiles', joins
    their row, and the columns beside it, over the table, show no ledge, so no bar was found
    under the row. A rack's wide gap changes nothing (its row is found whole first), nor does
    a row with no bar under it at all (no part of it is taken for a rack on its own, and the
    row stays whole for a tier whose ledge does not show).
    """
    row = _row_on_bar(image, covered, outlines, group, geometry)
    if row is not None:
        return [row]
    ordered, _, _, _, _, tile_width, along = _row_line(group, geometry)
    steps = np.diff(along)
    if len(ordered) < 3 or not (steps[0] > SPLIT_GAP * tile_width
                                or steps[-1] > SPLIT_GAP * tile_width):
        return []
    inner = ordered[int(steps[0] > SPLIT_GAP * tile_width):
                    len(ordered) - int(steps[-1] > SPLIT_GAP * tile_width)]
    row = _row_on_bar(image, covered, outlines, inner, geometry)
    return [] if row is None else [row]


def _with_tier(image: np.ndarray, first: _Row, rows: list[_Row], groups: list[list[int]],
               geometry: list[tuple[np.ndarray, np.ndarray, float, float]]) -> list[_Row]:
    """The rack's row and its other tier, if it has one (top first)."""
    # a second row of like tiles stacked just above or below it, overlapping it along the
    # rack, is its other tier
    tiers = [other for other in rows if other is not first and _other_tier(first, other)]
    if not tiers:
        # a tier's own ledge may not show (the upper one behind the lower tier's tiles, either
        # against a board of its colour): a row of like tiles standing just above or below
        # the rack's row, over the rack, is taken without it
        on_bar = {index for row in rows for index in row.indexes}
        tiers = [other for group in groups if on_bar.isdisjoint(group)
                 if (other := _hidden_tier(image, first, group, geometry)) is not None]
    rack = [first]
    if tiers:
        rack.append(min(tiers, key=lambda other: abs(_apart(first, other))))
    rack = _with_lower_tier(rack, geometry)
    rack.sort(key=lambda row: float(row.origin @ first.down))
    return rack


def _with_lower_tier(rack: list[_Row], geometry: list[tuple[np.ndarray, np.ndarray, float,
                                                              float]]) -> list[_Row]:
    """The rack's rows with every tile standing on the lower tier of an upper tier found on
    that tier's edge (``_Row.lower_tier``) on the lower tier's row: a tile there whose
    outline is cut short or runs long stands apart from its neighbours' row, on no bar of
    its own, yet it stands in front of the rack's board."""
    upper = next((row for row in rack if not row.ledge_seen and row.lower_tier), None)
    if upper is None:
        return rack
    lower = next((row for row in rack if row is not upper), None)
    loose = [i for i in upper.lower_tier if lower is None or i not in lower.indexes]
    if not loose:
        return rack
    if lower is None:
        return [upper, _unbarred(loose, geometry)]
    indexes = sorted(lower.indexes + loose,
                     key=lambda i: float((geometry[i][0] - lower.origin) @ lower.right))
    return [upper, replace(lower, indexes=indexes)]


def _maybe_nearer(lowest: _Row, other: _Row) -> bool:
    """Whether ``other``, a row whose bar was not seen, stands below the rack whose lowest
    row is ``lowest`` (by more than a row's own spread), its tiles looking as tall or taller:
    nearer the camera, it may be the player's rack."""
    return (other.tile_height >= lowest.tile_height
            and _apart(lowest, other) > TIER_APART[0])


def _nearer_rack(lowest: _Row, other: _Row) -> bool:
    """Whether ``other`` is a rack nearer the camera than the one whose lowest row is
    ``lowest``: on a bar of its own, further down than a tier stands (in either row's tile
    heights), its tiles looking at least NEARER_AT_LEAST as tall."""
    apart = _apart(lowest, other)
    return (other.ledge_seen
            and other.tile_height >= NEARER_AT_LEAST * lowest.tile_height
            and apart > TIER_APART[1]
            and apart * lowest.tile_height / other.tile_height > TIER_APART[1])


def _in_band(row: _Row, centre: np.ndarray) -> bool:
    """Whether a box's centre lies in the row's band: within REOUTLINE_BAND tile heights of
    its tiles' mid-height, where its bar runs."""
    along = float((centre - row.origin) @ row.right)
    middle = float((centre - row.origin) @ row.down) / row.tile_height
    return abs(middle + 0.5) <= REOUTLINE_BAND and row.extent[0] <= along <= row.extent[1]


def _reoutlined(photo: DecodedPhoto, read: ReadFound, rows: list[_Row], lit_crops: _LitCrops,
                *, scale: float) -> tuple[ReadFound, list[list[int]], bool]:
    """The reading with the tiles of each rack row's band outlined again as the row's tiles
    stand, where the outline the detector gave was read unsure or left the tile off the row.

    Seen from above at a slant or at a row's end, a tile may be outlined askew (a box turned
    half round) or shifted onto its neighbour, and read wrong or not at all. A box of the row's
    tile height and width, its bottom on the row's line, is read instead (and a little shifted
    either way along the row); the new reading is kept when it is sure (LOW_CONFIDENCE), surer
    than the old one, not "no tile" (networks.NO_TILE), a joker only when the reader knows
    "no tile" and reads it a joker and a tile at once surely (P(joker) × P(tile); a reader
    without that output reads a blank stretch of board as a joker), and the box
    stands clear of the row's other tiles. Returns the reading, the rows' tile indexes, and
    whether a wide box was read in part: a piece of it taken, another read as a tile (at
    DOUBTFUL_BOX or surer, "no tile" SLOT_NO_TILE or less) clear of the tiles taken, not
    taken.
    """
    indexes = [list(row.indexes) for row in rows]
    on_rack = {i for row in indexes for i in row}
    centres = np.array([c.mean(axis=0) for c in read.corners]) * scale
    # (row, tile, piece of its box, along, corners)
    slots: list[tuple[int, int, int, float, np.ndarray]] = []
    for number, row in enumerate(rows):
        width = float(np.median([np.linalg.norm(read.corners[i][1] - read.corners[i][0])
                                 for i in row.indexes])) * scale
        along_of = {i: float((centres[i] - row.origin) @ row.right) for i in row.indexes}
        for i in range(len(read.found)):
            if i in on_rack and (i not in row.indexes or read.confidence[i] >= LOW_CONFIDENCE):
                continue
            if not _in_band(row, centres[i]):
                continue
            # a box as wide as two tiles or more, off the rack, is also outlined again as
            # that many tiles side by side (glare on glossy tiles runs their outlines
            # together), its middle tried as well (a box running wide about one tile)
            reach = (read.corners[i] * scale - row.origin) @ row.right
            pieces = 0 if i in on_rack else round(float(np.ptp(reach)) / width)
            middles = [float((centres[i] - row.origin) @ row.right)]
            if pieces > 1:
                middles += [float(reach.min()) + (piece + 0.5) * float(np.ptp(reach)) / pieces
                            for piece in range(pieces)]
            for piece, along in enumerate(middles):
                for shift in REOUTLINE_SHIFTS:
                    at = along + shift * width
                    if any(abs(at - a) < REOUTLINE_APART * width
                           for j, a in along_of.items() if j != i):
                        continue
                    slots.append((number, i, piece, at, _slot(row, at, width) / scale))
    if not slots:
        return read, indexes, False
    narrow = float(np.median([np.linalg.norm(c[1] - c[0]) for *_, c in slots]))
    crop_factor = crop_factor_for(photo.factor, narrow)
    source = lit_crops.decode(crop_factor)
    # a slot's reading matters only at LOW_CONFIDENCE or more (taken), but a wide box's other
    # pieces' (piece > 0) also at DOUBTFUL_BOX (partly read): a crop of the first kind that
    # cannot get there is not read turned round (networks.read_crops)
    least = np.array([0.0 if piece else LOW_CONFIDENCE for _, _, piece, _, _ in slots],
                     np.float32)
    probabilities, _, no_tile = read_crops(np.stack([crop_tile(source, c / crop_factor)
                                                     for *_, c in slots]), least=least)
    found, corners = list(read.found), list(read.corners)
    best, confidence, ranking = list(read.best), list(read.confidence), list(read.ranking)
    placed: dict[tuple[int, int], tuple[int, float, int]] = {}  # (tile, piece): (row, at, index)
    for number in np.argsort(-probabilities.max(axis=1)):
        row_number, i, piece, at, box = slots[number]
        sure = float(probabilities[number].max())
        if (i, piece) in placed or sure < LOW_CONFIDENCE or sure <= read.confidence[i] \
                or no_tile[number] >= NO_TILE \
                or not joker_may_stand(probabilities[number], float(no_tile[number]),
                                       LOW_CONFIDENCE) \
                or any(r == row_number and abs(at - a) < REOUTLINE_APART * narrow * scale
                       for r, a, _ in placed.values()):
            continue
        # a wide box's first piece taken keeps its index, the others are tiles found anew
        index = i if not any(j == i for j, _ in placed) else len(found)
        if index == len(found):
            found.append(found[i])
            corners.append(corners[i])
            best.append(0)
            confidence.append(0.0)
            ranking.append(ranking[i])
        placed[i, piece] = (row_number, at, index)
        (cx, cy), size, angle = cv2.minAreaRect(box.astype(np.float32))
        found[index] = FoundTile((cx, cy), size, angle, found[i].score)
        corners[index] = box.astype(np.float32)
        best[index] = int(probabilities[number].argmax())
        confidence[index] = sure
        ranking[index] = np.argsort(-probabilities[number])
    # a wide box of which a piece was taken and another, read as a tile, was not: the tiles
    # its glare ran together were not all read (K4 taken, K6 beside it read at 0.86)
    partly_read = any(
        (i, piece) not in placed and piece > 0 and any(j == i for j, _ in placed)
        and float(probabilities[number].max()) >= DOUBTFUL_BOX
        and no_tile[number] <= SLOT_NO_TILE
        and not any(r == row_number and abs(at - a) < REOUTLINE_APART * narrow * scale
                    for r, a, _ in placed.values())
        for number, (row_number, i, piece, at, _) in enumerate(slots))
    for row_number, _, index in placed.values():
        if index not in indexes[row_number]:
            indexes[row_number].append(index)
    centres = np.array([c.mean(axis=0) for c in corners]) * scale
    for number, row in enumerate(rows):
        indexes[number].sort(key=lambda i: float((centres[i] - row.origin) @ row.right))
    return ReadFound(found, corners, np.array(best), np.array(confidence), np.array(ranking),
                     read.gain, read.light, read.shade), indexes, partly_read


def _slot(row: _Row, at: float, width: float) -> np.ndarray:
    """The corners (top left first, clockwise) of a box ``width`` wide and a tile tall
    standing on ``row``'s line at ``at`` along it."""
    bottom = row.origin + at * row.right
    half, up = row.right * width / 2, -row.down * row.tile_height
    return np.array([bottom - half + up, bottom + half + up, bottom + half, bottom - half])


def _tiles_source(photo: DecodedPhoto, read: ReadFound, tiles: list[int], lit_crops: _LitCrops
                  ) -> tuple[int, np.ndarray]:
    """The decode to cut crops of tiles as wide as ``tiles`` from (its factor, and itself lit
    as the tiles were read)."""
    crop_factor = crop_factor_for(photo.factor, float(np.median(
        [np.linalg.norm(read.corners[i][1] - read.corners[i][0]) for i in tiles])))
    return crop_factor, lit_crops.decode(crop_factor)


class _LitCrops:
    """A rack photo's decodes lit as its tiles were read (``ReadFound.prepared``) and the
    crops of its tiles cut from them, each made once a read: ``_reoutlined``,
    ``_shaded_slots`` and ``_gap_slots`` cut from the same decodes (the readings they pass
    on keep the first one's gain and light), and the last two the same sure tiles' crops
    (bit for bit, the same corners cut from the same decode)."""

    def __init__(self, photo: DecodedPhoto, read: ReadFound) -> None:
        self._photo, self._read = photo, read
        self._decodes: dict[int, np.ndarray] = {}
        self._crops: dict[tuple[int, str, bytes], np.ndarray] = {}

    def decode(self, factor: int) -> np.ndarray:
        """The photo decoded at 1/``factor`` of its size, lit as its tiles were read."""
        if factor not in self._decodes:
            self._decodes[factor] = self._read.prepared(self._photo.at(factor))
        return self._decodes[factor]

    def tile(self, corners: np.ndarray, factor: int) -> np.ndarray:
        """The crop along ``corners`` (photo pixels) cut from ``decode(factor)``."""
        key = (factor, corners.dtype.str, corners.tobytes())
        if key not in self._crops:
            self._crops[key] = crop_tile(self.decode(factor), corners / factor)
        return self._crops[key]


def _row_spacing(read: ReadFound, row: _Row, members: list[int], centres: list[np.ndarray],
                 *, scale: float) -> tuple[float, list[float], float]:
    """A rack row's tile width, its tiles' places along it (sorted) and its pitch: the median
    step between neighbours standing a tile apart (SLOT_PITCH of a width), else a little
    over a tile's width."""
    width = float(np.median([np.linalg.norm(read.corners[i][1] - read.corners[i][0])
                             for i in members])) * scale
    along = sorted(float((centres[i] - row.origin) @ row.right) for i in members)
    steps = [b - a for a, b in pairwise(along)
             if SLOT_PITCH[0] * width <= b - a <= SLOT_PITCH[1] * width]
    return width, along, float(np.median(steps)) if steps else width * 1.02


def _shaded_slots(photo: DecodedPhoto, read: ReadFound, rows: list[_Row],
                  indexes: list[list[int]], lit_crops: _LitCrops, *, scale: float
                  ) -> tuple[ReadFound, list[list[int]]]:
    """The reading with the tiles a shadow across the rack hid from the detector added.

    A hard shadow line across a rack leaves the tiles in its shade too dark for the detector
    (a row found on its bar in the light, its other half missing). Along each rack row, out
    from its tiles and across gaps of two tiles or more, a box of the row's tile size is laid
    a tile's pitch on, slot by slot; a slot lying in the shade (its face, as light.py measures
    one, under IN_SHADOW of the row's sure tiles' faces, and the ledge's top under it under
    IN_SHADOW of its level under them: a gap's dark board is dark by its colour, its ledge
    lit) is read brightened to their level (``_lifted``), a little shifted either way along
    the row and a little narrower (the lit tiles' boxes may run wide), and taken as
    ``_reoutlined`` takes a box (sure, not "no tile" — here SLOT_NO_TILE —, no joker unless
    read one surely with the "no tile" output; a 6 or a 9 taken unsure). A slot in the light
    ends the walk (a tile there would have been found), and so do SLOT_MISSES slots in a row
    not taken. A box
    found there, off the rack and read unsure (a tile the line crosses, outlined down to the
    line only), is replaced by the slot taken; any other box keeps its place.
    """
    rows_of = [list(row) for row in indexes]
    found, corners = list(read.found), list(read.corners)
    best, confidence, ranking = list(read.best), list(read.confidence), list(read.ranking)
    centres = [c.mean(axis=0) * scale for c in corners]
    on_rack = [i for members in rows_of for i in members]
    if not on_rack:
        return read, rows_of
    crop_factor, source = _tiles_source(photo, read, on_rack, lit_crops)
    rack_tiles = set(on_rack)
    for number, row in enumerate(rows):
        members = rows_of[number]
        if not members:
            continue
        width, along, pitch = _row_spacing(read, row, members, centres, scale=scale)
        sure = [i for i in members if confidence[i] >= LOW_CONFIDENCE]
        if not sure:
            continue
        sure_crops = np.stack([lit_crops.tile(corners[i], crop_factor) for i in sure])
        lit = lit_faces(face_brightness(sure_crops))
        face_colour: np.ndarray | None = None  # measured when a slot is first read
        ledge = partial(_ledge_level, source, row, width=width, scale=scale / crop_factor)
        lit_ledge: float | None = None  # measured when a slot is first in a dim face's shade
        # walks: outward from each end, and across each gap of two pitches or more
        walks: list[tuple[float, float, float | None]] = [(along[0], -1.0, None),
                                                          (along[-1], 1.0, None)]
        walks += [(a, 1.0, b) for a, b in pairwise(along) if b - a >= 1.75 * pitch]
        for start, direction, until in walks:
            anchor, misses = start, 0
            while misses < SLOT_MISSES:
                at = anchor + direction * pitch
                if until is not None and at > until - REOUTLINE_APART * width:
                    break
                in_band = [i for i in range(len(found))
                           if abs(float((centres[i] - row.origin) @ row.down)
                                  / row.tile_height + 0.5) <= REOUTLINE_BAND]
                # a box off the rack read unsure (a tile the line crosses, outlined down to
                # the line only) may be outlined again; any other box stands there
                replaceable = [i for i in in_band if i not in rack_tiles
                               and confidence[i] < LOW_CONFIDENCE]
                taken_along = [float((centres[i] - row.origin) @ row.right)
                               for i in in_band if i not in replaceable]
                boxes = []
                for shift, narrowed in [(s, n) for s in SLOT_SHIFTS for n in SLOT_WIDTHS]:
                    middle = at + shift * width
                    if any(abs(middle - a) < REOUTLINE_APART * width for a in taken_along):
                        continue
                    box = _slot(row, middle, narrowed * width) / scale
                    if np.all((box >= 0) & (box <= (photo.width - 1, photo.height - 1))):
                        boxes.append((middle, box.astype(np.float32)))
                if not boxes:
                    misses += 1
                    anchor = at
                    continue
                # in the shade: the face darker than the lit faces, and the ledge under it
                # darker than under the lit tiles (a gap's dark board is dark by its colour)
                first_crop = crop_tile(source, boxes[0][1] / crop_factor)
                face = float(face_brightness(first_crop[None])[0])
                if face >= IN_SHADOW * lit:
                    break
                if not row.ledge_seen and face < SLOT_DARKEST * lit:
                    misses += 1
                    anchor = at
                    continue
                if lit_ledge is None:
                    lit_ledge = float(np.percentile(
                        [ledge(float((centres[i] - row.origin) @ row.right)) for i in sure], 80))
                if ledge(at) >= IN_SHADOW * lit_ledge:
                    break
                if face_colour is None:
                    face_colour = np.median(_face_colours(sure_crops), axis=0)
                crops = np.stack([first_crop] + [crop_tile(source, box / crop_factor)
                                                 for _, box in boxes[1:]])
                lifted = _lifted(crops, lit)
                # a tile's face lifted is the lit faces' cream; a board lifted keeps its colour
                face_like = np.linalg.norm(_face_colours(lifted) - face_colour,
                                           axis=1) < FACE_CHROMA
                if not face_like.any():
                    misses += 1
                    anchor = at
                    continue
                # only a face-like slot may be taken, and only when read at LOW_CONFIDENCE or
                # more: the others are not read, and a crop that cannot get there is not read
                # turned round (networks.read_crops)
                read_there, _, no_tile_there = read_crops(lifted[face_like],
                                                          least=LOW_CONFIDENCE)
                probabilities = np.zeros((len(lifted), read_there.shape[1]), np.float32)
                probabilities[face_like] = read_there
                no_tile = np.ones(len(lifted), np.float32)
                no_tile[face_like] = no_tile_there
                chosen = None
                for k in np.argsort(-probabilities.max(axis=1)):
                    surely = float(probabilities[k].max())
                    if surely >= LOW_CONFIDENCE and no_tile[k] <= SLOT_NO_TILE \
                            and face_like[k] \
                            and joker_may_stand(probabilities[k], float(no_tile[k]),
                                                LOW_CONFIDENCE):
                        chosen = int(k)
                        break
                if chosen is None:
                    misses += 1
                    anchor = at
                    continue
                middle, outline = boxes[chosen]
                replaced = [i for i in replaceable
                            if abs(float((centres[i] - row.origin) @ row.right) - middle)
                            < REOUTLINE_APART * width]
                (cx, cy), (long, short), angle = cv2.minAreaRect(outline)
                tile = FoundTile((cx, cy), (long, short), angle,
                                 found[replaced[0]].score if replaced else 0.0)
                surely = float(probabilities[chosen].max())
                # a 6 or a 9 in the shade is told apart by the faint print under the number,
                # lost there: read unsure, as the pipeline reads one (_turned_numbers_doubted)
                if int(probabilities[chosen].argmax()) in SIX_OR_NINE:
                    surely = min(surely, DOUBTED)
                index = replaced[0] if replaced else len(found)
                if not replaced:
                    found.append(tile)
                    corners.append(outline)
                    best.append(0)
                    confidence.append(0.0)
                    ranking.append(ranking[0])
                    centres.append(outline.mean(axis=0) * scale)
                found[index], corners[index] = tile, outline
                best[index], confidence[index] = int(probabilities[chosen].argmax()), surely
                ranking[index] = np.argsort(-probabilities[chosen])
                centres[index] = outline.mean(axis=0) * scale
                rack_tiles.add(index)
                members.append(index)
                anchor, misses = middle, 0
        members.sort(key=lambda i: float((centres[i] - row.origin) @ row.right))
    if rack_tiles == set(on_rack):
        return read, rows_of
    return ReadFound(found, corners, np.array(best), np.array(confidence), np.array(ranking),
                     read.gain, read.light, read.shade), rows_of


def _gap_slots(photo: DecodedPhoto, read: ReadFound, rows: list[_Row],
               indexes: list[list[int]], lit_crops: _LitCrops, *, scale: float
               ) -> tuple[ReadFound, list[list[int]], bool]:
    """The reading with the tiles the detector did not outline in a rack row's gaps added.

    A tile standing in a row of touching tiles may get no box at all (out of focus, rummy4-89's
    K5 between K3 and K6): the row then shows a gap a tile wide where a tile's face shows.
    Wherever the row has room for a tile — between neighbours GAP_ROOM pitches apart or more
    (a slot every pitch), and past its end tiles over its bar — a box of the row's tile size
    is cut (GAP_SHIFTS along the row), and read when its face is the cream of the row's sure
    tiles (FACE_CHROMA: a black rack's bare board is not read at all). One read as a tile
    surely (LOW_CONFIDENCE), "no tile" SLOT_NO_TILE or less and no joker unless read one
    surely with the "no tile" output, is added to the row, held at DOUBTED: found by reading
    a bare slot, it is shown for the player to confirm. One read as a tile less surely
    (DOUBTFUL_BOX or more, "no tile" SLOT_NO_TILE or less), as the same tile at every shift,
    is not added, but the rack may not have been read whole (the third value returned).
    (Bare board in a render's gaps read as a joker or a K13 at 0.6–0.7, "no tile" at
    0.56–0.74; a slot over a gap narrower than a tile, half on each neighbour, as K1, B10 and
    B13 at its three shifts.)"""
    centres = [c.mean(axis=0) * scale for c in read.corners]
    on_rack = [i for members in indexes for i in members]
    sure = [i for i in on_rack if read.confidence[i] >= LOW_CONFIDENCE]
    if not sure:
        return read, indexes, False
    slots: list[tuple[int, int, np.ndarray]] = []  # (row, which gap, corners)
    gaps: list[float] = []  # each gap's middle along its row
    for number, row in enumerate(rows):
        members = indexes[number]
        if not members:
            continue
        width, along, pitch = _row_spacing(read, row, members, centres, scale=scale)
        middles = []
        for a, b in pairwise(along):
            count = round((b - a) / pitch) - 1 if b - a >= GAP_ROOM * pitch else 0
            middles += [a + (b - a) * k / (count + 1) for k in range(1, count + 1)]
        for end, direction in ((along[0], -1.0), (along[-1], 1.0)):
            at = end + direction * pitch
            while row.extent[0] <= at - width / 2 and at + width / 2 <= row.extent[1]:
                middles.append(at)
                at += direction * pitch
        for middle in middles:
            gaps.append(middle)
            for shift in GAP_SHIFTS:
                box = _slot(row, middle + shift * width, width) / scale
                if np.all((box >= 0) & (box <= (photo.width - 1, photo.height - 1))):
                    slots.append((number, len(gaps) - 1, box.astype(np.float32)))
    if not slots:
        return read, indexes, False
    crop_factor, source = _tiles_source(photo, read, on_rack, lit_crops)
    crops = np.stack([crop_tile(source, box / crop_factor) for _, _, box in slots])
    face_colour = np.median(_face_colours(np.stack(
        [lit_crops.tile(read.corners[i], crop_factor) for i in sure])), axis=0)
    # only a slot whose face is the tiles' cream is read (a black rack's bare board is not)
    face_like = np.linalg.norm(_face_colours(crops) - face_colour, axis=1) < FACE_CHROMA
    if not face_like.any():
        return read, indexes, False
    read_there, _, no_tile_there = read_crops(crops[face_like])
    probabilities = np.zeros((len(slots), read_there.shape[1]), np.float32)
    probabilities[face_like] = read_there
    no_tile = np.ones(len(slots), np.float32)
    no_tile[face_like] = no_tile_there
    found, corners = list(read.found), list(read.corners)
    best, confidence, ranking = list(read.best), list(read.confidence), list(read.ranking)
    rows_of = [list(members) for members in indexes]
    doubtful = False
    for gap in range(len(gaps)):
        numbers = [k for k, (_, g, _) in enumerate(slots) if g == gap]
        if not numbers:
            continue
        k = max(numbers, key=lambda n: float(probabilities[n].max()))
        surely = float(probabilities[k].max())
        if not face_like[k] or no_tile[k] > SLOT_NO_TILE or surely < DOUBTFUL_BOX:
            continue
        if surely < LOW_CONFIDENCE \
                or not joker_may_stand(probabilities[k], float(no_tile[k]), LOW_CONFIDENCE):
            # (a slot over a narrow gap, half on each neighbour, reads a different tile at
            # each shift; a tile standing there reads as itself at every one)
            doubtful |= len({int(probabilities[n].argmax()) for n in numbers}) == 1
            continue
        number, _, box = slots[k]
        (cx, cy), (long, short), angle = cv2.minAreaRect(box)
        found.append(FoundTile((cx, cy), (long, short), angle, 0.0))
        corners.append(box)
        best.append(int(probabilities[k].argmax()))
        confidence.append(min(surely, DOUBTED))
        ranking.append(np.argsort(-probabilities[k]))
        rows_of[number].append(len(found) - 1)
        centres.append(box.mean(axis=0) * scale)
    if len(found) == len(read.found):
        return read, indexes, doubtful
    for number, row in enumerate(rows):
        rows_of[number].sort(key=lambda i: float((centres[i] - row.origin) @ row.right))
    return ReadFound(found, corners, np.array(best), np.array(confidence), np.array(ranking),
                     read.gain, read.light, read.shade), rows_of, doubtful


def _ledge_level(image: np.ndarray, row: _Row, middle: float, width: float,
                 scale: float) -> float:
    """The grey of the ledge's top just under ``row`` at ``middle`` along it (the middle
    0.6 of a tile ``width`` across, LEDGE_DEPTHS down), in ``image``, whose pixels are
    ``scale`` of the row's."""
    points = [row.origin + (middle + across * width) * row.right
              + depth * row.tile_height * row.down
              for across in np.linspace(-0.3, 0.3, 7) for depth in LEDGE_DEPTHS]
    at = np.round(np.array(points) * scale).astype(int)
    at = at[(at[:, 0] >= 0) & (at[:, 0] < image.shape[1])
            & (at[:, 1] >= 0) & (at[:, 1] < image.shape[0])]
    if not len(at):
        return 0.0
    return float(np.median(image[at[:, 1], at[:, 0]].astype(np.float32).mean(axis=1)))


def _face_colours(crops: np.ndarray) -> np.ndarray:
    """Each crop's face colour: CIELab a and b (on the ΔE scale) of the middle's lightest
    third (the plastic, not the ink)."""
    if not len(crops):
        return np.zeros((0, 2), np.float32)
    # all middles converted at once, stacked into one tall picture (Lab is per pixel: the
    # same values as crop by crop, at a fraction of the calls)
    middles = crops[:, 8:-8, 6:-6].astype(np.float32) / 255
    count, height, width = middles.shape[:3]
    lab = cv2.cvtColor(middles.reshape(count * height, width, 3),
                       cv2.COLOR_BGR2Lab).reshape(count, height * width, 3)
    plastic = np.percentile(lab[..., 0], 67, axis=1)
    return np.array([np.median(each[each[:, 0] >= level][:, 1:], axis=0)
                     for each, level in zip(lab, plastic)])


def _lifted(crops: np.ndarray, lit: float) -> np.ndarray:
    """The crops with the shade in them lifted to ``lit``, pixel by pixel: the plastic's
    level is the grey closed (the ink, narrower than LIFT_KERNEL, taken out; a shadow's
    stretch, wider, kept where it is, its edge too), the gain ``lit`` over it, 1 to
    MOST_GAIN. A tile a hard shadow line crosses is lifted in its shaded part alone."""
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (LIFT_KERNEL, LIFT_KERNEL))
    lifted = []
    for crop in crops:
        grey = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY)
        level = cv2.morphologyEx(grey, cv2.MORPH_CLOSE, kernel, borderType=cv2.BORDER_REPLICATE)
        level = cv2.GaussianBlur(level.astype(np.float32), (0, 0), 1.0)
        gain = np.clip(lit / np.maximum(level, 1.0), 1.0, MOST_GAIN)
        lifted.append(np.clip(crop.astype(np.float32) * gain[:, :, None], 0, 255))
    return np.stack(lifted).astype(np.uint8)


def _rack_up(read: ReadFound, indexes: list[int]) -> np.ndarray:
    """The rack's up in the photo, as a unit vector: the photo's up turned as the photo was.

    A phone held a little turned turns every tile standing on the rack alike, so the
    direction their outlines' edges share most (weighted by the tiles' size, the rack's tiles
    being the large ones) is the rack's, up to a quarter turn; of its four directions, "up"
    is the one nearest the photo's up (a photo turned by more than 45° is not read).
    """
    if not indexes:
        return np.array([0.0, -1.0])
    edges = np.array([read.corners[i][1] - read.corners[i][0] for i in indexes], np.float64)
    # an edge's direction four times over: the four sides of a box give one angle
    angles = (4 * np.arctan2(edges[:, 1], edges[:, 0])) % (2 * np.pi)
    weights = np.array([read.found[i].long_side for i in indexes], np.float64)
    apart = np.abs((angles[:, None] - angles[None, :] + np.pi) % (2 * np.pi) - np.pi)
    alike = apart < 4 * np.radians(TILT_ALIKE_DEGREES)
    shared = alike[int(np.argmax(alike.astype(np.float64) @ weights))]
    mean = np.angle(np.sum(weights[shared] * np.exp(1j * angles[shared])))
    tilt = float(mean) / 4  # within ±45°
    if abs(tilt) > np.radians(DIAGONAL_TILT):
        # near the diagonal the photo's up lies about as near a quarter turn the other way:
        # a tile's long side runs up and down, so the long sides of the elongated outlines
        # turned as the rack is choose (not a tile lying turned on the table)
        other = tilt - np.sign(tilt) * np.pi / 2
        if _long_sides_along(read, [i for i, alike in zip(indexes, shared) if alike],
                             other, tilt):
            tilt = other
    return np.array([np.sin(tilt), -np.cos(tilt)])


def _long_sides_along(read: ReadFound, indexes: list[int], tilt: float, than: float) -> bool:
    """Whether the elongated outlines' long sides (weighted by their length) run nearer the up
    of a rack turned ``tilt`` than of one turned ``than`` (radians): more than half of them."""
    def off(direction: float, angle: float) -> float:  # (axes: modulo a half turn)
        return abs((direction - angle + np.pi / 2) % np.pi - np.pi / 2)

    along = against = 0.0
    for i in indexes:
        if read.found[i].short_side > SQUARISH * read.found[i].long_side:
            continue  # a squarish outline's long side may lie either way
        corners = read.corners[i]
        side = max((corners[1] - corners[0], corners[2] - corners[1]),
                   key=lambda edge: float(np.linalg.norm(edge)))
        direction = float(np.arctan2(side[0], -side[1]))  # from the photo's up, as ``tilt``
        if off(direction, tilt) < off(direction, than):
            along += read.found[i].long_side
        else:
            against += read.found[i].long_side
    return along > against


def _turned_up(corners: np.ndarray, squarish: bool, up: np.ndarray) -> np.ndarray:
    """The outline's corners turned so its top edge is the one furthest towards ``up``.

    A tile's long side runs up and down: only a squarish outline (a tile seen from above at a
    slant) may have a long side for its top.
    """
    turns = [np.roll(corners, -shift, axis=0) for shift in range(4)]
    if not squarish:
        turns = [c for c in turns
                 if np.linalg.norm(c[1] - c[0]) <= np.linalg.norm(c[2] - c[1])]
    return max(turns, key=lambda c: float((c[0] + c[1]) @ up))


def _apart(first: _Row, other: _Row) -> float:
    """How far ``other``'s bottom line lies below ``first``'s, in ``first``'s tile heights."""
    return float((other.origin - first.origin) @ first.down) / first.tile_height


def _tier_like(first: _Row, other: _Row) -> bool:
    """Whether ``other``'s tiles are of a height like ``first``'s, as tall or taller below it
    (nearer the camera) and as tall or shorter above it, and its line parallel."""
    return _heights_like(first, other) and abs(float(other.right @ first.right)) > PARALLEL_COS


def _heights_like(first: _Row, other: _Row) -> bool:
    """Whether ``other``'s tiles are of a height like ``first``'s, as tall or taller below it
    (nearer the camera) and as tall or shorter above it."""
    ratio = other.tile_height / first.tile_height
    nearer_looks_taller = ratio >= LOWER_TIER_AT_LEAST if _apart(first, other) > 0 \
        else ratio <= UPPER_TIER_AT_MOST
    return TIER_HEIGHTS[0] < ratio < TIER_HEIGHTS[1] and nearer_looks_taller


def _other_tier(first: _Row, other: _Row) -> bool:
    """Whether ``other`` is the rack's other tier: like tiles, TIER_APART tile heights away,
    overlapping it along the rack.

    The upper tier stands one tile and a ledge above the lower one, so the gap is bounded in
    the upper tier's own tile heights too: seen from above, that tier and the gap under it
    look shorter alike, where a row of a second rack further off looks shorter but stands
    further up (two of its tile heights and more).
    """
    if _stands_on(first, other) or _stands_on(other, first):
        # (their lines are not compared: a row of a few tiles, one outline cut short at the
        # ledge, may run degrees off the rack; its tiles' feet on the edge say where it is)
        return _heights_like(first, other) and _overlap(first, other)
    apart = _apart(first, other)
    upper_height = first.tile_height if apart > 0 else other.tile_height
    in_upper_heights = abs(apart) * first.tile_height / upper_height
    return _tier_like(first, other) and TIER_APART[0] < abs(apart) < TIER_APART[1] \
        and in_upper_heights < TIER_APART[1] and _overlap(first, other)


def _stands_on(upper: _Row, lower: _Row) -> bool:
    """Whether ``lower``'s tiles stand on the lower tier whose edge ``upper`` was found on:
    then they are one rack's two tiers, however far apart the outlines put their lines."""
    return not upper.ledge_seen and set(lower.indexes) <= set(upper.lower_tier)


def _hidden_tier(image: np.ndarray, first: _Row, group: list[int],
                 geometry: list[tuple[np.ndarray, np.ndarray, float, float]]) -> _Row | None:
    """A row of standing tiles whose bar was not seen, taken as the rack's other tier when it
    stands just above or below the rack's row (HIDDEN_TIER_APART tile heights), parallel to
    it, with tiles of a like height, every tile over the rack's bar (above it, or over the
    rack's board running on from beside the row: ``_board_runs_under``); below it, at least
    two such tiles."""
    tier = _unbarred(group, geometry)
    indexes, origin, tile_width = tier.indexes, tier.origin, tier.tile_width
    along = np.array([float((geometry[i][0] - origin) @ tier.right) for i in indexes])
    apart = _apart(first, tier)
    if apart > 0 and len(indexes) < 2:
        return None  # one tile in front of the rack, no ledge seen under it, lies on the table
    apart = abs(apart)
    shift = float((origin - first.origin) @ first.right)
    # the bar's extent is where its colour was seen to run on: the upper tier's end tile may
    # stand a little past it (its own ledge behind the lower tier, the rack's end in shade)
    slack = tile_width / 2
    over_rack = all(first.extent[0] - slack <= a + shift <= first.extent[1] + slack
                    for a in along)
    if not over_rack and _apart(first, tier) < 0:
        over_rack = _board_runs_under(image, first, tier, geometry)
    if _tier_like(first, tier) and over_rack \
            and HIDDEN_TIER_APART[0] < apart < HIDDEN_TIER_APART[1]:
        return tier
    return None


def _board_runs_under(image: np.ndarray, first: _Row, tier: _Row,
                      geometry: list[tuple[np.ndarray, np.ndarray, float, float]]) -> bool:
    """Whether the rack's board runs on unbroken from beside the rack's row to under
    ``tier``, a row standing above it past where the row's bar was seen to run.

    A two-tier rack's upper tier stands on the lower tier's board, which runs the rack's
    length; the lower tier's bar is seen to run only where its colour is even, which under a
    black ledge with one or two tiles on it may end at those tiles, while the upper tier's
    last tiles (at the end of a game, one alone) stand anywhere along the rack. The band just
    above the lower tier's ledge (BOARD_BAND tile heights up from the row's line) is sampled
    from beside the row's nearest end tile to under the far side of ``tier``: no colour step
    crosses it (the rack's end against the table, a tile lying there), only the smooth
    changes of a lamp's glare on the board.
    """
    height = first.tile_height
    width = float(np.median([geometry[i][3] for i in first.indexes]))
    row_along = [float((geometry[i][0] - first.origin) @ first.right) for i in first.indexes]
    tier_along = [float((geometry[i][0] - first.origin) @ first.right) for i in tier.indexes]
    if min(tier_along) > max(row_along):
        start, stop = max(row_along) + 0.6 * width, max(tier_along) + 0.4 * width
    elif max(tier_along) < min(row_along):
        start, stop = min(row_along) - 0.6 * width, min(tier_along) - 0.4 * width
    else:
        return False
    depths = np.linspace(-BOARD_BAND[1], -BOARD_BAND[0], 8) * height
    return _band_unbroken(image, first, start, stop, depths, width)


def _unbarred(group: list[int], geometry: list[tuple[np.ndarray, np.ndarray, float, float]]
              ) -> _Row:
    """A row of standing tiles whose bar was not seen, its extent the tiles' own."""
    indexes, origin, right, down, tile_height, tile_width, along = _row_line(group, geometry)
    return _Row(indexes, origin, right, down, tile_height,
                (float(along.min()) - tile_width / 2, float(along.max()) + tile_width / 2),
                ledge_seen=False, tile_width=tile_width)


def _overlap(a: _Row, b: _Row) -> bool:
    shift = float((b.origin - a.origin) @ a.right)
    b_from, b_to = b.extent[0] + shift, b.extent[1] + shift
    return min(a.extent[1], b_to) > max(a.extent[0], b_from)


def _tile_geometry(corners: np.ndarray) -> tuple[np.ndarray, np.ndarray, float, float]:
    """Bottom-middle point, unit up vector, height and width of an upright-ordered outline."""
    top = (corners[0] + corners[1]) / 2
    bottom = (corners[2] + corners[3]) / 2
    up = top - bottom
    height = float(np.linalg.norm(up)) or 1.0
    width = float(np.linalg.norm(corners[1] - corners[0]))
    return bottom.astype(np.float64), (up / height).astype(np.float64), height, width


def _rows_of(indexes: list[int], geometry: list[tuple[np.ndarray, np.ndarray, float, float]],
             rack_up: np.ndarray) -> list[list[int]]:
    """Group standing tiles whose bottoms lie on one line across the rack's up (and whose
    sizes and own ups agree).

    The line is taken across the rack's up, shared by all its tiles, not across two tiles'
    own ups: an outline's edges are known to a few degrees only, and over a few tile widths
    that tilts the line enough to take in a tile lying on the table beside the row's end.
    """
    parent = {i: i for i in indexes}

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for a in indexes:
        for b in indexes:
            if a >= b:
                continue
            bottom_a, up_a, height_a, _ = geometry[a]
            bottom_b, up_b, height_b, _ = geometry[b]
            height = (height_a + height_b) / 2
            if (abs(float((bottom_b - bottom_a) @ rack_up)) < ROW_TOLERANCE * height
                    and float(up_a @ up_b) > ROW_UP_COS
                    and max(height_a, height_b) < 1.4 * min(height_a, height_b)):
                parent[root(a)] = root(b)
    groups: dict[int, list[int]] = {}
    for i in indexes:
        groups.setdefault(root(i), []).append(i)
    return list(groups.values())


def _row_line(group: list[int], geometry: list[tuple[np.ndarray, np.ndarray, float, float]]
              ) -> tuple[list[int], np.ndarray, np.ndarray, np.ndarray, float, float,
                         np.ndarray]:
    """The line the row's tiles stand on: the tiles on it (left to right), a point on it,
    unit vectors along it and down from it, the tiles' median height and width, and each
    tile's place along it."""
    bottoms = np.array([geometry[i][0] for i in group])
    up = np.sum([geometry[i][1] for i in group], axis=0)
    up /= np.linalg.norm(up) or 1.0
    right = np.array([-up[1], up[0]])
    tile_height = float(np.median([geometry[i][2] for i in group]))
    tile_width = float(np.median([geometry[i][3] for i in group]))
    origin = bottoms.mean(axis=0)
    along = (bottoms - origin) @ right
    if len(group) >= 3 and np.ptp(along) > 2 * tile_width:
        # the bottoms themselves give the line best: under a keystone the tiles' own "up"
        # leans differently at each end of the rack
        _, _, axes = np.linalg.svd(bottoms - origin)
        fitted = axes[0] if float(axes[0] @ right) > 0 else -axes[0]
        right = fitted / np.linalg.norm(fitted)
        along = (bottoms - origin) @ right
    down = np.array([-right[1], right[0]])  # right (1, 0) gives down (0, 1): y points down
    off_line = np.abs((bottoms - origin) @ down) > ROW_TOLERANCE * tile_height
    if off_line.any() and not off_line.all():
        # a tile chained in by a neighbour but off the row's own line stands elsewhere
        return _row_line([i for i, off in zip(group, off_line) if not off], geometry)
    order = np.argsort(along)
    return ([group[i] for i in order], origin, right, down, tile_height, tile_width,
            along[order])


def _row_on_bar(image: np.ndarray, covered: np.ndarray, outlines: dict[int, np.ndarray],
                group: list[int],
                geometry: list[tuple[np.ndarray, np.ndarray, float, float]]) -> _Row | None:
    """The row, with the tiles that stand on its bar, or None when no bar runs under it.

    The band under the row is resampled into a strip (columns along the row, rows going
    down). The bar shows as a lower edge at one depth across the row, with an even colour
    above it; and that edge must also show where no tile stands (in the gaps and past the
    ends of the row), which tells a rack's ledge from the tops of the next row of sets on a
    table. ``covered`` marks every tile found in the photo, ``outlines`` holds them one by
    one (in ``image``'s pixels).
    """
    group, origin, right, down, tile_height, tile_width, along = _row_line(group, geometry)
    scale = STRIP_PIXELS_PER_HEIGHT / tile_height  # strip pixels per photo pixel
    image_height, image_width = image.shape[:2]
    reach = float(np.hypot(image_width, image_height))
    columns = np.arange(-reach, reach, 1 / scale, dtype=np.float32)
    # depth in tile heights: from a little above the tiles' bottoms down past the bar
    depth = np.arange(-ABOVE_BOTTOM, DEEP_EDGE_TO + 0.35, 1 / STRIP_PIXELS_PER_HEIGHT,
                      dtype=np.float32)
    zero = round(ABOVE_BOTTOM * STRIP_PIXELS_PER_HEIGHT)  # the strip row at depth 0
    depth_pixels = depth * tile_height
    map_x = (origin[0] + columns[None, :] * right[0] + depth_pixels[:, None] * down[0])
    map_y = (origin[1] + columns[None, :] * right[1] + depth_pixels[:, None] * down[1])
    shallow_end = round((ABOVE_BOTTOM + BAR_EDGE_TO + 0.1) * STRIP_PIXELS_PER_HEIGHT)
    inside_all = ((map_x >= 0) & (map_x <= image_width - 1) & (map_y >= 0)
                  & (map_y <= image_height - 1))
    inside = inside_all[:shallow_end].all(axis=0)
    deep_inside = inside_all.all(axis=0)
    interpolation = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR

    def lab_strip(row_to: int) -> np.ndarray:
        # CIELab of the strip alone (not of the whole photo): float BGR in 0–1 gives L in
        # 0–100 and a, b on the same scale, so a step's length is a ΔE
        strip = cv2.remap(image, map_x[:row_to].astype(np.float32),
                          map_y[:row_to].astype(np.float32), interpolation)
        return cv2.cvtColor(strip.astype(np.float32) / 255, cv2.COLOR_BGR2Lab)

    # the band down to BAR_EDGE_TO is judged on its own, as if the strip ended there; the
    # deeper band only where no ledge shows within it
    strip, near = _strip_edges(lab_strip(shallow_end))
    # the columns of the row itself: from its first tile's left edge to its last's right edge
    in_row = inside & (columns >= along.min() - tile_width / 2) \
        & (columns <= along.max() + tile_width / 2)
    if in_row.sum() < 3:
        return None
    first = zero + int(BAR_EDGE_FROM * STRIP_PIXELS_PER_HEIGHT)
    last = min(len(depth) - 2, zero + int(BAR_EDGE_TO * STRIP_PIXELS_PER_HEIGHT))
    support = near[first:last + 1][:, in_row].mean(axis=1)
    near_row = inside & (columns >= along.min() - 2 * tile_width) \
        & (columns <= along.max() + 2 * tile_width)

    def free_of_tiles(row_from: int, row_to: int, tiles: np.ndarray = covered) -> np.ndarray:
        covered_there = cv2.remap(tiles, map_x[row_from:row_to].astype(np.float32),
                                  map_y[row_from:row_to].astype(np.float32),
                                  cv2.INTER_NEAREST).any(axis=0)
        return np.asarray(near_row & ~covered_there, dtype=bool)

    def shows(row_from: int, row_to: int, where: np.ndarray, share: float) -> bool | None:
        """Whether an edge shows within those strip rows in that share of the columns
        ``where``; None when they are too few to tell."""
        if where.sum() / scale < tile_width * FREE_WIDTH:
            return None
        return bool(near[row_from:row_to][:, where].any(axis=0).mean() >= share)

    # where no tile stands: a run of free columns at least FREE_RUN tile widths wide (the
    # seams between touching tiles' outlines are narrower, and their rounded corners and
    # shade hide the ledge's top there)
    top_free = cv2.morphologyEx(
        free_of_tiles(zero - TOP_EDGE_ROWS, zero + TOP_EDGE_ROWS + 1).astype(np.uint8)[None, :],
        cv2.MORPH_OPEN, np.ones((1, max(1, round(FREE_RUN * tile_width * scale))), np.uint8)
    )[0].astype(bool)
    # the photo's edge within a tile and a half of the row's end: the rack may run on out of
    # the frame, so its bar not being seen beside the tiles says nothing
    cut_off = bool((~inside & (columns >= along.min() - 1.5 * tile_width)
                    & (columns <= along.max() + 1.5 * tile_width)).sum() / scale
                   >= FREE_WIDTH * tile_width)
    # every depth where the lower edge shows under enough of the row is a candidate, the
    # nearest the tiles first: a tile's own bottom edge (its outline stopping short of it)
    # also runs along the row, but the band above it is not of one colour, so the next edge
    # down is tried; an edge that does not show beside the tiles as a ledge's would ends
    # the search (what lies deeper is no bar the tiles stand on)
    candidates = _edge_depths(support, first)
    deep_columns = in_row & deep_inside
    whole: tuple[np.ndarray, np.ndarray] | None = None
    if not candidates and deep_columns.sum() >= 3 and len(group) >= 2 \
            and tile_width >= FROM_ABOVE_SQUARISH * tile_height:
        # seen from above, a ledge's faces and edges fill the shallow band: measured there
        # alone, a column's texture (its median step) is the ledge's own edges, and no edge
        # stands out; measured down the whole band, over the table below too, they do (a row
        # of two tiles at least: one tile lying on a striped cloth, seen at a slant, looks as
        # squarish, and the cloth's stripes under it stand out so)
        whole = _strip_edges(lab_strip(len(depth)))
        whole_near = np.where(deep_inside[None, :], whole[1][:shallow_end], near)
        candidates = _edge_depths(whole_near[first:last + 1][:, in_row].mean(axis=1), first)
        if candidates:
            near = whole_near

    def search(candidates: list[int], deep: bool) -> _Row | None:
        nonlocal whole
        # a bar whose colour does not run on between the tiles may be their own bottoms: it is
        # taken only when no edge further down holds a bar that does (the search ending as
        # below, at an edge that fails beside the tiles)
        fallback: _Row | None = None
        for edge_depth in candidates:
            # where no tile stands, within two tiles of the row, the bar must show too: its
            # lower edge (always), and its top edge along the tiles' bottoms wherever its lower
            # edge shows there (what tells a ledge from the side of a tile seen at a slant, or
            # from a seam of the table under a row of sets). Past the rack's end no lower edge
            # shows and no top edge is looked for; but a bar seen nowhere beside the tiles is
            # taken only when the photo's edge may hide it (a row of tiles lying on the table
            # shows its own sides under it, and nothing beside it)
            free_there = free_of_tiles(edge_depth - 2, edge_depth + 3)
            if not shows(edge_depth - 2, edge_depth + 3, free_there, BAR_SUPPORT) \
                    and not (not deep and _faint_edge_shows(strip, free_there, edge_depth)):
                return fallback
            bar_free = top_free & near[edge_depth - 2:edge_depth + 3].any(axis=0)
            # seen from above, the ledge's top face shows deeper than the tiles, foreshortened
            # upright, are tall: its top edge may lie anywhere above its lower edge (a row of two
            # tiles at least: one tile lying on the table, seen at a slant, looks as squarish)
            from_above = len(group) >= 2 and tile_width >= FROM_ABOVE_SQUARISH * tile_height
            top_to = zero + TOP_EDGE_ROWS + 1
            if from_above:
                top_to = max(top_to, edge_depth - 3)
            top_shows = shows(zero - TOP_EDGE_ROWS, top_to, bar_free, TOP_SUPPORT)
            if len(group) >= 2 and top_shows is False and deep_inside[bar_free].all():
                # a thin ledge's top edge (its rim) stands out from the ledge's own faces and
                # edges only against the texture of the whole band, over the table too: seen
                # from above, or a black ledge on a black board, a lamp's glare on it (under a
                # row of two tiles at least: one tile lying on a cloth shows no ledge's rim)
                whole = whole or _strip_edges(lab_strip(len(depth)))
                top_shows = bool(whole[1][zero - TOP_EDGE_ROWS:top_to][:, bar_free].any(axis=0)
                                 .mean() >= TOP_SUPPORT)
            # (from a fifth of a tile down: an outline may run a little past its tile's bottom)
            if deep and not _rack_against_table(strip, edge_depth, deep_columns):
                return fallback
            # (the tiles standing on the lower tier, in front of its board, excepted)
            lower_tier: tuple[int, ...] = ()
            between = covered
            if deep:
                lower_tier = _on_lower_tier(outlines, geometry, group, origin, down, tile_height,
                                            (edge_depth - zero) / STRIP_PIXELS_PER_HEIGHT)
                if lower_tier:
                    between = _mask_of(image.shape[:2], [outline for i, outline in outlines.items()
                                                         if i not in lower_tier])
            if deep and not free_of_tiles(zero + STRIP_PIXELS_PER_HEIGHT // 5,
                                          edge_depth, between)[near_row].all():
                return fallback
            if not deep and top_shows is False:
                return fallback
            if not deep and top_shows is None and not cut_off:
                continue  # too few free columns to tell: a deeper edge may be the ledge's
            row, between_tiles = _row_found(strip, near, edge_depth, zero, inside, in_row,
                                            top_free, columns, along, group, origin, right, down,
                                            tile_height, tile_width, scale)
            if row is not None and between_tiles:
                return replace(row, ledge_seen=not deep, lower_tier=lower_tier)
            if row is not None and fallback is None:
                fallback = replace(row, ledge_seen=not deep, lower_tier=lower_tier)
        return fallback
    row = search(candidates, deep=False)
    # no ledge's edge under the row (none at all, or none that shows beside the tiles as a
    # ledge's: the tiles' own bottoms): the row may be a two-tier rack's upper tier standing
    # on the lower tier's board, the upper ledge black on that black board, the first edge
    # under it that parts the rack from the table the lower tier's own lower edge (a tile
    # height and more down); such a row is taken only where that edge shows beside the tiles
    # too, with no tile between the row and it but those standing on the lower tier, and (in
    # _rack_rows) only when it and its rack's other tier are every standing tile in the
    # photo. (Past an edge that failed, only under a row of two tiles at least: a lone tile
    # lying on a cloth shows its own bottom's edge, and the table's edge may lie beyond.)
    if row is None and deep_columns.sum() >= 3 and (not candidates or len(group) >= 2):
        deep_strip, deep_near = whole or _strip_edges(lab_strip(len(depth)))
        strip = np.concatenate([strip[:shallow_end], deep_strip[shallow_end:]])
        near = np.concatenate([near[:shallow_end], deep_near[shallow_end:]])
        deep_first = zero + int(BAR_EDGE_TO * STRIP_PIXELS_PER_HEIGHT)
        deep_last = zero + int(DEEP_EDGE_TO * STRIP_PIXELS_PER_HEIGHT)
        deep_support = near[deep_first:deep_last + 1][:, deep_columns].mean(axis=1)
        # (the lower tier's own ledge, where it shows, steps from the board above the
        # rack's lower edge: under a row of two tiles at least, the first edge parting the
        # rack from the table is taken; under one, only the first edge, so that the stripes
        # of a cloth under a lone tile lying on it are not passed over to the table's edge)
        edges = _edge_depths(deep_support, deep_first)
        row = search([edge for edge in edges[:None if len(group) >= 2 else 1]
                      if _rack_against_table(strip, edge, deep_columns)][:1], deep=True)
    return row


def _mask_of(shape: tuple[int, ...], outlines: Any) -> np.ndarray:
    """A mask of ``shape`` with the outlines filled."""
    mask = np.zeros(shape[:2], np.uint8)
    for outline in outlines:
        cv2.fillConvexPoly(mask, outline, 1)
    return mask


def _on_lower_tier(outlines: dict[int, np.ndarray],
                   geometry: list[tuple[np.ndarray, np.ndarray, float, float]],
                   group: list[int], origin: np.ndarray, down: np.ndarray, tile_height: float,
                   edge: float) -> tuple[int, ...]:
    """The tiles standing on a two-tier rack's lower tier, when the row ``group`` is its upper
    tier and ``edge`` (in tile heights under the row's line) the lower tier's lower edge: the
    tiles upright, their bottoms on that tier's ledge, as a row's on its bar (0 to
    BAR_EDGE_TO of their own heights above the edge, or ROW_TOLERANCE under it: an outline
    may run a little past its tile's foot)."""
    standing_on = []
    for i in outlines:
        if i in group:
            continue
        bottom, up, height, _ = geometry[i]
        above_edge = (edge * tile_height - float((bottom - origin) @ down)) / height
        if float(up @ -down) > STANDING_COS and -ROW_TOLERANCE <= above_edge <= BAR_EDGE_TO:
            standing_on.append(i)
    return tuple(standing_on)


def _edge_depths(support: np.ndarray, first: int) -> list[int]:
    """The strip rows, from ``first`` down, where an edge shows under BAR_SUPPORT of the row
    and more than at the rows beside (the peaks), nearest first."""
    return [first + i for i in range(len(support))
            if support[i] >= BAR_SUPPORT and support[i] >= support[max(i - 1, 0):i + 2].max()]


def _rack_against_table(strip: np.ndarray, edge_depth: int, columns: np.ndarray) -> bool:
    """Whether the strip's colour just above the edge (the rack's board) and just below it
    (the table) differ by DEEP_EDGE_DELTA: a rack's lower edge parts two surfaces, where a seam
    or the grain of a table, a line across one surface, has the same colour on both sides."""
    reach = STRIP_PIXELS_PER_HEIGHT // 5
    above, below = (np.median(strip[rows][:, columns].reshape(-1, 3), axis=0)
                    for rows in (slice(edge_depth - reach - 2, edge_depth - 2),
                                 slice(edge_depth + 3, edge_depth + reach + 3)))
    return float(np.linalg.norm(above - below)) >= DEEP_EDGE_DELTA


def _strip_edges(strip: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The Lab strip blurred, and where an edge runs across it (at a row or one either side)."""
    strip = cv2.GaussianBlur(strip, (0, 0), 1.0)
    step = np.zeros(strip.shape[:2], np.float32)
    step[1:-1] = np.linalg.norm(strip[2:] - strip[:-2], axis=2)
    # an edge is a step well above the column's own texture (cloth and wood grain step too)
    texture = np.median(step[1:-1], axis=0)
    # in the dark (a black rack on a dark table) the same shade of light steps less: the
    # step asked for shrinks with the lightness about it, down to DARK_EDGE_SHARE of it
    lightness = np.zeros(strip.shape[:2], np.float32)
    lightness[1:-1] = (strip[2:, :, 0] + strip[:-2, :, 0]) / 2
    darker_below = np.zeros(strip.shape[:2], bool)
    darker_below[1:-1] = strip[2:, :, 0] < strip[:-2, :, 0]
    needed = np.where(darker_below,
                      EDGE_STEP * np.clip(lightness / DARK_BELOW, DARK_EDGE_SHARE, 1.0),
                      EDGE_STEP)
    edges = (step > needed) & (step > EDGE_OVER_TEXTURE * texture[None, :])
    near = np.zeros_like(edges)
    near[1:-1] = edges[:-2] | edges[1:-1] | edges[2:]
    return strip, near


def _faint_edge_shows(strip: np.ndarray, free: np.ndarray, edge_depth: int) -> bool:
    """Whether the free columns taken together (their median colour down the strip) step at
    ``edge_depth`` in the dark (under L DARK_BELOW): a black ledge on a dark table steps by a
    few ΔE only, under what one column must step (its noise alike), but at one depth all
    along the rack, so it stands out of their median by FAINT_EDGE_OVER_TEXTURE times the
    median's own steps, at FAINT_EDGE_SHARE of the step asked of one column. (In the light a
    step as large shows in each column: one that shows in too few is no ledge's, rummy4-24.)"""
    if not free.any():
        return False
    profile = np.median(strip[:, free], axis=1)
    step = np.linalg.norm(profile[2:] - profile[:-2], axis=1)
    lightness = (profile[2:, 0] + profile[:-2, 0]) / 2
    needed = FAINT_EDGE_SHARE * EDGE_STEP * np.clip(lightness / DARK_BELOW, DARK_EDGE_SHARE, 1.0)
    faint = ((step > needed) & (step > FAINT_EDGE_OVER_TEXTURE * np.median(step))
             & (lightness < DARK_BELOW))
    # (profile row r + 1 is the step's middle; an edge at edge_depth ± 2, as the columns')
    return bool(faint[max(0, edge_depth - 3):edge_depth + 2].any())


def _row_found(strip: np.ndarray, near: np.ndarray, edge_depth: int,
               zero: int, inside: np.ndarray, in_row: np.ndarray, free: np.ndarray,
               columns: np.ndarray, along: np.ndarray, group: list[int], origin: np.ndarray,
               right: np.ndarray, down: np.ndarray, tile_height: float, tile_width: float,
               scale: float) -> tuple[_Row | None, bool]:
    """The bar's colour must be even along the row; its extent decides which tiles it holds.
    Also whether its colour runs on between the tiles (``free``: where no tile stands), as a
    bar's does and the tiles' own bottoms' does not."""
    best = near[edge_depth]
    # the bar's lower part, above its edge: the tiles' outlines may stop short of their bottoms
    height = edge_depth - zero
    band = strip[zero + max(2, int(height * 0.45)):zero + max(3, height - 1)]
    colour_per_column = np.median(band, axis=0)
    bar_colour = np.median(colour_per_column[in_row], axis=0)
    # glare and shade change the bar's lightness along the rack more than its colour
    even_columns = np.linalg.norm((colour_per_column - bar_colour) * BAR_EVEN_WEIGHTS,
                                  axis=1) < BAR_EVEN_DELTA
    if even_columns[in_row].mean() < BAR_EVEN:
        return None, False
    gaps = free & in_row
    between_tiles = bool(gaps.sum() / scale < FREE_WIDTH * tile_width
                         or even_columns[gaps].mean() >= BAR_EVEN)
    # the bar runs as far as its colour and its lower edge go on, gaps of half a tile allowed
    present = inside & (even_columns | best)
    gap = max(1, int(0.5 * tile_width * scale))
    closed = cv2.morphologyEx(present.astype(np.uint8)[None, :], cv2.MORPH_CLOSE,
                              np.ones((1, 2 * gap + 1), np.uint8))[0].astype(bool)
    middle = int(np.searchsorted(columns, float(np.median(along))))
    if not closed[min(middle, len(columns) - 1)]:
        return None, False
    start = middle
    while start > 0 and closed[start - 1]:
        start -= 1
    end = middle
    while end < len(columns) - 1 and closed[end + 1]:
        end += 1
    extent = (float(columns[start]) - tile_width * 0.3, float(columns[end]) + tile_width * 0.3)
    kept = [(a, i) for a, i in zip(along, group) if extent[0] <= a <= extent[1]]
    if not kept:
        return None, False
    # a tile standing in line with the rack's tiles, less than a tile from them, stands on
    # the same rack even where the bar under it was not seen (shade, a dark rack's end)
    kept_along = [a for a, _ in kept]
    left_out = sorted((a, i) for a, i in zip(along, group) if (a, i) not in kept)
    grew = True
    while grew:
        grew = False
        for a, i in left_out:
            if (a, i) not in kept and min(abs(a - b) for b in kept_along) < 1.9 * tile_width:
                kept.append((a, i))
                kept_along.append(a)
                grew = True
    return (_Row([i for _, i in sorted(kept)], origin, right, down, tile_height, extent),
            between_tiles)
