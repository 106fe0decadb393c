"""The training side's copies of the shipped networks (needs the ``train`` extra: torch, onnx)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.vision import networks
from companion.vision.detect import letterbox
from tests.fixtures import SAMPLE_PHOTO

torch = pytest.importorskip("torch")
pytest.importorskip("onnx")

from training.networks import (  # after the skips: torch is optional
    TileDetector,
    TileReader,
    init_from,
    load_folded_onnx,
    split_convolution,
    with_no_tile,
)


def _photo_blob() -> np.ndarray:
    letterboxed, _ = letterbox(cv2.imread(str(SAMPLE_PHOTO)))
    return np.ascontiguousarray(letterboxed.astype(np.float32)[None].transpose(0, 3, 1, 2) / 255)


def test_shipped_detector_loaded_into_torch_gives_the_maps_cv2_gives() -> None:
    teacher = TileDetector()
    load_folded_onnx(teacher, networks.DETECTOR_FILE)
    blob = _photo_blob()
    with torch.no_grad():
        ours = teacher.eval()(torch.from_numpy(blob)).numpy()
    np.testing.assert_allclose(ours, networks.run(networks.DETECTOR_FILE, blob), atol=1e-3)


def test_a_kernel_that_is_one_product_per_channel_splits_exactly() -> None:
    generator = torch.Generator().manual_seed(3)
    depthwise = torch.randn(6, 1, 3, 3, generator=generator)
    pointwise = torch.randn(4, 6, 1, 1, generator=generator)
    kernel = pointwise[:, :, 0, 0, None, None] * depthwise[None, :, 0]
    split_depthwise, split_pointwise = split_convolution(kernel)
    rebuilt = split_pointwise[:, :, 0, 0, None, None] * split_depthwise[None, :, 0]
    torch.testing.assert_close(rebuilt, kernel, atol=1e-5, rtol=1e-5)


def test_light_detector_starts_from_every_teacher_layer_with_the_same_outputs() -> None:
    teacher = TileDetector()
    load_folded_onnx(teacher, networks.DETECTOR_FILE)
    student = TileDetector(light=True)
    assert init_from(student, teacher) == []
    blob = torch.from_numpy(_photo_blob())
    with torch.no_grad():
        assert student.eval()(blob).shape == teacher.eval()(blob).shape
        assert torch.equal(student.level4(student.level3(student.level2(student.level1(blob)))),
                           teacher.level4(teacher.level3(teacher.level2(teacher.level1(blob)))))


def test_a_no_tile_output_is_added_after_the_tiles_and_changes_no_other_output() -> None:
    torch.manual_seed(4)
    reader = TileReader().eval()
    grown = with_no_tile(reader).eval()
    crops = torch.rand(3, 3, 64, 48)
    with torch.no_grad():
        before, after = reader(crops), grown(crops)
    assert after.shape == (3, 53 + 1 + 2)
    torch.testing.assert_close(after[:, :53], before[:, :53])
    torch.testing.assert_close(after[:, 54:], before[:, 53:])
    # it starts out below every tile's output: nothing is "no tile" before it is taught
    assert (after[:, 53] < before[:, :53].max(dim=1).values).all()


def test_blocks_kept_do_not_learn_and_the_rest_do() -> None:
    from training.train_reader import keep_first_blocks

    reader = TileReader(classes=56)
    learned = keep_first_blocks(reader, 4)
    blocks = [m for m in reader.features if isinstance(m, torch.nn.Sequential)]
    assert len(blocks) == 7
    assert not any(p.requires_grad for block in blocks[:4] for p in block.parameters())
    assert all(p.requires_grad for block in blocks[4:] for p in block.parameters())
    assert {id(p) for p in learned} == {id(p) for p in reader.parameters() if p.requires_grad}
    assert any(p is reader.classify[-1].weight for p in learned)


def test_renders_of_the_benchmark_harder_kinds_refuse_its_seeds(tmp_path) -> None:
    from training.render_synthetic import _render_hard_sets

    for seed in (2027, 3027, 15027):
        with pytest.raises(SystemExit):
            _render_hard_sets([seed], tmp_path)
    assert not list(tmp_path.iterdir())


def test_a_blend_of_two_readers_lies_between_them() -> None:
    from training.blend_readers import blended

    start, tuned = TileReader(classes=56), TileReader(classes=56)
    first = start.classify[-1].weight.detach().clone()
    last = tuned.classify[-1].weight.detach().clone()
    middle = blended(start, tuned, 0.5).classify[-1].weight.detach()
    torch.testing.assert_close(middle, (first + last) / 2)
    torch.testing.assert_close(blended(TileReader(classes=56), tuned, 1.0).state_dict()["classify.4.bias"],
                               tuned.state_dict()["classify.4.bias"])
    with pytest.raises(ValueError):
        blended(start, tuned, 1.5)


def test_label_smoothing_per_sample_is_torchs_own_when_all_samples_share_it() -> None:
    import torch.nn.functional as F

    from training.train_reader import smoothed_cross_entropy

    generator = torch.Generator().manual_seed(3)
    logits = torch.randn(9, 54, generator=generator)
    labels = torch.randint(0, 54, (9,), generator=generator)
    for smoothing in (0.0, 0.05, 0.08):
        ours = smoothed_cross_entropy(logits, labels, torch.full((9,), smoothing))
        torch.testing.assert_close(ours, F.cross_entropy(logits, labels, label_smoothing=smoothing))
    # more smoothing on a sample asks less certainty of it: a very sure right reading costs more
    sure = torch.zeros(1, 54)
    sure[0, 4] = 20.0
    label = torch.tensor([4])
    assert smoothed_cross_entropy(sure, label, torch.tensor([0.08])) > smoothed_cross_entropy(
        sure, label, torch.tensor([0.05]))
