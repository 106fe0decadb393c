"""Render synthetic training photos once and cache them in /tmp (never in the repository).

    .venv/bin/python -m training.render_synthetic [--count 300] [--out /tmp/companion-synthetic]

Seeds start at 10 000 000, far from the fixed benchmark set (``benchmarks/synthetic_set.py``
uses 2 026 000 onwards), so no benchmark photo is ever trained on.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import cv2
import numpy as np

from companion.vision.synthetic import random_table, render_table

FIRST_SEED = 10_000_000
DEFAULT_CACHE = Path("/tmp/companion-synthetic")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=300)
    parser.add_argument("--out", type=Path, default=DEFAULT_CACHE)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(FIRST_SEED)
    sizes = [(1280, 960), (960, 1280), (1600, 1200), (1024, 1024)]
    for index in range(args.count):
        table = random_table(rng, min_sets=1, max_sets=8)
        rendered = render_table(table, seed=FIRST_SEED + index, size=sizes[index % len(sizes)],
                                upside_down_chance=0.35)
        name = f"synthetic-{index:04d}"
        cv2.imwrite(str(args.out / f"{name}.jpg"), rendered.image, [cv2.IMWRITE_JPEG_QUALITY, 92])
        answer = [{"tile": str(t.tile), "outline": [[float(x), float(y)] for x, y in t.outline]}
                  for t in rendered.tiles]
        (args.out / f"{name}.json").write_text(json.dumps(answer))
    print(f"wrote {args.count} renders to {args.out}")


if __name__ == "__main__":
    main()
