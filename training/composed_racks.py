"""Rack photos composed of the classic training crops, cached as renders for the detector.

    .venv/bin/python -m training.composed_racks [--count 240] [--out /tmp/composed-classic]
    .venv/bin/python -m training.composed_racks --spreads [--count 240] [--out /tmp/spread-classic]

Each is ``benchmarks.rack_composites.compose_rack``'s drawn rack of one to three tiers, its
tiles real classic crops from the training side of ``training.classic`` (never its validation
split, which the benchmark composes from), drawn at 0.55–1.05 of the benchmark's size on
tables and rack boards from dark to light, half at a slant, through a JPEG. The answers hold
each tile's outline (and its number, 0 for a joker): ``train_detector --extra-synthetic``
learns from them where a classic tile is; the reader does not learn from them (the crops
themselves teach it, ``train_classic``). ``--spreads``: instead, the crops lying on a wooden
table in one to five rows of three to thirteen, touching or a little apart, from the front and
a little above (``benchmarks.spread_composites.compose_spread``), 1920 × 1080.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import cv2
import numpy as np

from benchmarks.rack_composites import classic_tiles, compose_rack, number_of
from benchmarks.spread_composites import compose_spread

FIRST_SEED = 7_200_000


def composed_rack(tiles: list, rng: np.random.Generator, n: int):
    light_table = rng.random() < 0.4
    table = (120.0, 210.0) if light_table else (20.0, 70.0)
    board = (90.0, 170.0) if rng.random() < 0.3 else (5.0, 40.0)
    return compose_rack(tiles, 1 + n % 3, int(rng.integers(5, 14)), rng,
                        slant=bool(rng.random() < 0.5), tile_scale=float(rng.uniform(0.55, 1.05)),
                        table=table, board=board)


def composed_spread(tiles: list, rng: np.random.Generator, n: int):
    rows = 1 + n % 5
    per_row = tuple(int(rng.integers(3, 14)) for _ in range(rows))
    # fuller than the benchmark's spreads: a tile cut by the frame's edge teaches the detector too
    return compose_spread(tiles, per_row, bool(rng.random() < 0.6), rng, size=(1920, 1080),
                          fill=(0.85, 0.8))


def write_composed(count: int, out: Path, first_seed: int = FIRST_SEED, *,
                   spreads: bool = False) -> None:
    tiles = classic_tiles(training=True)
    out.mkdir(parents=True, exist_ok=True)
    compose = composed_spread if spreads else composed_rack
    for n in range(count):
        rng = np.random.default_rng([first_seed, n])
        photo, labels, outlines = compose(tiles, rng, n)
        stem = out / f"composed-{n:04d}"
        cv2.imwrite(str(stem.with_suffix(".jpg")), photo,
                    [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(70, 96))])
        answer = [{"number": number_of(tile), "outline": outline.tolist()}
                  for tile, outline in zip(labels, outlines, strict=True)]
        stem.with_suffix(".json").write_text(json.dumps(answer))
    print(f"wrote {count} composed {'spreads' if spreads else 'racks'} to {out}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=240)
    parser.add_argument("--out", type=Path, default=Path("/tmp/composed-classic"))
    parser.add_argument("--first-seed", type=int, default=FIRST_SEED)
    parser.add_argument("--spreads", action="store_true",
                        help="tiles spread on a wooden table in rows instead of racks")
    args = parser.parse_args()
    write_composed(args.count, args.out, args.first_seed, spreads=args.spreads)


if __name__ == "__main__":
    main()
