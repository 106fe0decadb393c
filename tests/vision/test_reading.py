"""The real pipeline (networks included) on synthetic photos with known answers and real photos."""

from __future__ import annotations

from collections import Counter

import cv2
import numpy as np
import pytest

from companion.core.melds import check_table
from companion.core.presets import PRESSMAN
from companion.core.tiles import Tile, format_table, parse_table
from companion.vision import PhotoReading, ReadTile, annotate, read_image, read_photo
from companion.vision.classes import TILE_CLASSES, tile_from_dataset_name
from companion.vision.crops import canonical_corners, crop_tile
from companion.vision.networks import NO_TILE, read_crops
from tests.vision.conftest import jpeg_bytes, labelled_photo, with_exif_orientation
from training.negatives import negative_boxes
from training.synthetic import render_table


def sets_as_text(table) -> list[str]:
    """Sets compared as collections of tiles (the order is checked separately)."""
    return sorted(" ".join(sorted(str(t) for t in meld)) for meld in table)


@pytest.fixture(scope="module")
def classic_render():
    table = parse_table("R5 R6 R7 R8 | K9 B9 O9 | B11 B12 B13")
    return render_table(table, seed=4242, design="classic", background="wood", light="neutral",
                        glare=False, blur=0.0, perspective=0.02, rotation_deg=0.0,
                        upside_down_chance=0.0)


@pytest.fixture(scope="module")
def classic_reading(classic_render) -> PhotoReading:
    return read_photo(jpeg_bytes(classic_render.image))


def test_a_synthetic_classic_table_is_read_into_its_sets(classic_render, classic_reading):
    assert sets_as_text(classic_reading.table) == sets_as_text(classic_render.table)


def test_tiles_of_a_run_come_in_laid_order(classic_reading):
    runs = [meld for meld in classic_reading.table if len({t.colour for t in meld}) == 1]
    assert format_table(sorted(runs, key=len)) == "B11 B12 B13 | R5 R6 R7 R8"


def test_the_verdict_is_the_rules_core_verdict_on_the_tiles_read(classic_reading):
    assert classic_reading.verdict is not None
    assert classic_reading.verdict.legal is True
    assert classic_reading.verdict == check_table(classic_reading.table, preset=PRESSMAN)


def test_the_json_answer_has_the_issue_shape(classic_reading):
    answer = classic_reading.to_json()
    assert (answer["width"], answer["height"]) == (1280, 960)
    assert answer["legal"] is True
    assert len(answer["tiles"]) == 10
    for tile in answer["tiles"]:
        assert set(tile) == {"tile", "confidence", "outline", "set", "low_confidence",
                             "doubt"}
        Tile.parse(tile["tile"])
        assert 0.0 <= tile["confidence"] <= 1.0
        assert len(tile["outline"]) == 4
        assert all(0 <= x < 1280 + 40 and 0 <= y < 960 + 40 for x, y in tile["outline"])
    for meld in answer["sets"]:
        assert meld["legal"] is True and meld["reason"] is None
        assert [answer["tiles"][i]["tile"] for i in meld["tile_indexes"]] == meld["tiles"]
        assert {answer["tiles"][i]["set"] for i in meld["tile_indexes"]} == {answer["sets"].index(meld)}


def test_an_upside_down_current_design_table_is_read_the_right_way_up():
    table = parse_table("K6 K7 K8 | R9 B9 O9")
    render = render_table(table, seed=99, design="current", background="cloth", light="warm",
                          glare=False, blur=0.0, perspective=0.02, rotation_deg=180.0,
                          upside_down_chance=0.0)
    reading = read_image(render.image)
    assert sets_as_text(reading.table) == sets_as_text(table)
    run = next(meld for meld in reading.table if meld[0].colour == meld[-1].colour)
    assert format_table([run]) == "K6 K7 K8"


def test_a_photo_taken_with_the_phone_turned_gives_outlines_in_the_upright_photo(classic_render):
    upright = read_image(classic_render.image)
    stored_sideways = np.ascontiguousarray(np.rot90(classic_render.image, k=1))  # 90° anticlockwise
    reading = read_photo(with_exif_orientation(jpeg_bytes(stored_sideways), 6))
    assert (reading.width, reading.height) == (1280, 960)
    assert sets_as_text(reading.table) == sets_as_text(upright.table)
    centres = sorted(np.mean(t.outline, axis=0).round(-1).tolist() for t in reading.tiles)
    expected = sorted(np.mean(t.outline, axis=0).round(-1).tolist() for t in upright.tiles)
    assert np.abs(np.array(centres) - np.array(expected)).max() <= 20


def test_a_real_photo_is_read_nearly_tile_for_tile():
    data, labels = labelled_photo("rummy-43_jpeg")
    reading = read_photo(data)
    truth = Counter(str(tile_from_dataset_name(name)) for name, _ in labels)
    read = Counter(str(t.tile) for t in reading.tiles)
    assert sum(read.values()) == sum(truth.values())
    assert sum((truth - read).values()) <= 1


def test_the_annotated_picture_is_a_png_of_the_photo(classic_render, classic_reading):
    data = jpeg_bytes(classic_render.image)
    picture = cv2.imdecode(np.frombuffer(annotate(data, classic_reading), np.uint8), cv2.IMREAD_COLOR)
    assert picture.shape == (960, 1280, 3)
    corrected = tuple(meld[:-1] + (Tile.parse("R1"),) for meld in classic_reading.table)
    annotate(data, classic_reading, table=corrected)


def test_a_corrected_table_of_another_shape_cannot_be_drawn(classic_render, classic_reading):
    with pytest.raises(ValueError, match="as many tiles per set"):
        annotate(jpeg_bytes(classic_render.image), classic_reading, table=parse_table("R1 R2 R3"))


def test_three_copies_of_a_tile_read_give_an_error_and_a_table_that_is_not_legal():
    table = parse_table("R7 R7 R7 | K1 K2 K3")
    render = render_table(table, seed=31, design="current", background="wood", light="neutral",
                          glare=False, blur=0.0, perspective=0.02, rotation_deg=0.0,
                          upside_down_chance=0.0)
    reading = read_image(render.image)
    assert sets_as_text(reading.table) == sets_as_text(table)
    assert reading.verdict is None
    assert reading.error is not None and "R7" in reading.error
    answer = reading.to_json()
    assert answer["legal"] is False and answer["error"] == reading.error
    assert [meld["legal"] for meld in answer["sets"]] == [False, True]
    assert "two red 7s" in answer["sets"][0]["reason"]


def _read(label: str, *, unsure: bool = False, alternatives: str = "") -> ReadTile:

    return ReadTile(tile=Tile.parse(label), confidence=0.5 if unsure else 0.99,
                    outline=((0, 0), (1, 0), (1, 1)), set_index=0, low_confidence=unsure,
                    alternatives=tuple(Tile.parse(t) for t in alternatives.split()))


def test_a_set_illegal_only_because_of_one_unsure_tile_gets_the_likeliest_legal_reading():

    # "O7" unsure, the reader's next guesses K7 then R7: K7 would not make the run legal, R7 does
    tiles = (_read("R5"), _read("R6"), _read("O7", unsure=True, alternatives="K7 R7 R1"))
    reading = PhotoReading(100, 100, tiles, ((0, 1, 2),))
    assert reading.verdict is not None and not reading.verdict.legal
    [hint] = reading.suggestions
    assert (hint.set_index, hint.position, str(hint.read), str(hint.suggested)) == (0, 2, "O7",
                                                                                     "R7")
    assert reading.to_json()["suggestions"] == [
        {"set": 0, "position": 2, "tile": 2, "read": "O7", "suggested": "R7"}]
    assert [str(tile) for tile in reading.table[0]] == ["R5", "R6", "O7"]  # never applied


def test_no_hint_when_the_set_is_legal_or_two_tiles_are_unsure_or_the_tile_is_sure():

    cases = [
        (_read("R5"), _read("R6"), _read("R7", unsure=True, alternatives="R1")),
        (_read("R5"), _read("R9", unsure=True, alternatives="R6"),
         _read("O7", unsure=True, alternatives="R7")),
        (_read("R5"), _read("R6"), _read("O7", alternatives="R7")),
    ]
    for tiles in cases:
        assert PhotoReading(100, 100, tiles, ((0, 1, 2),)).suggestions == ()


def test_real_tiles_turned_round_are_read_as_the_same_tiles_the_other_way_up():
    """Most crops are read one way up only (the reader is sure); turned round, a crop must
    still give the same tile, and say it is upside down."""
    data, labels = labelled_photo("rummy-43_jpeg")
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    crops = np.stack([crop_tile(image, canonical_corners(cv2.minAreaRect(outline)))
                      for _, outline in labels])
    identity, upside_down, no_tile = read_crops(crops)
    turned_identity, turned_upside_down, _ = read_crops(np.ascontiguousarray(crops[:, ::-1, ::-1]))
    truth = [str(tile_from_dataset_name(name)) for name, _ in labels]
    read = [str(TILE_CLASSES[i]) for i in identity.argmax(axis=1)]
    turned_read = [str(TILE_CLASSES[i]) for i in turned_identity.argmax(axis=1)]
    assert sum(a == b for a, b in zip(read, truth)) >= len(truth) - 1
    assert read == turned_read
    assert ((upside_down > 0.5) != (turned_upside_down > 0.5)).all()
    assert (no_tile < 0.1).all()


def test_bare_table_beside_real_tiles_is_read_as_no_tile_not_as_a_joker():
    """The reader learned "no tile" (training/negatives.py): boxes the size of the photo's
    tiles where none lies, off the ends of its sets and anywhere on the table, come back as
    no tile, where a reader without that output read them as a joker at up to 0.99."""
    data, labels = labelled_photo("rummy-43_jpeg")
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    boxes = negative_boxes((image.shape[1], image.shape[0]), [o for _, o in labels], 30,
                           np.random.default_rng(2))
    crops = np.stack([crop_tile(image, canonical_corners(box)) for box in boxes])
    identity, _, no_tile = read_crops(crops)
    assert len(boxes) == 30
    assert (no_tile >= 0.5).mean() >= 0.8
    assert (no_tile >= NO_TILE).any()
    # never a joker and a tile at once: what the reader took for a joker beside a set
    assert (identity[:, -1] * (1 - no_tile) < 0.9).all()


@pytest.mark.parametrize("options", [[cv2.IMWRITE_WEBP_QUALITY, 90], [cv2.IMWRITE_WEBP_QUALITY, 101]],
                         ids=["lossy", "lossless"])
def test_a_webp_photo_is_read_like_the_same_photo_as_jpeg(classic_render, classic_reading, options):
    ok, webp = cv2.imencode(".webp", classic_render.image, options)
    assert ok
    reading = read_photo(webp.tobytes())
    assert (reading.width, reading.height) == (classic_reading.width, classic_reading.height)
    assert sets_as_text(reading.table) == sets_as_text(classic_reading.table)
