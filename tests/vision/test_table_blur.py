"""A shaken phone's table photo: no tile of a poor reading is shown as sure.

Real labelled `valid/` photos (the fixtures) through the real table reader, blurred as a hand
shakes: a line blur in the direction the benchmark draws for each photo
(``benchmarks.vision.valid_motion_blurred``). Across the blur a tile's edges stay sharp, so the
photo passes for sharp and is read; along it a number smears into another, and on main
rummy3-7 under 15 px had a tile read wrong at 0.91 among tiles read at a median of 0.58.
"""

from __future__ import annotations

from collections import Counter

import pytest

from companion.vision import PhotoError, read_photo
from companion.vision.classes import tile_from_dataset_name
from companion.vision.reading import PHOTO_READ_POORLY
from tests.vision.conftest import labelled_photo, shaken

# the photo, the length of its blur (px) and its direction in the benchmark (degrees)
SHAKEN = [("rummy3-7_", 15, 159.06), ("rummy-29_", 9, 25.18)]


@pytest.mark.parametrize(("name_start", "length", "angle"), SHAKEN)
def test_a_shaken_table_photo_read_poorly_has_every_tile_unsure(name_start: str, length: int,
                                                                angle: float) -> None:
    data, labels = labelled_photo(name_start)
    try:
        reading = read_photo(shaken(data, length, angle))
    except PhotoError as refused:
        assert refused.code == "too_blurred"
        return
    truth = Counter(tile_from_dataset_name(name) for name, _ in labels)
    assert Counter(tile.tile for tile in reading.tiles) != truth  # read wrong...
    assert any(tile.confidence >= 0.9 for tile in reading.tiles)  # ...some tiles surely...
    assert all(tile.low_confidence for tile in reading.tiles)  # ...yet none shown as sure
    assert {tile.doubt for tile in reading.tiles if tile.confidence >= 0.9} == {PHOTO_READ_POORLY}


@pytest.mark.parametrize(("name_start", "length", "angle"), SHAKEN)
def test_the_same_table_photos_as_taken_are_read_surely(name_start: str, length: int,
                                                        angle: float) -> None:
    data, labels = labelled_photo(name_start)
    reading = read_photo(data)
    truth = Counter(tile_from_dataset_name(name) for name, _ in labels)
    assert Counter(tile.tile for tile in reading.tiles) == truth
    assert not any(tile.low_confidence for tile in reading.tiles)
