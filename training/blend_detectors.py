"""A detector whose every weight lies between the shipped detector's and a fine-tuned copy's.

    .venv/bin/python -m training.blend_detectors --start companion/vision/models/detector.onnx \
        --tuned /tmp/detector-small.pt --share 0.5 --out /tmp/detector-blend.onnx

As ``training.blend_readers`` does for the reader: a fine-tuning from the shipped weights
(``train_detector --teacher``, its batch norms kept as the export folded them) moves every
weight some way; taking each ``share`` of the way keeps part of what it learned (small soft
tiles, issue 10) and gives back part of what it cost elsewhere.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import torch

from training.blend_readers import blended
from training.networks import TileDetector, load_folded_onnx
from training.train_detector import export_detector


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--start", type=Path, required=True,
                        help="the detector.onnx fine-tuned from")
    parser.add_argument("--tuned", type=Path, required=True,
                        help="the fine-tuned weights (train_detector --weights)")
    parser.add_argument("--share", type=float, default=0.5, help="how far towards the tuned weights")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    start = TileDetector()
    load_folded_onnx(start, args.start)
    tuned = TileDetector()
    tuned.load_state_dict(torch.load(args.tuned))
    export_detector(blended(start, tuned, args.share), args.out)


if __name__ == "__main__":
    main()
