"""The detector alone at several first-look sizes, on the labelled sets.

    python -m benchmarks.detector_looks [--looks 384,448,512] [--synthetic 60] [--hard 36]
        [--shadows 30] [--racks 40] [--per-photo]

For each photo and each look (``detect.detect_at`` with the photo's long side scaled to that
size): how many true tiles get exactly one box centre inside their outline ("own box"), the
boxes whose centre lies in no true tile ("stray"), the mean overlap (intersection over union)
of each own box with its tile's outline, the median found tile's short side in the look's
own pixels, and the share of the tile map outside every found tile (``Detection.unclaimed``).
It was the first measure of "a smaller first look for large tiles" (docs/vision.md, measured
and not shipped): a look smaller than WORK_SIZE is worth keeping only where it finds and
outlines the tiles as well. Photos are grouped by their median tile's width at WORK_SIZE, so
where a smaller look stops being as good can be read off.
"""

from __future__ import annotations

import argparse
import time
from collections import defaultdict
from collections.abc import Iterator

import cv2
import numpy as np

from companion.vision.detect import WORK_SIZE, Detection, detect_at

WIDTH_BINS = (0, 20, 24, 28, 32, 36, 40, 48, 56, 64, 80, 1000)  # median tile width at WORK_SIZE


def labelled_sets(synthetic: int, hard: int, shadows: int, racks: int
                  ) -> Iterator[tuple[str, str, np.ndarray, list[np.ndarray]]]:
    """(set, name, BGR image, true tile outlines) for every labelled photo asked for."""
    from benchmarks.synthetic_set import SHADOW_SEED, hard_set, shadow_set, synthetic_set
    from benchmarks.vision import labelled_tiles
    from training.dataset import DATA_ROOT

    for path in sorted((DATA_ROOT / "valid" / "images").glob("*.jpg")):
        outlines = [outline for _, outline in labelled_tiles(path)]
        if outlines:
            yield "valid/", path.stem[:12], cv2.imread(str(path)), outlines
    for name, renders in (("synthetic", synthetic_set(synthetic) if synthetic else []),
                          ("harder kinds", hard_set(hard) if hard else []),
                          ("shadows", shadow_set(shadows, SHADOW_SEED) if shadows else [])):
        for number, render in enumerate(renders):
            yield name, f"{name[:4]}-{number}", render.image, \
                [np.array(t.outline, np.float32) for t in render.tiles]
    if racks:
        from benchmarks.vision import RACK_SEEDS
        from training.synthetic_rack import random_rack, render_rack
        for seed in range(RACK_SEEDS, RACK_SEEDS + racks):
            render = render_rack(random_rack(np.random.default_rng(seed)), seed=seed)
            yield "rack renders", f"rack-{seed}", render.image, \
                [np.array(t.outline, np.float32) for t in render.tiles + render.stray]


def scored(detection: Detection, outlines: list[np.ndarray]) -> tuple[int, int, float]:
    """(true tiles with exactly one box centre, boxes in no tile, mean IoU of the own boxes)."""
    boxes = [cv2.boxPoints(tile.rect).astype(np.float32) for tile in detection.found]
    inside = np.zeros((len(outlines), len(boxes)), bool)
    for t, outline in enumerate(outlines):
        for b, tile in enumerate(detection.found):
            inside[t, b] = cv2.pointPolygonTest(outline.astype(np.float32),
                                                tuple(map(float, tile.centre)), False) >= 0
    own = np.flatnonzero(inside.sum(axis=1) == 1)
    overlaps = []
    for t in own:
        b = int(np.flatnonzero(inside[t])[0])
        truth = cv2.boxPoints(cv2.minAreaRect(outlines[t])).astype(np.float32)
        common, _ = cv2.intersectConvexConvex(truth, boxes[b])
        union = cv2.contourArea(truth) + cv2.contourArea(boxes[b]) - common
        overlaps.append(common / union if union > 0 else 0.0)
    stray = int(np.count_nonzero(~inside.any(axis=0)))
    return len(own), stray, float(np.mean(overlaps)) if overlaps else 0.0


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--looks", default="384,448,512")
    parser.add_argument("--synthetic", type=int, default=60)
    parser.add_argument("--hard", type=int, default=36)
    parser.add_argument("--shadows", type=int, default=30)
    parser.add_argument("--racks", type=int, default=0)
    parser.add_argument("--per-photo", action="store_true")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    looks = [int(size) for size in args.looks.split(",")]
    # (set, width bin) -> look -> [photos, tiles, own, stray, iou sum, cpu ms]
    table: dict[tuple[str, int], dict[int, list[float]]] = defaultdict(
        lambda: {look: [0, 0, 0, 0, 0.0, 0.0] for look in looks})
    for set_name, name, image, outlines in labelled_sets(args.synthetic, args.hard,
                                                         args.shadows, args.racks):
        results = {}
        for look in looks:
            started = time.process_time()
            detection = detect_at(image, look)
            cpu = (time.process_time() - started) * 1000
            results[look] = (detection, *scored(detection, outlines), cpu)
        reference = results[WORK_SIZE if WORK_SIZE in results else looks[-1]][0]
        to_work = WORK_SIZE / max(image.shape[:2])
        width = float(np.median([t.short_side for t in reference.found])) * to_work \
            if reference.found else 0.0
        bin_start = max(b for b in WIDTH_BINS if b <= width)
        for look, (detection, own, stray, iou, cpu) in results.items():
            row = table[(set_name, bin_start)][look]
            for index, value in enumerate((1, len(outlines), own, stray, iou * own, cpu)):
                row[index] += value
        if args.per_photo:
            print(f"{set_name:13s} {name:14s} width {width:5.1f} tiles {len(outlines):3d} " +
                  " | ".join(f"{look}: own {r[1]:3d} stray {r[2]:2d} iou {r[3]:.3f} "
                             f"unclaimed {r[0].unclaimed:.2f}" for look, r in results.items()),
                  flush=True)
    print(f"{'set':13s} {'width@512':>9s} {'photos':>6s} {'tiles':>5s}  " +
          "  ".join(f"{look}: own/stray/iou/ms" for look in looks))
    for (set_name, bin_start), rows in sorted(table.items()):
        first = rows[looks[0]]
        print(f"{set_name:13s} {bin_start:9d} {int(first[0]):6d} {int(first[1]):5d}  " +
              "  ".join(f"{look}: {int(r[2]):4d}/{int(r[3]):3d}/{r[4] / max(r[2], 1):.3f}/"
                        f"{r[5] / r[0]:5.1f}" for look, r in rows.items()))


if __name__ == "__main__":
    main()
