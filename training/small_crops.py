"""Crops of small tiles cut as the pipeline cuts them, for the reader to learn from (issue 10).

A wide shot of a table shows tiles 16–30 px wide. The pipeline then cuts each tile from the
decoded photo (``crops.crop_tile``: a warp that blows the tile up to the reader's 64×48), so
the crop carries what shrinking, the lens's softness and the JPEG did to the tile in the
photo's own pixel grid. ``train_reader --small-chance`` only shrinks the finished crop and
blows it up again, which the pipeline never does. Here each picture is shrunk as a whole
(INTER_AREA, as ``benchmarks.scaled_set`` shrinks ``valid/``) so its median tile is a drawn
width, softened half the time (a blur of σ 0.3–0.9 px and a JPEG of quality 60–80, otherwise
85–95), saved as a JPEG and decoded, and its tiles cut from that with outlines jittered as a
detector's boxes are at that size (or the shipped detector's own boxes, ``detected=True``).

Numpy and OpenCV only (no torch): ``train_reader --small-crops FILE`` learns from the file
``python -m training.small_crops`` writes. Only ``train/`` photos and renders are ever cut
(never ``valid/``, which the benchmark shrinks to measure).
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from companion.vision.crops import canonical_corners, crop_tile

SMALLEST_WIDTH, LARGEST_WIDTH = 16.0, 30.0
SOFT_SHARE = 0.5


@dataclass(frozen=True)
class PictureTile:
    """One labelled tile of a picture: its outline, its class and its up direction (unit)."""

    polygon: np.ndarray
    label: int
    up: np.ndarray


@dataclass(frozen=True)
class SmallCrops:
    """Crops (N, 64, 48, 3) uint8, upright as the label says; their classes, the tile width
    (px) their picture was shrunk to, whether it was softened, and the picture each came from."""

    crops: np.ndarray
    labels: np.ndarray
    widths: np.ndarray
    soft: np.ndarray
    pictures: np.ndarray

    def save(self, path: Path) -> None:
        np.savez_compressed(path, crops=self.crops, labels=self.labels, widths=self.widths,
                            soft=self.soft, pictures=self.pictures)

    @classmethod
    def load(cls, path: Path) -> SmallCrops:
        data = np.load(path)
        return cls(data["crops"], data["labels"], data["widths"], data["soft"], data["pictures"])


def median_width(polygons: list[np.ndarray]) -> float:
    """The median short side of the outlines' rotated rectangles."""
    return float(np.median([min(cv2.minAreaRect(p.astype(np.float32))[1]) for p in polygons]))


def shrunk_picture(image: np.ndarray, scale: float, *, soft: bool,
                   rng: np.random.Generator) -> np.ndarray:
    """The picture shrunk by ``scale`` (INTER_AREA), softened if ``soft``, through a JPEG."""
    size = (max(1, round(image.shape[1] * scale)), max(1, round(image.shape[0] * scale)))
    small = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
    if soft:
        small = cv2.GaussianBlur(small, (0, 0), float(rng.uniform(0.3, 0.9)))
        quality = int(rng.integers(60, 81))
    else:
        quality = int(rng.integers(85, 96))
    return cv2.imdecode(cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, quality])[1],
                        cv2.IMREAD_COLOR)


def jittered_corners(polygon: np.ndarray, up: np.ndarray,
                     rng: np.random.Generator) -> np.ndarray:
    """The outline's rectangle moved, grown or shrunk and turned as a detector's box of a small
    tile is (about a pixel either way), as canonical corners with the tile's top first."""
    (cx, cy), (w, h), angle = cv2.minAreaRect(polygon.astype(np.float32))
    size = max(w, h)
    cx += rng.normal(0, 0.05) * size
    cy += rng.normal(0, 0.05) * size
    w *= rng.uniform(0.88, 1.14)
    h *= rng.uniform(0.88, 1.14)
    angle += rng.normal(0, 4)
    corners = canonical_corners(((cx, cy), (w, h), angle))
    top = (corners[0] + corners[1]) / 2 - (corners[2] + corners[3]) / 2
    if float(top @ up) < 0:
        corners = corners[[2, 3, 0, 1]]
    return corners


def detected_corners(small: np.ndarray, tiles: list[PictureTile]
                     ) -> list[tuple[np.ndarray, PictureTile]]:
    """The shipped detector's boxes in the shrunk picture whose centre lies in a labelled
    outline, each with that tile, as canonical corners with the tile's top first."""
    from companion.vision.detect import find_tiles

    found = []
    for box in find_tiles(small):
        for tile in tiles:
            if cv2.pointPolygonTest(tile.polygon.astype(np.float32), box.centre, False) >= 0:
                corners = canonical_corners(box.rect)
                top = (corners[0] + corners[1]) / 2 - (corners[2] + corners[3]) / 2
                if float(top @ tile.up) < 0:
                    corners = corners[[2, 3, 0, 1]]
                found.append((corners, tile))
                break
    return found


def picture_crops(image: np.ndarray, tiles: list[PictureTile], width: float, *, soft: bool,
                  detected: bool, rng: np.random.Generator
                  ) -> list[tuple[np.ndarray, int]]:
    """The tiles of one picture shrunk so its median tile is ``width`` px wide, cut as the
    pipeline cuts them: (crop, label) for every labelled tile (a jittered outline) and, with
    ``detected``, for every detector box over one. Nothing when the tiles are narrower already."""
    scale = width / median_width([t.polygon for t in tiles])
    if scale >= 1:
        return []
    small = shrunk_picture(image, scale, soft=soft, rng=rng)
    factor = np.array([small.shape[1] / image.shape[1], small.shape[0] / image.shape[0]],
                      np.float32)
    shrunk = [PictureTile(t.polygon * factor, t.label, t.up) for t in tiles]
    boxes = [(jittered_corners(t.polygon, t.up, rng), t) for t in shrunk]
    if detected:
        boxes += detected_corners(small, shrunk)
    return [(crop_tile(small, corners), tile.label) for corners, tile in boxes]


def small_crops(pictures: list[tuple[np.ndarray, list[PictureTile]]], variants: int,
                rng: np.random.Generator, *, detected: bool = False,
                widths: tuple[float, float] = (SMALLEST_WIDTH, LARGEST_WIDTH)) -> SmallCrops:
    """``variants`` shrunk copies of every picture (a width drawn in ``widths``, softened
    SOFT_SHARE of the time), their tiles cut as ``picture_crops`` does."""
    crops, labels, drawn, softened, origins = [], [], [], [], []
    for number, (image, tiles) in enumerate(pictures):
        if not tiles:
            continue
        for _ in range(variants):
            width = float(rng.uniform(*widths))
            soft = bool(rng.random() < SOFT_SHARE)
            for crop, label in picture_crops(image, tiles, width, soft=soft, detected=detected,
                                             rng=rng):
                crops.append(crop)
                labels.append(label)
                drawn.append(width)
                softened.append(soft)
                origins.append(number)
    if not crops:
        return SmallCrops(np.zeros((0, 64, 48, 3), np.uint8), np.zeros(0, np.int64),
                          np.zeros(0, np.float32), np.zeros(0, bool), np.zeros(0, np.int64))
    return SmallCrops(np.stack(crops), np.array(labels, np.int64), np.array(drawn, np.float32),
                      np.array(softened, bool), np.array(origins, np.int64))


def main() -> None:
    from training.dataset import load_split
    from training.render_synthetic import DEFAULT_CACHE
    from training.train_reader import HELD_OUT_PHOTOS, real_samples, synthetic_samples

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=Path("/tmp/reader-small/train.npz"))
    parser.add_argument("--held-out-out", type=Path, default=Path("/tmp/reader-small/held-out.npz"),
                        help="the same cut from train_reader's held-out photos (for calibration)")
    parser.add_argument("--variants", type=int, default=3, help="shrunk copies of each photo")
    parser.add_argument("--render-variants", type=int, default=1,
                        help="shrunk copies of each render (the first 300 tiles held out, as "
                             "train_reader holds them)")
    parser.add_argument("--synthetic", type=Path, default=DEFAULT_CACHE)
    parser.add_argument("--detected", action="store_true",
                        help="also cut the shipped detector's boxes of the shrunk pictures")
    parser.add_argument("--seed", type=int, default=11, help="train_reader's, for its held-out photos")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    rng = np.random.default_rng(args.seed)
    photos = load_split("train")
    names = sorted({p.photo_name for p in photos})
    held_out = set(rng.choice(names, HELD_OUT_PHOTOS, replace=False))
    images = {str(p.path): p.image() for p in photos}

    def pictures_of(samples) -> list[tuple[np.ndarray, list[PictureTile]]]:
        by_key: dict[str, list[PictureTile]] = {}
        for s in samples:
            by_key.setdefault(s.image_key, []).append(PictureTile(s.polygon, s.label, s.up))
        return [(images[key], tiles) for key, tiles in by_key.items()]

    train = pictures_of(real_samples([p for p in photos if p.photo_name not in held_out], images))
    check = pictures_of(real_samples([p for p in photos if p.photo_name in held_out], images))
    renders = synthetic_samples(args.synthetic, images)
    checked = {s.image_key for s in renders[:300]}
    rendered = pictures_of([s for s in renders if s.image_key not in checked])
    args.out.parent.mkdir(parents=True, exist_ok=True)
    made = small_crops(train, args.variants, rng, detected=args.detected)
    from_renders = small_crops(rendered, args.render_variants, rng, detected=args.detected)
    together = SmallCrops(*(np.concatenate([a, b]) for a, b in zip(
        (made.crops, made.labels, made.widths, made.soft, made.pictures),
        (from_renders.crops, from_renders.labels, from_renders.widths, from_renders.soft,
         from_renders.pictures + len(train)))))
    together.save(args.out)
    print(f"{len(made.labels)} crops of train/ photos, {len(from_renders.labels)} of renders "
          f"-> {args.out}", flush=True)
    held = small_crops(check, args.variants * 4, rng, detected=args.detected)
    held.save(args.held_out_out)
    print(f"{len(held.labels)} held-out crops -> {args.held_out_out}", flush=True)


if __name__ == "__main__":
    main()
