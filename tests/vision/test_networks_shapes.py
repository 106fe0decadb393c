"""The detector's two looks at a photo run on a net kept per input size (networks.run): the
maps must be what one net gives, bit for bit, whatever order the sizes come in."""

from __future__ import annotations

import cv2
import numpy as np

from companion.vision import networks
from companion.vision.detect import letterbox
from tests.vision.conftest import labelled_photo


def _fresh_maps(letterboxed: np.ndarray) -> np.ndarray:
    """The detector's logits for this input from a net of its own, loaded anew."""
    net = networks._read_net(networks.DETECTOR_FILE)
    blob = letterboxed.astype(np.float32)[None].transpose(0, 3, 1, 2) / 255.0
    net.setInput(np.ascontiguousarray(blob))
    return np.array(net.forward(), copy=True)[0]


def test_two_detector_sizes_alternated_give_the_maps_of_a_fresh_net() -> None:
    data, _ = labelled_photo("rummy-43_jpeg")
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    inputs = [letterbox(image, size)[0] for size in (512, 640, 768)]
    expected = [1.0 / (1.0 + np.exp(-_fresh_maps(padded))) for padded in inputs]
    for number in [0, 1, 0, 1, 2, 0, 2, 1, 1]:
        assert np.array_equal(networks.detect_masks(inputs[number]), expected[number])
        assert len(networks._nets[networks.DETECTOR_FILE]) <= networks.SHAPES_PER_FILE
