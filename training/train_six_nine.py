"""Train the classic design's 6-or-9 reader: is the figure on this crop, as it stands, a 6 or a 9?

The classic reader reads a tile at any turn and says which end is up, and a classic 6 turned
round is drawn as a 9: without the logo under the number it cannot tell an upright 6 from a
9 turned round (docs/vision-history.md, "A classic 6 read turned round on its rack"). On a
rack the tiles' up is known from the rack (``rack._classic_six_or_nine``), so what is left is
the figure as it stands, a loop low (6) or high (9): this network reads only that, taught by
the classic training crops upright and turned round (a 6 turned round is taught as the
figure 9), and by the current design's 6s and 9s of the `train/` photos cut as
``train_reader`` cuts them (the classic pass also reads current-design photos it wins:
rummy3-7 under a hard shadow, its B6 read as a 9 by a network taught classic tiles only).
The validation split of ``training.classic`` and `valid/` are never learned from.

    /work/trainenv/bin/python -m training.train_six_nine \\
        --out companion/vision/models/six-nine-classic.onnx
"""

from __future__ import annotations

import argparse
from pathlib import Path

import cv2
import numpy as np
import torch
from torch import nn

from companion.vision.classes import TILE_CLASSES
from training.augment import photometric
from training.classic import as_crop, classic_crops, jittered_crop
from training.dataset import load_split
from training.networks import fit_two_way
from training.train_reader import export_reader, make_crop, real_samples, to_tensor


def figure(number: int, turned: bool) -> int:
    """The figure a 6 or a 9 shows as it stands (0: a 6, 1: a 9): turned round, the other."""
    return int((number == 9) != turned)


def figures(crops: list, images: dict) -> tuple[np.ndarray, np.ndarray]:
    """The crops of 6s and 9s as cut, upright and turned round, and their figures."""
    upright = np.stack([as_crop(images[crop.path]) for crop in crops])
    return (np.concatenate([upright, upright[:, ::-1, ::-1]]),
            np.array([figure(crop.number, turned) for turned in (False, True) for crop in crops]))


def current_sixes_and_nines(split: str) -> tuple[list, dict]:
    """The current design's 6s and 9s of a split's photos (``train_reader.real_samples``)."""
    photos = load_split(split)
    images = {str(photo.path): photo.image() for photo in photos}
    samples = [sample for sample in real_samples(photos, images)
               if TILE_CLASSES[sample.label].number in (6, 9)]
    return samples, images


def current_figures(samples: list, images: dict, rng: np.random.Generator
                    ) -> tuple[np.ndarray, np.ndarray]:
    """The current design's crops as cut for checking, and their figures."""
    crops, shown = [], []
    for sample in samples:
        image, turn = make_crop(images[sample.image_key], sample, rng, train=False)
        crops.append(image)
        shown.append(figure(TILE_CLASSES[sample.label].number, bool(turn)))
    return np.stack(crops), np.array(shown)


def read_right(model: nn.Module, crops: np.ndarray, shown: np.ndarray) -> str:
    model.eval()
    with torch.no_grad():
        read = model(to_tensor(list(crops))).argmax(dim=1).numpy()
    return f"{int((read == shown).sum())} of {len(shown)} figures right"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--iterations", type=int, default=800)
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--seed", type=int, default=69)
    parser.add_argument("--current-share", type=float, default=0.4,
                        help="share of each batch drawn from the current design's 6s and 9s")
    parser.add_argument("--out", type=Path, default=Path("/tmp/six-nine-classic.onnx"))
    args = parser.parse_args()
    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)

    train, valid = ([crop for crop in split if crop.number in (6, 9)] for split in classic_crops())
    images = {crop.path: cv2.imread(str(crop.path), cv2.IMREAD_COLOR) for crop in train + valid}
    valid_crops, valid_figures = figures(valid, images)
    current, current_images = current_sixes_and_nines("train")
    held_out, held_out_images = current_sixes_and_nines("valid")
    held_out_crops, held_out_figures = current_figures(held_out, held_out_images, rng)
    print(f"{len(train)} classic crops of 6s and 9s to learn, {len(valid)} to check; "
          f"{len(current)} current-design tiles, {len(held_out)} to check", flush=True)
    def draw() -> tuple[torch.Tensor, torch.Tensor]:
        batch, labels = [], []
        for _ in range(args.batch):
            if rng.random() < args.current_share:
                sample = current[int(rng.integers(len(current)))]
                image, turn = make_crop(current_images[sample.image_key], sample, rng, train=True)
                batch.append(image)
                labels.append(figure(TILE_CLASSES[sample.label].number, bool(turn)))
                continue
            crop = train[int(rng.integers(len(train)))]
            image = jittered_crop(images[crop.path], rng, tightest=0.75)
            image = photometric(image, rng, hue_shift=True, glare_strength=35.0, blur_max=1.5)
            turned = rng.random() < 0.5
            if turned:
                image = np.ascontiguousarray(image[::-1, ::-1])
            batch.append(image)
            labels.append(figure(crop.number, turned))
        return to_tensor(batch), torch.tensor(labels)

    model = fit_two_way(
        draw, iterations=args.iterations, lr=args.lr, every=100,
        report=lambda model: (f"validation: classic {read_right(model, valid_crops, valid_figures)}"
                              f", current {read_right(model, held_out_crops, held_out_figures)}"))
    export_reader(model, args.out)


if __name__ == "__main__":
    main()
