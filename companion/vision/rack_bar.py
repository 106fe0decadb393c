"""Whether a rack's bar is seen under its lowest row: evidence for a sure reading, not a gate.

Under the feet of a rack's lowest row runs its ledge: a band of one colour the length of the
row, running on under the gaps between its tiles, ending in a straight edge parallel to the
row. A row of tiles lying on a table has table under it, no such edge. The band is
resampled in the rack's own frame (``rack_rows.Tiles``: its up, and the row's line of feet),
so a slant or a turn of the photo leaves it straight.
"""

from __future__ import annotations

import cv2
import numpy as np

from companion.vision.rack_rows import Tiles

PIXELS_PER_HEIGHT = 40  # the band is resampled at 40 px per tile height
EDGE_FROM, EDGE_TO = 0.12, 1.8  # where the bar's lower edge may lie, in tile heights under
# the row's feet: a ledge's, or (no lower tier's tiles in front of it) the lower board's
EDGE_STEP = 10.0  # a colour step (CIELab ΔE over two pixels, lightness counted half)
DARK_BELOW, DARK_STEP_SHARE = 15.0, 0.4  # where either side is under L 15, a step counts
# this share of EDGE_STEP (a black rack's ledge on a dark table: L 7-14 against 11-25)
EDGE_SLACK = 2  # pixels (of 40 a tile height) the edge may wander off one line
SUPPORT = 0.7  # share of the row's length (gaps too) where the edge shows on that line
PAST_ENDS = 0.5  # tile widths past the row's end tiles where the bar is looked for too
EVEN = 0.55  # share of the row's length whose bar is the bar's median colour
EVEN_DELTA = 14.0  # ΔE (lightness counted half) within which a column's bar is that colour
BAR_FROM = 0.04  # tile heights under the feet where the bar's colour is taken from
WEIGHTS = np.float32([0.5, 1.0, 1.0])  # CIELab L, a, b


def bar_under(image: np.ndarray, scale: float, tiles: Tiles, row: list[int]) -> bool:
    """Whether a bar is seen under ``row`` (indexes into ``tiles``) in ``image``, a decode of
    the photo at ``scale`` of its size: the deepest line under the row where a colour step
    shows on most of the row's length (and past its ends), a band of one colour above it."""
    height = tiles.height_of(row)
    half = float(np.median(tiles.widths[row])) * (0.5 + PAST_ENDS)
    start, stop = tiles.along[row].min() - half, tiles.along[row].max() + half
    columns = max(int((stop - start) / height * PIXELS_PER_HEIGHT), 4)
    depths = np.arange(0.0, EDGE_TO + EDGE_SLACK / PIXELS_PER_HEIGHT, 1 / PIXELS_PER_HEIGHT)
    intercept, slope = tiles.line(row)
    along = np.linspace(start, stop, columns)
    level = intercept + slope * along  # the feet's place up the rack, per column
    up_at = level[None, :] - depths[:, None] * height
    points = (along[None, :, None] * tiles.right + up_at[..., None] * tiles.up) * scale
    map_x, map_y = points[..., 0].astype(np.float32), points[..., 1].astype(np.float32)
    inside = ((map_x >= 0) & (map_x <= image.shape[1] - 1)
              & (map_y >= 0) & (map_y <= image.shape[0] - 1))
    strip = cv2.remap(image, map_x, map_y, cv2.INTER_LINEAR)
    lab = cv2.cvtColor(strip.astype(np.float32) / 255, cv2.COLOR_BGR2Lab) * WEIGHTS
    # at depth row r + 1; a step is not seen where the band runs out of the photo
    steps = np.where(inside[2:] & inside[:-2], np.linalg.norm(lab[2:] - lab[:-2], axis=2), 0)
    dark = np.minimum(lab[2:, :, 0], lab[:-2, :, 0]) < DARK_BELOW * WEIGHTS[0]
    steps = np.where(dark, steps / DARK_STEP_SHARE, steps)  # in EDGE_STEP's measure
    first = round(EDGE_FROM * PIXELS_PER_HEIGHT)
    stepped = steps >= EDGE_STEP
    stepped[:first - 1] = False  # the tiles' own feet (an outline a little short) are no bar
    # a step within EDGE_SLACK rows of each depth, per column
    near = cv2.dilate(stepped.astype(np.uint8), np.ones((2 * EDGE_SLACK + 1, 1), np.uint8))
    support = near[first - 1:].mean(axis=1)
    if support.max() < SUPPORT:
        return False
    # the deepest such line: the bar's lower edge, the table beyond it (a lip or a tile's
    # foot shows above it)
    edge = first + int(np.flatnonzero(support >= SUPPORT)[-1])
    top = round(BAR_FROM * PIXELS_PER_HEIGHT)
    bar = lab[top:max(edge - EDGE_SLACK, top + 2)]
    seen = inside[top:max(edge - EDGE_SLACK, top + 2)].all(axis=0)
    if not seen.any():
        return False
    colours = np.median(bar[:, seen], axis=0)
    even = np.linalg.norm(colours - np.median(colours, axis=0), axis=1) <= EVEN_DELTA
    return bool(even.sum() >= EVEN * columns)
