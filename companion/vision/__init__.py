"""The photo reader: tiles on a table photo, read into sets and judged by the rules core.

Runs on OpenCV and numpy only; the two small networks it uses ship as ONNX files in
``models/`` and are trained by the scripts in ``training/``.
"""

from companion.vision.annotate import annotate
from companion.vision.decode import MAX_BYTES, MAX_PIXELS, decode_image
from companion.vision.errors import PhotoError
from companion.vision.pipeline import read_image, read_photo
from companion.vision.reading import PhotoReading, ReadTile

__all__ = [
    "MAX_BYTES",
    "MAX_PIXELS",
    "PhotoError",
    "PhotoReading",
    "ReadTile",
    "annotate",
    "decode_image",
    "read_image",
    "read_photo",
]
