"""The shipped ONNX networks, loaded once and run through onnxruntime.

The detector and the reader, with the classic design's fine-tunes of both and its 6-or-9
figure reader, were trained by this project's own scripts (``training/``) on the
"rummikub-nvypk" photos by Jonas Bühler (CC BY 4.0), renders, and the classic crops by
christophrus (MIT); see ``companion/vision/models/README.md``.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from contextvars import ContextVar
from functools import cache
from pathlib import Path

import numpy as np
import onnxruntime

from companion.vision.classes import JOKER_CLASS

MODELS = Path(__file__).resolve().parent / "models"
DETECTOR_FILE = MODELS / "detector.onnx"
READER_FILE = MODELS / "reader.onnx"
# The classic design's networks (large bold numbers): the reader fine-tuned from READER_FILE on
# real classic crops, the detector from DETECTOR_FILE on racks composed of them
# (models/README.md). A photo the shipped networks read poorly is found and read again with
# them (pipeline.find_and_read).
CLASSIC_READER_FILE = MODELS / "reader-classic.onnx"
CLASSIC_DETECTOR_FILE = MODELS / "detector-classic.onnx"
# A classic 6 or 9 cut with its top the rack's up: is its figure, as it stands, a 6 or a 9
# (figures.read_by_figure; training/train_six_nine.py)?
SIX_NINE_CLASSIC_FILE = MODELS / "six-nine-classic.onnx"
# Is the tile on a crop of the classic design or the current one (designs.py;
# training/train_design.py)?
DESIGN_FILE = MODELS / "design.onnx"
# the networks the photo in hand is read with (each thread and task its own): READER_FILE and
# DETECTOR_FILE unless ``reading_with`` says otherwise
_reader: ContextVar[Path | None] = ContextVar("reader", default=None)
_detector: ContextVar[Path | None] = ContextVar("detector", default=None)

# onnxruntime, not cv2.dnn: on 2026-12-02 it ran the reader's 32 crops in 26–30 ms and the
# detector's 640×480 look in 26–27 ms, against 29–30 and 43–47 ms for OpenCV 5.0's classic
# engine (5.1 dropped that engine; its new one read the crops in 43–45 ms), with the same
# outputs to 2e-5 (docs/vision-history.md, "onnxruntime for the networks"). It runs an 8-bit
# network (QLinearConv, training/quantize.py) with its own int8 kernels.
#
# THREADS threads for one call, none spinning between calls: a photo's calls are small (a
# detector look, batches of at most 16 crops), and a server reading several phones' photos
# at once spreads them over its cores itself, one call per request thread. Two threads read
# the 12 MP photo of 15 tiles no sooner (2.07 times its decode against 2.05, 8 runs each on
# the loaded 2-core machine) for more CPU (90 ms against 85).
THREADS = 1


@cache
def _session(path: Path) -> onnxruntime.InferenceSession:
    """One session per file, shared by every thread: onnxruntime's ``run`` is thread-safe
    (and lets go of the GIL while it computes), so no lock is needed."""
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = THREADS
    options.inter_op_num_threads = 1
    options.execution_mode = onnxruntime.ExecutionMode.ORT_SEQUENTIAL
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    # No arena: a run's memory is given back when it ends. onnxruntime's arena keeps the most
    # the session's runs ever took at once: after sixteen hostile photos read at once a server
    # with both detectors kept 332-364 MB against 233 warmed, without the arena 178 against
    # 175 (docs/security.md). It costs 2% of a 12 MP photo's read, 12% of one of small tiles.
    options.enable_cpu_mem_arena = False
    return onnxruntime.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])


def run(path: Path, blob: np.ndarray) -> np.ndarray:
    """Run the network in ``path`` on an NCHW float32 blob; returns its (only) output."""
    session = _session(path)
    return session.run(None, {session.get_inputs()[0].name: blob})[0]


def reader_file() -> Path:
    """The reader crops are read with now: READER_FILE, or the one ``reading_with`` set."""
    return _reader.get() or READER_FILE


def detector_file() -> Path:
    """The detector tiles are found with now: DETECTOR_FILE, or the one ``reading_with`` set."""
    return _detector.get() or DETECTOR_FILE


@contextlib.contextmanager
def reading_with(reader: Path, detector: Path | None = None) -> Iterator[None]:
    """Read every crop with the reader in ``reader`` within the block, and find the tiles with
    ``detector`` when given (this thread or task only)."""
    tokens = (_reader.set(reader), _detector.set(detector))
    try:
        yield
    finally:
        _reader.reset(tokens[0])
        _detector.reset(tokens[1])


def reading_classic(classic: bool = True) -> contextlib.AbstractContextManager[None]:
    """Find and read with the classic design's networks within the block (when ``classic``)."""
    if not classic:
        return contextlib.nullcontext()
    return reading_with(CLASSIC_READER_FILE, CLASSIC_DETECTOR_FILE)


def figure_nine(crops: np.ndarray) -> np.ndarray:
    """For N BGR crops (N, 64, 48, 3) of classic 6s and 9s cut upright: P(the figure is a 9)."""
    return _second_of_two(SIX_NINE_CLASSIC_FILE, crops)


def classic_design(crops: np.ndarray) -> np.ndarray:
    """For N BGR crops (N, 64, 48, 3) cut as the reader's: P(the tile is of the classic design)."""
    return _second_of_two(DESIGN_FILE, crops)


def _second_of_two(path: Path, crops: np.ndarray) -> np.ndarray:
    """A two-way network's (training.networks.TwoWayReader) P(its second answer) per crop."""
    blob = np.ascontiguousarray((crops.astype(np.float32) / 255.0).transpose(0, 3, 1, 2))
    return _softmax(run(path, blob))[:, 1]


def detect_masks(letterboxed: np.ndarray) -> np.ndarray:
    """Tile and core probabilities (2, H/2, W/2) for a BGR image whose sides are multiples of 16."""
    blob = letterboxed.astype(np.float32)[None].transpose(0, 3, 1, 2) / 255.0
    logits = run(detector_file(), np.ascontiguousarray(blob))[0]
    return 1.0 / (1.0 + np.exp(-logits))


TILES = 53  # the tile classes (classes.TILE_CLASSES); the reader's outputs start with them
ORIENTATIONS = 2  # its last two outputs: upright, upside down
# Between them, the shipped reader has one more output, "no tile" (classes.NO_TILE_CLASS),
# learned from boxes of bare table, rack ledge, glare and hands; a reader trained before it
# has none. A box it reads as no tile with at least this probability is not a tile: dropped
# from the tiles found, never taken beside a set, in the tile map or on a rack. At 0.5 it
# dropped real tiles (two of the dense tables, one of a rack render); at 0.9 no set read
# worse than without the output, at 0.98 the harder kinds kept an extra box
# (docs/vision-history.md, "a no tile class for the reader").
NO_TILE = 0.9


def _softmax(logits: np.ndarray) -> np.ndarray:
    shifted = np.exp(logits - logits.max(axis=1, keepdims=True))
    return shifted / shifted.sum(axis=1, keepdims=True)


@cache
def _reader_outputs(path: Path) -> int:
    return int(run(path, np.zeros((1, 3, 64, 48), np.float32)).shape[1])


def reader_knows_no_tile() -> bool:
    """Whether the reader has a "no tile" output. Without it, bare table reads as a joker
    (at up to 0.99), so no joker may be taken where no tile was found (beside a set, in the
    tile map, on a rack's re-outlined boxes)."""
    return _reader_outputs(reader_file()) > TILES + ORIENTATIONS


def joker_may_stand(reading: np.ndarray, no_tile: float, threshold: float) -> bool:
    """Whether a box where no tile was found may be taken as the tile ``reading`` says, as far
    as jokers go: a numbered tile may; a joker only with a reader that has the "no tile"
    output, and then only when it is a joker and a tile at once at ``threshold`` or more
    (P(joker) × (1 − P(no tile))): a box half on bare table must not become a sure joker
    because the little left over is joker."""
    if int(reading.argmax()) != JOKER_CLASS:
        return True
    return reader_knows_no_tile() and float(reading[JOKER_CLASS]) * (1 - no_tile) >= threshold


# A crop read one way up with at least this probability for its identity and for which end
# is up is not read again turned round; the others are read both ways and the readings
# averaged. On valid/ and the synthetic set this reads about 6% of the tiles twice instead of
# all of them, with the same tiles read right and the same misreads flagged. A crop read as
# no tile this surely is not read again either (which end is up means nothing there).
SURE_ONE_WAY = 0.9


def _reading(logits: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The tiles' probabilities given that the crop is a tile (N, 53), P(no tile) (zeros for
    a reader without that output) and P(upside down)."""
    identity = _softmax(logits[:, :-ORIENTATIONS])
    tiles = identity[:, :TILES]
    return (tiles / tiles.sum(axis=1, keepdims=True), identity[:, TILES:].sum(axis=1),
            _softmax(logits[:, -ORIENTATIONS:])[:, 1])


def read_crops(crops: np.ndarray, *, least: float | np.ndarray = 0.0
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For N BGR crops (N, 64, 48, 3): the tiles' probabilities (N, 53), P(upside down) (N,)
    and P(no tile) (N,; zeros for a reader without that output).

    The tiles' probabilities are given that the crop is a tile (over the 53 tile outputs):
    for a reader taught "no tile" only on its own output (every tile's output the shipped
    reader's, models/README.md) they are exactly what the reader read before it, so every
    threshold calibrated on them holds; whether the crop is a tile at all is P(no tile),
    judged apart (NO_TILE). Each crop is read as cut; a crop the reader is not sure of
    (SURE_ONE_WAY) is read again turned round, its readings then the mean of both and "upside
    down" the mean of the crop's own vote and the turned crop's opposite vote.

    ``least`` is the least probability that matters to the caller: a crop whose likeliest
    tile could not reach it even averaged with a turned reading of 1 (``(p + 1) / 2``, in the
    readings' own float32, which rounds no higher for any turned reading) is not read turned;
    its readings are then those of the crop as cut, all under ``least`` either way. It may
    be one per crop (float32, as a float ``least`` is compared).
    """
    as_cut = crops.astype(np.float32) / 255.0
    identity, no_tile, upside_down = _reading(
        run(reader_file(), np.ascontiguousarray(as_cut.transpose(0, 3, 1, 2))))
    likeliest = identity.max(axis=1)
    unsure = np.flatnonzero(((likeliest < SURE_ONE_WAY)
                             | (np.abs(upside_down - 0.5) < SURE_ONE_WAY - 0.5))
                            & (no_tile < SURE_ONE_WAY)
                            & ((likeliest + np.float32(1)) / np.float32(2) >= least))
    if len(unsure):
        turned = np.ascontiguousarray(as_cut[unsure, ::-1, ::-1].transpose(0, 3, 1, 2))
        again, again_no_tile, again_upside_down = _reading(run(reader_file(), turned))
        identity[unsure] = (identity[unsure] + again) / 2
        no_tile[unsure] = (no_tile[unsure] + again_no_tile) / 2
        upside_down[unsure] = (upside_down[unsure] + 1 - again_upside_down) / 2
    return identity, upside_down, no_tile
