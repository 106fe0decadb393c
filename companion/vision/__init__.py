"""The photo reader: tiles on a table photo, read into sets and judged by the rules core;
the tiles on a rack, read and valued.

Runs on OpenCV, numpy and onnxruntime; the two small networks it uses ship as ONNX files in
``models/`` (run by onnxruntime) and are trained by the scripts in ``training/``.
"""

from companion.vision.annotate import annotate, annotate_rack
from companion.vision.decode import (
    MAX_BYTES,
    MAX_PIXELS,
    DecodedPhoto,
    decode_for_reading,
    decode_image,
)
from companion.vision.errors import PhotoError
from companion.vision.pipeline import read_decoded, read_image, read_photo
from companion.vision.rack import read_rack, read_rack_image
from companion.vision.reading import PhotoReading, RackReading, ReadTile

__all__ = [
    "MAX_BYTES",
    "MAX_PIXELS",
    "DecodedPhoto",
    "PhotoError",
    "PhotoReading",
    "RackReading",
    "ReadTile",
    "annotate",
    "annotate_rack",
    "decode_for_reading",
    "decode_image",
    "read_decoded",
    "read_image",
    "read_photo",
    "read_rack",
    "read_rack_image",
]
