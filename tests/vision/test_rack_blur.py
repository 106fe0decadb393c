"""A shaken phone's rack photo: its value is never shown as sure when the reading is poor.

Real labelled rack photos through the real pipeline, blurred as a hand shakes: a line blur
15 px long (about 90 px on a 12-megapixel photo), in the direction the stress benchmark draws
for each photo (``benchmarks/rack_stress.py``). Across the blur a tile's edges stay sharp, so
the photo passes for sharp; along it a 6 smears into a 5, and on main B5, O5 were read at 0.91
and 0.92 among tiles read at 0.2–0.85: a wrong rack value shown as sure.
"""

from __future__ import annotations

from collections import Counter

import cv2
import numpy as np
import pytest

from companion.vision import PhotoError, read_rack
from companion.vision.classes import tile_from_dataset_name
from tests.vision.conftest import jpeg_bytes, labelled_photo

# the photo and the direction of its blur in the stress benchmark (degrees)
SHAKEN = [("rummy3-7_", 159.06), ("rummy3-18_", 126.73)]


def shaken(data: bytes, length: int, angle: float) -> bytes:
    """The photo blurred along a line ``length`` px long turned ``angle`` degrees."""
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    kernel = np.zeros((length, length), np.float32)
    kernel[length // 2, :] = 1
    turn = cv2.getRotationMatrix2D((length / 2 - 0.5, length / 2 - 0.5), angle, 1.0)
    kernel = cv2.warpAffine(kernel, turn, (length, length))
    return jpeg_bytes(cv2.filter2D(image, -1, kernel / kernel.sum()), quality=95)


@pytest.mark.parametrize(("name_start", "angle"), SHAKEN)
def test_a_shaken_rack_photo_read_poorly_has_every_tile_unsure(name_start: str,
                                                               angle: float) -> None:
    data, labels = labelled_photo(name_start)
    try:
        reading = read_rack(shaken(data, 15, angle))
    except PhotoError as refused:
        assert refused.code == "too_blurred"
        return
    truth = Counter(tile_from_dataset_name(name) for name, _ in labels)
    assert Counter(reading.rack) != truth  # the blur is heavy enough to read it wrong...
    assert all(tile.low_confidence for tile in reading.tiles)  # ...and nothing is sure


@pytest.mark.parametrize(("name_start", "angle"), SHAKEN)
def test_the_same_rack_photos_as_taken_are_read_surely(name_start: str, angle: float) -> None:
    data, labels = labelled_photo(name_start)
    reading = read_rack(data)
    assert Counter(reading.rack) == Counter(tile_from_dataset_name(name) for name, _ in labels)
    assert not any(tile.low_confidence for tile in reading.tiles)
