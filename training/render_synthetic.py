"""Render synthetic training photos once and cache them in /tmp (never in the repository).

    .venv/bin/python -m training.render_synthetic [--count 300] [--out /tmp/companion-synthetic]
    .venv/bin/python -m training.render_synthetic --count 200 --design classic \
        --first-seed 11000000 --max-sets 10 --out /tmp/companion-synthetic-classic
    .venv/bin/python -m training.render_synthetic --count 240 --hard \
        --first-seed 12000000 --out /tmp/companion-synthetic-hard
    .venv/bin/python -m training.render_synthetic --count 240 --racks \
        --first-seed 40000000 --out /tmp/companion-synthetic-racks
    .venv/bin/python -m training.render_synthetic --count 60 --shadows \
        --first-seed 13000000 --out /tmp/companion-synthetic-shadows
    .venv/bin/python -m training.render_synthetic --hard-set-seed 20101 --hard-set-seed 20102 \
        --out /tmp/companion-synthetic-hard-set

Seeds start at 10 000 000 (or ``--first-seed``), far from the fixed benchmark set
(``benchmarks/synthetic_set.py`` uses 2 026 000 onwards), so no benchmark photo is ever
trained on. ``--design`` fixes the tile design (the classic design has no real photos, so
the reader gets extra renders of it); more sets per photo give smaller tiles. ``--hard``
draws the kinds of ``benchmarks.synthetic_set.hard_set`` at random (close-ups, strong slant,
depth of field, dense tables; the classic design in any of its faces), with other seeds.
``--shadows`` casts a shadow across every render's tiles (``training.synthetic.SHADOWS`` in
turn, as the benchmark's shadow set; its seeds are 2 029 000 onwards, and 3 029 000 and
4 029 000 onwards were tuned and checked on: 13 000 000 is clear of them).
``--racks`` renders rack photos instead (``training.synthetic_rack``): every other one of a
kind of ``RACK_KINDS`` in turn, the rest plain racks; every tile in the frame is in the
answer (on the rack, lying on the table, on a second rack). Their seeds must stay clear of
the benchmark's rack sets (5 000 000 onwards, and 30 000 000 + 1000 a kind): 40 000 000 does.
``--hard-set-seed S`` renders ``benchmarks.synthetic_set.hard_set(36, S)`` itself (the
benchmark's harder kinds, in its proportions, its glare on every fourth render and its
classic faces in turn; renders seeded ``1000 S`` onwards): S must be none of the
benchmark's (2027, held out) nor the seeds tuned or checked on (3027–15027); 20 101 onwards
are clear of every benchmark set.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import cv2
import numpy as np

from training.synthetic import (
    CLASSIC_FONTS,
    DESIGNS,
    SHADOWS,
    RenderedTile,
    random_table,
    render_table,
)
from training.synthetic_rack import RACK_KINDS, rack_of_kind, random_rack, render_rack

FIRST_SEED = 10_000_000
DEFAULT_CACHE = Path("/tmp/companion-synthetic")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=300)
    parser.add_argument("--out", type=Path, default=DEFAULT_CACHE)
    parser.add_argument("--first-seed", type=int, default=FIRST_SEED)
    parser.add_argument("--design", choices=DESIGNS, help="one design only (default: either)")
    parser.add_argument("--max-sets", type=int, default=8)
    parser.add_argument("--hard", action="store_true",
                        help="close-ups, strong slant, depth of field, dense tables, every face")
    parser.add_argument("--shadows", action="store_true",
                        help="a shadow across every render's tiles (SHADOWS in turn)")
    parser.add_argument("--racks", action="store_true",
                        help="rack photos (the kinds of RACK_KINDS and plain racks)")
    parser.add_argument("--hard-set-seed", type=int, action="append", default=[],
                        help="render hard_set(36, SEED) (the benchmark's harder kinds from "
                             "another seed) instead; may be given more than once")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    if args.hard_set_seed:
        _render_hard_sets(args.hard_set_seed, args.out)
        return
    if args.racks:
        _render_racks(args.count, args.first_seed, args.out)
        return
    rng = np.random.default_rng(args.first_seed)
    sizes = [(1280, 960), (960, 1280), (1600, 1200), (1024, 1024)]
    for index in range(args.count):
        options = _hard_options(rng) if args.hard else {}
        if args.shadows:
            options["shadow"] = SHADOWS[index % len(SHADOWS)]
        table = random_table(rng, min_sets=int(options.pop("min_sets", 1)),
                             max_sets=int(options.pop("max_sets", args.max_sets)))
        rendered = render_table(table, seed=args.first_seed + index, size=sizes[index % len(sizes)],
                                design=args.design, upside_down_chance=0.35,
                                **options)  # type: ignore[arg-type]
        name = f"synthetic-{index:04d}"
        _write(args.out / name, rendered.image, rendered.tiles)
    print(f"wrote {args.count} renders to {args.out}")


def _render_racks(count: int, first_seed: int, out: Path) -> None:
    kinds = list(RACK_KINDS)
    for index in range(count):
        seed = first_seed + index
        if index % 2 == 0:
            rendered = rack_of_kind(kinds[(index // 2) % len(kinds)], seed)
        else:
            rendered = render_rack(random_rack(np.random.default_rng(seed)), seed=seed)
        _write(out / f"rack-{index:04d}", rendered.image,
               rendered.tiles + rendered.stray + rendered.others)
    print(f"wrote {count} rack renders to {out}")


HELD_OUT_HARD_SEEDS = range(2027, 15028)  # the benchmark's (2027) and those tuned or checked on


def _render_hard_sets(seeds: list[int], out: Path) -> None:
    from benchmarks.synthetic_set import hard_set

    for seed in seeds:
        if seed in HELD_OUT_HARD_SEEDS:
            raise SystemExit(f"seed {seed} is the benchmark's or one tuned on: take 20101 or more")
        for index, rendered in enumerate(hard_set(36, seed)):
            _write(out / f"hard-{seed}-{index:02d}", rendered.image, rendered.tiles)
    print(f"wrote {36 * len(seeds)} renders of the harder kinds to {out}")


def _write(stem: Path, image: np.ndarray, tiles: tuple[RenderedTile, ...]) -> None:
    """The render as a JPEG and its tiles' outlines as JSON, side by side."""
    cv2.imwrite(str(stem.with_suffix(".jpg")), image, [cv2.IMWRITE_JPEG_QUALITY, 92])
    answer = [{"tile": str(t.tile), "outline": [[float(x), float(y)] for x, y in t.outline]}
              for t in tiles]
    stem.with_suffix(".json").write_text(json.dumps(answer))


def _hard_options(rng: np.random.Generator) -> dict[str, object]:
    """Options for one render of the harder kinds, drawn at random."""
    kind = rng.choice(["close-up", "slant", "depth", "dense", "plain"])
    options: dict[str, object] = {"font": str(rng.choice(list(CLASSIC_FONTS)))}
    if kind == "close-up":
        options.update(min_sets=1, max_sets=2, fill=float(rng.uniform(0.35, 0.6)),
                       perspective=float(rng.uniform(0.1, 0.5)))
    elif kind == "slant":
        options.update(perspective=float(rng.uniform(0.4, 0.58)))
    elif kind == "depth":
        options.update(depth_of_field=float(rng.uniform(1.5, 5)),
                       fill=float(rng.uniform(0.25, 0.5)))
    elif kind == "dense":
        options.update(min_sets=12, max_sets=18, fill=float(rng.uniform(0.2, 0.35)),
                       perspective=float(rng.uniform(0, 0.3)))
    return options


if __name__ == "__main__":
    main()
