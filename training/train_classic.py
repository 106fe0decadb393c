"""Teach the shipped reader real crops of the classic tile design, keeping what it reads now.

    nice -n 10 .venv/bin/python -m training.train_classic [--iterations 700] \
        [--out /tmp/reader-classic.onnx]

The shipped ``companion/vision/models/reader-classic.onnx`` came from this (the command is in
``companion/vision/models/README.md``): photos the shipped reader reads poorly are read again
with it (``pipeline.find_and_read``). Starts from ``companion/vision/models/reader.onnx``
(batch norms kept as its export folded them) and learns, in each batch:

- real crops of the classic design (``training.classic``: "Rummikub tile crops by
  christophrus, from github.com/christophrus/rummikub-counter (commit
  8e7f85b9ad7b056c557af35a5b03f229c7cad0d2), MIT licence as stated in that repository's
  README"), framed as a detector might frame them, turned upside down half the time (the
  orientation label flips), taught by their number and colour labels (the colours ours,
  ``training/classic_colours.csv``: the shipped reader, which taught the colour until
  2026-12-03, reads a classic orange as red in cold light);
- tiles of the current design cut from the ``train/`` photos as ``train_reader`` cuts them
  (never ``valid/``), taught by their labels and by the shipped reader's outputs
  (distillation), so tables read as before;
- boxes where no tile lies in those photos ("no tile");
- with ``--synthetic DIR`` (a ``training.render_synthetic`` cache; may be given more than
  once), tiles of those renders, taught as the ``train/`` tiles are (labels and the shipped
  reader's outputs), ``--synthetic-share`` of each batch: what the renders prove (the harder
  kinds, the classic faces, shadows) is kept beside the real crops.

Prints the numbers read right on the classic validation split (``training.classic``:
crop numbers 600–799 and 2100–2299, never learned from) before and after.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import cv2
import numpy as np
import torch
import torch.nn.functional as F

from companion.vision.classes import JOKER_CLASS, NO_TILE_CLASS
from training.augment import photometric
from training.classic import COLOURS, ClassicCrop, as_crop, classic_crops, jittered_crop
from training.dataset import load_split
from training.networks import TileReader, freeze_norms, load_folded_onnx, set_cosine_learning_rate
from training.train_reader import (
    distillation_loss,
    export_reader,
    make_crop,
    no_tile_samples,
    onnx_outputs,
    outlines_by_picture,
    real_samples,
    smoothed_cross_entropy,
    synthetic_samples,
    to_tensor,
)

SHIPPED = Path("companion/vision/models/reader.onnx")
TILES = 53
IDENTITIES = TILES + 1  # and "no tile"


def classic_loss(identity: torch.Tensor, crops: list[ClassicCrop],
                 colour_weight: float) -> torch.Tensor:
    """The classic crops' loss on the reader's 54 identity logits: the number (its four
    colours' probabilities summed; the joker's own) and, weighed ``colour_weight``, the colour
    (the thirteen numbers of the labelled colour summed). Apart, the colour label does not
    take from what the crop teaches of the number."""
    log_p = F.log_softmax(identity, 1)
    tiles = log_p[:, :TILES - 1].reshape(-1, 4, 13)  # colour blocks of 1–13 (classes.py)
    loss = []
    for row, crop in enumerate(crops):
        if crop.number == 0:
            loss.append(-log_p[row, JOKER_CLASS])
            continue
        number = torch.logsumexp(tiles[row, :, crop.number - 1], 0)
        colour = torch.logsumexp(tiles[row, COLOURS.index(crop.colour), :], 0)
        loss.append(-number - colour_weight * colour)
    return torch.stack(loss).mean()


def read_right(model: torch.nn.Module, crops: list[ClassicCrop],
               images: dict[Path, np.ndarray]) -> str:
    """The share of the crops whose likeliest tile has their number (both ways up, averaged,
    as the pipeline reads an unsure crop), of those whose likeliest tile is theirs (number and
    colour), and how many with a wrong number are read at 0.9 or more."""
    model.eval()
    batch = [as_crop(images[c.path]) for c in crops]
    with torch.no_grad():
        upright = model(to_tensor(batch))[:, :TILES]
        turned = model(to_tensor([np.ascontiguousarray(c[::-1, ::-1]) for c in batch]))[:, :TILES]
    probabilities = ((torch.softmax(upright, 1) + torch.softmax(turned, 1)) / 2).numpy()
    best = probabilities.argmax(1)
    right = np.array([b in c.classes for b, c in zip(best, crops)])
    whole = np.array([b == c.tile_class for b, c in zip(best, crops)])
    sure_wrong = int(((~right) & (probabilities.max(1) >= 0.9)).sum())
    return (f"{right.mean():.4f} numbers right, {whole.mean():.4f} tiles right (number and "
            f"colour), {sure_wrong} sure misreads")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--iterations", type=int, default=700)
    parser.add_argument("--batch", type=int, default=96)
    parser.add_argument("--classic-share", type=float, default=0.4)
    parser.add_argument("--no-tile-share", type=float, default=0.12)
    parser.add_argument("--distil", type=float, default=1.0, help="weight of the teacher's word")
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--colour-weight", type=float, default=0.5,
                        help="weight of a classic crop's colour label beside its number")
    parser.add_argument("--tightest", type=float, default=0.92,
                        help="the tightest framing of a classic crop (share of its box)")
    parser.add_argument("--shift", type=float, default=0.03,
                        help="σ of a classic crop's framing shifted, in shares of its sides")
    parser.add_argument("--turn", type=float, default=3.0,
                        help="σ of a classic crop's framing turned, in degrees")
    parser.add_argument("--synthetic", type=Path, action="append", default=[],
                        help="a cache of renders (training.render_synthetic) to learn from too")
    parser.add_argument("--synthetic-share", type=float, default=0.25,
                        help="share of each batch drawn from --synthetic (when given)")
    parser.add_argument("--turned-share", type=float, default=0.5,
                        help="share of the classic crops taught turned upside down")
    parser.add_argument("--even-numbers", action="store_true",
                        help="draw each classic crop's number evenly (else as often as its crops)")
    parser.add_argument("--seed", type=int, default=29)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--init-onnx", type=Path, default=SHIPPED)
    parser.add_argument("--out", type=Path, default=Path("/tmp/reader-classic.onnx"))
    parser.add_argument("--weights", type=Path, default=Path("/tmp/reader-classic.pt"))
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)

    classic_train, classic_valid = classic_crops()
    by_number = [[c for c in classic_train if c.number == n]
                 for n in sorted({c.number for c in classic_train})]
    classic_images = {c.path: cv2.imread(str(c.path), cv2.IMREAD_COLOR)
                      for c in classic_train + classic_valid}
    photos = load_split("train")
    images = {str(p.path): p.image() for p in photos}
    current = real_samples(photos, images)
    negatives = no_tile_samples(outlines_by_picture(current), images, 8, rng)
    rendered = [sample for folder in args.synthetic for sample in synthetic_samples(folder, images)]
    synthetic_share = args.synthetic_share if rendered else 0.0
    print(f"{len(classic_train)} classic crops to learn, {len(classic_valid)} to check; "
          f"{len(current)} current-design tiles, {len(rendered)} rendered tiles, "
          f"{len(negatives)} boxes of no tile", flush=True)

    outputs = onnx_outputs(args.init_onnx)
    assert outputs == IDENTITIES + 2, f"{args.init_onnx}: a reader with a 'no tile' output"
    model = TileReader(classes=outputs)
    load_folded_onnx(model, args.init_onnx)
    teacher = TileReader(classes=outputs)
    load_folded_onnx(teacher, SHIPPED)
    teacher.eval()
    print(f"classic validation before: {read_right(model, classic_valid, classic_images)}",
          flush=True)

    optimiser = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=5e-4)
    started = time.time()
    for iteration in range(args.iterations):
        set_cosine_learning_rate(optimiser, args.lr, iteration, args.iterations)
        kinds = rng.random(args.batch)
        classic_rows, current_rows, negative_rows = [], [], []
        crops, turns = [], []
        for draw in kinds:
            if draw < args.classic_share:
                pool = (by_number[int(rng.integers(len(by_number)))] if args.even_numbers
                        else classic_train)
                crop = pool[int(rng.integers(len(pool)))]
                image = jittered_crop(classic_images[crop.path], rng, tightest=args.tightest,
                                      shift=args.shift, turn=args.turn)
                image = photometric(image, rng, hue_shift=False, glare_strength=35.0, blur_max=1.0)
                turn = int(rng.random() < args.turned_share)
                if turn:
                    image = np.ascontiguousarray(image[::-1, ::-1])
                classic_rows.append((len(crops), crop))
            else:
                pool = (negatives if draw < args.classic_share + args.no_tile_share else
                        rendered if draw < args.classic_share + args.no_tile_share + synthetic_share
                        else current)
                sample = pool[int(rng.integers(len(pool)))]
                image, turn = make_crop(images[sample.image_key], sample, rng, train=True)
                (negative_rows if pool is negatives else current_rows).append(
                    (len(crops), sample.label))
            crops.append(image)
            turns.append(turn)
        batch = to_tensor(crops)
        with torch.no_grad():
            taught = teacher(batch)
        model.train()
        freeze_norms(model)
        logits = model(batch)
        identity, orientation = logits[:, :IDENTITIES], logits[:, IDENTITIES:]
        turns_t = torch.tensor(turns)
        loss = torch.zeros(())
        if classic_rows:
            rows = torch.tensor([row for row, _ in classic_rows])
            loss = loss + args.classic_share * (
                classic_loss(identity[rows], [crop for _, crop in classic_rows],
                             args.colour_weight)
                + 0.5 * F.cross_entropy(orientation[rows], turns_t[rows]))
        if current_rows:
            rows = torch.tensor([row for row, _ in current_rows])
            labels = torch.tensor([label for _, label in current_rows])
            loss = loss + (1 - args.classic_share) * (
                smoothed_cross_entropy(identity[rows], labels, torch.full((len(rows),), 0.05))
                + 0.5 * F.cross_entropy(orientation[rows], turns_t[rows])
                + args.distil * (distillation_loss(identity[rows], taught[rows, :IDENTITIES], 2.0)
                                 + 0.5 * distillation_loss(orientation[rows],
                                                           taught[rows, IDENTITIES:], 2.0)))
        if negative_rows:
            rows = torch.tensor([row for row, _ in negative_rows])
            loss = loss + args.no_tile_share * F.cross_entropy(
                identity[rows], torch.full((len(rows),), NO_TILE_CLASS))
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        if iteration % 50 == 0 or iteration == args.iterations - 1:
            print(f"{iteration:5d} loss {loss.item():.4f} {time.time() - started:.0f}s", flush=True)
        if iteration % 200 == 199:
            print(f"  classic validation: {read_right(model, classic_valid, classic_images)}",
                  flush=True)
    print(f"classic validation after: {read_right(model, classic_valid, classic_images)}",
          flush=True)
    torch.save(model.state_dict(), args.weights)
    export_reader(model, args.out)


if __name__ == "__main__":
    main()
