"""The detector's training crops of small, soft tiles (training/train_detector.py --small-share;
needs the ``train`` extra: torch)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.vision.conftest import labelled_photo

pytest.importorskip("torch")

from training.train_detector import (  # after the skip: torch is optional
    CROP,
    can_shrink,
    masks_for,
    sample,
    tile_width,
)


def _touching_white_tiles() -> tuple[np.ndarray, np.ndarray, float]:
    """A dark table with four rows of eight white tiles 60×80 px, two pixels apart."""
    image = np.full((640, 640, 3), 40, np.uint8)
    polygons = []
    for row in range(4):
        for column in range(8):
            x, y = 60 + column * 62, 80 + row * 120
            polygon = np.array([[x, y], [x + 60, y], [x + 60, y + 80], [x, y + 80]], np.float32)
            polygons.append(polygon)
            cv2.fillPoly(image, [polygon.astype(np.int32)], (230, 230, 230))
    return image, masks_for(polygons, image.shape[:2]), tile_width(polygons)


def test_a_shrunk_soft_crop_is_labelled_where_its_tiles_lie() -> None:
    item = _touching_white_tiles()
    assert can_shrink(item)
    mismatches = []
    for seed in range(24):
        crop, target, _ = sample(item, np.random.default_rng(seed), small=True)
        assert crop.shape == (CROP, CROP, 3) and target.shape == (2, CROP // 2, CROP // 2)
        grey = cv2.resize(cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY), (CROP // 2, CROP // 2),
                          interpolation=cv2.INTER_AREA)
        tiles = target[0] > 0.5
        if tiles.sum() > 50:
            mismatches.append(float(((grey > grey.mean()) ^ tiles).sum() / tiles.sum()))
    # the photometric changes (glare, gamma) move the threshold now and then: the median
    assert np.median(mismatches) < 0.12


def test_touching_small_tiles_keep_their_cores_apart_in_the_target() -> None:
    jpeg, labels = labelled_photo("rummy-36_jpeg")
    image = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)
    polygons = [outline for _, outline in labels]
    item = (image, masks_for(polygons, image.shape[:2]), tile_width(polygons))
    assert can_shrink(item)
    for seed in range(6):
        crop, target, _ = sample(item, np.random.default_rng(seed), small=True)
        cores = (target[1] > 0.5).astype(np.uint8)
        count, _ = cv2.connectedComponents(cores)
        tiles = (target[0] > 0.5).astype(np.uint8)
        tile_count, _ = cv2.connectedComponents(tiles)
        # the photo's sets are rows of touching tiles: one tile region holds many cores
        assert count - 1 > tile_count - 1
        # the crop is soft: far less fine detail than a crop of the full-size photo
        sharp, _, _ = sample(item, np.random.default_rng(seed))
        assert _detail(crop) < _detail(sharp)


def _detail(crop: np.ndarray) -> float:
    return float(np.abs(cv2.Laplacian(cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY), cv2.CV_32F)).mean())
