"""The two shipped ONNX networks, loaded once and run through ``cv2.dnn``.

Both were trained by this project's own scripts (``training/``) on the "rummikub-nvypk"
photos by Jonas Bühler (CC BY 4.0); see ``companion/vision/models/README.md``.
"""

from __future__ import annotations

import threading
from functools import cache
from pathlib import Path

import cv2
import numpy as np

MODELS = Path(__file__).resolve().parent / "models"
DETECTOR_FILE = MODELS / "detector.onnx"
READER_FILE = MODELS / "reader.onnx"

# a cv2.dnn.Net keeps state between setInput and forward: one caller at a time
_lock = threading.Lock()


# OpenCV 5 runs ONNX files through its new engine unless told otherwise; on these two small
# convolutional networks the classic engine is faster (the reader about 1.7 times, measured
# on one thread), with the same outputs to 1e-5. OpenCV 4 has only the classic engine.
_CLASSIC_ENGINE = getattr(cv2.dnn, "ENGINE_CLASSIC", None)


@cache
def _load(path: Path) -> cv2.dnn.Net:
    if _CLASSIC_ENGINE is None:
        return cv2.dnn.readNetFromONNX(str(path))
    return cv2.dnn.readNetFromONNX(str(path), _CLASSIC_ENGINE)


def run(path: Path, blob: np.ndarray) -> np.ndarray:
    """Run the network in ``path`` on an NCHW float32 blob; returns its (only) output."""
    net = _load(path)
    with _lock:
        net.setInput(blob)
        return np.array(net.forward(), copy=True)


def detect_masks(letterboxed: np.ndarray) -> np.ndarray:
    """Tile and core probabilities (2, H/2, W/2) for a BGR image whose sides are multiples of 16."""
    blob = letterboxed.astype(np.float32)[None].transpose(0, 3, 1, 2) / 255.0
    logits = run(DETECTOR_FILE, np.ascontiguousarray(blob))[0]
    return 1.0 / (1.0 + np.exp(-logits))


IDENTITIES = 53  # then two orientation outputs: upright, upside down


def _softmax(logits: np.ndarray) -> np.ndarray:
    shifted = np.exp(logits - logits.max(axis=1, keepdims=True))
    return shifted / shifted.sum(axis=1, keepdims=True)


# A crop read one way up with at least this probability for its identity and for which end
# is up is not read again turned round; the others are read both ways and the readings
# averaged. On valid/ and the synthetic set this reads about 6% of the tiles twice instead of
# all of them, with the same tiles read right and the same misreads flagged.
SURE_ONE_WAY = 0.9


def read_crops(crops: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For N BGR crops (N, 64, 48, 3): class probabilities (N, 53) and P(upside down) (N,).

    Each crop is read as cut; a crop the reader is not sure of (SURE_ONE_WAY) is read again
    turned round, its identity then the mean of both readings and "upside down" the mean of
    the crop's own vote and the turned crop's opposite vote.
    """
    as_cut = crops.astype(np.float32) / 255.0
    logits = run(READER_FILE, np.ascontiguousarray(as_cut.transpose(0, 3, 1, 2)))
    identity = _softmax(logits[:, :IDENTITIES])
    upside_down = _softmax(logits[:, IDENTITIES:])[:, 1]
    unsure = np.flatnonzero((identity.max(axis=1) < SURE_ONE_WAY)
                            | (np.abs(upside_down - 0.5) < SURE_ONE_WAY - 0.5))
    if len(unsure):
        turned = np.ascontiguousarray(as_cut[unsure, ::-1, ::-1].transpose(0, 3, 1, 2))
        again = run(READER_FILE, turned)
        identity[unsure] = (identity[unsure] + _softmax(again[:, :IDENTITIES])) / 2
        upside_down[unsure] = (upside_down[unsure] + 1 - _softmax(again[:, IDENTITIES:])[:, 1]) / 2
    return identity, upside_down
