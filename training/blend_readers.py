"""A reader whose every weight lies between a shipped reader's and a fine-tuned copy's.

    .venv/bin/python -m training.blend_readers --start companion/vision/models/reader.onnx \
        --tuned /tmp/reader-hard.pt --share 0.5 --out /tmp/reader-blend.onnx

A fine-tuning on renders of hard cases moves every weight some way from where the shipped
reader had it; the real photos it read before are read well by the shipped weights, the hard
renders by the tuned ones. Taking each weight ``share`` of the way from the start to the
tuned one (the two networks are one fine-tuning apart, so the weights between them still
make a network). Half way, it kept most of a fine-tuning's gain on the tuning renders and
gave back the `valid/` tile the fine-tuning had cost, but the blend was not shipped (see
"the reader fine-tuned on the harder kinds" in ``docs/vision.md``).
Both networks must have the same outputs (with "no tile": 53 + 1 + 2).
"""

from __future__ import annotations

import argparse
from pathlib import Path

import torch
from torch import nn

from training.networks import TileReader, load_folded_onnx
from training.train_reader import export_reader, onnx_outputs


def blended(start: nn.Module, tuned: nn.Module, share: float) -> nn.Module:
    """``start`` with each weight moved ``share`` of the way to ``tuned``'s (0: the start,
    1: the tuned network); counters such as a batch norm's batches seen are the start's."""
    if not 0 <= share <= 1:
        raise ValueError(f"share is between 0 and 1, not {share}")
    tuned_state = tuned.state_dict()
    state = {key: (1 - share) * value + share * tuned_state[key] if value.is_floating_point() else value
             for key, value in start.state_dict().items()}
    start.load_state_dict(state)
    return start


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--start", type=Path, required=True, help="the reader.onnx fine-tuned from")
    parser.add_argument("--tuned", type=Path, required=True,
                        help="the fine-tuned weights (train_reader --weights)")
    parser.add_argument("--share", type=float, default=0.5, help="how far towards the tuned weights")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    outputs = onnx_outputs(args.start)
    start = TileReader(classes=outputs)
    load_folded_onnx(start, args.start)
    tuned = TileReader(classes=outputs)
    tuned.load_state_dict(torch.load(args.tuned))
    export_reader(blended(start, tuned, args.share).eval(), args.out)


if __name__ == "__main__":
    main()
