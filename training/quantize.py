"""8-bit copies of the shipped networks, calibrated on what they see in real photos.

Three subcommands:

``collect``  runs the real reader (``read_image`` and ``read_rack_image``) over photos of the
             ``train/`` split and keeps every input the two networks were given (the
             letterboxed photos for the detector, the 64×48 crops for the reader), so the
             calibration sees exactly the inputs the app makes, not a guess at them.
``quantize`` writes an 8-bit copy of one network with onnxruntime's static quantizer
             (weights per output channel), its ranges calibrated on those inputs.
``compare-speed`` times float and 8-bit files against each other, as ``networks`` runs them.

None of these copies is shipped: measured, each was faster and read some benchmark set worse.

The quantizer is onnxruntime's own (``onnxruntime.quantization``, with the ``train`` extra's
``onnx``), and the app runs the result as it runs the float files; see
``companion/vision/models/README.md`` and docs/vision-history.md, "8-bit networks".
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

INPUTS = "/tmp/companion-calibration-%s.npz"


def collect(photos: int, seed: int, renders: list[Path], out: str) -> None:
    """Read ``photos`` train/ photos (a fixed random sample) and as many from each folder of
    training renders in ``renders``, each both as a table and as a rack, keeping every
    network input (in ``out`` % "detector" and % "reader")."""
    import cv2

    from companion.vision import networks, pipeline, rack
    from companion.vision.errors import PhotoError
    from training.dataset import DATA_ROOT

    seen: dict[Path, list[np.ndarray]] = {networks.DETECTOR_FILE: [], networks.READER_FILE: []}
    run = networks.run

    def recording_run(path: Path, blob: np.ndarray) -> np.ndarray:
        seen.setdefault(path, []).append(blob.copy())  # the classic pass's too, not saved
        return run(path, blob)

    networks.run = recording_run
    rng = np.random.default_rng(seed)
    for folder in [DATA_ROOT / "train" / "images", *renders]:
        paths = sorted(folder.glob("*.jpg"))
        chosen = rng.choice(len(paths), size=min(photos, len(paths)), replace=False)
        for index in sorted(chosen):
            image = cv2.imread(str(paths[index]), cv2.IMREAD_COLOR)
            for read in (pipeline.read_image, rack.read_rack_image):
                try:
                    read(image)
                except PhotoError:
                    pass
    crops = np.concatenate(seen[networks.READER_FILE])
    np.savez(out % "detector", *seen[networks.DETECTOR_FILE])
    np.savez(out % "reader", crops=crops)
    print(f"{len(seen[networks.DETECTOR_FILE])} detector inputs, {len(crops)} reader crops")


def quantize(model: Path, inputs: Path, out: Path, *, operator_format: bool, method: str,
             per_channel: bool, batch: int, unsigned: bool, float_nodes: list[str],
             only_nodes: list[str], reduce_range: bool) -> None:
    import onnx
    from onnxruntime.quantization import (
        CalibrationDataReader,
        CalibrationMethod,
        QuantFormat,
        QuantType,
        quantize_static,
    )
    from onnxruntime.quantization.shape_inference import quant_pre_process

    stored = np.load(inputs)
    if "crops" in stored:
        crops = stored["crops"]
        # whole batches only: the percentile and entropy calibrations stack them
        blobs = [crops[start:start + batch] for start in range(0, len(crops) - batch + 1, batch)]
    else:
        blobs = [stored[name] for name in stored.files]
    input_name = onnx.load(str(model)).graph.input[0].name

    class Blobs(CalibrationDataReader):
        def __init__(self) -> None:
            self.left = iter(blobs)

        def get_next(self) -> dict[str, np.ndarray] | None:
            blob = next(self.left, None)
            return None if blob is None else {input_name: np.ascontiguousarray(blob)}

    prepared = out.with_suffix(".prepared.onnx")
    quant_pre_process(str(model), str(prepared), skip_symbolic_shape=True)
    activation = QuantType.QUInt8 if unsigned else QuantType.QInt8
    quantize_static(str(prepared), str(out), Blobs(),
                    quant_format=QuantFormat.QOperator if operator_format else QuantFormat.QDQ,
                    per_channel=per_channel, activation_type=activation,
                    weight_type=QuantType.QInt8,
                    calibrate_method=getattr(CalibrationMethod, method),
                    nodes_to_exclude=float_nodes, nodes_to_quantize=only_nodes or None,
                    reduce_range=reduce_range)
    prepared.unlink()
    print(f"{out}: {out.stat().st_size} bytes from {len(blobs)} calibration batches")


def compare_speed(models: list[Path], inputs: Path, *, repeats: int, threads: int) -> None:
    """CPU ms of each network in ``models`` (through ``networks.run``, on ``threads``
    onnxruntime threads), interleaved, on the same inputs: the reader on 39 crops in calls of 15, 9,
    9, 5 and 1 (as for the 12-megapixel photo of 15 tiles), the detector on a 512×384 and a
    1024×768 input cut from the collected ones."""
    import statistics
    import time

    from companion.vision import networks

    networks.THREADS = threads  # before the first call opens the sessions
    stored = np.load(inputs)
    if "crops" in stored:
        crops = stored["crops"]
        calls = {"39 crops": [crops[:15], crops[15:24], crops[24:33], crops[33:38], crops[38:39]]}
    else:
        photo = stored[stored.files[0]]
        large = np.pad(photo, ((0, 0), (0, 0), (0, 768 - photo.shape[2]), (0, 1024 - photo.shape[3])))
        calls = {"512×384": [photo[:, :, :384, :512]], "1024×768": [large]}
    for name, blobs in calls.items():
        blobs = [np.ascontiguousarray(blob) for blob in blobs]
        times: dict[Path, list[float]] = {model: [] for model in models}
        for repeat in range(repeats + 1):
            for model in models:
                started = time.process_time()
                for blob in blobs:
                    networks.run(model, blob)
                if repeat:  # the first round loads the networks
                    times[model].append((time.process_time() - started) * 1000)
        for model in models:
            print(f"{name}: {model}: {statistics.median(times[model]):.1f} CPU ms "
                  f"(median of {repeats}, {threads} thread(s))")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    gather = commands.add_parser("collect")
    gather.add_argument("--photos", type=int, default=80)
    gather.add_argument("--seed", type=int, default=5)
    gather.add_argument("--renders", type=Path, nargs="*", default=[],
                        help="folders of training renders (training.render_synthetic) to "
                             "sample as many photos from")
    gather.add_argument("--out", default=INPUTS, help="where: %%s is the network's name")
    make = commands.add_parser("quantize")
    make.add_argument("model", type=Path)
    make.add_argument("inputs", type=Path)
    make.add_argument("--out", type=Path, required=True)
    make.add_argument("--operator-format", action="store_true",
                      help="QLinearConv and friends instead of QuantizeLinear/DequantizeLinear pairs")
    make.add_argument("--method", default="MinMax", choices=["MinMax", "Entropy", "Percentile"])
    make.add_argument("--per-tensor", action="store_true")
    make.add_argument("--unsigned", action="store_true", help="activations as uint8")
    make.add_argument("--batch", type=int, default=64, help="reader crops per calibration batch")
    make.add_argument("--reduce-range", action="store_true", help="7-bit weights")
    make.add_argument("--only-nodes", nargs="*", default=[],
                      help="quantize only these nodes (default: all but --float-nodes)")
    make.add_argument("--float-nodes", nargs="*", default=[],
                      help="nodes left in float (names as in the ONNX graph, e.g. /head/Conv)")
    timing = commands.add_parser("compare-speed")
    timing.add_argument("inputs", type=Path)
    timing.add_argument("models", type=Path, nargs="+")
    timing.add_argument("--repeats", type=int, default=15)
    timing.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    if args.command == "collect":
        collect(args.photos, args.seed, args.renders, args.out)
    elif args.command == "compare-speed":
        compare_speed(args.models, args.inputs, repeats=args.repeats, threads=args.threads)
    else:
        quantize(args.model, args.inputs, args.out, operator_format=args.operator_format,
                 method=args.method, per_channel=not args.per_tensor, batch=args.batch,
                 unsigned=args.unsigned, float_nodes=args.float_nodes, only_nodes=args.only_nodes,
                 reduce_range=args.reduce_range)


if __name__ == "__main__":
    main()
