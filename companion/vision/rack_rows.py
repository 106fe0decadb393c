"""Reading a rack by its rows of tiles alone, when no bar was found under them (``rack.py``).

A rack photo is read by the table reader (``pipeline.find_and_read``: the same detector, the
same crops, the same second outlines as a table photo). This step then only decides which of
the tiles read stand on the rack: tiles standing on a rack stand upright, side by side, their
feet on one line, and a rack holds one to three such rows (tiers), one tile height or a little
more apart. The rack is the row of the largest tiles with the most tiles, with the rows of like
tiles stacked on it. Every other tile (on the table, in the pool, on a rack further away) is
left out and reported as ``ignored``. No bar or ledge is looked for: a photo whose tiles are
read is never refused for want of one, and "no rack found" is said only when no tile stands
upright as a rack's do.

The value comes from the rules core (``companion.core.scoring.rack_value``): face values, and
the preset's joker penalty for each joker.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import numpy as np

from companion.core.presets import PRESSMAN, Preset
from companion.core.scoring import rack_value
from companion.vision.crops import SQUARISH
from companion.vision.decode import DecodedPhoto
from companion.vision.errors import PhotoError
from companion.vision.pipeline import LOW_CONFIDENCE, SIX_OR_NINE, ReadFound, find_and_read
from companion.vision.quality import poor_reading

if TYPE_CHECKING:
    from companion.vision.rack import RackReading

NO_RACK = ("no rack found: no row of upright tiles was seen; photograph the rack from the "
           "front or a little from above, the tiles large and upright")
NO_TILES = ("no tiles found on a rack: photograph the rack from the front, close enough that "
            "the tiles fill most of the photo's width, in good light")
NOT_A_RACK = ("no rack found: most tiles as large as the row taken for the rack lie off it, "
              "as on a table; photograph only the rack, from the front")

# Every threshold below was chosen on the labelled rack photos (benchmarks/vision.py
# --real-racks, the 24 rummy3/rummy4 photos) and their phone changes (--real-racks-stress),
# and held on the rack renders (--racks, --rack-kinds, --tier-kinds).
STANDING_COS = np.cos(np.radians(20))  # a standing tile's long side within 20° of the rack's up
# (tiles lying loose about a rack lie turned any way; at 40° the rack kinds took them as tiers)
UP_AXIS_COS = np.cos(np.radians(45))  # tiles whose up lies within 45° of one photo axis
UNREADABLE = 0.1  # a box read under this (a uniform guess is 0.02) stands on no rack
ROW_FEET = 0.35  # feet of neighbours in one row lie within this many tile heights (rummy3-10:
# an outline cut short by the ledge's lip, 0.31)
ROW_REACH = 2.6  # tile widths from one tile's middle to its neighbour's in a row
ROW_HEIGHTS = (0.62, 1.6)  # neighbours in a row look alike tall (a ledge's lip may hide the
# feet of some: rummy3-13's R5 is outlined 0.64 as tall as R13; their tops then line up)
JOIN_FEET = 0.35  # two pieces of a row (a wide gap between): their lines meet within this
RACK_ROW_HEIGHT = 0.8  # the rack's row is among the rows whose tiles are at least this tall
TIER_HEIGHTS = (0.6, 1.4)  # the tiers' tiles look alike tall (the upper one further off)
TIER_APART = (0.6, 1.9)  # tile heights between the feet of two tiers (an upper tier stands
# on the lower tier's board, its feet hidden behind the lower tiles: rummy4-87 at 0.76)
TIER_PARALLEL = 0.2  # tile heights per tile width: how much two tiers' lines may lean apart
LOWER_TIER_AT_LEAST = 0.8  # a tier below is nearer the camera: its tiles look no shorter (but a
# ledge's lip may hide their feet); a set lying in front, foreshortened, looks shorter
UPPER_TIER_AT_MOST = 1.3  # ... and one above no taller (rummy3-9: 1.17, the lower tier's feet hidden)
TIERS = 3
LONE_TIER_APART = 1.5  # a tier of one tile stands above the rack's row, at most this far
RACK_LENGTH = 16  # tile widths: a rack and its tiers' tiles together lie within one rack's length
# (rummy3-17: one tile on each tier, six tile widths apart)
LIKE_SIZED = 0.7  # a tile at least this tall against the rack's lies as near as they do
OFF_RACK_SHARE = 2  # more such tiles off the rack than twice those on it: a table photo
FEW_AROUND = 3  # ... unless they are a few (a tile just drawn, the pool's edge)
STRAY_BAND = 0.5  # tile heights: a large upright tile this near a tier's line, off its rows


def read_rows(photo: DecodedPhoto, *, preset: Preset = PRESSMAN) -> RackReading:
    """Read a decoded rack photo by its rows alone: the table reader's tiles, then which of
    them stand on the rack. A photo that came sideways or upside down needs no second
    reading: the reader reads each tile at any turn, and the rack's up is the up its tiles
    share. ``seen_whole`` is False and every tile unsure: with no bar seen, a row of sets
    lying on a table (two or three rows of them stacked as tiers) looks as a rack does, so
    the tiles are offered for the player to confirm, never as a sure value."""
    from companion.vision.rack import RackReading
    try:
        read = find_and_read(photo)
    except PhotoError as error:
        # a photo too small to find tiles in (code too_small) is answered with its size
        if error.code == "no_tiles":
            raise PhotoError(NO_TILES, "no_rack_tiles") from error
        raise
    tiles = _Tiles.of(read)
    rows = tiles.rows()
    if not rows:
        raise PhotoError(NO_RACK, "no_rack")
    rack = tiles.rack(rows)
    on_rack = {index for row in rack for index in row}
    if tiles.mostly_off(on_rack):
        raise PhotoError(NOT_A_RACK, "no_rack")
    strays = tiles.strays(rack, on_rack)
    seen_whole = False  # no bar was seen (see the docstring)
    for index in strays:  # put each in the row it stands by, and doubt the whole rack
        nearest = min(range(len(rack)), key=lambda r: abs(tiles.foot_off(rack[r], index)))
        rack[nearest] = tiles.in_order(rack[nearest] + [index])
    on_rack |= set(strays)
    confidences = np.array([read.confidence[index] for index in on_rack])
    doubt_all = not seen_whole or poor_reading(confidences, LOW_CONFIDENCE)
    placed = []
    for row_number, row in enumerate(rack):
        for index in row:
            tile = read.tile(index)
            turned = float(tiles.ups[index] @ tiles.up) < 0
            unsure = (tile.low_confidence or doubt_all
                      # the reader's own sense of up is against the rack's: a 6 may be a 9
                      or (turned and int(read.best[index]) in SIX_OR_NINE))
            placed.append(replace(tile, set_index=row_number, low_confidence=unsure,
                                  outline=tiles.outline_upright(index)))
    ignored = tuple(read.tile(index).outline for index in range(len(read.found))
                    if index not in on_rack)
    held = tuple(tile.tile for tile in placed)
    return RackReading(photo.width, photo.height, tuple(placed), ignored,
                       value=rack_value(held, joker_penalty=preset.joker_penalty),
                       jokers=sum(tile.is_joker for tile in held), preset=preset,
                       seen_whole=seen_whole)


@dataclass(frozen=True, eq=False)
class _Tiles:
    """The tiles read, in the rack's own frame: its up (the direction the standing tiles'
    tops share), and per tile its centre, up, height, width, its foot's place up the rack
    and its place along it."""

    read: ReadFound
    up: np.ndarray
    centres: np.ndarray
    ups: np.ndarray
    heights: np.ndarray
    widths: np.ndarray
    standing: np.ndarray  # boxes that may stand on a rack (upright, read as some tile)

    @classmethod
    def of(cls, read: ReadFound) -> _Tiles:
        corners = np.array(read.corners, np.float64)
        centres = corners.mean(axis=1)
        ups = (corners[:, 0] + corners[:, 1] - corners[:, 2] - corners[:, 3]) / 2
        heights = np.linalg.norm(ups, axis=1)
        ups = ups / np.maximum(heights, 1e-6)[:, None]
        widths = np.linalg.norm(corners[:, 1] - corners[:, 0], axis=1)
        readable = np.asarray(read.confidence) >= UNREADABLE
        up = _rack_up(ups, heights * widths, readable)
        squarish = widths > SQUARISH * heights
        standing = readable & (squarish | (np.abs(ups @ up) >= STANDING_COS))
        # a squarish outline (a tile seen from above) stands as the rack's tiles stand: its
        # height is measured along the rack's up, whichever of its sides the detector took
        along = np.abs(np.einsum("nij,j->ni", corners - centres[:, None], up)).max(axis=1) * 2
        heights = np.where(squarish, np.maximum(along, 1.0), heights)
        return cls(read, up, centres, ups, heights, widths, standing)

    @property
    def right(self) -> np.ndarray:
        return np.array([-self.up[1], self.up[0]])

    def foot(self, index: int) -> float:
        """How far up the rack the tile's foot stands (its middle less half its height)."""
        return float(self.centres[index] @ self.up) - self.heights[index] / 2

    def across(self, index: int) -> float:
        return float(self.centres[index] @ self.right)

    def line(self, row: list[int]) -> tuple[float, float]:
        """The row's line: its feet fitted as ``a + b × across`` (flat for one or two tiles)."""
        xs = np.array([self.across(i) for i in row])
        feet = np.array([self.foot(i) for i in row])
        if len(row) < 3 or np.ptp(xs) < 1e-6:
            return float(np.median(feet)), 0.0
        slope, intercept = np.polyfit(xs, feet, 1)
        return float(intercept), float(slope)

    def foot_off(self, row: list[int], index: int) -> float:
        """How far tile ``index``'s foot stands above the row's line, in its tiles' heights."""
        intercept, slope = self.line(row)
        return (self.foot(index) - intercept - slope * self.across(index)) / self.height_of(row)

    def height_of(self, row: list[int]) -> float:
        return float(np.median(self.heights[row]))

    def in_order(self, row: list[int]) -> list[int]:
        return sorted(row, key=self.across)

    def rows(self) -> list[list[int]]:
        """Rows of standing tiles: neighbours side by side, feet (or tops) in line, alike tall; pieces
        of a row split by a wide gap joined again when their lines meet."""
        standing = [int(i) for i in np.flatnonzero(self.standing)]
        parent = {i: i for i in standing}

        def root(i: int) -> int:
            while parent[i] != i:
                parent[i] = parent[parent[i]]
                i = parent[i]
            return i

        for a in standing:
            for b in standing:
                if b <= a:
                    continue
                height = min(self.heights[a], self.heights[b])
                width = max(self.widths[a], self.widths[b])
                ratio = self.heights[a] / self.heights[b]
                tops = self.foot(a) + self.heights[a] - self.foot(b) - self.heights[b]
                if (abs(self.across(a) - self.across(b)) <= ROW_REACH * width
                        and min(abs(self.foot(a) - self.foot(b)), abs(tops)) <= ROW_FEET * height
                        and ROW_HEIGHTS[0] <= ratio <= ROW_HEIGHTS[1]):
                    parent[root(a)] = root(b)
        groups: dict[int, list[int]] = {}
        for i in standing:
            groups.setdefault(root(i), []).append(i)
        rows = [self.in_order(group) for group in groups.values()]
        joined = True
        while joined:
            joined = False
            for first in rows:
                for other in rows:
                    if other is not first and self._one_line(first, other):
                        rows.remove(other)
                        rows[rows.index(first)] = self.in_order(first + other)
                        joined = True
                        break
                if joined:
                    break
        return rows

    def _one_line(self, first: list[int], other: list[int]) -> bool:
        ratio = self.height_of(first) / self.height_of(other)
        if not ROW_HEIGHTS[0] <= ratio <= ROW_HEIGHTS[1]:
            return False
        return (all(abs(self.foot_off(first, i)) <= JOIN_FEET for i in other)
                and all(abs(self.foot_off(other, i)) <= JOIN_FEET for i in first))

    def rack(self, rows: list[list[int]]) -> list[list[int]]:
        """The rack's rows, top first: the row with the most tiles among the rows of the
        largest tiles, and the rows of like tiles stacked on it as tiers."""
        tallest = max(self.height_of(row) for row in rows)
        large = [row for row in rows if self.height_of(row) >= RACK_ROW_HEIGHT * tallest]
        first = max(large, key=lambda row: (len(row), self.height_of(row)))
        rack = [first]
        grown = True
        while grown and len(rack) < TIERS:
            grown = False
            candidates = [row for row in rows if row not in rack and self._tier_of(rack, row)]
            if candidates:
                rack.append(max(candidates, key=len))
                grown = True
        return sorted(rack, key=lambda row: -self.line(row)[0])

    def _tier_of(self, rack: list[list[int]], row: list[int]) -> bool:
        """Whether ``row`` stands as a tier just above the rack's top row or just below its
        lowest: like tiles, parallel, overlapping, a tile height or a little more apart."""
        top = max(rack, key=lambda r: self.line(r)[0])
        lowest = min(rack, key=lambda r: self.line(r)[0])
        for near, above in ((top, True), (lowest, False)):
            ratio = self.height_of(row) / self.height_of(near)
            if not TIER_HEIGHTS[0] <= ratio <= TIER_HEIGHTS[1]:
                continue
            if above and ratio > UPPER_TIER_AT_MOST or not above and ratio < LOWER_TIER_AT_LEAST:
                continue
            apart = [self.foot_off(near, i) for i in row]
            if above:
                apart_ok = all(TIER_APART[0] <= a <= TIER_APART[1] for a in apart)
            else:
                # measured in the lower row's own heights: the feet of the row above stand
                # that far over its line
                apart_ok = all(TIER_APART[0] <= self.foot_off(row, i) <= TIER_APART[1]
                               for i in near)
            if len(row) == 1 and (not above or max(apart) > LONE_TIER_APART):
                continue  # one tile below the rack, or well above it, lies on the table
            if not apart_ok or abs(self.line(row)[1] - self.line(near)[1]) > TIER_PARALLEL:
                continue
            length = RACK_LENGTH * float(np.median(self.widths[near]))
            spots = [self.across(i) for r in [*rack, row] for i in r]
            if max(spots) - min(spots) <= length:
                return True
        return False

    def mostly_off(self, on_rack: set[int]) -> bool:
        """More tiles as large as the rack's off it than twice those on it, and more than a
        few: a table's row of sets taken for a rack."""
        height = float(np.median(self.heights[list(on_rack)]))
        readable = np.asarray(self.read.confidence) >= UNREADABLE
        off = sum(1 for i in range(len(self.heights)) if i not in on_rack and readable[i]
                  and self.heights[i] >= LIKE_SIZED * height)
        return off > max(OFF_RACK_SHARE * len(on_rack), FEW_AROUND)

    def strays(self, rack: list[list[int]], on_rack: set[int]) -> list[int]:
        """Standing tiles as large as the rack's, off its rows, whose feet stand on one of its
        lines (within STRAY_BAND tile heights) within its reach: the rack was not read whole."""
        height = float(np.median(self.heights[list(on_rack)]))
        reach = float(np.median(self.widths[list(on_rack)]))
        start = min(self.across(i) for i in on_rack) - reach
        stop = max(self.across(i) for i in on_rack) + reach
        return [i for i in np.flatnonzero(self.standing) if i not in on_rack
                and self.heights[i] >= RACK_ROW_HEIGHT * height
                and start <= self.across(i) <= stop
                and any(abs(self.foot_off(row, i)) <= STRAY_BAND for row in rack)]

    def outline_upright(self, index: int) -> tuple[tuple[int, int], ...]:
        """The tile's outline with its top the end facing the rack's up."""
        corners = np.asarray(self.read.corners[index], np.float64)
        turns = [np.roll(corners, -shift, axis=0) for shift in range(4)]
        best = max(turns, key=lambda c: float(((c[0] + c[1]) / 2 - (c[2] + c[3]) / 2) @ self.up))
        return tuple((int(np.rint(x)), int(np.rint(y))) for x, y in best)


def _rack_up(ups: np.ndarray, weights: np.ndarray, readable: np.ndarray) -> np.ndarray:
    """The rack's up: the photo's up when the tiles' long sides run up and down the photo
    (weighted by size), else (a photo that came sideways) the side most of the tiles' tops
    face as the reader read them; then the mean of the tiles' long axes near it. The reader's
    sense of a tile's end is not trusted over the photo's up: on the black racks of the
    labelled photos it read most standing tiles upside down."""
    weights = np.where(readable, weights, 0.0)
    vertical = float((weights * (np.abs(ups[:, 1]) >= UP_AXIS_COS)).sum())
    sideways = float((weights * (np.abs(ups[:, 0]) > UP_AXIS_COS)).sum())
    if vertical >= sideways:
        axis = np.array([0.0, -1.0])
    else:
        facing_right = float((weights * (ups[:, 0] > UP_AXIS_COS)).sum())
        axis = np.array([1.0, 0.0]) if 2 * facing_right >= sideways else np.array([-1.0, 0.0])
    signs = np.where(ups @ axis >= 0, 1.0, -1.0)[:, None]
    near = (np.abs(ups @ axis) >= UP_AXIS_COS) & readable
    if not near.any():
        return axis
    mean = (ups[near] * signs[near] * weights[near, None]).sum(axis=0)
    return mean / (np.linalg.norm(mean) or 1.0)
