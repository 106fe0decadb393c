"""Crops of small tiles for the reader (training/small_crops.py) and its temperature
(training/calibrate_reader.py): numpy, OpenCV and onnx only, no torch."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.vision.classes import CLASS_INDEX, tile_from_dataset_name
from companion.vision.crops import CROP_HEIGHT, CROP_WIDTH
from tests.vision.conftest import labelled_photo
from training.calibrate_reader import (
    fit_temperature,
    negative_log_likelihood,
    raw_logits,
    with_temperature,
    without_no_tile,
)
from training.small_crops import PictureTile, SmallCrops, median_width, picture_crops, small_crops


def _picture(name: str) -> tuple[np.ndarray, list[PictureTile]]:
    jpeg, labels = labelled_photo(name)
    image = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)
    up = np.array([0.0, -1.0])
    return image, [PictureTile(outline, CLASS_INDEX[str(tile_from_dataset_name(tile))], up) for tile, outline in labels]


def test_a_photo_shrunk_to_small_tiles_gives_a_crop_of_each_blurred_as_a_wide_shot() -> None:
    image, tiles = _picture("rummy-36_jpeg")
    full = median_width([t.polygon for t in tiles])
    assert full > 30
    cut = picture_crops(image, tiles, 18.0, soft=False, detected=False,
                        rng=np.random.default_rng(2))
    assert [label for _, label in cut] == [t.label for t in tiles]
    assert all(crop.shape == (CROP_HEIGHT, CROP_WIDTH, 3) for crop, _ in cut)
    # blown up from 18 px, the crop has far less fine detail than the tile cut at full size
    from companion.vision.crops import canonical_corners, crop_tile

    sharp = crop_tile(image, canonical_corners(cv2.minAreaRect(tiles[0].polygon)))

    def detail(crop: np.ndarray) -> float:
        return float(np.abs(cv2.Laplacian(cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY), cv2.CV_32F)).mean())

    assert detail(cut[0][0]) < 0.7 * detail(sharp)


def test_tiles_narrower_already_are_not_cut_and_the_file_round_trips(tmp_path) -> None:
    image, tiles = _picture("rummy-36_jpeg")
    full = median_width([t.polygon for t in tiles])
    assert picture_crops(image, tiles, full + 1, soft=True, detected=False,
                         rng=np.random.default_rng(0)) == []
    made = small_crops([(image, tiles)], 2, np.random.default_rng(4), widths=(18.0, 20.0))
    assert len(made.labels) == 2 * len(tiles)
    assert made.crops.dtype == np.uint8 and ((made.widths >= 18) & (made.widths <= 20)).all()
    made.save(tmp_path / "crops.npz")
    again = SmallCrops.load(tmp_path / "crops.npz")
    assert np.array_equal(again.crops, made.crops) and np.array_equal(again.soft, made.soft)


def test_the_fitted_temperature_softens_a_reader_too_sure_of_itself() -> None:
    rng = np.random.default_rng(0)
    labels = rng.integers(0, 5, 400)
    logits = rng.normal(0, 1, (400, 5))
    logits[np.arange(400), labels] += 3.0
    # 30% of the readings are as sure but wrong: the logits are too large for what they know
    wrong = rng.random(400) < 0.3
    logits[wrong, (labels[wrong] + 1) % 5] += 6.0
    fitted = fit_temperature(logits * 3, labels)
    assert fitted > 1.5
    assert negative_log_likelihood(logits * 3, labels, fitted) < negative_log_likelihood(
        logits * 3, labels, 1.0)


def test_the_temperature_divides_the_tile_logits_of_the_shipped_reader_only(tmp_path) -> None:
    pytest.importorskip("onnx")  # the train extra's: rewriting an ONNX file
    from companion.vision.networks import READER_FILE

    crops = np.stack([c for c, _ in picture_crops(*_picture("rummy-36_jpeg"), 24.0, soft=False,
                                                  detected=False, rng=np.random.default_rng(1))])
    with_temperature(READER_FILE, tmp_path / "warm.onnx", 2.0)
    before = raw_logits(READER_FILE, crops)
    after = raw_logits(tmp_path / "warm.onnx", crops)
    np.testing.assert_allclose(after[:, :53], before[:, :53] / 2, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(after[:, 53:], before[:, 53:], rtol=1e-5, atol=1e-5)


def test_the_reader_without_its_no_tile_output_reads_every_tile_as_before(tmp_path) -> None:
    pytest.importorskip("onnx")  # the train extra's: rewriting an ONNX file
    from companion.vision.networks import READER_FILE

    crops = np.stack([c for c, _ in picture_crops(*_picture("rummy-36_jpeg"), 24.0, soft=False,
                                                  detected=False, rng=np.random.default_rng(1))])
    without_no_tile(READER_FILE, tmp_path / "53.onnx")
    before = raw_logits(READER_FILE, crops)
    after = raw_logits(tmp_path / "53.onnx", crops)
    assert after.shape[1] == before.shape[1] - 1 == 55
    np.testing.assert_allclose(after[:, :53], before[:, :53], rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(after[:, 53:], before[:, 54:], rtol=1e-5, atol=1e-5)
