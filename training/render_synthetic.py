"""Render synthetic training photos once and cache them in /tmp (never in the repository).

    .venv/bin/python -m training.render_synthetic [--count 300] [--out /tmp/companion-synthetic]
    .venv/bin/python -m training.render_synthetic --count 200 --design classic \
        --first-seed 11000000 --max-sets 10 --out /tmp/companion-synthetic-classic

Seeds start at 10 000 000 (or ``--first-seed``), far from the fixed benchmark set
(``benchmarks/synthetic_set.py`` uses 2 026 000 onwards), so no benchmark photo is ever
trained on. ``--design`` fixes the tile design (the classic design has no real photos, so
the reader gets extra renders of it); more sets per photo give smaller tiles.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import cv2
import numpy as np

from training.synthetic import DESIGNS, random_table, render_table

FIRST_SEED = 10_000_000
DEFAULT_CACHE = Path("/tmp/companion-synthetic")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=300)
    parser.add_argument("--out", type=Path, default=DEFAULT_CACHE)
    parser.add_argument("--first-seed", type=int, default=FIRST_SEED)
    parser.add_argument("--design", choices=DESIGNS, help="one design only (default: either)")
    parser.add_argument("--max-sets", type=int, default=8)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(args.first_seed)
    sizes = [(1280, 960), (960, 1280), (1600, 1200), (1024, 1024)]
    for index in range(args.count):
        table = random_table(rng, min_sets=1, max_sets=args.max_sets)
        rendered = render_table(table, seed=args.first_seed + index, size=sizes[index % len(sizes)],
                                design=args.design, upside_down_chance=0.35)
        name = f"synthetic-{index:04d}"
        cv2.imwrite(str(args.out / f"{name}.jpg"), rendered.image, [cv2.IMWRITE_JPEG_QUALITY, 92])
        answer = [{"tile": str(t.tile), "outline": [[float(x), float(y)] for x, y in t.outline]}
                  for t in rendered.tiles]
        (args.out / f"{name}.json").write_text(json.dumps(answer))
    print(f"wrote {args.count} renders to {args.out}")


if __name__ == "__main__":
    main()
