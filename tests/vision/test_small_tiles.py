"""Small tiles (issue 10: a wider shot): real labelled photos shrunk as a wider shot shows
them, several to a 640×640 JPEG as `benchmarks/scaled_set.py` makes them, read from their
bytes through the whole pipeline."""

from __future__ import annotations

from collections import Counter

import cv2
import numpy as np
import pytest

from benchmarks.scaled_set import scaled_canvases
from companion.core.tiles import Tile
from companion.vision import PhotoError, read_photo
from companion.vision.classes import tile_from_dataset_name
from companion.vision.detect import detect
from companion.vision.reading import ReadTile
from tests.vision.conftest import jpeg_bytes, labelled_photo


def shrunk_photo(name_start: str, tile_width: float, *, soft: bool = False
                 ) -> tuple[bytes, list[Tile]]:
    """A fixture photo shrunk so its tiles are ``tile_width`` px wide, on a 640×640 canvas,
    as a JPEG (``soft``: a little blurred, JPEG quality 70); and its tiles."""
    data, labels = labelled_photo(name_start)
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    tiles = [(tile_from_dataset_name(name), outline) for name, outline in labels]
    (canvas,) = scaled_canvases(tile_width, soft=soft, photos=[(name_start, image, tiles)])
    return canvas.jpeg, [tile for tile, _ in tiles]


def assert_read_right(data: bytes, truth: list[Tile], *, at_least: float) -> None:
    """The photo read: at least ``at_least`` of its true tiles read right, every tile read
    that is not one of them flagged."""
    reading = read_photo(data)
    read_right = Counter(tile.tile for tile in reading.tiles) & Counter(truth)
    assert sum(read_right.values()) >= at_least
    assert all(tile.tile in truth or tile.low_confidence for tile in reading.tiles)


def test_a_wide_shot_of_a_rack_whose_tiles_run_together_at_first_is_looked_at_larger() -> None:
    # at 18 px the detector's first look, at 512 px, finds one box over the rack's row (38 px
    # wide, so no second look for small tiles was taken): its tile map lies mostly outside it
    data, truth = shrunk_photo("rummy4-86_jpeg", 18)
    assert_read_right(data, truth, at_least=len(truth) - 1)


def test_a_small_six_lying_the_other_way_up_from_the_tiles_beside_it_is_flagged() -> None:
    # on small tiles the print that tells a 6 from a 9 is a pixel or two; a small 6 read the
    # other way up from the tiles around it is shown to the user to confirm. Here the K6 of
    # K4 K5 K6 is turned round in the photo, which is then shrunk to tiles 24 px wide.
    data, labels = labelled_photo("rummy-36_jpeg")
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    six = next(outline for name, outline in labels if name == "black_6")
    x, y, width, height = cv2.boundingRect(six.astype(np.int32))
    turned = image.copy()
    turned[y:y + height, x:x + width] = image[y:y + height, x:x + width][::-1, ::-1]
    tiles = [(tile_from_dataset_name(name), outline) for name, outline in labels]

    def read_at_six(photo: np.ndarray, tile_width: float | None) -> ReadTile:
        if tile_width is None:
            data, place = jpeg_bytes(photo), six
        else:
            (canvas,) = scaled_canvases(tile_width, photos=[("turned", photo, tiles)])
            data = canvas.jpeg
            place = next(outline for tile, outline in canvas.tiles
                         if tile == Tile.parse("K6"))
        (read,) = [tile for tile in read_photo(data).tiles
                   if cv2.pointPolygonTest(place, tuple(map(float, np.mean(tile.outline, axis=0))),
                                           False) >= 0]
        return read

    large = read_at_six(turned, None)
    assert large.tile == Tile.parse("K6") and not large.low_confidence
    small = read_at_six(turned, 24)
    assert small.tile == Tile.parse("K6") and small.low_confidence


def test_a_photo_whose_tiles_are_too_small_to_read_is_refused_with_their_width() -> None:
    # tiles 12 px wide in a 640 px photo: most still read unsure after the second outlines,
    # the reading poor; the crops, blown up four times, are never sharp, but it is not blur
    data, _ = shrunk_photo("rummy-11_jpeg", 12)
    with pytest.raises(PhotoError, match=r"tiles are too small .* \(about 1\d pixels across\)"
                       ) as refused:
        read_photo(data)
    assert refused.value.code == "too_small"


def test_tiles_eighteen_pixels_wide_are_still_read() -> None:
    data, truth = shrunk_photo("rummy-36_jpeg", 18)
    assert_read_right(data, truth, at_least=0.95 * len(truth))


def test_a_wide_shot_of_a_rack_in_which_the_first_look_finds_no_tile_is_looked_at_larger() -> None:
    # at 18 px the first look, at 512 px, gives the rack's row no core at all; its tile map
    # still marks the row
    data, truth = shrunk_photo("rummy3-13_jpeg", 18)
    assert_read_right(data, truth, at_least=len(truth) - 1)


@pytest.mark.parametrize("name_start", ["rummy-29_jpeg", "rummy-36_jpeg"])
def test_small_soft_tiles_whose_cores_run_together_are_told_apart(name_start: str) -> None:
    # shrunk to tiles 18 px wide and a little blurred: at the second look the cores of touching
    # tiles run together over SEED_THRESHOLD as a chain of beads (main gave 15 boxes to
    # rummy-29's 20 tiles, 44 to rummy-36's 54, one box over two or three); split at the dips
    # between the beads, each tile gets its own box
    data, truth = shrunk_photo(name_start, 18, soft=True)
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    assert len(detect(image).found) >= len(truth) - 2
    assert_read_right(data, truth, at_least=len(truth) - 3)
