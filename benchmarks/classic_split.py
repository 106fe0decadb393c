"""The classic design's reader on the validation split of the real classic crops, as the
pipeline reads a crop of a photo it reads with that reader (``pipeline.find_and_read``).

    .venv/bin/python -m benchmarks.classic_split [--classic-reader candidate.onnx] [--shipped]
    (or ``benchmarks/vision.py --classic-split``)

The crops are "Rummikub tile crops by christophrus, from github.com/christophrus/rummikub-counter
(commit 8e7f85b9ad7b056c557af35a5b03f229c7cad0d2), MIT licence as stated in that repository's
README"; the split is ``training.classic``'s (crop numbers 600–799 and 2100–2299, never
learned from). Each crop is cut to the reader's 48 × 64 as a whole (its box is the tile's,
give or take) and read by ``networks.read_crops`` (read again turned when unsure, as in a
photo). A crop's number is read right when its likeliest tile has its number (or is the joker),
its tile when that tile has its colour too (the colour labels are ours: ``training.classic``).
A wrong number is shown as sure at ``LOW_CONFIDENCE`` (0.9) or more. "Numbers on a rack" reads
each 6 and 9 as the rack step does when the rack's tiles say which end is up: by its figure,
the crop upright (``networks.figure_nine``).

The crops are upright. They are also read turned round (``turned``), as the tiles of a rack
photographed upside down or lying on a table the other way: a reader that reads an
ambiguous crop (a 6 or a 9 cut without the logo) as upright gains on the upright crops what
it loses there.
"""

from __future__ import annotations

import argparse
from collections import Counter

import cv2
import numpy as np

from benchmarks.candidates import add_candidate_options, use_candidates
from companion.core.tiles import Tile
from companion.vision import networks
from companion.vision.classes import CLASS_INDEX, TILE_CLASSES
from companion.vision.doubts import LOW_CONFIDENCE
from training.classic import as_crop, classic_crops


def classic_split(*, classic: bool = True, turned: bool = False) -> dict[str, object]:
    """The split read by the classic design's reader (or, not ``classic``, the shipped one),
    each crop turned round when ``turned``."""
    _, valid = classic_crops()
    crops = upright = np.stack([as_crop(cv2.imread(str(crop.path), cv2.IMREAD_COLOR))
                                for crop in valid])
    if turned:
        crops = np.ascontiguousarray(crops[:, ::-1, ::-1])
    with networks.reading_classic(classic):
        identity, _, _ = networks.read_crops(crops)
    best, sure = identity.argmax(axis=1), identity.max(axis=1)
    right = np.array([b in crop.classes for b, crop in zip(best, valid)])
    on_a_rack = _numbers_by_figure(best, upright)
    right_on_a_rack = np.array([b in crop.classes for b, crop in zip(on_a_rack, valid)])
    whole = np.array([b == crop.tile_class for b, crop in zip(best, valid)])
    misreads = Counter(f"{crop.number or 'joker'}→{TILE_CLASSES[b]}"
                       for b, crop, ok in zip(best, valid, right) if not ok)
    colours = Counter(f"{crop.colour}{crop.number}→{TILE_CLASSES[b]}"
                      for b, crop, ok, tile in zip(best, valid, right, whole) if ok and not tile)
    return {"crops": len(valid), "numbers right": f"{right.mean():.4f} ({right.sum()})",
            "tiles right": f"{whole.mean():.4f} ({whole.sum()}: number and colour)",
            "numbers on a rack": f"{right_on_a_rack.mean():.4f} ({right_on_a_rack.sum()}: "
                                 "each 6 and 9 by its figure, upright)",
            "wrong shown sure": int((~right & (sure >= LOW_CONFIDENCE)).sum()),
            "right but unsure": int((right & (sure < LOW_CONFIDENCE)).sum()),
            "misreads": dict(misreads.most_common()),
            "colour misreads": dict(colours.most_common())}


def _numbers_by_figure(best: np.ndarray, upright: np.ndarray) -> np.ndarray:
    """The likeliest tiles with each 6 and 9 read by its figure as the crop stands upright,
    as the rack step reads a classic 6 or 9 on a rack whose tiles say which end is up
    (``figures.read_by_figure``); the colour kept."""
    best = best.copy()
    sixes_and_nines = np.flatnonzero([TILE_CLASSES[b].number in (6, 9) for b in best])
    if len(sixes_and_nines):
        nine = networks.figure_nine(upright[sixes_and_nines]) >= 0.5
        for index, is_nine in zip(sixes_and_nines, nine):
            tile = TILE_CLASSES[best[index]]
            best[index] = CLASS_INDEX[str(Tile.numbered(tile.colour, 9 if is_nine else 6))]
    return best


def main() -> None:
    parser = argparse.ArgumentParser()
    add_candidate_options(parser, "classic_reader")
    parser.add_argument("--shipped", action="store_true",
                        help="the shipped (current design's) reader instead")
    args = parser.parse_args()
    use_candidates(args)
    for turned in (False, True):
        print("turned round" if turned else "upright")
        for key, value in classic_split(classic=not args.shipped, turned=turned).items():
            print(f"  {key:20s} {value}")


if __name__ == "__main__":
    main()
