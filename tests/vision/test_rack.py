"""The rack reader on real rack photos (issue 29): the table reader's tiles, then the rack step.

Issue 29: "A rack photo is read by the same reader as a table photo; the rack step then
decides which of the tiles read stand on the rack (rows of large upright tiles, one to three
tiers) and which lie elsewhere ... A photo whose tiles are read is never refused for want of
a visible bar; 'no rack found' only when no row of tiles is."

The fixture photos are the labelled rack photos of "rummikub-nvypk" v9 by Jonas Bühler
(CC BY 4.0): black two-tier racks on marble or wood, every labelled tile standing on the rack.
"""

from __future__ import annotations

from collections import Counter
from itertools import pairwise

import cv2
import numpy as np
import pytest

from companion.core.presets import PRESSMAN, SABRA
from companion.core.scoring import rack_value
from companion.core.tiles import parse_tiles
from companion.vision import PhotoError, annotate_rack, read_photo, read_rack, read_rack_image
from companion.vision.classes import tile_from_dataset_name
from tests.vision.conftest import jpeg_bytes, labelled_photo

REAL_RACKS = ["rummy3-2_", "rummy3-3_", "rummy3-4_", "rummy3-5_", "rummy3-7_", "rummy3-10_",
              "rummy3-12_", "rummy3-13_", "rummy3-14_", "rummy3-16_", "rummy3-17_", "rummy3-18_",
              "rummy4-86_", "rummy4-88_", "rummy4-89_", "rummy4-90_", "rummy4-93_"]
ONE_TIER = {"rummy3-3_", "rummy3-4_", "rummy3-14_"}  # tiles on the upper tier only


def truth_of(name_start: str) -> tuple[bytes, Counter]:
    data, labels = labelled_photo(name_start)
    return data, Counter(tile_from_dataset_name(name) for name, _ in labels)


@pytest.mark.parametrize("name_start", REAL_RACKS)
def test_a_real_rack_photo_is_read_tile_for_tile_on_its_tiers(name_start: str) -> None:
    data, truth = truth_of(name_start)
    reading = read_rack(data)
    assert Counter(reading.rack) == truth
    assert reading.rows == (1 if name_start in ONE_TIER else 2)
    assert not reading.ignored  # every labelled tile stands on the rack
    # top row first, each row left to right, along the rack's own up (the outlines' tops)
    outlines = [np.array(tile.outline, np.float64) for tile in reading.tiles]
    up = np.mean([(o[0] + o[1] - o[2] - o[3]) / 2 for o in outlines], axis=0)
    up /= np.linalg.norm(up)
    right = np.array([-up[1], up[0]])
    rows = [[o.mean(axis=0) for o, tile in zip(outlines, reading.tiles, strict=True)
             if tile.set_index == row] for row in range(reading.rows)]
    for row in rows:
        assert all(a @ right < b @ right for a, b in pairwise(row))
    if reading.rows == 2:
        assert np.mean([m @ up for m in rows[0]]) > np.mean([m @ up for m in rows[1]])


def test_the_rack_reads_the_tiles_the_table_reader_reads() -> None:
    """The same reader as a table photo: the rack's tiles are those ``read-photo`` reads."""
    data, truth = truth_of("rummy4-93_")
    assert Counter(tile.tile for tile in read_photo(data).tiles) == truth
    assert Counter(read_rack(data).rack) == truth


@pytest.mark.parametrize("turn", [cv2.ROTATE_90_CLOCKWISE, cv2.ROTATE_90_COUNTERCLOCKWISE,
                                  cv2.ROTATE_180])
def test_a_real_rack_photo_that_came_sideways_or_upside_down_is_read_in_one_reading(
        turn: int) -> None:
    """rummy4-88 as a phone held flat may save it: the reader reads each tile at any turn,
    the rack's up is the up its tiles share, and the outlines are in the photo as it came."""
    data, truth = truth_of("rummy4-88_")
    image = cv2.rotate(cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR), turn)
    reading = read_rack(jpeg_bytes(image))
    assert Counter(reading.rack) == truth
    assert reading.rows == 2
    height, width = image.shape[:2]
    assert (reading.width, reading.height) == (width, height)
    for tile in reading.tiles:
        x, y = np.mean(tile.outline, axis=0)
        assert 0 <= x < width and 0 <= y < height


def test_the_value_is_the_cores_rack_value_with_a_joker_at_the_presets_penalty() -> None:
    data, truth = truth_of("rummy3-7_")  # seven tiles, a joker among them
    assert any(tile.is_joker for tile in truth)
    for preset in (PRESSMAN, SABRA):
        reading = read_rack(data, preset=preset)
        assert reading.jokers == 1
        assert reading.value == rack_value(tuple(truth.elements()),
                                           joker_penalty=preset.joker_penalty)


def test_json_has_the_documented_fields() -> None:
    data, _ = truth_of("rummy4-89_")
    reading = read_rack(data)
    answer = reading.to_json()
    assert set(answer) == {"width", "height", "tiles", "value", "jokers", "ignored", "preset",
                           "seen_whole"}
    assert (answer["width"], answer["height"]) == (640, 640)
    first = answer["tiles"][0]
    assert set(first) == {"tile", "confidence", "outline", "low_confidence", "doubt", "row"}
    assert len(first["outline"]) == 4 and parse_tiles(first["tile"])


def test_an_array_is_read_as_its_jpeg_is() -> None:
    data, truth = truth_of("rummy3-5_")
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    assert Counter(read_rack_image(image).rack) == truth


def test_a_big_jpeg_is_read_from_a_reduced_decode_with_outlines_in_its_own_pixels() -> None:
    data, truth = truth_of("rummy4-90_")
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    small = read_rack(data)
    big = read_rack(jpeg_bytes(cv2.resize(image, None, fx=4, fy=4,
                                          interpolation=cv2.INTER_CUBIC)))
    assert (big.width, big.height) == (2560, 2560)
    assert Counter(big.rack) == truth
    small_middles = np.array([np.mean(tile.outline, axis=0) * 4 for tile in small.tiles])
    for tile in big.tiles:
        assert np.min(np.linalg.norm(small_middles - np.mean(tile.outline, axis=0), axis=1)) < 24


def test_the_annotated_picture_greys_the_tiles_off_the_rack() -> None:
    """A real rack photo with a tile of a table photo pasted on the marble beside the rack:
    that tile is left off the rack, reported as ignored, and greyed in the picture."""
    data, truth = truth_of("rummy3-3_")
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    table, labels = labelled_photo("rummy-11_")
    table_image = cv2.imdecode(np.frombuffer(table, np.uint8), cv2.IMREAD_COLOR)
    x, y, w, h = cv2.boundingRect(labels[0][1].astype(np.int32))
    image[520:520 + h, 60:60 + w] = table_image[y:y + h, x:x + w]  # lying on the marble
    pasted = jpeg_bytes(image)
    reading = read_rack(pasted)
    assert Counter(reading.rack) == truth
    assert len(reading.ignored) == 1
    picture = cv2.imdecode(np.frombuffer(annotate_rack(pasted, reading), np.uint8),
                           cv2.IMREAD_COLOR)
    cx, cy = np.mean(reading.ignored[0], axis=0).astype(int)
    patch = picture[cy - 3:cy + 4, cx - 3:cx + 4].astype(int)
    assert np.abs(patch[..., 2] - patch[..., 0]).mean() < 25  # greyed


def test_a_photo_without_tiles_says_how_to_photograph_a_rack() -> None:
    plain = np.full((480, 640, 3), 120, np.uint8)
    with pytest.raises(PhotoError, match="no tiles found on a rack") as refused:
        read_rack(jpeg_bytes(plain))
    assert refused.value.code == "no_rack_tiles"


def test_a_rack_photo_too_small_to_find_tiles_in_is_refused_as_too_small() -> None:
    # the refusal's code decides, not its first words ("no tiles found in a photo this small")
    data, _ = truth_of("rummy4-89_")
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    thumbnail = cv2.resize(image, (64, 64), interpolation=cv2.INTER_AREA)
    with pytest.raises(PhotoError, match=r"this small \(64×64 pixels\)") as refused:
        read_rack(jpeg_bytes(thumbnail))
    assert refused.value.code == "too_small"
