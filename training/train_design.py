"""Train the design reader: is the tile on this crop of the classic design or the current one?

A photo the shipped reader reads poorly is read again with the classic design's networks
(``pipeline.find_and_read``). Which reading to keep was decided by how surely each reader
read the photo's tiles alone; but the classic reader also reads the current design (it is
taught to, so tables read as before), and a classic reader that reads classic tiles better
also reads a poor photo of current tiles more surely than the shipped reader: valid/'s
rummy3-33 shrunk to 24 px tall tiles was pulled into the classic pass and a misread shown
sure. This network reads only the design:
the large bold numbers with nothing under them (classic), or the smaller number over the
logo's circle (current).

Taught, each batch half and half, with the same framing, light, blur and shrinking for both:
- classic: the real classic training crops (``training.classic``; "Rummikub tile crops by
  christophrus, from github.com/christophrus/rummikub-counter (commit
  8e7f85b9ad7b056c557af35a5b03f229c7cad0d2), MIT licence as stated in that repository's
  README") and, ``--classic-renders``, classic renders (``training.render_synthetic
  --design classic``);
- current: the tiles of the ``train/`` photos ("rummikub-nvypk" by Jonas Bühler, CC BY 4.0)
  and, ``--current-renders``, current renders.
Each either way up. Checked on what it never learns from: the classic validation split and
the tiles of the ``valid/`` photos, as cut and shrunk to a third.

    /work/trainenv/bin/python -m training.train_design --classic-renders /tmp/syn-classic \\
        --current-renders /tmp/syn-hardset --current-renders /tmp/syn-shadows --out /tmp/design.onnx

Shipped as ``companion/vision/models/design.onnx`` (the command above with
``--out companion/vision/models/design.onnx``; a rerun gave the same bytes): it decides what
the classic pass's reading may claim of current tiles (``companion/vision/designs.py``). As
a veto on the classic pass it read small and blurred current photos worse and was not used
so (docs/vision-history.md, "2026-12-07 (fourth session…)").
"""

from __future__ import annotations

import argparse
from pathlib import Path

import cv2
import numpy as np
import torch

from training.augment import photometric
from training.classic import as_crop, classic_crops, jittered_crop
from training.dataset import load_split
from training.networks import fit_two_way
from training.train_reader import (
    Sample,
    export_reader,
    make_crop,
    real_samples,
    seen_further_off,
    synthetic_samples,
    to_tensor,
)

CLASSIC, CURRENT = 1, 0
SMALL_CHANCE = 0.4  # share of crops shrunk and blown up again, as tiles seen from far off
SMALLEST = 0.3  # shrunk to this share of its size at the least (a third: 24 px tall tiles)


def learned_crop(image: np.ndarray, rng: np.random.Generator,
                 sample: Sample | None = None) -> np.ndarray:
    """A crop to learn from: a classic crop framed as a detector might frame it, or a
    sample's tile cut as the reader's are; shrunk now and then, in other light, either way
    up (both designs alike, so none of it tells the design)."""
    if sample is None:
        crop = jittered_crop(image, rng, tightest=0.85, shift=0.05, turn=4.0)
    else:
        crop, _ = make_crop(image, sample, rng, train=True, small_chance=0.0)
    if rng.random() < SMALL_CHANCE:
        crop = seen_further_off(crop, float(rng.uniform(SMALLEST, 0.8)))
    crop = photometric(crop, rng, hue_shift=True, glare_strength=35.0, blur_max=1.5)
    if rng.random() < 0.5:
        crop = np.ascontiguousarray(crop[::-1, ::-1])
    return crop


def read_classic(model: torch.nn.Module, crops: list[np.ndarray]) -> np.ndarray:
    model.eval()
    with torch.no_grad():
        return torch.softmax(model(to_tensor(crops)), 1)[:, CLASSIC].numpy()


def summary(name: str, p_classic: np.ndarray, design: int) -> str:
    right = (p_classic >= 0.5) == (design == CLASSIC)
    return f"{name}: {right.mean():.4f} right (median P(classic) {np.median(p_classic):.3f})"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--iterations", type=int, default=1200)
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--seed", type=int, default=31)
    parser.add_argument("--render-share", type=float, default=0.3,
                        help="share of each design's crops drawn from its renders (when given)")
    parser.add_argument("--classic-renders", type=Path, action="append", default=[])
    parser.add_argument("--current-renders", type=Path, action="append", default=[])
    parser.add_argument("--out", type=Path, default=Path("/tmp/design.onnx"))
    args = parser.parse_args()
    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)

    classic_train, classic_valid = classic_crops()
    classic_images = {c.path: cv2.imread(str(c.path), cv2.IMREAD_COLOR)
                      for c in classic_train + classic_valid}
    photos = load_split("train")
    images = {str(p.path): p.image() for p in photos}
    current = real_samples(photos, images)
    renders = {CLASSIC: [s for folder in args.classic_renders
                         for s in synthetic_samples(folder, images)],
               CURRENT: [s for folder in args.current_renders
                         for s in synthetic_samples(folder, images)]}
    held_out = load_split("valid")
    held_out_images = {str(p.path): p.image() for p in held_out}
    check_rng = np.random.default_rng(0)
    valid_current = [make_crop(held_out_images[s.image_key], s, check_rng, train=False)[0]
                     for s in real_samples(held_out, held_out_images)]
    valid_current_small = [seen_further_off(crop, 1 / 3) for crop in valid_current]
    valid_classic = [as_crop(classic_images[c.path]) for c in classic_valid]
    valid_classic += [np.ascontiguousarray(crop[::-1, ::-1]) for crop in valid_classic]
    print(f"{len(classic_train)} classic crops, {len(renders[CLASSIC])} classic rendered tiles; "
          f"{len(current)} current tiles, {len(renders[CURRENT])} current rendered tiles; "
          f"checked on {len(valid_classic)} classic crops, {len(valid_current)} current tiles",
          flush=True)

    def check(model: torch.nn.Module) -> str:
        return "; ".join([
            summary("classic split", read_classic(model, valid_classic), CLASSIC),
            summary("valid/", read_classic(model, valid_current), CURRENT),
            summary("valid/ shrunk", read_classic(model, valid_current_small), CURRENT)])

    def draw() -> tuple[torch.Tensor, torch.Tensor]:
        batch, labels = [], []
        for _ in range(args.batch):
            design = CLASSIC if rng.random() < 0.5 else CURRENT
            rendered = renders[design] and rng.random() < args.render_share
            if rendered or design == CURRENT:
                pool = renders[design] if rendered else current
                sample = pool[int(rng.integers(len(pool)))]
                batch.append(learned_crop(images[sample.image_key], rng, sample))
            else:
                crop = classic_train[int(rng.integers(len(classic_train)))]
                batch.append(learned_crop(classic_images[crop.path], rng))
            labels.append(design)
        return to_tensor(batch), torch.tensor(labels)

    model = fit_two_way(draw, iterations=args.iterations, lr=args.lr, every=200, report=check)
    print(f"after: {check(model)}", flush=True)
    export_reader(model, args.out)


if __name__ == "__main__":
    main()
