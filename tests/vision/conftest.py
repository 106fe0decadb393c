"""Shared helpers for the photo reader's tests: real labelled photos and JPEG/PNG bytes."""

from __future__ import annotations

import struct
from collections.abc import Callable
from types import ModuleType
from typing import TypeVar

import cv2
import numpy as np
import pytest

from tests.fixtures import PHOTOS


def jpeg_bytes(image: np.ndarray, quality: int = 92) -> bytes:
    ok, buffer = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok
    return buffer.tobytes()


def shaken(data: bytes, length: int, angle: float) -> bytes:
    """The photo blurred along a line ``length`` px long turned ``angle`` degrees (a shaken
    phone), re-encoded as a JPEG."""
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    kernel = np.zeros((length, length), np.float32)
    kernel[length // 2, :] = 1
    turn = cv2.getRotationMatrix2D((length / 2 - 0.5, length / 2 - 0.5), angle, 1.0)
    kernel = cv2.warpAffine(kernel, turn, (length, length))
    return jpeg_bytes(cv2.filter2D(image, -1, kernel / kernel.sum()), quality=95)


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
    """A fixture photo (its JPEG file) and its labels as (class name, outline in pixels)."""
    image_path = next(iter(sorted((PHOTOS / "images").glob(f"{name_start}*.jpg"))))
    names_text = (PHOTOS / "data.yaml").read_text()
    names = [n.strip().strip("'\"") for n in names_text.split("names:", 1)[1].split("[", 1)[1]
             .split("]", 1)[0].split(",")]
    labels = []
    for line in (PHOTOS / "labels" / f"{image_path.stem}.txt").read_text().splitlines():
        parts = line.split()
        outline = np.array([float(v) for v in parts[1:]], np.float32).reshape(-1, 2) * 640
        labels.append((names[int(parts[0])], outline))
    return image_path.read_bytes(), labels


Reading = TypeVar("Reading")


def read_with_and_without_the_floor(monkeypatch: pytest.MonkeyPatch, module: ModuleType,
                                    read: Callable[[], Reading]
                                    ) -> tuple[Reading, int, Reading, int]:
    """``read()`` as shipped, where ``module`` reads its crops with a ``least`` floor
    (networks.read_crops: a crop that cannot reach it is not read turned round), and again
    with every unsure crop read turned round; each reading with the crops the reader read."""
    from companion.vision import networks

    run = networks.run
    crops_read: list[int] = []

    def counted(path, blob):  # type: ignore[no-untyped-def]
        if path == networks.READER_FILE:
            crops_read.append(len(blob))
        return run(path, blob)

    monkeypatch.setattr(networks, "run", counted)
    floored = read()
    floored_count = sum(crops_read)
    crops_read.clear()
    floorless = module.read_crops
    monkeypatch.setattr(module, "read_crops", lambda crops, least=0.0: floorless(crops))
    return floored, floored_count, read(), sum(crops_read)
