"""Grouping tiles into sets and the laid order, on tile positions alone."""

from __future__ import annotations

import numpy as np

from companion.vision.layout import group_into_sets

UP = np.array([0.0, -1.0])  # image y points down


def a_row(xs: list[float], *, y: float = 100.0, ups: list[np.ndarray] | None = None):
    centres = np.array([[x, y] for x in xs])
    ups_array = np.array(ups if ups is not None else [UP] * len(xs))
    return centres, ups_array, np.full(len(xs), 26.0), np.full(len(xs), 36.0)


def test_touching_tiles_form_one_set_left_to_right():
    centres, ups, widths, heights = a_row([154, 100, 127, 181])
    assert group_into_sets(centres, ups, widths, heights) == [[1, 2, 0, 3]]


def test_a_gap_of_a_tile_width_separates_two_sets():
    centres, ups, widths, heights = a_row([100, 127, 154, 206, 233, 260])
    assert group_into_sets(centres, ups, widths, heights) == [[0, 1, 2], [3, 4, 5]]


def test_a_tile_lying_upside_down_does_not_turn_the_set_around():
    ups = [-UP, UP, UP, UP]  # the first tile is upside down
    centres, ups_array, widths, heights = a_row([100, 127, 154, 181], ups=ups)
    assert group_into_sets(centres, ups_array, widths, heights) == [[0, 1, 2, 3]]


def test_a_set_whose_tops_point_left_reads_from_the_bottom_up():
    left = np.array([-1.0, 0.0])
    centres = np.array([[100.0, 200.0], [100.0, 173.0], [100.0, 146.0]])
    ups = np.array([left] * 3)
    sets = group_into_sets(centres, ups, np.full(3, 26.0), np.full(3, 36.0))
    assert sets == [[0, 1, 2]]


def test_sets_in_rows_are_listed_in_reading_order():
    top = a_row([300, 327, 354], y=100)
    bottom = a_row([100, 127, 154], y=200)
    centres = np.concatenate([bottom[0], top[0]])
    ups = np.concatenate([bottom[1], top[1]])
    sets = group_into_sets(centres, ups, np.full(6, 26.0), np.full(6, 36.0))
    assert sets == [[3, 4, 5], [0, 1, 2]]
