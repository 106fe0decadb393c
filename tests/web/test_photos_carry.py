"""The small copy of the photo that rides along in the re-check form, and its reading."""

from __future__ import annotations

import base64
import json

import cv2
import numpy as np
import pytest

from companion.core.melds import check_table
from companion.core.presets import PRESSMAN
from companion.core.tiles import Tile
from companion.vision import PhotoReading, ReadTile
from companion.web.photos.carry import PREVIEW_LONGEST_SIDE, CarriedPhoto

FLASK_FORM_FIELD_LIMIT = 500_000  # Flask's default MAX_FORM_MEMORY_SIZE


def reading_of(width: int, height: int) -> PhotoReading:
    """Three tiles side by side across the middle of a photo of this size, as one run: one
    sure, one the reader was unsure of, one a rule holds unsure (washed out by glare)."""
    tiles = tuple(
        ReadTile(tile=Tile.parse(label), confidence=confidence, set_index=0,
                 low_confidence=confidence < 0.5 or bool(doubt), doubt=doubt,
                 outline=((left, height // 3), (left + width // 4, height // 3),
                          (left + width // 4, 2 * height // 3), (left, 2 * height // 3)))
        for label, confidence, left, doubt in (("R5", 0.99, 0, ""), ("R6", 0.4, width // 3, ""),
                                               ("R7", 0.89, 2 * width // 3, "washed_out")))
    return PhotoReading(width=width, height=height, tiles=tiles, sets=((0, 1, 2),),
                        preset=PRESSMAN)


@pytest.fixture(scope="module")
def noisy_phone_photo() -> np.ndarray:
    """Noise is the worst case for JPEG: a 12-megapixel photo of it is over 10 megabytes."""
    generator = np.random.default_rng(7)
    return generator.integers(0, 256, (3000, 4000, 3), dtype=np.uint8)


def grey_photo() -> np.ndarray:
    return np.full((480, 640, 3), 180, np.uint8)


def test_a_phone_photo_travels_small_enough_for_a_form_field(noisy_phone_photo: np.ndarray) -> None:
    carried = CarriedPhoto.of(noisy_phone_photo, reading_of(4000, 3000))
    reading_json, preview_base64 = carried.fields()
    assert len(preview_base64) < FLASK_FORM_FIELD_LIMIT
    assert len(reading_json) < FLASK_FORM_FIELD_LIMIT
    preview = cv2.imdecode(np.frombuffer(carried.preview, np.uint8), cv2.IMREAD_COLOR)
    assert max(preview.shape[:2]) <= PREVIEW_LONGEST_SIDE
    assert (carried.reading.width, carried.reading.height) == (preview.shape[1], preview.shape[0])


def test_the_outlines_are_scaled_with_the_photo(noisy_phone_photo: np.ndarray) -> None:
    carried = CarriedPhoto.of(noisy_phone_photo, reading_of(4000, 3000))
    scale = carried.reading.width / 4000
    first = carried.reading.tiles[0].outline
    assert first[1][0] == pytest.approx(1000 * scale, abs=1)
    assert first[2][1] == pytest.approx(2000 * scale, abs=1)


def test_a_small_photo_is_not_enlarged_and_comes_back_from_the_form_intact() -> None:
    original = reading_of(640, 480)
    carried = CarriedPhoto.of(grey_photo(), original)
    back = CarriedPhoto.from_fields(*carried.fields(), preset=PRESSMAN)
    assert back is not None
    assert back.preview == carried.preview
    assert back.reading.tiles == original.tiles
    assert back.reading.sets == original.sets
    assert (back.reading.width, back.reading.height) == (640, 480)
    assert back.reading.verdict == original.verdict


def tampered(change: str) -> tuple[str, str]:
    carried = CarriedPhoto.of(grey_photo(), reading_of(640, 480))
    reading_json, preview_base64 = carried.fields()
    data = json.loads(reading_json)
    if change == "not json":
        return "{\"width\": 640", preview_base64
    if change == "lists nested deeper than the parser recurses":
        return "[" * 100_000, preview_base64
    if change == "a tile in no set":
        data["sets"] = [[0, 1]]
    elif change == "a tile naming another set":
        data["tiles"][1]["set"] = 3
    elif change == "an outline outside the photo":
        data["tiles"][0]["outline"][0] = [5000, 10]
    elif change == "not a tile":
        data["tiles"][0]["tile"] = "R14"
    elif change == "a doubt no rule has":
        data["tiles"][2]["doubt"] = "<b>trust me</b>"
    elif change == "a doubt that is no string":
        data["tiles"][2]["doubt"] = ["washed_out"]
    elif change == "a doubt that is a number":
        data["tiles"][2]["doubt"] = 0
    elif change == "a preview that is not base64":
        return reading_json, "not base64!"
    elif change == "a preview that is not an image":
        return reading_json, base64.b64encode(b"just text").decode()
    elif change == "a preview cut short":
        preview = base64.b64decode(preview_base64)
        return reading_json, base64.b64encode(preview[: len(preview) * 2 // 3]).decode()
    return json.dumps(data), preview_base64


@pytest.mark.parametrize("change", [
    "not json", "a tile in no set", "a tile naming another set", "an outline outside the photo",
    "not a tile", "a preview that is not base64", "a preview that is not an image",
    "a preview cut short", "lists nested deeper than the parser recurses",
    "a doubt no rule has", "a doubt that is no string", "a doubt that is a number"])
def test_a_tampered_carried_photo_is_dropped_not_trusted(change: str) -> None:
    assert CarriedPhoto.from_fields(*tampered(change), preset=PRESSMAN) is None


def test_a_table_fits_the_photo_only_when_every_set_keeps_its_tile_count() -> None:
    carried = CarriedPhoto.of(grey_photo(), reading_of(640, 480))
    assert carried.fits((tuple(Tile.parse(t) for t in ("K1", "K2", "K3")),))
    assert not carried.fits((tuple(Tile.parse(t) for t in ("K1", "K2", "K3", "K4")),))
    assert not carried.fits((tuple(Tile.parse(t) for t in ("K1", "K2")), (Tile.parse("K3"),)))


def test_a_carried_reading_is_judged_under_the_preset_it_came_back_with() -> None:
    from companion.core.presets import TWIST

    original = reading_of(640, 480)
    reading_json, preview = CarriedPhoto.of(np.zeros((480, 640, 3), np.uint8), original).fields()
    back = CarriedPhoto.from_fields(reading_json, preview, preset=TWIST)
    assert back is not None and back.reading.preset is TWIST
    assert back.reading.verdict == check_table(back.reading.table, preset=TWIST)
    assert back.reading.to_json()["preset"] == "twist"
