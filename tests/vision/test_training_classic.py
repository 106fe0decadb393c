"""Teaching the reader the real classic crops beside renders (needs the ``train`` extra)."""

from __future__ import annotations

import json
import sys

import cv2
import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("onnx")

from companion.vision.classes import CLASS_INDEX, JOKER_CLASS  # after the skips: torch is optional
from training.classic import ClassicCrop, jittered_crop
from training.train_classic import IDENTITIES, classic_loss


def _reading(tile: str) -> torch.Tensor:
    logits = torch.full((1, IDENTITIES), -4.0)
    logits[0, CLASS_INDEX[tile]] = 4.0
    return logits


def test_a_crops_loss_is_least_for_its_number_in_its_labelled_colour(tmp_path) -> None:
    crop = ClassicCrop(tmp_path / "tile_0001.png", 8, 1, "O")
    right, wrong_colour, wrong_number = (classic_loss(_reading(tile), [crop], 0.5)
                                         for tile in ("O8", "R8", "O3"))
    assert right < wrong_colour < wrong_number  # the number weighs more than the colour
    # without the colour's weight, any colour of the number is as right
    assert float(classic_loss(_reading("R8"), [crop], 0.0)) == pytest.approx(
        float(classic_loss(_reading("O8"), [crop], 0.0)))


def test_a_jokers_loss_is_the_jokers_alone(tmp_path) -> None:
    joker = ClassicCrop(tmp_path / "tile_0002.png", 0, 2)
    joker_read = torch.full((1, IDENTITIES), -4.0)
    joker_read[0, JOKER_CLASS] = 4.0
    assert classic_loss(joker_read, [joker], 0.5) < classic_loss(_reading("K3"), [joker], 0.5)


def test_a_tighter_framing_cuts_more_of_the_tiles_edge_away() -> None:
    image = np.full((180, 150, 3), 200, np.uint8)
    cv2.rectangle(image, (0, 0), (149, 179), (40, 40, 40), 6)  # a dark border at the box's edge
    rng = np.random.default_rng(3)
    loose = [jittered_crop(image, rng, tightest=1.1) for _ in range(30)]
    tight = [jittered_crop(image, rng, tightest=0.75) for _ in range(30)]
    assert all(c.shape == (64, 48, 3) for c in loose + tight)
    border = np.mean([c[:3].mean() + c[-3:].mean() for c in loose])
    assert np.mean([c[:3].mean() + c[-3:].mean() for c in tight]) > border


def test_renders_with_shadows_differ_from_the_same_renders_without(tmp_path, monkeypatch) -> None:
    from training import render_synthetic

    for name, extra in (("plain", []), ("shadows", ["--shadows"])):
        monkeypatch.setattr(sys, "argv", ["render_synthetic", "--count", "1", "--first-seed",
                                          "13000000", "--out", str(tmp_path / name), *extra])
        render_synthetic.main()
    plain, shadowed = (cv2.imread(str(tmp_path / n / "synthetic-0000.jpg")) for n in ("plain", "shadows"))
    assert plain.shape == shadowed.shape
    assert np.abs(plain.astype(int) - shadowed.astype(int)).mean() > 1.0
    assert (json.loads((tmp_path / "plain" / "synthetic-0000.json").read_text())
            == json.loads((tmp_path / "shadows" / "synthetic-0000.json").read_text()))


def test_the_classic_split_benchmark_counts_every_crop_right_or_misread_once() -> None:
    from benchmarks.classic_split import classic_split
    from training.classic import CLASSIC_ROOT

    if not CLASSIC_ROOT.is_dir():
        pytest.skip(f"the classic crops are not at {CLASSIC_ROOT}")
    result = classic_split()
    right = int(str(result["numbers right"]).split("(")[1].rstrip(")"))
    assert right + sum(result["misreads"].values()) == result["crops"] == 399
    assert all("→" in key and not key.startswith(key.split("→")[1].lstrip("KRBO") + "→")
               for key in result["misreads"])
    assert result["wrong shown sure"] <= sum(result["misreads"].values())
