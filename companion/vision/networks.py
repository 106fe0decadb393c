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


@cache
def _load(path: Path) -> cv2.dnn.Net:
    net = cv2.dnn.readNetFromONNX(str(path))
    return net


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


def read_crops(crops: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For N BGR crops (N, 64, 48, 3): class probabilities (N, 53) and P(upside down) (N,).

    Each crop is read both ways up; the identity is the mean of both readings, and "upside
    down" the mean of the crop's own vote and the turned crop's opposite vote.
    """
    both = np.concatenate([crops, crops[:, ::-1, ::-1]]).astype(np.float32) / 255.0
    blob = np.ascontiguousarray(both.transpose(0, 3, 1, 2))
    logits = run(READER_FILE, blob)
    count = len(crops)
    identity = _softmax(logits[:, :IDENTITIES])
    turned = _softmax(logits[:, IDENTITIES:])[:, 1]
    return (identity[:count] + identity[count:]) / 2, (turned[:count] + 1 - turned[count:]) / 2
