"""Grouping found tiles into sets and putting each set in laid order.

Tiles of one set lie side by side, long sides touching or nearly: two tiles are neighbours
when, seen along either tile's axes, they are offset across by little more than one tile
width and hardly offset along the long side. Sets are the connected groups of neighbours.
The laid order runs left to right as a player sitting behind the upright tiles reads them.
"""

from __future__ import annotations

import numpy as np

NEIGHBOUR_STEP = 1.25  # centre distance across, in tile widths: touching is ≈1.0
NEIGHBOUR_SHIFT = 0.5  # offset along the long side, in tile heights


def group_into_sets(centres: np.ndarray, ups: np.ndarray, widths: np.ndarray,
                    heights: np.ndarray) -> list[list[int]]:
    """Sets as lists of tile indexes in laid order.

    ``ups`` holds a unit vector per tile pointing from the bottom of its number to the top
    (image coordinates, y down); ``widths``/``heights`` are the short and long sides.
    """
    count = len(centres)
    parent = list(range(count))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    # the pairs near enough to be neighbours, found at once (a Python loop over every pair
    # of a table of 54 tiles took 4 ms); the others are never looked at
    first, second = np.triu_indices(count, 1)
    offsets = np.reshape(centres, (-1, 2))[second] - np.reshape(centres, (-1, 2))[first]
    near = np.hypot(offsets[:, 0], offsets[:, 1]) \
        <= NEIGHBOUR_STEP * ((heights[first] + heights[second]) / 2)
    for i, j in zip(first[near].tolist(), second[near].tolist()):
        offset = centres[j] - centres[i]
        width = (widths[i] + widths[j]) / 2
        height = (heights[i] + heights[j]) / 2
        for axis in (ups[i], ups[j]):  # one tile's outline may be off; either may vouch
            along_long = abs(float(offset @ axis))
            across = abs(float(offset @ np.array([-axis[1], axis[0]])))
            if across < NEIGHBOUR_STEP * width and along_long < NEIGHBOUR_SHIFT * height:
                parent[root(i)] = root(j)
                break

    members: dict[int, list[int]] = {}
    for i in range(count):
        members.setdefault(root(i), []).append(i)
    sets = []
    for indexes in members.values():
        sets.append(_laid_order(indexes, centres, ups))
    return _rows_then_columns(sets, centres, heights)


def _laid_order(indexes: list[int], centres: np.ndarray, ups: np.ndarray) -> list[int]:
    """Left to right for a player facing the tiles upright (majority vote of the tiles' up)."""
    reference = ups[indexes[0]]
    total = np.zeros(2)
    agreeing = 0
    for i in indexes:
        along = float(ups[i] @ reference) >= 0
        agreeing += 1 if along else -1
        total += ups[i] if along else -ups[i]
    if agreeing < 0:  # most tiles point the other way from the first one: they are right
        total = -total
    up = total / (np.linalg.norm(total) or 1.0)
    right = np.array([-up[1], up[0]])  # y points down: up (0,-1) gives right (1,0)
    return sorted(indexes, key=lambda i: float(centres[i] @ right))


def _rows_then_columns(sets: list[list[int]], centres: np.ndarray,
                       heights: np.ndarray) -> list[list[int]]:
    """Order sets in reading order: rows of sets (by centre height, a tile tall), then x."""
    if not sets:
        return sets
    row_height = float(np.median(heights)) or 1.0
    keyed = []
    for meld in sets:
        centre = np.mean([centres[i] for i in meld], axis=0)
        keyed.append((centre, meld))
    keyed.sort(key=lambda item: item[0][1])
    rows: list[list[tuple[np.ndarray, list[int]]]] = []
    for item in keyed:
        if rows and abs(item[0][1] - rows[-1][0][0][1]) < 0.6 * row_height:
            rows[-1].append(item)
        else:
            rows.append([item])
    return [meld for row in rows for _, meld in sorted(row, key=lambda item: item[0][0])]
