"""Classic crops as the pipeline frames them: the reader's own input for a rack of them.

    nice -n 10 .venv/bin/python -m training.framed_classic [--count 600] \
        [--out /tmp/framed-classic.npz]

The classic crops (``training.classic``) are each one tile as another program boxed it; the
pipeline reads a photo's tiles as its own detector outlines them, with a neighbour's edge, the
rack's ledge and the photo's blur and slant in the box. On racks composed of the validation
crops (``benchmarks.rack_composites``) the classic reader read 92% of the numbers against
98.75% of the same crops read as they are: the framing, not the font, lost the rest.

So this composes ``--count`` racks the same way from the *training* crops only (seeds far
from the benchmark's), finds and reads each with the pipeline and the classic reader, and
keeps every found tile whose outline holds one placed tile's centre: its crop cut from the
photo as lit for the reading (``ReadFound.prepared``, ``crops.crop_tile``), turned upright
(the racks are upright within 12°), with that tile's number. ``training.train_classic
--framed FILE`` learns them beside the crops as boxed.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import cv2
import numpy as np

from benchmarks.rack_composites import TILE_H, TILE_W, compose_with_centres
from companion.vision import PhotoError, networks
from companion.vision.crops import crop_tile
from companion.vision.decode import DecodedPhoto
from companion.vision.pipeline import found_and_read_with_one_reader
from training.classic import classic_crops

FIRST_SEED = 7_100_000


def training_tiles() -> list[tuple[np.ndarray, int]]:
    """The classic training crops at the composed racks' tile size, with their numbers."""
    train, _ = classic_crops()
    return [(cv2.resize(cv2.imread(str(crop.path)), (TILE_W, TILE_H),
                        interpolation=cv2.INTER_AREA), crop.number) for crop in train]


def framed(photo: np.ndarray, labels: list[int], centres: np.ndarray
           ) -> list[tuple[np.ndarray, int]]:
    """The photo's found tiles cut as the reader is given them, upright, each with the number
    of the one placed tile whose centre its outline holds (others are left out)."""
    try:
        with networks.reading_classic():
            read = found_and_read_with_one_reader(DecodedPhoto.of_image(photo))
    except PhotoError:
        return []
    lit = read.prepared(photo)
    kept = []
    for corners in read.corners:
        outline = corners.reshape(-1, 1, 2).astype(np.float32)
        inside = [i for i, (x, y) in enumerate(centres)
                  if cv2.pointPolygonTest(outline, (float(x), float(y)), False) > 0]
        if len(inside) != 1:
            continue
        crop = crop_tile(lit, corners)
        if corners[0][1] > corners[3][1]:  # read upside down: its top is the photo's bottom
            crop = np.ascontiguousarray(crop[::-1, ::-1])
        kept.append((crop, labels[inside[0]]))
    return kept


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=600)
    parser.add_argument("--out", type=Path, default=Path("/tmp/framed-classic.npz"))
    args = parser.parse_args()
    tiles = training_tiles()
    crops, numbers = [], []
    for n in range(args.count):
        rng = np.random.default_rng([FIRST_SEED, n])
        tiers = 1 + n % 3
        per_tier = 13 if tiers == 1 else int(rng.integers(5, 12))
        photo, labels, centres = compose_with_centres(tiles, tiers, per_tier, rng,
                                                      slant=n % 2 == 1)
        jpeg = cv2.imencode(".jpg", photo, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(75, 95))])[1]
        for crop, number in framed(cv2.imdecode(jpeg, cv2.IMREAD_COLOR), labels, centres):
            crops.append(crop)
            numbers.append(number)
        if n % 50 == 49:
            print(f"{n + 1} racks, {len(crops)} crops", flush=True)
    np.savez_compressed(args.out, crops=np.stack(crops), numbers=np.array(numbers))
    print(f"{len(crops)} crops in {args.out}")


if __name__ == "__main__":
    main()
