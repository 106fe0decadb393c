"""Which cv2.dnn engine runs a network: an 8-bit one (training/quantize.py) the new engine,
the shipped float ones the classic engine."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.vision import networks

# tests/fixtures/make_doubling_int8.py wrote it (with the ``onnx`` package, not needed here)
DOUBLING_INT8 = Path(__file__).resolve().parent.parent / "fixtures" / "doubling-int8.onnx"
SCALE = 1 / 127  # the file's scales


@pytest.mark.skipif(not hasattr(cv2.dnn, "ENGINE_NEW"), reason="OpenCV 4: one engine")
def test_an_eight_bit_network_runs_on_the_new_engine_and_computes_what_it_says():
    image = np.linspace(0, 0.45, 16, dtype=np.float32).reshape(1, 1, 4, 4)
    np.testing.assert_allclose(networks.run(DOUBLING_INT8, image), 2 * image, atol=2 * SCALE)
    assert "Conv2Int8" in networks._load(DOUBLING_INT8).getLayerTypes()  # the new engine's


def test_the_shipped_networks_stay_on_the_classic_engine():
    for path in (networks.DETECTOR_FILE, networks.READER_FILE):
        assert "Convolution" in networks._load(path).getLayerTypes()
