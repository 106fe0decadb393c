"""The reader's "no tile" boxes (training/negatives.py: numpy and OpenCV only, no torch)."""

from __future__ import annotations

import cv2
import numpy as np

from tests.vision.conftest import labelled_photo
from training.negatives import MAX_OVERLAP, negative_boxes, overlap_share, tile_rects


def _tile(centre: tuple[float, float], angle: float = 0.0) -> np.ndarray:
    return cv2.boxPoints((centre, (40.0, 56.0), angle)).astype(np.float32)


def test_boxes_lie_over_no_tile_centre_and_little_tile_inside_the_picture() -> None:
    # a set of four tiles side by side across the middle, and one tile turned on its own
    polygons = [_tile((200.0 + 41 * i, 240.0)) for i in range(4)] + [_tile((500.0, 100.0), 30)]
    tiles = tile_rects(polygons)
    boxes = negative_boxes((640, 480), polygons, 60, np.random.default_rng(3))
    assert len(boxes) == 60
    for box in boxes:
        corners = cv2.boxPoints(box)
        assert corners.min() >= 0 and corners[:, 0].max() <= 639 and corners[:, 1].max() <= 479
        assert overlap_share(box, tiles) <= MAX_OVERLAP
        assert all(cv2.pointPolygonTest(corners.astype(np.float32), tile[0], False) < 0
                   for tile in tiles)
        short, long = sorted(box[1])
        assert 0.8 * 40 <= short <= 1.25 * 40 and 0.8 * 56 <= long <= 1.25 * 56


def test_some_boxes_lie_just_beside_a_tile_where_a_set_would_go_on() -> None:
    polygons = [_tile((200.0 + 41 * i, 240.0)) for i in range(4)]
    boxes = negative_boxes((640, 480), polygons, 80, np.random.default_rng(5))
    centres = np.array([box[0] for box in boxes])
    # off either end of the set, on its line (within half a tile of it)
    beside = (np.abs(centres[:, 1] - 240) < 28) & (
        (np.abs(centres[:, 0] - 159) < 30) | (np.abs(centres[:, 0] - 364) < 30))
    assert beside.sum() >= 5


def test_a_picture_without_tiles_gives_no_boxes_and_a_full_one_gives_few() -> None:
    rng = np.random.default_rng(1)
    assert negative_boxes((640, 480), [], 10, rng) == []
    # tiles edge to edge over the whole picture leave no room for a box of bare table
    full = [_tile((20.0 + 40 * i, 28.0 + 56 * j)) for i in range(16) for j in range(9)]
    assert negative_boxes((640, 480), full, 10, rng) == []


def test_boxes_on_a_labelled_photo_cover_no_labelled_tile() -> None:
    _, labels = labelled_photo("rummy-43_jpeg")
    polygons = [outline for _, outline in labels]
    boxes = negative_boxes((640, 640), polygons, 12, np.random.default_rng(7))
    assert boxes
    tiles = tile_rects(polygons)
    assert all(overlap_share(box, tiles) <= MAX_OVERLAP for box in boxes)
