"""Which cv2.dnn engine runs a network: an 8-bit one (training/quantize.py) the new engine,
the shipped float ones the classic engine (needs the ``onnx`` package to write the 8-bit file)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.vision import networks

onnx = pytest.importorskip("onnx")
pytestmark = pytest.mark.skipif(not hasattr(cv2.dnn, "ENGINE_NEW"), reason="OpenCV 4: one engine")

from onnx import TensorProto, helper, numpy_helper  # after the skips

SCALE = 1 / 127


def _doubling_int8_network(path: Path) -> None:
    """A 1×1 convolution that doubles its one channel, in QLinearConv form (as onnxruntime's
    QOperator quantizer writes it): float in, int8 inside, float out."""
    constants = {
        "image_scale": np.array(SCALE, np.float32), "image_zero": np.array(0, np.int8),
        "weight": np.full((1, 1, 1, 1), 2, np.int8), "weight_scale": np.array([1], np.float32),
        "weight_zero": np.array([0], np.int8), "bias": np.zeros(1, np.int32),
        "doubled_scale": np.array(SCALE, np.float32), "doubled_zero": np.array(0, np.int8),
    }
    nodes = [
        helper.make_node("QuantizeLinear", ["image", "image_scale", "image_zero"], ["image_int8"]),
        helper.make_node("QLinearConv", ["image_int8", "image_scale", "image_zero", "weight",
                                         "weight_scale", "weight_zero", "doubled_scale",
                                         "doubled_zero", "bias"], ["doubled_int8"],
                         kernel_shape=[1, 1]),  # cv2's classic reader needs it spelled out
        helper.make_node("DequantizeLinear", ["doubled_int8", "doubled_scale", "doubled_zero"],
                         ["doubled"]),
    ]
    graph = helper.make_graph(
        nodes, "doubling",
        [helper.make_tensor_value_info("image", TensorProto.FLOAT, [1, 1, 4, 4])],
        [helper.make_tensor_value_info("doubled", TensorProto.FLOAT, [1, 1, 4, 4])],
        [numpy_helper.from_array(value, name) for name, value in constants.items()])
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]), path)


def test_an_eight_bit_network_runs_on_the_new_engine_and_computes_what_it_says(tmp_path):
    path = tmp_path / "doubling.onnx"
    _doubling_int8_network(path)
    image = np.linspace(0, 0.45, 16, dtype=np.float32).reshape(1, 1, 4, 4)
    np.testing.assert_allclose(networks.run(path, image), 2 * image, atol=2 * SCALE)
    assert "Conv2Int8" in networks._load(path).getLayerTypes()  # the new engine's int8 layer


def test_the_shipped_networks_stay_on_the_classic_engine():
    for path in (networks.DETECTOR_FILE, networks.READER_FILE):
        assert "Convolution" in networks._load(path).getLayerTypes()
