"""Shared helpers for the photo reader's tests: real labelled photos and JPEG/PNG bytes."""

from __future__ import annotations

import struct
from pathlib import Path

import cv2
import numpy as np
import pytest

VALID = Path(__file__).resolve().parents[2].parent / "shared" / "vision-data" / "rummikub-photos-cc-by" / "valid"


def jpeg_bytes(image: np.ndarray, quality: int = 92) -> bytes:
    ok, buffer = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok
    return buffer.tobytes()


def png_bytes(image: np.ndarray) -> bytes:
    ok, buffer = cv2.imencode(".png", image)
    assert ok
    return buffer.tobytes()


def with_exif_orientation(jpeg: bytes, orientation: int) -> bytes:
    """The JPEG with an EXIF block saying how the camera was held (6: turn 90° clockwise)."""
    entry = struct.pack(">HHIHH", 0x0112, 3, 1, orientation, 0)
    tiff = b"MM\x00\x2a" + struct.pack(">I", 8) + struct.pack(">H", 1) + entry + struct.pack(">I", 0)
    payload = b"Exif\x00\x00" + tiff
    segment = b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload
    return jpeg[:2] + segment + jpeg[2:]


def labelled_photo(name_start: str) -> tuple[bytes, list[tuple[str, np.ndarray]]]:
    """A photo of ``valid/`` (its JPEG file) and its labels as (class name, outline in pixels)."""
    if not VALID.is_dir():
        pytest.skip("the labelled photos (../shared/vision-data) are not beside the repository")
    image_path = next(iter(sorted((VALID / "images").glob(f"{name_start}*.jpg"))), None)
    if image_path is None:
        pytest.skip(f"no labelled photo named {name_start}*")
    names_text = (VALID.parent / "data.yaml").read_text()
    names = [n.strip().strip("'\"") for n in names_text.split("names:", 1)[1].split("[", 1)[1]
             .split("]", 1)[0].split(",")]
    labels = []
    for line in (VALID / "labels" / f"{image_path.stem}.txt").read_text().splitlines():
        parts = line.split()
        outline = np.array([float(v) for v in parts[1:]], np.float32).reshape(-1, 2) * 640
        labels.append((names[int(parts[0])], outline))
    return image_path.read_bytes(), labels
