"""Turning uploaded bytes into an image, refusing what is not a whole, reasonable photo.

Sizes are checked from the file header before anything is decoded, so a small file that
claims a huge picture (a decompression bomb) is refused without allocating it.
"""

from __future__ import annotations

import io
import struct
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import cv2
import numpy as np

from companion.vision.errors import PhotoError

if TYPE_CHECKING:
    from PIL.Image import Image

MAX_BYTES = 40 * 1024 * 1024
MAX_PIXELS = 40_000_000  # the most a photo decoded whole may hold (PNG, WebP, HEIC, AVIF)
# A JPEG is read from a decode at a half to an eighth of its size, so it may hold more: the
# 48 and 50 megapixel modes of phones' cameras
MAX_JPEG_PIXELS = 64_000_000
MAX_SIDE = 20_000  # no phone takes a photo 20 000 pixels long: a strip like that is a trap

_JPEG_MAGIC = b"\xff\xd8\xff"
_PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
_VP8_START_CODE = b"\x9d\x01\x2a"
# start-of-frame markers carry the picture size (all SOFn but DHT C4, JPG C8, DAC CC)
_SOF_MARKERS = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}


def _megabytes(size: int) -> str:
    return f"{size / (1024 * 1024):.0f} MB"


def _jpeg_size_and_scan(data: bytes) -> tuple[int, int, int]:
    """Width, height and where the first scan starts; PhotoError if a segment is cut short.

    Every segment before the scan is walked, and a length running past the end of the file
    is refused here, before a decoder trusts it.
    """
    position = 2
    width = height = 0
    while True:
        # skip fill bytes, find the next marker
        while position < len(data) and data[position] != 0xFF:
            position += 1
        while position < len(data) and data[position] == 0xFF:
            position += 1
        if position + 3 > len(data):
            raise PhotoError("the file is truncated: the JPEG ends before its picture starts",
                             "damaged")
        marker = data[position]
        position += 1
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:
            continue
        (length,) = struct.unpack(">H", data[position:position + 2])
        if length < 2 or position + length > len(data):
            raise PhotoError("the file is truncated or damaged: a JPEG segment runs past the end "
                             "of the file", "damaged")
        if marker in _SOF_MARKERS:
            if length < 8:
                raise PhotoError("the file is damaged: the JPEG header is cut short", "damaged")
            height, width = struct.unpack(">HH", data[position + 3:position + 7])
        if marker == 0xDA:
            if not width or not height:
                raise PhotoError("not an image: the JPEG has no picture size", "not_an_image")
            return width, height, position + length
        position += length


def _png_size(data: bytes) -> tuple[int, int]:
    """Width and height from IHDR, after walking every chunk to IEND.

    A chunk whose length runs past the end of the file (a 109-byte PNG may claim a 4 GB
    chunk, and a decoder would reserve it) is refused before anything is decoded.
    """
    if len(data) < 33 or data[12:16] != b"IHDR":
        raise PhotoError("the file is truncated: the PNG header is cut short", "damaged")
    (header_length,) = struct.unpack(">I", data[8:12])
    if header_length != 13:
        raise PhotoError("the file is damaged: the PNG header has the wrong length", "damaged")
    width, height = struct.unpack(">II", data[16:24])
    position = 8
    while True:
        if position + 12 > len(data):
            raise PhotoError("the file is truncated: the PNG ends before the end of the picture",
                             "damaged")
        length, kind = struct.unpack(">I4s", data[position:position + 8])
        if length > len(data) - position - 12:
            raise PhotoError("the file is truncated or damaged: a PNG chunk runs past the end of "
                             "the file", "damaged")
        position += 12 + length
        if kind == b"IEND":
            return width, height


def _is_webp(data: bytes) -> bool:
    return data[:4] == b"RIFF" and data[8:12] == b"WEBP"


def _webp_bitstream_size(kind: bytes, payload: bytes) -> tuple[int, int] | None:
    """The picture size in a VP8 (lossy) or VP8L (lossless) chunk's first bytes."""
    if kind == b"VP8 " and payload[3:6] == _VP8_START_CODE and len(payload) >= 10:
        width, height = struct.unpack("<HH", payload[6:10])
        return width & 0x3FFF, height & 0x3FFF
    if kind == b"VP8L" and payload[:1] == b"\x2f" and len(payload) >= 5:
        (bits,) = struct.unpack("<I", payload[1:5])
        return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    return None


def _webp_size(data: bytes) -> tuple[int, int]:
    """Width and height of a WebP, after walking its chunks to the picture's bitstream.

    The RIFF length must fit in the file and every chunk in the RIFF; an extended file's
    canvas (VP8X) must be the size of its picture, so a small canvas cannot hide a huge one.
    """
    if len(data) < 20:
        raise PhotoError("the file is truncated: the WebP header is cut short", "damaged")
    (riff_length,) = struct.unpack("<I", data[4:8])
    end = riff_length + 8
    if end > len(data):
        raise PhotoError("the file is truncated: the WebP ends before the end of the picture",
                         "damaged")
    canvas: tuple[int, int] | None = None
    position = 12
    while position + 8 <= end:
        kind, length = struct.unpack("<4sI", data[position:position + 8])
        payload = data[position + 8:position + 8 + length]
        if position + 8 + length > end:
            raise PhotoError("the file is damaged: a WebP chunk runs past the end of the file",
                             "damaged")
        if kind == b"VP8X" and canvas is None and length >= 10:
            canvas = (int.from_bytes(payload[4:7], "little") + 1,
                      int.from_bytes(payload[7:10], "little") + 1)
        elif kind == b"ANIM" and canvas is not None:
            return canvas  # frames of an animation: the canvas bounds them all
        else:
            size = _webp_bitstream_size(kind, payload)
            if size is not None:
                if canvas is not None and size != canvas:
                    raise PhotoError("the file is damaged: the WebP's picture is not the size "
                                     "its header gives", "damaged")
                return size
        position += 8 + length + (length & 1)  # chunks are padded to an even length
    raise PhotoError("the file is damaged: the WebP has no picture in it", "damaged")


# ISO base media files (HEIF, AVIF) say what they hold in their first box, "ftyp": a major
# brand and a list of compatible ones
_HEIF_BRANDS = {b"heic", b"heix", b"heim", b"heis", b"hevc", b"hevx", b"hevm", b"hevs"}
_AVIF_BRANDS = {b"avif", b"avis"}


def _iso_brands(data: bytes) -> set[bytes]:
    """The brands of an ISO base media file's "ftyp" box (empty when it is not one)."""
    if len(data) < 16 or data[4:8] != b"ftyp":
        return set()
    (size,) = struct.unpack(">I", data[:4])
    box = data[8:min(max(size, 16), len(data), 8 + 4 * 64)]
    return {box[0:4]} | {box[start:start + 4] for start in range(8, len(box) - 3, 4)}


def _is_heif_or_avif(data: bytes) -> bool:
    return bool(_iso_brands(data) & (_HEIF_BRANDS | _AVIF_BRANDS | {b"mif1", b"msf1"}))


def _open_heif_or_avif(data: bytes) -> Image:
    """The photo opened by Pillow (AVIF) or pillow-heif (HEIC, an iPhone's own format), its
    pixels not decoded yet."""
    from PIL import Image, UnidentifiedImageError
    from pillow_heif import register_heif_opener

    register_heif_opener()
    try:
        return Image.open(io.BytesIO(data))
    except Image.DecompressionBombError as error:
        raise PhotoError(f"the photo is too large: the limit is {MAX_PIXELS / 1e6:.0f} megapixels",
                         "too_large") from error
    except (UnidentifiedImageError, OSError, ValueError, RuntimeError, SyntaxError) as error:
        raise PhotoError("the file is damaged: the HEIC or AVIF photo cannot be opened",
                         "damaged") from error


def check_photo_bytes(data: bytes) -> tuple[int, int]:
    """Refuse what is not a complete JPEG, PNG, WebP, HEIC or AVIF of a sensible size; return
    the stored size."""
    if not data:
        raise PhotoError("not an image: the file is empty", "not_an_image")
    if len(data) > MAX_BYTES:
        raise PhotoError(f"the photo is too large: {_megabytes(len(data))}, "
                         f"the limit is {_megabytes(MAX_BYTES)}", "too_large")
    most_pixels = MAX_PIXELS
    if data.startswith(_JPEG_MAGIC):
        most_pixels = MAX_JPEG_PIXELS
        width, height, scan_start = _jpeg_size_and_scan(data)
        # the entropy-coded data never holds FF D9, so the end marker must come after the scan
        if data.rfind(b"\xff\xd9") < scan_start:
            raise PhotoError("the file is truncated: the JPEG ends before the end of the picture",
                             "damaged")
    elif data.startswith(_PNG_MAGIC):
        width, height = _png_size(data)
    elif _is_webp(data):
        width, height = _webp_size(data)
    elif _is_heif_or_avif(data):
        width, height = _open_heif_or_avif(data).size
    else:
        raise PhotoError("not an image: send a photo as JPEG, PNG, WebP or HEIC", "not_an_image")
    if max(width, height) > MAX_SIDE:
        raise PhotoError(f"the photo is too large: {width}×{height} pixels, at most "
                         f"{MAX_SIDE} on a side", "too_large")
    _check_pixels(width, height, most_pixels)
    if width == 0 or height == 0:
        raise PhotoError("not an image: the picture has no pixels", "not_an_image")
    return width, height


def _check_pixels(width: int, height: int, most_pixels: int) -> None:
    if width * height > most_pixels:
        raise PhotoError(f"the photo is too large: {width * height / 1e6:.0f} megapixels, "
                         f"the limit is {most_pixels / 1e6:.0f}", "too_large")


def decode_image(data: bytes) -> np.ndarray:
    """The photo as a BGR image, turned upright as its EXIF orientation says; PhotoError if bad
    (a JPEG too, over MAX_PIXELS: this decodes it whole)."""
    _check_pixels(*check_photo_bytes(data), MAX_PIXELS)
    return _decode(data, 1)


# The detector looks at the photo with its long side at 512 px (1024 at most, for small
# tiles): a JPEG decoded at a half, a quarter or an eighth of its size, which libjpeg does
# for a fraction of the cost, is plenty as long as it stays this long.
DETECTION_LONG_SIDE = 960
WHOLE_DECODE_PIXELS = 16_000_000
"""A PNG, WebP, HEIC or AVIF larger than this (a 12 MP phone photo is not) is shrunk as soon
as it is decoded, as a JPEG is decoded small: the reader then works on a 1/2 to 1/8 copy, and
the whole picture lives only while the decoder holds it."""
_REDUCED_FLAGS = {1: cv2.IMREAD_COLOR, 2: cv2.IMREAD_REDUCED_COLOR_2,
                  4: cv2.IMREAD_REDUCED_COLOR_4, 8: cv2.IMREAD_REDUCED_COLOR_8}


@dataclass(eq=False)
class DecodedPhoto:
    """A photo decoded for reading: ``image`` at 1/``factor`` of the photo's size (upright),
    and the photo's own size; finer decodes are made only when the tiles need them."""

    data: bytes
    image: np.ndarray
    factor: int
    width: int
    height: int
    _finer: dict[int, np.ndarray] = field(default_factory=dict)

    @classmethod
    def of_image(cls, image: np.ndarray) -> DecodedPhoto:
        """An image already decoded (a test's, a benchmark's), taken as the photo at full size."""
        return cls(b"", image, 1, image.shape[1], image.shape[0])

    def at(self, factor: int) -> np.ndarray:
        """The photo decoded at 1/``factor`` of its size (1: full size)."""
        if factor == self.factor:
            return self.image
        if factor not in self._finer:
            self._finer[factor] = _decode(self.data, factor)
        return self._finer[factor]


def _decode_heic(data: bytes, factor: int) -> np.ndarray:
    """A HEIC photo as a BGR image at 1/``factor`` of its size, turned as the file says
    (libheif applies the HEIF's own rotation and mirror; as pillow-heif's Pillow plugin does,
    an EXIF orientation is not applied again). The pixels are read from libheif's own buffer,
    without the Pillow copies: a 6000 × 6000 HEIC peaks near 170 MB instead of 260 MB."""
    import pillow_heif

    try:
        heif = pillow_heif.open_heif(data, convert_hdr_to_8bit=True)
        pixels = np.asarray(heif)
    except (OSError, ValueError, RuntimeError, SyntaxError) as error:
        raise PhotoError("the file is damaged: the HEIC photo cannot be decoded",
                         "damaged") from error
    if pixels.ndim == 2:
        pixels = cv2.cvtColor(pixels, cv2.COLOR_GRAY2RGB)
    if factor > 1:
        height, width = pixels.shape[:2]
        pixels = cv2.resize(pixels, (max(width // factor, 1), max(height // factor, 1)),
                            interpolation=cv2.INTER_AREA)
    image = cv2.cvtColor(pixels[:, :, :3], cv2.COLOR_RGB2BGR)
    del pixels, heif
    return image


def _decode_heif_or_avif(data: bytes, factor: int = 1) -> np.ndarray:
    """A HEIC or AVIF photo as a BGR image at 1/``factor`` of its size, turned as the file
    says (pillow-heif applies the HEIF's own rotation; an EXIF orientation left over is applied
    too). The whole picture is dropped as soon as its reduced copy is made."""
    from PIL import ImageOps

    if _iso_brands(data) & _HEIF_BRANDS:
        return _decode_heic(data, factor)
    try:
        picture = _open_heif_or_avif(data)
        picture.load()
        if factor > 1:
            whole, picture = picture, picture.reduce(factor)
            whole.close()
            del whole
        picture = ImageOps.exif_transpose(picture)
        if picture.mode != "RGB":
            picture = picture.convert("RGB")
    except (OSError, ValueError, RuntimeError, SyntaxError) as error:
        raise PhotoError("the file is damaged: the HEIC or AVIF photo cannot be decoded",
                         "damaged") from error
    return cv2.cvtColor(np.asarray(picture), cv2.COLOR_RGB2BGR)


def _decode(data: bytes, factor: int) -> np.ndarray:
    """The photo at 1/``factor`` of its size: libjpeg decodes a JPEG small; OpenCV shrinks a
    PNG or WebP right after decoding it (``IMREAD_REDUCED_*``)."""
    if _is_heif_or_avif(data):
        return _decode_heif_or_avif(data, factor)
    image = cv2.imdecode(np.frombuffer(data, dtype=np.uint8), _REDUCED_FLAGS[factor])
    if image is None or image.size == 0:
        raise PhotoError("not an image: the file could not be decoded (damaged or truncated)",
                         "not_an_image")
    return image


def decode_for_reading(data: bytes) -> DecodedPhoto:
    """The photo checked, and decoded as small as the detector allows (a JPEG always; a PNG,
    WebP, HEIC or AVIF over WHOLE_DECODE_PIXELS, shrunk right after its decode)."""
    width, height = check_photo_bytes(data)
    factor = 1
    if data.startswith(_JPEG_MAGIC) or width * height > WHOLE_DECODE_PIXELS:
        for candidate in (8, 4, 2):
            if max(width, height) / candidate >= DETECTION_LONG_SIDE:
                factor = candidate
                break
    image = _decode(data, factor)
    if factor == 1:
        width, height = image.shape[1], image.shape[0]
    elif (image.shape[1] > image.shape[0]) != (width > height):
        width, height = height, width  # turned upright by its EXIF orientation
    return DecodedPhoto(data, image, factor, width, height)
