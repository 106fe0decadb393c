"""The networks run through onnxruntime: an 8-bit one (training/quantize.py) computes what it
says, the shipped ones read a real photo as cv2.dnn reads it (their runtime until
2026-12-02, the one every threshold was calibrated with), and threads may share them."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import cv2
import numpy as np

from companion.vision import networks
from companion.vision.crops import canonical_corners, crop_tile
from companion.vision.detect import letterbox
from tests.vision.conftest import labelled_photo

# tests/fixtures/make_doubling_int8.py wrote it (with the ``onnx`` package, not needed here)
DOUBLING_INT8 = Path(__file__).resolve().parent.parent / "fixtures" / "doubling-int8.onnx"
SCALE = 1 / 127  # the file's scales


def test_an_eight_bit_network_computes_what_it_says():
    image = np.linspace(0, 0.45, 16, dtype=np.float32).reshape(1, 1, 4, 4)
    np.testing.assert_allclose(networks.run(DOUBLING_INT8, image), 2 * image, atol=2 * SCALE)


def _real_blobs() -> tuple[np.ndarray, np.ndarray]:
    """The reader's blob of a real photo's labelled tiles, as cut and turned round, and the
    detector's blob of the same photo letterboxed."""
    data, labels = labelled_photo("rummy-43_jpeg")
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    crops = np.stack([crop_tile(image, canonical_corners(cv2.minAreaRect(outline)))
                      for _, outline in labels])
    crops = np.concatenate([crops, crops[:, ::-1, ::-1]])
    reader_blob = np.ascontiguousarray(crops.astype(np.float32).transpose(0, 3, 1, 2) / 255.0)
    letterboxed, _ = letterbox(image)
    detector_blob = letterboxed.astype(np.float32)[None].transpose(0, 3, 1, 2) / 255.0
    return reader_blob, np.ascontiguousarray(detector_blob)


def _through_cv2_dnn(path: Path, blob: np.ndarray) -> np.ndarray:
    net = cv2.dnn.readNetFromONNX(str(path))
    net.setInput(blob)
    return np.array(net.forward(), copy=True)


def test_the_shipped_networks_read_a_real_photo_as_cv2_dnn_does():
    reader_blob, detector_blob = _real_blobs()
    assert len(reader_blob) > 30
    for path, blob in ((networks.READER_FILE, reader_blob), (networks.DETECTOR_FILE, detector_blob)):
        ours = networks.run(path, blob)
        assert ours.shape == _through_cv2_dnn(path, blob).shape
        np.testing.assert_allclose(ours, _through_cv2_dnn(path, blob), atol=1e-4)


def test_threads_sharing_the_networks_read_as_one_does():
    """No lock: calls from several threads at once (a server reading several phones' photos)
    give each the same outputs, to the last bit, as the calls made one after another."""
    reader_blob, detector_blob = _real_blobs()
    calls = [(networks.READER_FILE, reader_blob[start:start + 16])
             for start in range(0, len(reader_blob), 16)] + [(networks.DETECTOR_FILE, detector_blob)]
    calls = calls * 3
    alone = [networks.run(path, blob) for path, blob in calls]
    with ThreadPoolExecutor(max_workers=4) as pool:
        together = list(pool.map(lambda call: networks.run(*call), calls))
    for one, other in zip(alone, together):
        assert np.array_equal(one, other)
