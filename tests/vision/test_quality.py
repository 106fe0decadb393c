"""A photo is refused as too dark or too blurred only when its reading is poor: a dim photo
is brightened and read, a softened one whose tiles read right but unsure is read."""

from __future__ import annotations

from collections import Counter

import cv2
import numpy as np
import pytest

from companion.vision import PhotoError, read_photo
from companion.vision.classes import tile_from_dataset_name
from tests.vision.conftest import jpeg_bytes, labelled_photo


def test_a_photo_softened_a_little_is_read_with_its_tiles_flagged_not_refused() -> None:
    # a blurred copy of rummy3-22 (train/): 15 tiles about 37 px wide, most read unsure but
    # right; it was answered "too blurred to read"
    data, labels = labelled_photo("rummy3-22_jpeg.rf.436a")
    reading = read_photo(data)
    truth = Counter(str(tile_from_dataset_name(name)) for name, _ in labels)
    read = Counter(str(tile.tile) for tile in reading.tiles)
    assert read & truth == truth
    assert all(tile.low_confidence for tile in reading.tiles if not truth[str(tile.tile)])


def dimmed(image: np.ndarray, exposure: float, seed: int) -> np.ndarray:
    """The photo as a phone exposing too short takes it: darker, with sensor noise (shot
    noise growing with the light, read noise beside it)."""
    rng = np.random.default_rng(seed)
    light = image.astype(np.float32) * exposure
    noisy = light + rng.normal(0, 1, light.shape) * np.sqrt(light + 1)
    return np.clip(noisy, 0, 255).astype(np.uint8)


def test_a_dim_photo_is_brightened_and_read() -> None:
    from training.synthetic import random_table, render_table

    render = render_table(random_table(np.random.default_rng(21)), seed=21, glare=False)
    reading = read_photo(jpeg_bytes(dimmed(render.image, 0.15, seed=21), quality=85))
    assert Counter(tile.tile for tile in reading.tiles) == Counter(t.tile for t in render.tiles)


def test_a_black_and_white_photo_is_refused_for_its_colours() -> None:
    # read anyway, its red, blue and orange tiles came out black, most of them surely
    data, _ = labelled_photo("rummy-11_jpeg")
    colour = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    grey = cv2.cvtColor(colour, cv2.COLOR_BGR2GRAY)
    assert read_photo(data).tiles
    for image in (grey, cv2.cvtColor(grey, cv2.COLOR_GRAY2BGR)):
        with pytest.raises(PhotoError, match="black and white") as refused:
            read_photo(jpeg_bytes(image))
        assert refused.value.code == "black_and_white"


def test_a_thumbnail_is_answered_with_its_size_not_how_to_photograph_a_table() -> None:
    from training.synthetic import random_table, render_table

    render = render_table(random_table(np.random.default_rng(5)), seed=5, glare=False)
    assert len(read_photo(jpeg_bytes(cv2.resize(render.image, (320, 240),
                                                interpolation=cv2.INTER_AREA))).tiles) == 19
    with pytest.raises(PhotoError, match=r"this small \(160×120 pixels\)") as refused:
        read_photo(jpeg_bytes(cv2.resize(render.image, (160, 120), interpolation=cv2.INTER_AREA)))
    assert refused.value.code == "too_small"


def test_a_thumbnail_whose_tiles_read_poorly_is_answered_with_its_size() -> None:
    # a real table shrunk to 120 px: two boxes of it were found, read at 0.1-0.3, and came
    # back as a reading of two unsure tiles instead of "too small"
    data, _ = labelled_photo("rummy-11_jpeg")
    photo = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    thumbnail = cv2.resize(photo, (120, 120), interpolation=cv2.INTER_AREA)
    with pytest.raises(PhotoError, match=r"this small \(120×120 pixels\)") as refused:
        read_photo(jpeg_bytes(thumbnail))
    assert refused.value.code == "too_small"
    assert len(read_photo(data).tiles) >= 10


def test_two_small_tiles_on_a_black_table_are_read_not_called_too_dark() -> None:
    # the tiles are under 1% of the photo: its 99th percentile is the black table's, and the
    # photo was refused "too dark" (and, judged by that percentile, brightened past use)
    from companion.core.tiles import Tile
    from training.synthetic import render_table

    render = render_table(((Tile.parse("R7"), Tile.parse("B8")),), seed=3, background="dark",
                          glare=False, fill=0.02)
    height, width = render.image.shape[:2]
    table = np.median(render.image[:50, :50].reshape(-1, 3), axis=0)
    noise = np.random.default_rng(3).normal(0, 6, (2 * height, 2 * width, 3))
    canvas = np.clip(table + noise, 0, 255).astype(np.uint8)
    canvas[height // 2:height // 2 + height, width // 2:width // 2 + width] = render.image
    photo = cv2.resize(canvas, (width, height), interpolation=cv2.INTER_AREA)
    assert float(np.percentile(cv2.cvtColor(photo, cv2.COLOR_BGR2GRAY), 99)) < 30
    reading = read_photo(jpeg_bytes(photo))
    assert sorted(str(tile.tile) for tile in reading.tiles) == ["B8", "R7"]
