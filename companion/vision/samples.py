"""Keeping a photo and its corrected reading, when the user asks, to teach the reader.

A sample is written in the labelled photos' own format, so ``training/`` reads a folder of
samples as it reads the dataset (``training.dataset.load_folder``): ``images/NAME.jpg``,
``labels/NAME.txt`` with one line per tile, ``CLASS x1 y1 x2 y2 ...`` as fractions of the
picture's width and height, and ``data.yaml`` naming the classes. Nothing is written unless
the caller was told to keep it.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from pathlib import Path

from companion.core.tiles import Tile
from companion.vision.classes import DATASET_NAMES, dataset_name
from companion.vision.decode import check_photo_bytes


def keep_sample(folder: Path, jpeg: bytes, tiles: Sequence[tuple[Tile, Sequence[tuple[int, int]]]],
                *, prefix: str = "sample") -> Path | None:
    """Write the photo ``jpeg`` with each tile's corrected identity and outline (in the
    photo's pixels) under ``folder``; the label file's path, or None when a tile cannot be
    labelled (a Twist joker the reader does not learn) or there is no tile."""
    width, height = check_photo_bytes(jpeg)
    lines = []
    for tile, outline in tiles:
        name = dataset_name(tile)
        if name is None or len(outline) < 3:
            return None
        points = " ".join(f"{min(max(x / width, 0.0), 1.0):.6f} {min(max(y / height, 0.0), 1.0):.6f}"
                          for x, y in outline)
        lines.append(f"{DATASET_NAMES.index(name)} {points}")
    if not lines:
        return None
    (folder / "images").mkdir(parents=True, exist_ok=True)
    (folder / "labels").mkdir(parents=True, exist_ok=True)
    names = ", ".join(f"'{name}'" for name in DATASET_NAMES)
    (folder / "data.yaml").write_text(f"nc: {len(DATASET_NAMES)}\nnames: [{names}]\n")
    stem = f"{prefix}-{secrets.token_hex(8)}"
    (folder / "images" / f"{stem}.jpg").write_bytes(jpeg)
    label = folder / "labels" / f"{stem}.txt"
    label.write_text("\n".join(lines) + "\n")
    return label


SAMPLE_LONG_SIDE = 1600  # kept photos are shrunk to this: enough to cut tiles from


def keep_photo_sample(folder: Path, data: bytes,
                      tiles: Sequence[tuple[Tile, Sequence[tuple[int, int]]]], *,
                      prefix: str = "sample") -> Path | None:
    """``keep_sample`` for an uploaded photo (any size, any format decode_for_reading reads): a copy at most
    SAMPLE_LONG_SIDE long is kept, the outlines (in the photo's pixels) scaled to it."""
    import cv2

    from companion.vision.decode import decode_for_reading

    photo = decode_for_reading(data)
    image = photo.image
    shrink = min(1.0, SAMPLE_LONG_SIDE / max(image.shape[:2]))
    if shrink < 1.0:
        image = cv2.resize(image, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA)
    scale = image.shape[1] / photo.width
    ok, jpeg = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 90])
    if not ok:
        return None
    scaled = [(tile, [(round(x * scale), round(y * scale)) for x, y in outline])
              for tile, outline in tiles]
    return keep_sample(folder, jpeg.tobytes(), scaled, prefix=prefix)
