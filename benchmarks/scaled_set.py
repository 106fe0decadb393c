"""Real photos of small tiles: the labelled `valid/` photos shrunk as a wider shot shows them.

Issue 10's held-out real photos read worst where 50 or more small tiles lie in one photo;
`valid/`'s tiles are mostly large (a median of 27–96 px wide a photo). This proxy shrinks
each labelled photo so its tiles are ``tile_width`` px wide (its own median tile's short
side), packs the shrunk photos side by side, row after row, into 640×640 canvases (the
dataset's own size, so a canvas holds many small real tiles as a wider shot would), and
saves each canvas as a JPEG. ``soft`` adds what a phone's wider shot adds: a little blur
(σ 0.6 px, after shrinking) and a stronger JPEG (quality 70 instead of 90). Photos whose tiles
are already narrower than ``tile_width`` are left out (they are read at full size in
`valid/`), as are the photos without tiles. The gaps between photos are filled with the
canvas's photos' mean colour. The same call always gives the same canvases.

    python -m benchmarks.scaled_set OUTDIR [--width 24] [--soft]

writes the canvases as JPEGs, for eyeballing.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from companion.core.tiles import Tile

CANVAS = 640
GAP = 4  # pixels between two shrunk photos (table colour), so no two tiles are joined by it
SOFT_BLUR = 0.6
SOFT_QUALITY, PLAIN_QUALITY = 70, 90


@dataclass(frozen=True)
class ScaledCanvas:
    """One canvas: its JPEG bytes and its tiles, each with its outline in canvas pixels."""

    jpeg: bytes
    tiles: tuple[tuple[Tile, np.ndarray], ...]
    photos: tuple[str, ...]  # the names of the photos packed into it


def labelled_photos(split: str = "valid") -> list[tuple[str, np.ndarray, list[tuple[Tile, np.ndarray]]]]:
    """Every photo of ``split`` with tiles, in name order: (name, image, [(tile, outline)])."""
    from benchmarks.vision import labelled_tiles
    from training.dataset import DATA_ROOT

    photos = []
    for image_path in sorted((DATA_ROOT / split / "images").glob("*.jpg")):
        tiles = labelled_tiles(image_path)
        if tiles:
            photos.append((image_path.stem, cv2.imread(str(image_path), cv2.IMREAD_COLOR), tiles))
    return photos


def median_tile_width(tiles: list[tuple[Tile, np.ndarray]]) -> float:
    """The median short side of the tiles' labelled outlines (their rotated rectangles)."""
    return float(np.median([min(cv2.minAreaRect(outline)[1]) for _, outline in tiles]))


def scaled_canvases(tile_width: float, *, soft: bool = False, split: str = "valid",
                    photos: list[tuple[str, np.ndarray, list[tuple[Tile, np.ndarray]]]] | None = None
                    ) -> list[ScaledCanvas]:
    """The photos of ``split`` (or ``photos``) shrunk so their tiles are ``tile_width`` px
    wide, packed into CANVAS × CANVAS JPEGs (see the module's docstring)."""
    shrunk = []
    for name, image, tiles in photos if photos is not None else labelled_photos(split):
        scale = tile_width / median_tile_width(tiles)
        if scale >= 1:
            continue
        size = (max(1, round(image.shape[1] * scale)), max(1, round(image.shape[0] * scale)))
        small = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
        factor = np.array([size[0] / image.shape[1], size[1] / image.shape[0]], np.float32)
        shrunk.append((name, small, [(tile, outline * factor) for tile, outline in tiles]))
    canvases: list[list[tuple[str, np.ndarray, list[tuple[Tile, np.ndarray]], int, int]]] = []
    x = y = row_height = CANVAS
    for name, small, tiles in shrunk:
        height, width = small.shape[:2]
        if x + width > CANVAS:
            x, y, row_height = 0, y + row_height + GAP, 0
        if y + height > CANVAS:
            canvases.append([])
            x = y = row_height = 0
        canvases[-1].append((name, small, tiles, x, y))
        x += width + GAP
        row_height = max(row_height, height)
    return [_canvas(placed, soft) for placed in canvases]


def _canvas(placed: list[tuple[str, np.ndarray, list[tuple[Tile, np.ndarray]], int, int]],
            soft: bool) -> ScaledCanvas:
    fill = np.mean([small.reshape(-1, 3).mean(axis=0) for _, small, _, _, _ in placed], axis=0)
    canvas = np.empty((CANVAS, CANVAS, 3), np.uint8)
    canvas[:] = np.round(fill).astype(np.uint8)
    tiles = []
    for _, small, photo_tiles, x, y in placed:
        canvas[y:y + small.shape[0], x:x + small.shape[1]] = small
        tiles += [(tile, outline + np.float32([x, y])) for tile, outline in photo_tiles]
    if soft:
        canvas = cv2.GaussianBlur(canvas, (0, 0), SOFT_BLUR)
    quality = SOFT_QUALITY if soft else PLAIN_QUALITY
    jpeg = cv2.imencode(".jpg", canvas, [cv2.IMWRITE_JPEG_QUALITY, quality])[1].tobytes()
    return ScaledCanvas(jpeg, tuple(tiles), tuple(name for name, *_ in placed))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("out", type=Path)
    parser.add_argument("--width", type=float, default=24)
    parser.add_argument("--soft", action="store_true")
    parser.add_argument("--split", default="valid")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    for number, canvas in enumerate(scaled_canvases(args.width, soft=args.soft, split=args.split)):
        (args.out / f"{number:02d}.jpg").write_bytes(canvas.jpeg)
        print(number, len(canvas.tiles), "tiles:", " ".join(canvas.photos))


if __name__ == "__main__":
    main()
