"""The fixed synthetic benchmark set: table photos rendered with their answers known.

It covers both tile designs on all four kinds of table under neutral, warm and cold light,
with some glare, blur and slanted views. The same call always gives the same set, so the
photo reader's scores on it can be compared from one change to the next.

``hard_set`` adds what the first set leaves out and real photos bring (issue 10): close-ups
of a few large tiles, strong slant, a shallow depth of field, the classic design printed in
other faces (heavy, condensed, serif), warm light and dense tables of 50 or more small tiles.
Rack photos are measured on their own fixed set (``benchmarks.vision.racks``).

``shadow_set`` casts a shadow across the tiles of each render (``training.synthetic.SHADOWS``
in turn: an arm's or a phone's soft shadow, a hard shadow line across a set, a side light
falling off), dimming the light there to 25–45%.

    python -m benchmarks.synthetic_set OUTDIR [--count 60] [--seed 2026] [--hard]

writes every render as a JPEG and ``answers.json`` (the table and each tile's outline), for
eyeballing, and prints how long a render takes.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import cv2
import numpy as np

from companion.core.tiles import format_table
from training.synthetic import (
    BACKGROUNDS,
    CLASSIC_FONTS,
    DESIGNS,
    LIGHTS,
    SHADOWS,
    RenderedTable,
    random_table,
    render_table,
)


def synthetic_set(count: int = 60, seed: int = 2026, *,
                  size: tuple[int, int] = (1280, 960)) -> list[RenderedTable]:
    """``count`` renders; every 24 in a row cover design × table × light once each."""
    rng = np.random.default_rng(seed)
    renders = []
    for i in range(count):
        table = random_table(rng, min_sets=1, max_sets=6)
        renders.append(render_table(
            table, seed=seed * 1000 + i, size=size,
            design=DESIGNS[i % 2],
            background=BACKGROUNDS[(i // 2) % 4],
            light=LIGHTS[(i // 8) % 3],
            glare=i % 5 == 0,
            blur=1.5 if i % 7 == 3 else 0.0,
            perspective=0.3 if i % 3 == 0 else 0.02,
        ))
    return renders


HARD_KINDS = ("close-up", "strong slant", "depth of field", "classic faces", "warm light",
              "dense table")


def hard_set(count: int = 36, seed: int = 2027, *,
             size: tuple[int, int] = (1280, 960)) -> list[RenderedTable]:
    """``count`` renders of the harder kinds, HARD_KINDS in turn; the classic design (the one
    without real training photos) in two of three, its numbers in every face of
    CLASSIC_FONTS in turn."""
    rng = np.random.default_rng(seed)
    fonts = list(CLASSIC_FONTS)
    renders = []
    for i in range(count):
        kind = HARD_KINDS[i % len(HARD_KINDS)]
        design = "current" if (i + i // len(HARD_KINDS)) % 3 == 2 else "classic"
        font = fonts[(i // len(HARD_KINDS) + i) % len(fonts)]
        options: dict[str, object] = {"light": LIGHTS[i % 3], "perspective": 0.2}
        if kind == "close-up":
            table = random_table(rng, min_sets=1, max_sets=2)
            options.update(fill=0.5, perspective=0.35, rotation_deg=float(rng.normal(0, 10)))
        elif kind == "dense table":
            table = random_table(rng, min_sets=15, max_sets=18)
            options.update(perspective=0.1, fill=0.3)
        else:
            table = random_table(rng, min_sets=2, max_sets=5)
            if kind == "strong slant":
                options.update(perspective=0.5)
            elif kind == "depth of field":
                options.update(depth_of_field=3.5, fill=0.4, perspective=0.3)
            elif kind == "warm light":
                options.update(light="warm")
            else:
                options.update(perspective=0.3)
        renders.append(render_table(table, seed=seed * 1000 + i, size=size, design=design,
                                    font=font, glare=i % 4 == 1,
                                    **options))  # type: ignore[arg-type]
    return renders


SHADOW_SEED = 2029  # the benchmark's fixed shadow set; tuned on 3029, checked at the end on 4029


def shadow_set(count: int = 30, seed: int = SHADOW_SEED, *,
               size: tuple[int, int] = (1280, 960)) -> list[RenderedTable]:
    """``count`` renders, each with a shadow across its tiles (SHADOWS in turn); everything
    else (design, table, light, glare, slant) drawn from the seed as for any render."""
    rng = np.random.default_rng(seed)
    return [render_table(random_table(rng, min_sets=1, max_sets=6), seed=seed * 1000 + i,
                         size=size, shadow=SHADOWS[i % len(SHADOWS)])
            for i in range(count)]


def answers(rendered: RenderedTable, file_name: str) -> dict[str, object]:
    """One render's answer as JSON: the conditions, the table, every tile's outline."""
    return {
        "file": file_name,
        "design": rendered.design,
        "background": rendered.background,
        "light": rendered.light,
        "glare": rendered.glare,
        "blur": rendered.blur,
        "perspective": rendered.perspective,
        "table": format_table(rendered.table),
        "tiles": [{"tile": str(t.tile), "set": t.set_index, "position": t.position,
                   "outline": [[round(x, 2), round(y, 2)] for x, y in t.outline]}
                  for t in rendered.tiles],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.synthetic_set",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("outdir", type=Path, help="folder for the JPEGs and answers.json")
    parser.add_argument("--count", type=int, default=60)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--hard", action="store_true", help="write the hard set instead")
    args = parser.parse_args(argv)
    if args.count < 1:
        parser.error("--count must be at least 1")
    args.outdir.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    renders = (hard_set(args.count) if args.hard else synthetic_set(args.count, args.seed))
    took = time.perf_counter() - started
    records = []
    for i, rendered in enumerate(renders):
        name = f"synthetic_{i:03d}.jpg"
        cv2.imwrite(str(args.outdir / name), rendered.image, [cv2.IMWRITE_JPEG_QUALITY, 95])
        records.append(answers(rendered, name))
    (args.outdir / "answers.json").write_text(json.dumps(
        {"count": len(renders), "seed": args.seed, "renders": records}, indent=1))
    tiles = sum(len(r.tiles) for r in renders)
    print(f"{len(renders)} renders, {tiles} tiles, in {took:.2f} s: "
          f"{took / len(renders) * 1000:.0f} ms a render; written to {args.outdir}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
