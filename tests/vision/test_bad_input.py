"""Every kind of bad upload gets a clear PhotoError, never a crash."""

from __future__ import annotations

import struct
import zlib

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.vision import MAX_BYTES, PhotoError, decode_image, read_photo
from tests.vision.conftest import jpeg_bytes, png_bytes, with_exif_orientation


def a_photo(width: int = 320, height: int = 240) -> np.ndarray:
    rng = np.random.default_rng(3)
    return rng.integers(0, 255, (height, width, 3), dtype=np.uint8)


def png_header_only(width: int, height: int) -> bytes:
    """A tiny PNG that claims a picture of width × height (its pixels are never sent)."""
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    chunk = struct.pack(">I", len(ihdr)) + b"IHDR" + ihdr + struct.pack(">I", zlib.crc32(b"IHDR" + ihdr))
    end = struct.pack(">I", 0) + b"IEND" + struct.pack(">I", zlib.crc32(b"IEND"))
    return b"\x89PNG\r\n\x1a\n" + chunk + end


def webp_bytes(image: np.ndarray, quality: int = 90) -> bytes:
    ok, buffer = cv2.imencode(".webp", image, [cv2.IMWRITE_WEBP_QUALITY, quality])
    assert ok
    return buffer.tobytes()


def webp_header_only(width: int, height: int) -> bytes:
    """A tiny extended WebP whose canvas and lossless picture claim width × height (the
    picture's data never follows)."""
    canvas = bytes(4) + (width - 1).to_bytes(3, "little") + (height - 1).to_bytes(3, "little")
    lossless = b"\x2f" + struct.pack("<I", (width - 1) | (height - 1) << 14) + bytes(1)
    chunks = (b"VP8X" + struct.pack("<I", len(canvas)) + canvas
              + b"VP8L" + struct.pack("<I", len(lossless)) + lossless)
    return b"RIFF" + struct.pack("<I", 4 + len(chunks)) + b"WEBP" + chunks


def test_text_is_refused_as_not_an_image():
    with pytest.raises(PhotoError, match="^not an image: send a photo as JPEG, PNG, WebP or HEIC"):
        read_photo(b"R5 R6 R7 | K9 B9 O9")


def test_an_empty_upload_is_refused_as_not_an_image():
    with pytest.raises(PhotoError, match="^not an image"):
        decode_image(b"")


def test_a_jpeg_cut_in_half_is_called_truncated():
    data = jpeg_bytes(a_photo())
    with pytest.raises(PhotoError, match="^the file is truncated"):
        read_photo(data[: len(data) // 2])


def test_a_png_cut_in_half_is_called_truncated():
    data = png_bytes(a_photo())
    with pytest.raises(PhotoError, match="^the file is truncated"):
        read_photo(data[: len(data) // 2])


@pytest.mark.parametrize("quality", [90, 101], ids=["lossy", "lossless"])
def test_a_webp_cut_in_half_is_called_truncated(quality):
    data = webp_bytes(a_photo(), quality)
    with pytest.raises(PhotoError, match="^the file is truncated"):
        read_photo(data[: len(data) // 2])
    with pytest.raises(PhotoError, match="^the file is truncated"):
        read_photo(data[:24])


@pytest.mark.parametrize("quality", [90, 101], ids=["lossy", "lossless"])
def test_a_webp_gives_its_size_from_its_header(quality):
    from companion.vision.decode import check_photo_bytes

    assert check_photo_bytes(webp_bytes(a_photo(321, 243), quality)) == (321, 243)


def test_a_webp_claiming_a_huge_canvas_is_refused_before_decoding():
    with pytest.raises(PhotoError, match=r"^the photo is too large: 60 megapixels, the limit is 40"):
        read_photo(webp_header_only(10_000, 6_000))


def test_a_webp_whose_chunk_runs_past_its_riff_is_called_damaged():
    data = bytearray(webp_bytes(a_photo()))
    data[16:20] = struct.pack("<I", len(data) * 4)
    with pytest.raises(PhotoError, match="^the file is damaged") as refused:
        read_photo(bytes(data))
    assert refused.value.code == "damaged"


def test_a_jpeg_cut_inside_its_header_is_called_truncated():
    with pytest.raises(PhotoError, match="^the file is truncated"):
        decode_image(jpeg_bytes(a_photo())[:40])


def test_a_file_over_the_byte_limit_is_refused_with_its_size_and_the_limit():
    data = jpeg_bytes(a_photo()) + b"\0" * MAX_BYTES
    with pytest.raises(PhotoError, match=r"^the photo is too large: \d+ MB, the limit is 40 MB"):
        read_photo(data)


def test_a_picture_over_the_pixel_limit_is_refused_before_decoding():
    with pytest.raises(PhotoError, match=r"^the photo is too large: 60 megapixels, the limit is 40"):
        read_photo(png_header_only(10_000, 6_000))


def jpeg_header_only(width: int, height: int) -> bytes:
    """A JPEG whose start of frame claims width × height, with an empty scan and its end."""
    frame = struct.pack(">BHHB", 8, height, width, 3) + b"\x01\x11\x00\x02\x11\x00\x03\x11\x00"
    scan = struct.pack(">B", 3) + b"\x01\x00\x02\x00\x03\x00" + b"\x00\x3f\x00"
    return (b"\xff\xd8\xff\xc0" + struct.pack(">H", len(frame) + 2) + frame
            + b"\xff\xda" + struct.pack(">H", len(scan) + 2) + scan + b"\xff\xd9")


def test_a_jpeg_may_hold_a_50_megapixel_phone_photo_but_not_more_than_64():
    """A JPEG is decoded at an eighth of its size for reading, so the 48 and 50 megapixel
    modes of phones' cameras pass the size checks; whole decodes keep the 40 MP limit."""
    from companion.vision.decode import check_photo_bytes

    assert check_photo_bytes(jpeg_header_only(8160, 6120)) == (8160, 6120)
    with pytest.raises(PhotoError, match=r"^the photo is too large: 50 megapixels, the limit is 40"):
        decode_image(jpeg_header_only(8160, 6120))
    with pytest.raises(PhotoError, match=r"^the photo is too large: 72 megapixels, the limit is 64"):
        read_photo(jpeg_header_only(9800, 7350))


def test_a_photo_of_an_empty_table_says_no_tiles_were_found():
    wood = np.full((480, 640, 3), (60, 100, 150), np.uint8)
    wood = cv2.GaussianBlur(wood + a_photo(640, 480) // 12, (0, 0), 3)
    with pytest.raises(PhotoError, match="^no tiles found"):
        read_photo(jpeg_bytes(wood))


def test_exif_orientation_turns_the_photo_upright():
    data = with_exif_orientation(jpeg_bytes(a_photo(320, 240)), 6)
    assert decode_image(data).shape[:2] == (320, 240)


def test_a_png_decodes_to_three_colour_channels():
    grey = np.full((50, 80), 128, np.uint8)
    assert decode_image(png_bytes(grey)).shape == (50, 80, 3)


def png_chunk(kind: bytes, body: bytes, *, length: int | None = None) -> bytes:
    size = len(body) if length is None else length
    return struct.pack(">I", size) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def hostile_png() -> bytes:
    """Issue 9's file: 109 bytes, a small picture, but an IDAT chunk whose length field says
    0xFFFFFFFF; handed to a decoder it reserved 4 GB."""
    ihdr = struct.pack(">IIBBBBB", 64, 64, 8, 2, 0, 0, 0)
    pixels = zlib.compress(b"\0" * 40)
    data = (b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", ihdr)
            + png_chunk(b"IDAT", pixels, length=0xFFFFFFFF) + png_chunk(b"IEND", b""))
    return data + b"\0" * (109 - len(data))


def test_a_png_chunk_claiming_four_gigabytes_is_refused_before_decoding():
    data = hostile_png()
    assert len(data) == 109
    with pytest.raises(PhotoError, match="^the file is truncated or damaged: a PNG chunk"):
        decode_image(data)


def test_a_jpeg_segment_running_past_the_end_of_the_file_is_refused():
    data = bytearray(jpeg_bytes(a_photo()))
    # the first segment after SOI (APP0 or a table): its length now runs far past the file
    assert data[2] == 0xFF
    data[4:6] = struct.pack(">H", 0xFFFF)
    with pytest.raises(PhotoError, match="^the file is truncated or damaged: a JPEG segment"):
        decode_image(bytes(data[:4000]))


def test_a_picture_absurdly_long_on_one_side_is_refused():
    with pytest.raises(PhotoError, match=r"^the photo is too large: 30000×2 pixels"):
        decode_image(png_header_only(30_000, 2))


def test_the_hostile_png_costs_the_cli_no_more_memory_than_a_small_photo(tmp_path):
    """Run in a fresh interpreter: its peak memory (ru_maxrss) stays that of the import."""
    import subprocess
    import sys

    hostile = tmp_path / "hostile.png"
    hostile.write_bytes(hostile_png())
    script = (
        "import resource, sys\n"
        "from companion.cli import main\n"
        "import companion.vision, cv2\n"
        "before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "try:\n    main(['read-rack', sys.argv[1]])\nexcept SystemExit as exit:\n"
        "    code = exit.code\n"
        "after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "print(code, after - before)\n")
    result = subprocess.run([sys.executable, "-c", script, str(hostile)], capture_output=True,
                            text=True, check=True)
    code, grown_kb = result.stdout.split()
    assert code == "2" and "PNG chunk runs past the end" in result.stderr
    assert int(grown_kb) < 50_000  # kB: far below the 4 GB the chunk claims


def test_a_photo_too_blurred_to_read_asks_to_hold_still():
    from training.synthetic import random_table, render_table

    table = random_table(np.random.default_rng(2))
    sharp = render_table(table, seed=2, blur=0.0, glare=False)
    assert read_photo(jpeg_bytes(sharp.image)).tiles  # the same table, sharp, is read
    shaken = render_table(table, seed=2, blur=8.0, glare=False)
    with pytest.raises(PhotoError, match="too blurred to read: hold still"):
        read_photo(jpeg_bytes(shaken.image))


def test_a_photo_too_dark_to_read_asks_for_more_light():
    from training.synthetic import random_table, render_table

    render = render_table(random_table(np.random.default_rng(1)), seed=1, glare=False)
    dusk = (render.image.astype(np.float32) * 0.08).astype(np.uint8)
    with pytest.raises(PhotoError, match="too dark to read: more light"):
        read_photo(jpeg_bytes(dusk))


def test_a_webp_whose_small_canvas_hides_a_large_picture_is_called_damaged():
    lossy = webp_bytes(a_photo(640, 480))
    canvas = bytes(4) + (99).to_bytes(3, "little") + (99).to_bytes(3, "little")
    body = b"WEBP" + b"VP8X" + struct.pack("<I", len(canvas)) + canvas + lossy[12:]
    with pytest.raises(PhotoError, match="not the size its header gives"):
        read_photo(b"RIFF" + struct.pack("<I", len(body)) + body)


SMALL_FILES = {"jpeg": jpeg_bytes(a_photo(64, 48)), "png": png_bytes(a_photo(64, 48)),
               "webp": webp_bytes(a_photo(64, 48)), "webp lossless": webp_bytes(a_photo(64, 48), 101)}


@settings(max_examples=300, deadline=None)
@given(kind=st.sampled_from(sorted(SMALL_FILES)), cut=st.integers(0, 4000),
       changes=st.lists(st.tuples(st.integers(0, 4000), st.integers(0, 255)), max_size=6))
def test_a_damaged_photo_file_is_decoded_or_refused_with_a_photo_error(kind, cut, changes):
    data = bytearray(SMALL_FILES[kind][:max(1, len(SMALL_FILES[kind]) - cut)])
    for position, value in changes:
        data[position % len(data)] = value
    try:
        image = decode_image(bytes(data))
    except PhotoError as refused:
        assert refused.code in {"damaged", "not_an_image", "too_large"}
    else:
        assert image.ndim == 3 and image.shape[2] == 3
