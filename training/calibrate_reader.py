"""A temperature on the reader's tile outputs, fitted on crops no benchmark reads.

    .venv/bin/python -m training.calibrate_reader --reader /tmp/reader-small/s1.onnx \
        --crops /tmp/reader-small/held-out.npz [--out /tmp/reader-small/s1t.onnx]

reads the crops (``training.small_crops``: tiles of ``train_reader``'s held-out ``train/``
photos, shrunk) as ``networks.read_crops`` reads them, with the shipped reader and with
``--reader``, and prints per width band how many are read right, how many misreads are read
at LOW_CONFIDENCE (0.9) or more (a confident misread) and how many right tiles fall under it
(the cost). With ``--out`` it fits one temperature T to ``--reader``'s tile logits (the
smallest negative log-likelihood over the crops, or with ``--temperature`` the one given)
and writes a copy whose 53 tile outputs are divided by T (the last layer's rows: the same
network, every tile's logit scaled, so its readings' order is unchanged and only how sure it
is moves). Its "no tile" output then sits against other tile logits; relearn that row
alone (``train_reader --no-tile-only``) as the shipped reader's last stage did, or measure.
Without ``--crops`` it only writes ``--out`` with the ``--temperature`` given:

    .venv/bin/python -m training.calibrate_reader --reader /tmp/classic-r/C.onnx \
        --temperature 1.02 --out companion/vision/models/reader.onnx

(issue 29's candidate C/1.02, not shipped: docs/vision.md, "The classic design").
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

TILES = 53
LOW_CONFIDENCE = 0.9


def softmax(logits: np.ndarray) -> np.ndarray:
    shifted = np.exp(logits - logits.max(axis=1, keepdims=True))
    return shifted / shifted.sum(axis=1, keepdims=True)


def negative_log_likelihood(logits: np.ndarray, labels: np.ndarray, temperature: float) -> float:
    """The mean negative log-likelihood of ``labels`` under softmax(logits / temperature)."""
    scaled = logits / temperature
    scaled = scaled - scaled.max(axis=1, keepdims=True)
    log_sum = np.log(np.exp(scaled).sum(axis=1))
    return float(np.mean(log_sum - scaled[np.arange(len(labels)), labels]))


def fit_temperature(logits: np.ndarray, labels: np.ndarray) -> float:
    """The temperature (0.5–4, in steps of 0.01) whose softmax gives ``labels`` the most
    likelihood: above 1 a reader too sure of itself is softened."""
    grid = np.arange(0.5, 4.0001, 0.01)
    return float(grid[int(np.argmin([negative_log_likelihood(logits, labels, t) for t in grid]))])


def with_temperature(source: Path, target: Path, temperature: float, tiles: int = TILES) -> None:
    """Copy the reader.onnx ``source`` to ``target`` with its first ``tiles`` outputs (the
    last Gemm's rows) divided by ``temperature``."""
    import onnx
    from onnx import numpy_helper

    model = onnx.load(str(source))
    graph = model.graph
    last = [node for node in graph.node if node.op_type == "Gemm"][-1]
    for index, initializer in enumerate(graph.initializer):
        if initializer.name in (last.input[1], last.input[2]):
            values = numpy_helper.to_array(initializer).copy()
            values[:tiles] /= temperature
            graph.initializer[index].CopyFrom(numpy_helper.from_array(values, initializer.name))
    onnx.save(model, str(target))


def without_no_tile(source: Path, target: Path, tiles: int = TILES) -> None:
    """Copy the reader.onnx ``source`` (53 tiles, "no tile", 2 orientations) to ``target``
    without its "no tile" output: a 53-tile reader, every other output as it was, from which
    ``train_reader --init-onnx … --no-tile-only`` grows that output afresh (models/README.md's
    last stage)."""
    import onnx
    from onnx import numpy_helper

    model = onnx.load(str(source))
    graph = model.graph
    last = [node for node in graph.node if node.op_type == "Gemm"][-1]
    for index, initializer in enumerate(graph.initializer):
        if initializer.name in (last.input[1], last.input[2]):
            values = numpy_helper.to_array(initializer)
            kept = np.delete(values, tiles, axis=0)
            graph.initializer[index].CopyFrom(numpy_helper.from_array(kept, initializer.name))
    onnx.save(model, str(target))


def raw_logits(path: Path, crops: np.ndarray) -> np.ndarray:
    """The reader's logits for crops as cut (N, outputs), in batches, as the app runs it."""
    from companion.vision import networks

    parts = []
    for start in range(0, len(crops), 256):
        blob = crops[start:start + 256].astype(np.float32).transpose(0, 3, 1, 2) / 255.0
        parts.append(networks.run(path, np.ascontiguousarray(blob)))
    return np.concatenate(parts)


def pipeline_readings(path: Path, crops: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The likeliest tile and its probability for each crop, as ``networks.read_crops`` reads
    it with the reader in ``path`` (turned round and averaged when unsure)."""
    from companion.vision import networks

    kept = networks.READER_FILE
    networks.READER_FILE = path
    try:
        readings = [networks.read_crops(crops[start:start + 256])[0]
                    for start in range(0, len(crops), 256)]
    finally:
        networks.READER_FILE = kept
    identity = np.concatenate(readings)
    return identity.argmax(axis=1), identity.max(axis=1)


def report(name: str, path: Path, crops, labels, widths, soft) -> None:
    read, confidence = pipeline_readings(path, crops)
    right = read == labels
    print(f"{name}: {path}", flush=True)
    for low, high in ((16, 20), (20, 24), (24, 30)):
        for softened in (False, True):
            band = (widths >= low) & (widths < high) & (soft == softened)
            if not band.any():
                continue
            wrong = band & ~right
            sure_wrong = wrong & (confidence >= LOW_CONFIDENCE)
            print(f"  {low}-{high} px{' soft' if softened else '     '}: {band.sum():5d} tiles, "
                  f"right {right[band].mean():.4f}, misreads {wrong.sum():4d}, sure "
                  f"{sure_wrong.sum():3d} (most {confidence[wrong].max() if wrong.any() else 0:.3f}), "
                  f"right flagged {(band & right & (confidence < LOW_CONFIDENCE)).sum():4d}",
                  flush=True)
    wrong = ~right
    print(f"  all: {len(labels)} tiles, right {right.mean():.4f}, sure misreads "
          f"{(wrong & (confidence >= LOW_CONFIDENCE)).sum()}, right flagged "
          f"{(right & (confidence < LOW_CONFIDENCE)).sum()}", flush=True)


def main() -> None:
    from training.small_crops import SmallCrops

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reader", type=Path, required=True)
    parser.add_argument("--shipped", type=Path,
                        default=Path("companion/vision/models/reader.onnx"))
    parser.add_argument("--crops", type=Path, action="append", default=[],
                        help="held-out crops to fit and report on (training.small_crops)")
    parser.add_argument("--out", type=Path)
    parser.add_argument("--temperature", type=float,
                        help="the temperature to write (default: the fitted one)")
    parser.add_argument("--without-no-tile", action="store_true",
                        help="write --out without the 'no tile' output (to grow it afresh)")
    args = parser.parse_args()
    if not args.crops:
        if args.out is None or args.temperature is None:
            parser.error("without --crops, give --temperature and --out")
        with_temperature(args.reader, args.out, args.temperature)
        if args.without_no_tile:
            without_no_tile(args.out, args.out)
        print(f"wrote {args.out} (temperature {args.temperature:.2f})", flush=True)
        return
    loaded = [SmallCrops.load(path) for path in args.crops]
    crops = np.concatenate([c.crops for c in loaded])
    labels = np.concatenate([c.labels for c in loaded])
    widths = np.concatenate([c.widths for c in loaded])
    soft = np.concatenate([c.soft for c in loaded])
    report("shipped", args.shipped, crops, labels, widths, soft)
    report("reader", args.reader, crops, labels, widths, soft)
    if args.out is None:
        return
    logits = raw_logits(args.reader, crops)[:, :TILES]
    fitted = fit_temperature(logits, labels)
    temperature = args.temperature or fitted
    print(f"fitted temperature {fitted:.2f}, written {temperature:.2f}", flush=True)
    with_temperature(args.reader, args.out, temperature)
    if args.without_no_tile:
        without_no_tile(args.out, args.out)
    report("with the temperature", args.out, crops, labels, widths, soft)


if __name__ == "__main__":
    main()
