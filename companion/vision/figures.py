"""A classic 6 or 9 read by its figure, the way up its neighbours stand.

The classic reader reads a tile at any turn, and a classic 6 turned round is drawn as a 9:
without the logo under the number it cannot tell an upright 6 from a 9 turned round (on the
composed classic racks, 17 of 59 misreads). The figure as it stands, a loop low or high, a
small network can (``networks.figure_nine``), once the tile's up is known. Tiles that stand
together, a rack's or a set's laid on the table, stand one way up: the way most of those
whose number reads one way up only point (``doubts.ONE_WAY_UP``). The rack step
(``rack.read_rack_image``) and the table's reading (``pipeline.read_decoded``, set by set) both ask
``read_by_figure``.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np

from companion.core.tiles import Colour, Tile
from companion.vision.classes import TILE_CLASSES
from companion.vision.crops import crop_tile, top_towards
from companion.vision.doubts import ONE_WAY_UP, SIX_OR_NINE
from companion.vision.networks import figure_nine
from companion.vision.reading import FIGURE_SAYS_OTHER, ReadTile

if TYPE_CHECKING:  # the pipeline reads a table's 6s and 9s by their figure through this module
    from companion.vision.decode import DecodedPhoto
    from companion.vision.found import ReadFound

AGREEING_AT_LEAST = 2  # one-way-up tiles that must say which end is up

SIX_NINE_SWAPPED = {Tile.numbered(colour, number): Tile.numbered(colour, 15 - number)
                    for colour in Colour for number in (6, 9)}


def read_by_figure(image: np.ndarray, scale: float, read: ReadFound, together: list[int],
                   ups: np.ndarray, axis: np.ndarray) -> dict[int, float]:
    """The classic 6s and 9s among ``together`` (indexes into ``read``: tiles standing one
    way up, along ``axis`` or against it; ``ups``: every tile's up as read, a unit vector
    from its foot's middle to its top's) whose figure, cut with its top the way most of
    their one-way-up tiles point (at least AGREEING_AT_LEAST of them, and more one way than
    the other), reads as the other number. ``image`` is a decode of the photo at ``scale``
    of its size, lit as it was read. Nothing for a reading of the current design: its 6s and
    9s are told apart by the logo under the number. Each is given with how surely its
    figure reads as the other number."""
    if not read.classic:
        return {}
    sixes_and_nines = [index for index in together if int(read.best[index]) in SIX_OR_NINE]
    one_way = [index for index in together if int(read.best[index]) in ONE_WAY_UP]
    if not sixes_and_nines or len(one_way) < AGREEING_AT_LEAST:
        return {}
    along = int((ups[one_way] @ axis >= 0).sum())
    if 2 * along == len(one_way):
        return {}
    up = axis if 2 * along > len(one_way) else -axis
    crops = np.stack([crop_tile(image, top_towards(read.corners[index], up) * scale)
                      for index in sixes_and_nines])
    nine = figure_nine(crops)
    return {index: float(max(p, 1 - p)) for index, p in zip(sixes_and_nines, nine)
            if (p >= 0.5) != (TILE_CLASSES[int(read.best[index])].number == 9)}


def read_in_sets_by_figure(photo: DecodedPhoto, read: ReadFound, sets: list[list[int]],
                           ups: np.ndarray) -> dict[int, float]:
    """``read_by_figure`` for each set of a table's reading (a set is laid one way up, as a
    rack's tiles stand), along its first tile's up."""
    if not read.classic or not any(int(best) in SIX_OR_NINE for best in read.best):
        return {}
    image, scale = read.prepared(photo.image), 1 / photo.factor
    other: dict[int, float] = {}
    for meld in sets:
        other |= read_by_figure(image, scale, read, meld, ups, ups[meld[0]])
    return other


def as_the_other(tile: ReadTile, figure_sure: float) -> ReadTile:
    """A 6 read as its figure's 9 (or a 9 as a 6), unsure, what the reader read first
    offered among the alternatives; as sure as the reader was of the tile times the figure
    reader of its figure (the percentage a player is shown)."""
    other = SIX_NINE_SWAPPED[tile.tile]
    return replace(tile, tile=other, confidence=tile.confidence * figure_sure,
                   low_confidence=True, doubt=tile.doubt or FIGURE_SAYS_OTHER,
                   alternatives=(tile.tile, *(
                       alternative for alternative in tile.alternatives
                       if alternative not in (tile.tile, other))))
