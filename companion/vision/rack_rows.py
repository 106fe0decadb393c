"""Which of the tiles read stand on the rack: rows of large upright tiles, one to three tiers.

Tiles on a rack stand upright side by side, their feet on one line; a rack holds one to three
such rows (tiers), a tile height or a little more apart. A player's tiles spread on the table
in rows to be photographed are read as a rack of as many tiers (up to TIERS). The rack is
the row with the most of the largest tiles, with the rows of like tiles stacked on it; every
other tile is left out.
No bar is looked for here: a bar seen is evidence for sureness only (``rack_bar``, ``rack``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import permutations

import numpy as np

from companion.vision.crops import SQUARISH, top_towards
from companion.vision.errors import PhotoError
from companion.vision.found import ReadFound

NO_RACK = ("no rack found: no row of upright tiles was seen; photograph the rack from the "
           "front or a little from above, the tiles large and upright")
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
JOIN_FEET = 0.35  # two pieces of a row (a wide gap between): one line, leaning no more than
# TIER_PARALLEL, runs within this of every foot of both (a piece of one or two tiles fitted
# flat missed the other piece's feet under a slant: rummy3-16 seen from the right)
LINE_TILES = 4  # a piece of a row this long has a line of its own: another piece whose feet
# stand a tier off it (TIER_APART) is no piece of that row (a line fitted through both ran
# within JOIN_FEET of a lower tier of five and two tiles of the tier above, five tile widths
# on: composed classic rack 26, seed 2900)
FOOT_HEIGHT = 0.8  # a tile outlined under this share of its row's height shows no foot (a tile
# half hidden behind its neighbour, outlined 0.7 as tall from its top, tilted its tier's line)
RACK_ROW_HEIGHT = 0.8  # the rack's row is among the rows whose tiles are at least this tall
TIER_APART = (0.6, 1.9)  # tile heights between the feet of two tiers (an upper tier stands
# on the lower tier's board, its feet hidden behind the lower tiles: rummy4-87 at 0.76)
TIER_PARALLEL = 0.2  # tile heights per tile width: how much two tiers' lines may lean apart
# a tier's tiles against those of the row it stands on: one above, further off, looks no taller
# (rummy3-9: 1.17, the lower tier's feet hidden); one below, nearer the camera, no shorter (but
# a ledge's lip may hide their feet; a set lying in front, foreshortened, looks shorter)
ABOVE_HEIGHTS, BELOW_HEIGHTS = (0.6, 1.3), (0.8, 1.4)
TIERS = 6  # rows stacked: a rack's one to three tiers, or tiles spread on the table in rows
# (the classic crops' own photos: four rows of thirteen and the jokers below; every measured
# rack and render read the same at 3 and at 6; benchmarks.spread_composites --count 12,
# that layout: 452 -> 603 of 648)
LONE_TIER_APART = 1.5  # a tier of one tile stands above the rack's row, at most this far
RACK_LENGTH = 16  # tile widths: a rack and its tiers' tiles together lie within one rack's length
# (rummy3-17: one tile on each tier, six tile widths apart)
LIKE_SIZED = 0.7  # a tile at least this tall against the rack's lies as near as they do
OFF_RACK_SHARE = 2  # more such tiles off the rack than twice those on it: a table photo
FEW_AROUND = 3  # ... unless they are a few (a tile just drawn, the pool's edge)
STRAY_BAND = 0.5  # tile heights: a large upright tile this near a tier's line, off its rows


@dataclass(frozen=True, eq=False)
class RackRows:
    """The rack found among the tiles read: its rows (top first, each left to right, as
    indexes into the reading) in the rack's frame (``tiles``), and the standing tiles found
    on one of its lines off its rows and put in the row they stand by (``strays``)."""

    tiles: Tiles
    rows: list[list[int]]
    strays: list[int]
    turned: bool = False  # read with the rack's up turned round from its tiles' (see find_rack)

    @property
    def on_rack(self) -> set[int]:
        return {index for row in self.rows for index in row}


def find_rack(read: ReadFound) -> RackRows:
    """The rack among the tiles read; PhotoError ``no_rack`` when no row of upright tiles is
    found, or when most tiles as large as the row taken lie off it (a table photo). The
    rack is looked for with its up the way the tiles' long sides point, and turned round
    (an upside-down photo: its tiers are stacked the other way); the turned reading is taken
    when it holds more tiles, and says so (``turned``: a tile lying on the table in front of
    a rack is a tier of one above it when the rack's up is turned round)."""
    tiles = Tiles.of(read)
    upright, turned = _rack_in(tiles), _rack_in(Tiles.of(read, -tiles.up))
    if isinstance(turned, RackRows) and (
            not isinstance(upright, RackRows) or len(turned.on_rack) > len(upright.on_rack)):
        return replace(turned, turned=True)
    if isinstance(upright, PhotoError):
        raise upright
    return upright


def _rack_in(tiles: Tiles) -> RackRows | PhotoError:
    rows = tiles.rows()
    if not rows:
        return PhotoError(NO_RACK, "no_rack")
    rack = tiles.rack(rows)
    on_rack = {index for row in rack for index in row}
    height = tiles.height_of(list(on_rack))
    # more tiles as large as the rack's off it than twice those on it, and more than a few:
    # a table's row of sets taken for a rack
    off = [i for i in np.flatnonzero(tiles.readable)
           if i not in on_rack and tiles.heights[i] >= LIKE_SIZED * height]
    if len(off) > max(OFF_RACK_SHARE * len(on_rack), FEW_AROUND):
        return PhotoError(NOT_A_RACK, "no_rack")
    # standing tiles as large as the rack's, off its rows, whose feet stand on one of its
    # lines within its reach: the rack was not read whole
    start, stop = tiles.span(on_rack)
    strays = [i for i in np.flatnonzero(tiles.standing) if i not in on_rack
              and tiles.heights[i] >= RACK_ROW_HEIGHT * height
              and start <= tiles.along[i] <= stop
              and any(abs(tiles.foot_off(row, i)) <= STRAY_BAND for row in rack)]
    for index in strays:  # put each in the row it stands by
        nearest = min(range(len(rack)), key=lambda r: abs(tiles.foot_off(rack[r], index)))
        rack[nearest] = tiles.in_order(rack[nearest] + [index])
    return RackRows(tiles, rack, strays)


@dataclass(frozen=True, eq=False)
class Tiles:
    """The tiles read, in the rack's own frame: its up (the direction the standing tiles'
    tops share), and per tile its centre, up, height, width, its foot's place up the rack
    (``feet``: its middle less half its height) and its middle's place along it."""

    read: ReadFound
    up: np.ndarray
    centres: np.ndarray
    ups: np.ndarray
    heights: np.ndarray
    widths: np.ndarray
    readable: np.ndarray  # boxes read as some tile
    standing: np.ndarray  # readable boxes that may stand on a rack (upright)
    feet: np.ndarray
    along: np.ndarray

    @classmethod
    def of(cls, read: ReadFound, up: np.ndarray | None = None) -> Tiles:
        corners = np.array(read.corners, np.float64)
        centres = corners.mean(axis=1)
        ups = (corners[:, 0] + corners[:, 1] - corners[:, 2] - corners[:, 3]) / 2
        heights = np.linalg.norm(ups, axis=1)
        ups = ups / np.maximum(heights, 1e-6)[:, None]
        widths = np.linalg.norm(corners[:, 1] - corners[:, 0], axis=1)
        confidence = np.asarray(read.confidence)
        readable = confidence >= UNREADABLE
        up = _rack_up(ups, heights * widths * confidence, readable) if up is None else up
        squarish = widths > SQUARISH * heights
        standing = readable & (squarish | (np.abs(ups @ up) >= STANDING_COS))
        # a squarish outline (a tile seen from above) stands as the rack's tiles stand: its
        # height is measured along the rack's up, whichever of its sides the detector took
        long = np.abs(np.einsum("nij,j->ni", corners - centres[:, None], up)).max(axis=1) * 2
        heights = np.where(squarish, np.maximum(long, 1.0), heights)
        right = np.array([-up[1], up[0]])
        return cls(read, up, centres, ups, heights, widths, readable, standing,
                   centres @ up - heights / 2, centres @ right)

    @property
    def right(self) -> np.ndarray:
        return np.array([-self.up[1], self.up[0]])

    def span(self, indexes: set[int]) -> tuple[float, float]:
        """From a tile width before the first of these tiles to one past the last, along."""
        reach = float(np.median(self.widths[list(indexes)]))
        spots = self.along[list(indexes)]
        return spots.min() - reach, spots.max() + reach

    def line(self, row: list[int]) -> tuple[float, float]:
        """The row's line: its feet fitted as ``a + b × across`` (flat for one or two tiles).
        A tile outlined under FOOT_HEIGHT of the row's height (part of it hidden behind a
        neighbour, or its foot behind a ledge's lip) shows no foot to fit when three others do."""
        least = FOOT_HEIGHT * self.height_of(row)
        tall = [i for i in row if self.heights[i] >= least]
        row = tall if len(tall) >= 3 else row
        xs, feet = self.along[row], self.feet[row]
        if len(row) < 3 or np.ptp(xs) < 1e-6:
            return float(np.median(feet)), 0.0
        slope, intercept = np.polyfit(xs, feet, 1)
        return float(intercept), float(slope)

    def feet_off(self, row: list[int], indexes: list[int]) -> np.ndarray:
        """How far these tiles' feet stand above the row's line, in its tiles' heights (the
        line fitted once for them all)."""
        intercept, slope = self.line(row)
        return (self.feet[indexes] - intercept - slope * self.along[indexes]) / self.height_of(row)

    def foot_off(self, row: list[int], index: int) -> float:
        """How far tile ``index``'s foot stands above the row's line, in its tiles' heights."""
        return float(self.feet_off(row, [index])[0])

    def height_of(self, row: list[int]) -> float:
        return float(np.median(self.heights[row]))

    def in_order(self, row: list[int]) -> list[int]:
        return sorted(row, key=lambda i: self.along[i])

    def rows(self) -> list[list[int]]:
        """Rows of standing tiles: neighbours side by side, feet (or tops) in line, alike
        tall; pieces of a row split by a wide gap joined again when one line runs through all
        their feet."""
        standing = np.flatnonzero(self.standing)
        heights, widths = self.heights[standing], self.widths[standing]
        spots, feet = self.along[standing], self.feet[standing]
        ratio = heights[:, None] / heights[None, :]
        side_by_side = (np.abs(spots[:, None] - spots[None, :])
                        <= ROW_REACH * np.maximum.outer(widths, widths))
        in_line = np.minimum(np.abs(feet[:, None] - feet[None, :]),
                             np.abs((feet + heights)[:, None] - (feet + heights)[None, :]))
        linked = np.triu(  # each pair once, the earlier tile's height over the later's
            side_by_side & (in_line <= ROW_FEET * np.minimum.outer(heights, heights))
            & (ROW_HEIGHTS[0] <= ratio) & (ratio <= ROW_HEIGHTS[1]), 1)
        linked |= linked.T
        labels = np.arange(len(standing))  # each tile's row: the first tile linked to it
        while True:
            linked_to = np.where(linked, labels, labels.size).min(axis=1, initial=labels.size)
            fewer = np.minimum(labels, linked_to)
            if (fewer == labels).all():
                break
            labels = fewer
        rows = [self.in_order([int(i) for i in standing[labels == label]])
                for label in dict.fromkeys(labels.tolist())]
        while pair := next(((first, other) for first, other in permutations(rows, 2)
                            if self._one_line(first, other)), None):
            first, other = pair
            rows.remove(other)
            rows[rows.index(first)] = self.in_order(first + other)
        return rows

    def _one_line(self, first: list[int], other: list[int]) -> bool:
        """Whether two pieces are one row split by a wide gap: one past the other's end
        (a box the detector drew between the tiers of a rack renders, over two tiles' feet,
        lies among the row's tiles: no piece of it), alike tall, their feet on one line."""
        ratio = self.height_of(first) / self.height_of(other)
        spots, others = self.along[first], self.along[other]
        if (not ROW_HEIGHTS[0] <= ratio <= ROW_HEIGHTS[1]
                or others.min() < spots.max() and spots.min() < others.max()):
            return False
        joined = first + other
        longer, shorter = (first, other) if len(first) >= len(other) else (other, first)
        if (len(longer) >= LINE_TILES
                and np.median(np.abs(self.feet_off(longer, shorter))) >= TIER_APART[0]):
            return False  # the other piece stands a tier off the longer piece's own line
        return abs(self.line(joined)[1]) <= TIER_PARALLEL \
            and bool((np.abs(self.feet_off(joined, joined)) <= JOIN_FEET).all())

    def rack(self, rows: list[list[int]]) -> list[list[int]]:
        """The rack's rows, top first: the row with the most tiles among the rows of the
        largest tiles, and the rows of like tiles stacked on it as tiers, the nearest first
        (a row two tile heights off may pass as a tier too: taken first, it would leave the
        row between out, neither above the rack's top nor below its lowest)."""
        tallest = max(self.height_of(row) for row in rows)
        large = [row for row in rows if self.height_of(row) >= RACK_ROW_HEIGHT * tallest]
        rack = [max(large, key=lambda row: (len(row), self.height_of(row)))]
        while len(rack) < TIERS and (tiers := [row for row in rows if row not in rack
                                               and self._tier_of(rack, row)]):
            rack.append(min(tiers, key=lambda row: (self._off_rack(rack, row), -len(row))))
        return sorted(rack, key=lambda row: -self.line(row)[0])

    def _off_rack(self, rack: list[list[int]], row: list[int]) -> float:
        """How far ``row``'s line lies from the nearest of the rack's, in its tiles' heights."""
        return min(abs(self.line(row)[0] - self.line(other)[0]) for other in rack) \
            / self.height_of(row)

    def _tier_of(self, rack: list[list[int]], row: list[int]) -> bool:
        """Whether ``row`` stands as a tier just above the rack's top row or just below its
        lowest: like tiles, parallel, overlapping, a tile height or a little more apart."""
        top = max(rack, key=lambda r: self.line(r)[0])
        lowest = min(rack, key=lambda r: self.line(r)[0])
        spots = self.along[[i for r in [*rack, row] for i in r]]
        for near, above, heights in ((top, True, ABOVE_HEIGHTS), (lowest, False, BELOW_HEIGHTS)):
            apart = self._apart(near, row) if above else self._apart(row, near)
            if (heights[0] <= self.height_of(row) / self.height_of(near) <= heights[1]
                    # one tile below the rack, or well above it, lies on the table
                    and not (len(row) == 1 and (not above or max(apart) > LONE_TIER_APART))
                    and all(TIER_APART[0] <= a <= TIER_APART[1] for a in apart)
                    and abs(self.line(row)[1] - self.line(near)[1]) <= TIER_PARALLEL
                    and max(spots) - min(spots)
                    <= RACK_LENGTH * float(np.median(self.widths[near]))):
                return True
        return False

    def _apart(self, lower: list[int], upper: list[int]) -> np.ndarray:
        """How far the upper row's feet stand over the lower row's line, in the lower row's
        tile heights, measured from the line of the row of more tiles (a row of one or two
        is fitted flat: rummy3-7's lower tier of two under a slanting upper tier of four)."""
        if len(lower) >= len(upper):
            return self.feet_off(lower, upper)
        return -self.feet_off(upper, lower) * (self.height_of(upper) / self.height_of(lower))

    def outline_upright(self, index: int) -> tuple[tuple[int, int], ...]:
        """The tile's outline with its top the end facing the rack's up."""
        best = top_towards(np.asarray(self.read.corners[index], np.float64), self.up)
        return tuple((int(np.rint(x)), int(np.rint(y))) for x, y in best)


def _rack_up(ups: np.ndarray, weights: np.ndarray, readable: np.ndarray) -> np.ndarray:
    """The rack's up: the photo's up when the tiles' long sides run up and down it (weighted
    by size and how surely each is read: a rack seen from one end stretches its near tiles
    until they are outlined wider than tall, large and read poorly that way), else (a photo
    that came sideways) the side most tops face as read; then the mean of the tiles' long
    axes near it. The reader's sense of a tile's end is not trusted over the photo's up: it
    read most tiles on the labelled photos' black racks upside down."""
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
