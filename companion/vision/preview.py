"""A small copy of a read photo, with the reading's outlines scaled to it.

The photo page carries this copy in its re-check form instead of the photo (see
``companion/web/photos/carry.py``); the image work lives here so the web layer needs no cv2.
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from companion.vision.reading import PhotoReading

PREVIEW_QUALITIES = (85, 70, 55, 40)
# Outlines are drawn, not measured: a corner every pixel or so of the preview is plenty.
OUTLINE_TOLERANCE_PIXELS = 1.0


def preview_of(image: np.ndarray, reading: PhotoReading, *, longest_side: int,
               max_bytes: int) -> tuple[bytes, PhotoReading]:
    """A JPEG of the photo at most ``longest_side`` long and, when it can be, ``max_bytes``
    big, with the reading's outlines in its pixels."""
    height, width = image.shape[:2]
    fit = min(1.0, longest_side / max(width, height))
    attempts = [(fit * shrink, quality) for shrink in (1.0, 0.75, 0.5)
                for quality in PREVIEW_QUALITIES]
    for scale, quality in attempts:
        size = (max(1, round(width * scale)), max(1, round(height * scale)))
        small = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
        preview = cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, quality])[1]
        if len(preview) <= max_bytes or (scale, quality) == attempts[-1]:
            break
    return preview.tobytes(), scaled_reading(reading, size)


def scaled_reading(reading: PhotoReading, size: tuple[int, int]) -> PhotoReading:
    """The reading with its outlines scaled to a picture of ``size`` (width, height)."""
    width, height = size
    x_scale, y_scale = width / reading.width, height / reading.height

    def outline(points: tuple[tuple[int, int], ...]) -> tuple[tuple[int, int], ...]:
        scaled = np.array([[x * x_scale, y * y_scale] for x, y in points], np.float32)
        simpler = cv2.approxPolyDP(scaled, OUTLINE_TOLERANCE_PIXELS, True).reshape(-1, 2)
        kept = simpler if len(simpler) >= 3 else scaled
        return tuple((min(max(round(float(x)), 0), width - 1),
                      min(max(round(float(y)), 0), height - 1)) for x, y in kept)

    tiles = tuple(replace(read, outline=outline(read.outline)) for read in reading.tiles)
    return replace(reading, width=width, height=height, tiles=tiles)
