"""Photos as phones save them: HEIC (an iPhone's own format) and AVIF read as their JPEGs do.

An iPhone keeps its photos as HEIC; a photo sent from its Files app, or copied off it to a
computer for `companion read-photo`, arrives in that format. Both formats are decoded by
well-kept libraries (pillow-heif, Pillow) and then read by the same pipeline as a JPEG.
"""

from __future__ import annotations

import io

import cv2
import numpy as np
import pytest
from PIL import Image
from pillow_heif import register_heif_opener

from companion.vision import PhotoError, decode_image, read_photo, read_rack
from tests.fixtures import PHOTOS
from tests.vision.conftest import jpeg_bytes, with_exif_orientation

register_heif_opener()


def saved_as(image: np.ndarray, kind: str, *, orientation: int | None = None) -> bytes:
    """The BGR image saved as HEIF or AVIF, with an EXIF orientation when one is given."""
    picture = Image.fromarray(cv2.cvtColor(image, cv2.COLOR_BGR2RGB))
    extra = {}
    if orientation is not None:
        exif = Image.Exif()
        exif[0x0112] = orientation
        extra["exif"] = exif.tobytes()
    buffer = io.BytesIO()
    picture.save(buffer, kind, quality=90, **extra)
    return buffer.getvalue()


def fixture_photo(name_start: str) -> np.ndarray:
    path = next(iter(sorted((PHOTOS / "images").glob(f"{name_start}*.jpg"))))
    image = cv2.imread(str(path))
    assert image is not None
    return image


@pytest.mark.parametrize("kind", ["HEIF", "AVIF"])
def test_a_table_photo_saved_as_heic_or_avif_reads_the_tiles_its_jpeg_reads(kind: str) -> None:
    image = fixture_photo("rummy-11_")
    from_jpeg = read_photo(jpeg_bytes(image, quality=95))
    from_kind = read_photo(saved_as(image, kind))
    assert (from_kind.width, from_kind.height) == (from_jpeg.width, from_jpeg.height)
    assert len(from_jpeg.tiles) >= 10
    assert sorted(str(tile.tile) for tile in from_kind.tiles) == sorted(
        str(tile.tile) for tile in from_jpeg.tiles)


def test_a_rack_photo_saved_as_heic_is_read_with_its_value() -> None:
    image = fixture_photo("rummy3-10_")
    from_jpeg = read_rack(jpeg_bytes(image, quality=95))
    from_heic = read_rack(saved_as(image, "HEIF"))
    assert from_jpeg.value == 24  # B5 B9 O3 R1 R2 R4, see test_rack.py
    assert from_heic.value == from_jpeg.value
    assert sorted(str(tile.tile) for tile in from_heic.tiles) == sorted(
        str(tile.tile) for tile in from_jpeg.tiles)


def test_a_48_megapixel_jpeg_is_read_from_an_eighth_of_it_as_its_12_megapixel_copy() -> None:
    """A phone's 48 MP mode (8064×6048): decoded at an eighth (1008×756) for the detector."""
    from companion.vision.decode import decode_for_reading

    square = fixture_photo("rummy-11_")  # 640×640: widened to 4:3 with its edges' colours
    image = cv2.copyMakeBorder(square, 0, 0, 107, 106, cv2.BORDER_REPLICATE)
    twelve = jpeg_bytes(cv2.resize(image, (4000, 3000), interpolation=cv2.INTER_CUBIC), 90)
    forty_eight = jpeg_bytes(cv2.resize(image, (8064, 6048), interpolation=cv2.INTER_CUBIC), 90)
    decoded = decode_for_reading(forty_eight)
    assert decoded.factor == 8 and decoded.image.shape[:2] == (756, 1008)
    from_twelve, from_forty_eight = read_photo(twelve), read_photo(forty_eight)
    assert (from_forty_eight.width, from_forty_eight.height) == (8064, 6048)
    assert len(from_twelve.tiles) >= 10
    assert sorted(str(tile.tile) for tile in from_forty_eight.tiles) == sorted(
        str(tile.tile) for tile in from_twelve.tiles)


@pytest.mark.parametrize("kind", ["HEIF", "AVIF"])
def test_a_heic_or_avif_taken_with_the_phone_turned_comes_out_upright_as_a_jpeg_does(
        kind: str) -> None:
    rng = np.random.default_rng(5)
    image = rng.integers(0, 255, (240, 320, 3), dtype=np.uint8)
    upright_jpeg = decode_image(with_exif_orientation(jpeg_bytes(image), 6))
    assert upright_jpeg.shape[:2] == (320, 240)
    assert decode_image(saved_as(image, kind, orientation=6)).shape == upright_jpeg.shape


@pytest.mark.parametrize("kind", ["HEIF", "AVIF"])
def test_a_heic_or_avif_cut_short_or_scrambled_is_refused_as_damaged(kind: str) -> None:
    data = saved_as(fixture_photo("rummy-11_"), kind)
    scrambled = data[:40] + bytes(np.random.default_rng(2).integers(0, 255, len(data) - 40,
                                                                     dtype=np.uint8))
    for bad in (data[: len(data) // 2], data[:64], scrambled):
        with pytest.raises(PhotoError) as refused:
            read_photo(bad)
        assert refused.value.code in {"damaged", "not_an_image"}


def test_a_file_that_only_claims_to_be_heic_is_refused() -> None:
    header = b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic"
    for data in (header, header + b"\x00" * 500, header + b"R5 R6 R7" * 100):
        with pytest.raises(PhotoError, match="^the file is damaged"):
            read_photo(data)
