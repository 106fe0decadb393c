"""The classic pass is sure of a current-design photo's tiles only where the shipped reader
read them alike (``companion.vision.designs``).

A photo the shipped reader reads poorly, or refuses for how its tiles read, is read again
with the classic design's networks (``pipeline.find_and_read``). They read small, soft and
blurred current tiles better, and their reading is kept when surer; but a classic reader
also reads poor current tiles surely wrong (docs/vision.md, "Which design a photo shows").
The design reader (``networks.classic_design``) tells the designs apart. Real photos only:
the labelled current-design fixtures ("rummikub-nvypk" v9 by Jonas Bühler, CC BY 4.0) and a
rack composed of real classic crops ("Rummikub tile crops by christophrus, from
github.com/christophrus/rummikub-counter (commit 8e7f85b9ad7b056c557af35a5b03f229c7cad0d2),
MIT licence as stated in that repository's README"; tests/fixtures/composed/README.md).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest
from click.testing import CliRunner

from companion.cli import main
from companion.vision import PhotoError, read_rack
from companion.vision.classes import TILE_CLASSES, tile_from_dataset_name
from companion.vision.decode import DecodedPhoto
from companion.vision.designs import DOUBTED, as_the_classic_pass_may, of_classic_tiles
from companion.vision.doubts import LOW_CONFIDENCE
from companion.vision.pipeline import (
    _read_as_classic,
    find_and_read,
    found_and_read_with_one_reader,
)
from companion.vision.reading import OTHER_DESIGN
from tests.vision.conftest import labelled_photo
from tests.vision.test_classic_figure import CLASSIC_RACK


def photo_of(data: bytes, shrink: float = 1.0, soften: float = 0.0) -> DecodedPhoto:
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    if shrink != 1.0:
        image = cv2.resize(image, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA)
    if soften:
        image = cv2.GaussianBlur(image, (0, 0), soften)
    return DecodedPhoto.of_image(image)


def classic_pass(photo: DecodedPhoto):  # type: ignore[no-untyped-def]
    reading = _read_as_classic(photo, upright=False)
    assert reading is not None
    return reading


def test_the_design_reader_tells_current_tiles_from_classic_ones() -> None:
    """Each photo read by the classic pass, so only the design differs."""
    current = photo_of(labelled_photo("rummy-11_")[0])
    classic = photo_of(CLASSIC_RACK.read_bytes())
    assert not of_classic_tiles(current, classic_pass(current))
    assert of_classic_tiles(classic, classic_pass(classic))


def test_a_classic_photo_keeps_the_classic_pass_reading_whole() -> None:
    photo = photo_of(CLASSIC_RACK.read_bytes())
    reading = classic_pass(photo)
    assert as_the_classic_pass_may(reading, None, photo) is reading


def test_a_current_tile_is_doubted_where_the_shipped_reader_read_it_otherwise() -> None:
    """rummy-11 as taken: both readers read it, alike. The shipped reading is then changed at
    one tile: only the classic pass's tile in that box is held under LOW_CONFIDENCE."""
    photo = photo_of(labelled_photo("rummy-11_")[0])
    shipped, classic = found_and_read_with_one_reader(photo), classic_pass(photo)
    assert as_the_classic_pass_may(classic, shipped, photo).confidence.tolist() \
        == classic.confidence.tolist()
    sure = int(np.argmax(classic.confidence))
    centre = classic.corners[sure].mean(axis=0)
    box = next(k for k, corners in enumerate(shipped.corners) if cv2.pointPolygonTest(
        np.asarray(corners, np.float32).reshape(-1, 1, 2), tuple(map(float, centre)), False) >= 0)
    best = shipped.best.copy()
    best[box] = (int(best[box]) + 1) % len(TILE_CLASSES)
    doubted = as_the_classic_pass_may(classic, replace(shipped, best=best), photo).confidence
    assert doubted[sure] == pytest.approx(DOUBTED) and doubted[sure] < LOW_CONFIDENCE
    others = np.arange(len(doubted)) != sure
    assert doubted[others].tolist() == classic.confidence[others].tolist()


def test_a_current_rack_the_shipped_reader_refuses_is_read_whole_and_unsure(tmp_path: Path
                                                                          ) -> None:
    """rummy4-93 shrunk to 60% and softened (σ 1 px): the shipped reader refuses it for how
    its tiles read; the classic pass reads all 16 tiles right, 0.94 or surer. They are of the
    current design, which the shipped reader could not read: every tile is offered to be
    checked, and the rack's value is not shown sure."""
    data, labels = labelled_photo("rummy4-93_")
    photo = photo_of(data, shrink=0.6, soften=1.0)
    with pytest.raises(PhotoError):
        found_and_read_with_one_reader(photo)
    assert min(classic_pass(photo).confidence) >= LOW_CONFIDENCE
    reading = find_and_read(photo)
    assert reading.classic and max(reading.confidence) < LOW_CONFIDENCE
    assert Counter(TILE_CLASSES[int(best)] for best in reading.best) \
        == Counter(tile_from_dataset_name(name) for name, _ in labels)
    rack = read_rack(cv2.imencode(".png", photo.image)[1].tobytes())
    assert rack.tiles and all(tile.low_confidence for tile in rack.tiles)
    # each says why: the 89% shown is the rule's cap, not how sure the classic reader was
    assert {tile.doubt for tile in rack.tiles} == {OTHER_DESIGN}
    assert rack.tiles[0].to_json()["doubt"] == OTHER_DESIGN
    assert "current design" in rack.tiles[0].unsure_words()
    picture = tmp_path / "rack.png"
    cv2.imwrite(str(picture), photo.image)
    said = CliRunner().invoke(main, ["read-rack", str(picture)]).output
    assert said.count("look like the current design") == 1 and "89%" not in said
