"""The rack reader on rendered rack photos: real renders through the real pipeline.

Each render knows its answer (the tiles standing on the rack, and the tiles lying on the table
around it); the reader must return the rack's tiles, leave the others out, and value the rack
with the core's rules (a joker at the preset's penalty).
"""

from __future__ import annotations

from collections import Counter

import cv2
import numpy as np
import pytest

from companion.core.presets import PRESSMAN, SABRA
from companion.core.scoring import rack_value
from companion.core.tiles import parse_tiles
from companion.vision import PhotoError, annotate_rack, read_rack, read_rack_image
from companion.vision.classes import tile_from_dataset_name
from tests.vision.conftest import (
    jpeg_bytes,
    labelled_photo,
    png_bytes,
    read_with_and_without_the_floor,
)
from tests.vision.test_rack_rows import assert_no_sure_rack
from training.synthetic import random_table, render_table
from training.synthetic_rack import RACK_KINDS, RenderedRack, rack_of_kind, random_rack, render_rack

SIZE = (960, 720)


def rendered(seed: int, **options: object) -> RenderedRack:
    rows = random_rack(np.random.default_rng(seed), most=8)
    return render_rack(rows, seed=seed, size=SIZE, **options)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def two_rows_and_a_stray_tile() -> RenderedRack:
    # seed 103: two rows on a grey rack, a joker among them, one tile lying on the table
    return rendered(103)


def test_a_rack_of_two_rows_is_read_tile_for_tile(two_rows_and_a_stray_tile: RenderedRack
                                                   ) -> None:
    render = two_rows_and_a_stray_tile
    assert len(render.rows) == 2 and render.stray
    reading = read_rack(jpeg_bytes(render.image))
    assert Counter(reading.rack) == Counter(render.rack_tiles)
    assert reading.rows == 2
    # top row first, each row left to right
    assert [read.tile for read in reading.tiles if read.set_index == 0] == list(render.rows[0])


def test_the_tile_lying_on_the_table_is_left_out_and_reported(
        two_rows_and_a_stray_tile: RenderedRack) -> None:
    render = two_rows_and_a_stray_tile
    reading = read_rack(jpeg_bytes(render.image))
    assert len(reading.ignored) == len(render.stray)
    stray_centre = np.mean(render.stray[0].outline, axis=0)
    ignored_centre = np.mean(reading.ignored[0], axis=0)
    assert np.linalg.norm(stray_centre - ignored_centre) < 20


def test_the_value_is_the_cores_rack_value_with_a_joker_at_the_presets_penalty(
        two_rows_and_a_stray_tile: RenderedRack) -> None:
    render = two_rows_and_a_stray_tile
    assert any(tile.is_joker for tile in render.rack_tiles)
    data = jpeg_bytes(render.image)
    for preset in (PRESSMAN, SABRA):
        reading = read_rack(data, preset=preset)
        assert reading.jokers == sum(tile.is_joker for tile in render.rack_tiles)
        assert reading.value == rack_value(render.rack_tiles, joker_penalty=preset.joker_penalty)
    numbers = sum(tile.number or 0 for tile in render.rack_tiles)
    assert read_rack(data).value == numbers + 30 * reading.jokers  # "a joker costs 30 points"


@pytest.mark.parametrize("seed", [101, 105, 107])
def test_a_single_row_of_the_classic_design_is_read(seed: int) -> None:
    render = rendered(seed)
    assert render.design == "classic" and len(render.rows) == 1
    reading = read_rack_image(render.image)
    assert Counter(reading.rack) == Counter(render.rack_tiles)
    assert len(reading.ignored) == len(render.stray)


@pytest.mark.parametrize("seed", [7000044, 7000063])
def test_an_upper_tier_whose_ledge_is_not_seen_is_still_read(seed: int) -> None:
    """Two tiers on a brown (7000044) and a black (7000063) rack: the upper tier's ledge does
    not show against the board, the lower tier's does."""
    render = render_rack(random_rack(np.random.default_rng(seed)), seed=seed)
    assert len(render.rows) == 2
    reading = read_rack(jpeg_bytes(render.image))
    assert reading.rows == 2
    assert Counter(read.tile for read in reading.tiles if read.set_index == 0) \
        == Counter(render.rows[0])


def test_a_lower_tier_whose_ledge_is_not_seen_is_still_read() -> None:
    """Seed 8000003: a black rack, the lower tier's ledge lost against the black board."""
    render = render_rack(random_rack(np.random.default_rng(8000003)), seed=8000003)
    reading = read_rack(jpeg_bytes(render.image))
    assert reading.rows == 2
    assert Counter(read.tile for read in reading.tiles if read.set_index == 1) \
        == Counter(render.rows[1])


def test_a_tile_outlined_askew_on_the_rack_is_outlined_again_like_its_neighbours() -> None:
    """Seed 8000049, seen from above at a slant: the detector outlines a K4 as a diamond and
    tilts a K11's box; outlined like the tiles beside them they stand on the rack."""
    render = render_rack(random_rack(np.random.default_rng(8000049)), seed=8000049)
    reading = read_rack(jpeg_bytes(render.image))
    assert Counter(reading.rack) == Counter(render.rack_tiles)


def test_a_rack_whose_bar_is_lit_unevenly_is_still_found() -> None:
    """Seed 8000019: a grey rack under a lamp; the bar's lightness changes along the rack."""
    render = render_rack(random_rack(np.random.default_rng(8000019)), seed=8000019)
    reading = read_rack(jpeg_bytes(render.image))
    assert Counter(reading.rack) == Counter(render.rack_tiles)


@pytest.mark.parametrize("name_start", ["rummy4-93_", "rummy3-7_"])
def test_a_real_photo_of_a_two_tier_rack_is_read_tile_for_tile(name_start: str) -> None:
    """Two black two-tier racks of the labelled photos, every tile on them: rummy4-93 (16
    tiles; the lower tier's ledge does not show against the board) and rummy3-7 (7 tiles on
    white marble, which the reader's own sense of up takes for upside down)."""
    data, labels = labelled_photo(name_start)
    reading = read_rack(data)
    assert reading.rows == 2
    assert Counter(reading.rack) == Counter(tile_from_dataset_name(name) for name, _ in labels)
    assert not reading.ignored


def test_a_real_black_rack_is_found_under_a_row_reaching_the_racks_end() -> None:
    """rummy4-86: a black two-tier rack whose lower row of nine tiles runs from the rack's
    left end out of the photo on the right, so nowhere beside the tiles does the ledge show;
    the black ledge's top does not show against the black board either. The upper tier's K2
    stands higher than its neighbours: a line across its own up and a neighbour's once left
    it out of its row; the rack's up does not."""
    data, labels = labelled_photo("rummy4-86_")
    reading = read_rack(data)
    assert reading.rows == 2
    assert Counter(reading.rack) == Counter(tile_from_dataset_name(name) for name, _ in labels)


def test_a_real_rack_whose_tiles_outlines_stop_short_of_their_bottoms_is_read() -> None:
    """rummy3-16: a black rack on white marble, seen from above at a slant; the strongest
    edge under the lower row is the tiles' own bottoms (their outlines stop short of them),
    the ledge's lower edge lies deeper."""
    data, labels = labelled_photo("rummy3-16_")
    reading = read_rack(data)
    assert reading.rows == 2
    assert Counter(reading.rack) == Counter(tile_from_dataset_name(name) for name, _ in labels)


def test_a_real_upper_tier_reaching_past_the_lower_bars_end_is_read() -> None:
    """rummy3-2: a black two-tier rack at a slant, three tiles on the upper tier, two on the
    lower; the upper tier's left tile stands a little past where the lower tier's bar was seen
    to run (the rack's end in shade), and its own ledge does not show."""
    data, labels = labelled_photo("rummy3-2_")
    reading = read_rack(data)
    assert reading.rows == 2
    assert Counter(reading.rack) == Counter(tile_from_dataset_name(name) for name, _ in labels)


def test_a_real_rack_photographed_with_the_phone_turned_is_read_tile_for_tile() -> None:
    """rummy4-90: a black two-tier rack, thirteen tiles, the photo turned about 40°: the
    tiles stand turned beyond the 40° a standing tile may lean from the photo's up, so
    only in the rack's own direction are both tiers seen."""
    data, labels = labelled_photo("rummy4-90_")
    reading = read_rack(data)
    assert reading.rows == 2
    assert Counter(reading.rack) == Counter(tile_from_dataset_name(name) for name, _ in labels)


@pytest.mark.parametrize("name_start", ["rummy3-14_", "rummy3-4_"])
def test_a_real_upper_tier_over_an_empty_lower_tier_is_read_without_its_ledge(
        name_start: str) -> None:
    """rummy3-14 and rummy3-4: black two-tier racks with two tiles (one) on the upper tier
    and none on the lower; the upper ledge is black on the lower tier's black board, so no
    edge shows under the tiles until the lower tier's own lower edge, over a tile height
    down (rummy3-4 turned about 40°)."""
    data, labels = labelled_photo(name_start)
    reading = read_rack(data)
    assert reading.rows == 1
    assert Counter(reading.rack) == Counter(tile_from_dataset_name(name) for name, _ in labels)


@pytest.mark.parametrize("name_start", ["rummy3-10_", "rummy3-13_", "rummy3-17_"])
def test_a_real_upper_tier_standing_on_the_lower_tiers_board_is_read_with_it(
        name_start: str) -> None:
    """Black two-tier racks whose upper tier stands on the lower tier's black board, no ledge
    of its own showing: the first edge under it is the rack's lower edge against the table,
    and the lower tier's tiles stand on that edge, in front of the board. rummy3-10: three
    tiles on each tier, one lower outline cut short at the ledge tilting its row's line 9°;
    rummy3-13: six tiles on the upper tier over two (one outline cut short, one running
    long, so they stand on no one bar); rummy3-17: one tile on each tier, at the rack's two
    ends. Those tiles are the upper tier's rack's other tier: every tile is read, on two
    rows."""
    data, labels = labelled_photo(name_start)
    reading = read_rack(data)
    assert reading.rows == 2
    assert Counter(reading.rack) == Counter(tile_from_dataset_name(name) for name, _ in labels)
    assert not reading.ignored


@pytest.mark.parametrize("turn", [cv2.ROTATE_90_CLOCKWISE, cv2.ROTATE_90_COUNTERCLOCKWISE,
                                  cv2.ROTATE_180])
def test_a_real_rack_photo_that_came_sideways_or_upside_down_reads_as_the_upright_one(
        turn: int) -> None:
    """rummy4-88 (a black two-tier rack, thirteen tiles) as a phone held flat may save it, a
    quarter turn either way or a half turn: sideways its tiles lie across, and it is read
    turned both ways, the way more tiles stand on the rack taken; upside down no rack is
    found under the tiles and most of them read upside down, and it is read turned round.
    The tiles and rows are the upright photo's, their outlines where the tiles are in the
    photo as it came."""
    data, labels = labelled_photo("rummy4-88_")
    upright = read_rack(data)
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    reading = read_rack(jpeg_bytes(cv2.rotate(image, turn)))
    assert Counter(reading.rack) == Counter(tile_from_dataset_name(name) for name, _ in labels)
    assert [(read.tile, read.set_index) for read in reading.tiles] \
        == [(read.tile, read.set_index) for read in upright.tiles]
    height, width = cv2.rotate(image, turn).shape[:2]
    assert (reading.width, reading.height) == (width, height)
    # each tile's outline, turned back with the photo, lies where the upright reading's does
    back = {cv2.ROTATE_90_CLOCKWISE: cv2.ROTATE_90_COUNTERCLOCKWISE,
            cv2.ROTATE_90_COUNTERCLOCKWISE: cv2.ROTATE_90_CLOCKWISE,
            cv2.ROTATE_180: cv2.ROTATE_180}[turn]
    marks = np.zeros((height, width), np.uint8)
    for number, read in enumerate(reading.tiles, start=1):
        cv2.fillConvexPoly(marks, np.array(read.outline, np.int32), number)
    marks = cv2.rotate(marks, back)
    for number, read in enumerate(upright.tiles, start=1):
        x, y = np.mean(read.outline, axis=0).astype(int)
        assert marks[y, x] == number


def turned(image: np.ndarray, degrees: float) -> np.ndarray:
    """The photo turned ``degrees`` anticlockwise on a canvas large enough to keep all of it,
    the corners filled with its median colour (as if the phone had been held turned)."""
    height, width = image.shape[:2]
    matrix = cv2.getRotationMatrix2D((width / 2, height / 2), degrees, 1.0)
    cos, sin = abs(matrix[0, 0]), abs(matrix[0, 1])
    new_width, new_height = int(height * sin + width * cos), int(height * cos + width * sin)
    matrix[:, 2] += (new_width - width) / 2, (new_height - height) / 2
    fill = [float(v) for v in np.median(image.reshape(-1, 3), axis=0)]
    return cv2.warpAffine(image, matrix, (new_width, new_height), borderValue=fill)


@pytest.mark.parametrize(("seed", "degrees"), [(226, 30), (236, -30), (241, 30), (254, -30)])
def test_a_rack_photographed_with_the_phone_turned_reads_as_held_straight(
        seed: int, degrees: float) -> None:
    """Seeds 226 and 236 (two tiers), 241 and 254 (one row), the whole rack in the frame:
    turned 30°, some tiles lean past 40° from the photo's up (a squarish outline's edges are
    read to a few degrees), so they were left off the rack; on 236 a tile lying on the table
    past the upper tier's end, then standing, was chained into that tier."""
    render = rendered(seed, fill=0.8)
    straight = read_rack(jpeg_bytes(render.image))
    held_turned = read_rack(jpeg_bytes(turned(render.image, degrees)))
    assert Counter(straight.rack) == Counter(render.rack_tiles)
    assert Counter(held_turned.rack) == Counter(straight.rack)


def test_two_tiers_whose_tiles_outlines_lean_apart_are_not_one_row() -> None:
    """Seed 7500010: two long tiers a tile apart, their outlines leaning up to 7° either way;
    a line across two far-apart tiles' own ups tilted enough to chain both tiers into one row
    (no bar under it), so no rack was found. (At the benchmark's JPEG quality, 95.)"""
    seed = 7500010
    render = render_rack(random_rack(np.random.default_rng(seed)), seed=seed)
    reading = read_rack(jpeg_bytes(render.image, quality=95))
    assert reading.rows == 2
    assert Counter(reading.rack) == Counter(render.rack_tiles)


def test_a_real_photo_of_sets_lying_on_a_table_has_no_rack() -> None:
    """rummy-11: fifteen tiles in sets on a table; one set's row once passed for a rack."""
    data, _ = labelled_photo("rummy-11_")
    assert_no_sure_rack(data)


def test_a_tile_lying_in_front_of_a_rack_is_not_a_lower_tier() -> None:
    """Seed 7000059: a K12 lies upside down on the table just in front of a one-row rack."""
    render = render_rack(random_rack(np.random.default_rng(7000059)), seed=7000059)
    reading = read_rack(jpeg_bytes(render.image))
    assert reading.rows == 1
    assert Counter(reading.rack) == Counter(render.rack_tiles)


@pytest.mark.parametrize("seed", [7000046, 7000062])
def test_a_tile_lying_just_behind_a_rack_of_one_row_is_not_a_second_tier(seed: int) -> None:
    render = render_rack(random_rack(np.random.default_rng(seed)), seed=seed)
    assert len(render.rows) == 1 and render.stray
    reading = read_rack(jpeg_bytes(render.image))
    assert reading.rows == 1
    assert Counter(reading.rack) == Counter(render.rack_tiles)


def test_json_has_the_documented_fields(two_rows_and_a_stray_tile: RenderedRack) -> None:
    reading = read_rack(png_bytes(two_rows_and_a_stray_tile.image))
    data = reading.to_json()
    assert {"width", "height", "tiles", "value", "jokers", "ignored"} <= set(data)
    assert (data["width"], data["height"]) == SIZE
    first = data["tiles"][0]
    assert {"tile", "confidence", "outline", "low_confidence"} <= set(first)
    assert len(first["outline"]) == 4 and parse_tiles(first["tile"])


@pytest.mark.parametrize("seed", [0, 2, 3, 11])
def test_a_photo_of_tiles_lying_on_a_table_has_no_rack(seed: int) -> None:
    """Seeds 2, 3 and 11 once passed for racks: the tiles' own sides seen at a slant, and
    a seam of the table under a row of sets, look like a bar under the row."""
    table = render_table(random_table(np.random.default_rng(seed)), seed=seed, size=SIZE)
    assert_no_sure_rack(png_bytes(table.image))


def test_a_set_over_a_seam_of_the_table_is_not_a_rack() -> None:
    """Seed 10000008: two sets lying on planks; a plank's seam runs half a tile under the
    upper set, past a nearer edge that failed as a ledge. A deeper edge is not looked for
    once a nearer one fails beside the tiles."""
    table = render_table(random_table(np.random.default_rng(10000008)), seed=10000008)
    assert_no_sure_rack(jpeg_bytes(table.image))


def test_a_rack_of_one_tile_with_three_lying_around_is_still_a_rack() -> None:
    """Seed 10000026: one tile on a grey rack, three tiles lying on the table in front of it
    (a few tiles around a rack do not make the photo a table's)."""
    render = render_rack(random_rack(np.random.default_rng(10000026)), seed=10000026)
    assert len(render.rack_tiles) == 1 and len(render.stray) == 3
    reading = read_rack(jpeg_bytes(render.image))
    assert Counter(reading.rack) == Counter(render.rack_tiles)


def test_a_photo_without_tiles_says_how_to_photograph_a_rack() -> None:
    plain = np.full((480, 640, 3), 120, np.uint8)
    with pytest.raises(PhotoError, match="no tiles found on a rack"):
        read_rack(jpeg_bytes(plain))


def test_a_rack_photo_too_small_to_find_tiles_in_is_refused_as_too_small() -> None:
    # the refusal's code decides, not its first words ("no tiles found in a photo this small")
    render = render_rack(random_rack(np.random.default_rng(103), most=8), seed=103,
                         size=(960, 720))
    thumbnail = cv2.resize(render.image, (80, 60), interpolation=cv2.INTER_AREA)
    with pytest.raises(PhotoError, match=r"this small \(80×60 pixels\)") as refused:
        read_rack(jpeg_bytes(thumbnail))
    assert refused.value.code == "too_small"


def test_the_annotated_picture_greys_the_tiles_off_the_rack(
        two_rows_and_a_stray_tile: RenderedRack) -> None:
    render = two_rows_and_a_stray_tile
    data = jpeg_bytes(render.image)
    reading = read_rack(data)
    picture = cv2.imdecode(np.frombuffer(annotate_rack(data, reading), np.uint8),
                           cv2.IMREAD_COLOR)
    assert picture.shape[:2] == render.image.shape[:2]
    x, y = np.mean(render.stray[0].outline, axis=0).astype(int)
    patch = picture[y - 3:y + 4, x - 3:x + 4].astype(int)
    # greyed: the three channels close together (the tile's coloured number washed out)
    assert np.abs(patch[..., 2] - patch[..., 0]).mean() < 25


def test_a_big_jpeg_is_read_from_a_reduced_decode_with_outlines_in_its_own_pixels(
        two_rows_and_a_stray_tile: RenderedRack) -> None:
    render = two_rows_and_a_stray_tile
    big = cv2.resize(render.image, (SIZE[0] * 4, SIZE[1] * 4), interpolation=cv2.INTER_CUBIC)
    reading = read_rack(jpeg_bytes(big))
    assert (reading.width, reading.height) == (SIZE[0] * 4, SIZE[1] * 4)
    assert Counter(reading.rack) == Counter(render.rack_tiles)
    truth_centres = np.array([np.mean(t.outline, axis=0) * 4 for t in render.tiles])
    for read in reading.tiles:
        centre = np.mean(read.outline, axis=0)
        assert np.min(np.linalg.norm(truth_centres - centre, axis=1)) < 40  # px of 3840


def test_a_set_lying_on_the_table_in_front_of_a_rack_is_not_its_lower_tier() -> None:
    """Seed 31014007 ("a set in front"): three tiles lie as a set just in front of a white
    rack of one row, a tile height under it. Lying flat they look shorter than the rack's
    standing tiles, and a rack's lower tier, nearer the camera, looks as tall or taller."""
    render = rack_of_kind("a set in front", 31014007)
    assert len(render.rows) == 1 and len(render.stray) == 3
    reading = read_rack(jpeg_bytes(render.image))
    assert reading.rows == 1
    assert Counter(reading.rack) == Counter(render.rack_tiles)
    assert len(reading.ignored) >= len(render.stray)


def test_the_tiles_of_a_second_rack_further_off_are_left_out() -> None:
    """Seed 31013007 ("a second rack"): another player's rack, its tiles three quarters as
    tall, stands above the rack in the photo and runs out of the frame; two of its tiles
    were once taken for the rack's upper tier (2.1 tile heights above, further than a tier)."""
    render = rack_of_kind("a second rack", 31013007)
    assert render.others
    reading = read_rack(jpeg_bytes(render.image))
    assert Counter(reading.rack) == Counter(render.rack_tiles)


def test_the_added_render_options_leave_the_seeded_rack_renders_as_they_were() -> None:
    rows = random_rack(np.random.default_rng(5))
    plain = render_rack(rows, seed=5, size=(320, 240))
    with_defaults = render_rack(rows, seed=5, size=(320, 240), lip=0.0, wide_gap=0.0,
                                glossy=False, hand=False, second_rack=False, laid_in_front=0,
                                shadow=None)
    assert np.array_equal(plain.image, with_defaults.image)


def test_each_kind_of_rack_render_is_what_its_name_says() -> None:
    assert len(RACK_KINDS) == 15
    kinds = {kind: rack_of_kind(kind, 20_000_000, size=(640, 480)) for kind in RACK_KINDS}
    for render in kinds.values():
        assert render.rack_tiles == tuple(tile for row in render.rows for tile in row)
    assert kinds["wooden rack"].rack_colour == "wood"
    assert kinds["classic design"].design == "classic"
    assert len(kinds["one row"].rows) == 1
    assert len(kinds["many tiles"].rack_tiles) >= 20
    assert 1 <= len(kinds["few tiles"].rack_tiles) <= 3
    assert sum(tile.is_joker for tile in kinds["both jokers"].rack_tiles) == 2
    assert kinds["from the front"].slant < 0.1
    assert kinds["from above"].slant > 0.4
    assert kinds["a second rack"].others and kinds["a set in front"].stray


@pytest.mark.parametrize(("kind", "seed"), [("a hand in the frame", 31012004),
                                            ("a hand in the frame", 31012005),
                                            ("a wide gap", 31009006)])
def test_a_black_rack_on_a_dark_table_is_found(kind: str, seed: int) -> None:
    """A black rack on a dark table (a hand holding its end; a lamp's glare on it): its
    ledge steps from its shade by under ΔE 6, as dark things do, so in the dark a smaller
    step into a darker shade below counts as its lower edge."""
    render = rack_of_kind(kind, seed)
    assert render.rack_colour == "black"
    reading = read_rack(jpeg_bytes(render.image))
    assert Counter(reading.rack) == Counter(render.rack_tiles)


def test_a_band_of_the_tiles_own_bottoms_is_not_taken_for_the_bar() -> None:
    """Seed 34004000: nine tiles on a black rack seen from above, four of them past a gap of
    more than a tile; the first edge under the row is the tiles' own bottoms, a band of their
    cream that stops at every gap, and taken as the bar it ran only under the five tiles right
    of the gap. A bar's colour runs on between the tiles: the ledge's edge further down does."""
    render = rack_of_kind("one row", 34004000)
    reading = read_rack(jpeg_bytes(render.image))
    assert Counter(reading.rack) == Counter(render.rack_tiles)



@pytest.mark.parametrize("seed", [31006015, 34006005])
def test_a_tile_outlined_askew_in_a_row_is_outlined_again_as_the_row_stands(seed: int) -> None:
    """Seen from above at a slant, the detector outlines a tile of the rack's row askew (a
    box turned or shifted onto its neighbour) and it is read unsure or left off the row.
    Outlined again as the row's tiles stand, its bottom on the row's line, it is read surely
    and counted in its place in the row."""
    render = rack_of_kind("from above", seed)
    reading = read_rack(jpeg_bytes(render.image))
    assert Counter(reading.rack) == Counter(render.rack_tiles)
    assert [[str(read.tile) for read in reading.tiles if read.set_index == row]
            for row in range(reading.rows)] == [[str(tile) for tile in row]
                                                for row in render.rows]


def test_a_rack_seen_steeply_from_above_whose_ledge_shows_its_top_face_is_found() -> None:
    """Seed 37006007: eleven tiles on a brown rack seen steeply from above. The tiles,
    foreshortened upright, look squarish, and the ledge's top face shows deeper than they are
    tall: its top edge lies well under the tiles' bottoms, where a ledge seen from the front
    has it, so it is looked for down to the ledge's lower edge in a row of squarish tiles."""
    render = rack_of_kind("from above", 37006007)
    reading = read_rack(jpeg_bytes(render.image))
    assert Counter(reading.rack) == Counter(render.rack_tiles)


def test_one_squarish_tile_lying_above_a_rack_is_not_its_upper_tier() -> None:
    """Seed 36002005: a 13 lying on the table above a grey rack, seen at a slant, looks as
    squarish as a tile standing seen from above; its own side is no ledge, and the deeper
    look for a ledge's top edge is kept for rows of two tiles or more."""
    render = rack_of_kind("coloured rack", 36002005)
    reading = read_rack(jpeg_bytes(render.image))
    assert Counter(reading.rack) == Counter(render.rack_tiles)


def test_an_edge_with_too_few_free_columns_to_judge_does_not_end_the_search_for_the_ledge() -> None:
    """Seed 44004019: fourteen tiles on a black rack, one row, a gap of two tiles in it. The
    first edge under the row is the tiles' own bottoms (light on the black board): it does
    not run on under the gap, so beside the tiles too few columns show it to tell whether a
    ledge's top edge lies above it. Such an edge is passed over, not taken as the end of the
    search: the ledge's lower edge further down shows in the gap, its top edge too."""
    render = rack_of_kind("one row", 44004019)
    reading = read_rack(jpeg_bytes(render.image))
    assert Counter(reading.rack) == Counter(render.rack_tiles)


def test_a_box_read_as_no_tile_does_not_hide_the_ledge_beside_the_tiles() -> None:
    """Seed 44004011: eleven tiles on a white rack, one row, its free stretch of board at the
    left end outlined as a box the reader reads as no tile. That box is board, not a tile:
    the ledge's top edge is looked for beside the tiles there too (counted as covered by a
    tile, the row had too few free columns to show it, and no rack was found)."""
    render = rack_of_kind("one row", 44004011)
    reading = read_rack(jpeg_bytes(render.image))
    assert Counter(reading.rack) == Counter(render.rack_tiles)


def test_a_row_of_a_second_rack_two_of_its_tile_heights_up_is_not_the_upper_tier() -> None:
    """Seed 43013000: five tiles on a red rack, and further off, up to the right, a second
    rack's row whose tiles look 0.7 as tall, 1.9 of the rack's tile heights above — inside
    the tier's bounds in the rack's tile heights, but 2.7 of its own: an upper tier and the
    gap under it look shorter alike (one tile and a ledge), a rack further off stands higher."""
    render = rack_of_kind("a second rack", 43013000)
    reading = read_rack(jpeg_bytes(render.image))
    assert Counter(reading.rack) == Counter(render.rack_tiles)
    assert reading.rows == 1


@pytest.mark.parametrize("seed", [32013005, 41013000])
def test_a_rack_further_down_the_photo_is_the_players_not_a_second_rack_of_more_tiles(
        seed: int) -> None:
    """Seed 32013005: a joker and an O3 on the player's rack, and further off, higher in the
    photo, a second rack of seven tiles; seed 41013000: one tile, and a two-tier second rack
    of eleven. The row with the most tiles among the largest was the second rack's, read
    surely as the player's. A rack on its own bar further down than a tier stands, its tiles
    as large, is nearer the camera: it is the player's, and the second rack's tiles, standing
    where they belong, do not make the photo a table's."""
    render = rack_of_kind("a second rack", seed)
    reading = read_rack(jpeg_bytes(render.image))
    assert Counter(reading.rack) == Counter(render.rack_tiles)
    assert len(reading.ignored) >= len(render.others)


def test_a_black_ledge_on_a_black_board_below_a_second_rack_is_the_players_rack() -> None:
    """Seed 32013029: eleven tiles on a black rack, and further off, higher in the photo, a
    second rack on a grey bar. The black ledge's rim on the black board showed against the
    band's own texture too little, so only the second rack stood on a bar seen and the row of
    eleven below it made the reading unsure (every tile flagged). Judged against the whole
    band's texture, the rim shows: the player's rack is read, tile for tile, and surely."""
    render = rack_of_kind("a second rack", 32013029)
    reading = read_rack(jpeg_bytes(render.image))
    assert Counter(reading.rack) == Counter(render.rack_tiles)
    assert not any(tile.low_confidence for tile in reading.tiles)


@pytest.mark.parametrize("seed", [31013014, 33013015])
def test_one_box_read_unsure_and_taller_than_the_rack_does_not_hide_the_racks_row(
        seed: int) -> None:
    """Seed 31013014: a box at the left end of a rack of twelve, twice as tall as its tiles
    and read under 0.4 (a K10); seed 33013015: a box on the board at a two-tier rack's end,
    read under 0.3. Standing on the bar, each was the tallest row, so the rack's rows (their
    tiles under 0.8 as tall) were not among the largest and that one box was read as the
    rack. A row of one box read under a half sets no size: the rack's rows are read."""
    render = rack_of_kind("a second rack", seed)
    reading = read_rack(jpeg_bytes(render.image))
    truth, read = Counter(render.rack_tiles), Counter(reading.rack)
    assert sum((truth & read).values()) >= len(render.rack_tiles) - 1
    assert not read - truth


@pytest.mark.parametrize("seed", [32006000, 33006007])
def test_a_ledge_seen_from_above_whose_edges_fill_the_band_under_the_row_is_found(
        seed: int) -> None:
    """Seeds 32006000 and 33006007: a brown and a dark rack seen steeply from above, its tiles
    squarish. The ledge's top face, lip and lower edge fill the band just under the row, so a
    column's own texture measured there alone (its median step) is the ledge's edges and no
    edge stood out (under 0.4 of the row); measured down the whole band, over the table below
    as well, the ledge's lower edge runs under the whole row and the rack is found."""
    render = rack_of_kind("from above", seed)
    reading = read_rack(jpeg_bytes(render.image))
    truth, read = Counter(render.rack_tiles), Counter(reading.rack)
    assert sum((truth & read).values()) >= len(render.rack_tiles) - 1
    assert not read - truth


def test_one_tile_lying_on_a_striped_cloth_above_a_rack_seen_from_above_is_not_its_tier(
        ) -> None:
    """Seed 43006027: two tiles on a black rack seen from above, a 3 lying on a striped cloth
    above it, squarish at the slant. Measured down the whole band under it, the cloth's
    stripes stand out as a ledge's edges would: the texture is measured so only under a row
    of two tiles or more, and the 3 is left out."""
    render = rack_of_kind("from above", 43006027)
    reading = read_rack(jpeg_bytes(render.image))
    assert Counter(reading.rack) == Counter(render.rack_tiles)


@pytest.mark.parametrize("seed", [33006020, 42006014])
def test_a_thin_ledges_top_edge_seen_from_above_is_judged_against_the_whole_band(
        seed: int) -> None:
    """Seeds 33006020 (27 tiles on two tiers) and 42006014 (four tiles): racks seen steeply
    from above whose ledge's top edge, a thin rim, stands out from under a third of the free
    columns against the texture of the band just under the row (the ledge's own faces and
    edges) and the rack was not found; against the texture of the whole band, over the table
    too, it shows where no tile stands, and the rack is read."""
    render = rack_of_kind("from above", seed)
    reading = read_rack(jpeg_bytes(render.image))
    assert Counter(reading.rack) == Counter(render.rack_tiles)


@pytest.mark.parametrize("seed", [53000016, 53000061])
def test_the_tiles_a_hard_shadow_line_hid_from_the_detector_are_read_along_the_row(
        seed: int) -> None:
    """A hard shadow line across the rack: the detector finds the lit tiles only (53 000 016:
    11 of 14, 53 000 061: 6 of 10); slot by slot along the row into the shade, lifted to the
    lit faces' level, the hidden tiles are read (each render keeps one tile unread for
    another cause: K1 outlined off the row, O2 at the row's end), and none read that is not
    there."""
    render = render_rack(random_rack(np.random.default_rng(seed)), seed=seed, shadow="hard")
    reading = read_rack(jpeg_bytes(render.image))
    truth, read = Counter(render.rack_tiles), Counter(reading.rack)
    assert sum((truth & read).values()) == len(render.rack_tiles) - 1
    assert not read - truth


def test_the_dark_board_in_a_racks_gaps_is_not_read_as_shaded_tiles() -> None:
    """Seed 53 000 002: a side light over a blue rack whose four tiles stand apart; the blue
    board between them, darker than a tile's face but lit as the ledge under the tiles is,
    is no shade, and nothing is read there (lifted, bare blue board read as B8 surely)."""
    render = render_rack(random_rack(np.random.default_rng(53000002)), seed=53000002,
                         shadow="side")
    reading = read_rack(jpeg_bytes(render.image))
    assert Counter(reading.rack) == Counter(render.rack_tiles)


def test_a_racks_board_in_the_shade_is_not_read_as_a_shaded_tile() -> None:
    """Seed 52 000 055: a hard shadow line over a blue rack whose tiles all stand in a run;
    past the run's end the blue board lies in the shade, and lifted there it reads as B8 at
    0.9 and more, "no tile" under 0.5: a tile's face lifted is cream, the board stays blue,
    and nothing is read there."""
    render = render_rack(random_rack(np.random.default_rng(52000055)), seed=52000055,
                         shadow="hard")
    reading = read_rack(jpeg_bytes(render.image))
    assert not Counter(reading.rack) - Counter(render.rack_tiles)


@pytest.mark.parametrize("seed", [51000037, 51000064])
def test_a_tile_a_shadow_line_cuts_outlined_down_to_the_line_is_outlined_again(
        seed: int) -> None:
    """A hard shadow line across a tile: the detector outlines its lit part only, read unsure
    and left off the rack (51 000 037: an R12, 51 000 064: a B12); a slot of the row's tile
    size laid there, lifted, reads it surely, and the rack is read tile for tile."""
    render = render_rack(random_rack(np.random.default_rng(seed)), seed=seed, shadow="hard")
    reading = read_rack(jpeg_bytes(render.image))
    assert Counter(reading.rack) == Counter(render.rack_tiles)


def test_a_glossy_tile_outlined_too_large_in_its_rows_band_does_not_hide_the_rack() -> None:
    """Seed 55011017: a white two-row rack of glossy tiles under a lamp's glare. The detector
    outlines the lower row's last tile (K11, alone past a gap) a fifth too large every way,
    so its bottom lies off the row's line and it stands on the bar as a row of its own, the
    tallest, read surely: the rack's rows (their tiles under 0.8 as tall) were not among the
    largest, that one tile was taken for the rack and the photo refused as a table's. A box
    alone in the band of a row of tiles on a bar sets no size: the rack is read, K11 outlined
    again as its row's tiles stand."""
    render = rack_of_kind("glossy tiles, glare", 55011017)
    reading = read_rack(jpeg_bytes(render.image))
    assert Counter(reading.rack) == Counter(render.rack_tiles)
    assert reading.rows == 2


def test_a_black_ledges_rim_on_a_black_board_is_judged_against_the_whole_band() -> None:
    """Seed 58011008: a black rack of eleven glossy tiles seen from the front, a lamp's glare
    over the wood above it. The black ledge's top edge on the black board shows in 23% of the
    free columns against the band's own texture (35% asked), so the bar was not taken and no
    rack was found. Judged against the whole band's texture, over the table too (as it was
    for a row seen from above only), the rim stands out and the rack is read."""
    render = rack_of_kind("glossy tiles, glare", 58011008)
    reading = read_rack(jpeg_bytes(render.image))
    assert Counter(reading.rack) == Counter(render.rack_tiles)


def test_a_tile_lying_in_line_with_the_racks_tiles_far_off_does_not_hide_the_racks_bar() -> None:
    """Seed 57006007: two tiles on a white rack seen from above, and on the blue cloth left of
    the rack's end a tile lying upside down, its bottom (taken upright) in line with theirs, so
    the three made one row. The columns beside that tile, over the cloth, show no ledge, so no
    bar was found under the row and the rack was not found. A row on no bar is tried again in
    its parts apart by more than three tile widths: the rack's two tiles are read."""
    render = rack_of_kind("from above", 57006007)
    reading = read_rack(jpeg_bytes(render.image))
    assert Counter(reading.rack) == Counter(render.rack_tiles)
    assert len(reading.ignored) == len(render.stray)


def test_a_box_over_two_glossy_tiles_in_the_racks_band_is_outlined_again_as_two() -> None:
    """Seed 55011016: five glossy tiles on a grey rack, a lamp's glare over two of them (O3,
    K3): the detector outlines the two as one box, twice a tile wide, read as no tile surely
    and left off the rack. A box off the rack in a rack row's band as wide as two tiles or
    more is outlined again as that many tiles side by side: K3 is read (O3, washed out by
    the glare, is not read surely and stays unread), and no tile is read twice."""
    render = rack_of_kind("glossy tiles, glare", 55011016)
    reading = read_rack(jpeg_bytes(render.image))
    truth, read = Counter(render.rack_tiles), Counter(reading.rack)
    assert sum((truth & read).values()) >= len(render.rack_tiles) - 1
    assert not read - truth


def test_a_box_running_wide_about_one_tile_in_the_racks_band_is_read_at_its_middle() -> None:
    """Seed 56012003: fifteen tiles on a cream two-tier rack, a hand at its end; B13's box,
    left off the rack, runs half a tile wide. Outlined again only as two tiles side by side,
    neither half read B13 surely and it was lost; its middle is tried as well, and read."""
    render = rack_of_kind("a hand in the frame", 56012003)
    reading = read_rack(jpeg_bytes(render.image))
    assert Counter(reading.rack) == Counter(render.rack_tiles)


def test_a_lone_upper_tile_past_where_the_lower_bar_was_seen_stands_on_the_board() -> None:
    """Seed 37016021 ("one tile on the upper tier", a tuning seed): K3 alone on the upper
    tier at the rack's left end, R3 alone on the lower tier at its right end, a lamp's glare
    between them on the black board. The lower bar's colour was seen to run only about R3,
    so K3 (five tile widths past it) was left off; the board runs on under it, with no
    colour step across it but the glare's smooth one, so it is the upper tier."""
    render = rack_of_kind("one tile on the upper tier", 37016021)
    assert [len(row) for row in render.rows] == [1, 1]
    reading = read_rack(jpeg_bytes(render.image))
    assert reading.rows == 2
    assert Counter(reading.rack) == Counter(render.rack_tiles)


def test_a_black_ledge_on_a_dark_table_is_found_by_its_faint_edge_beside_the_tiles() -> None:
    """Seed 37016000 ("one tile on the upper tier", a tuning seed): K8 above, K3 below, on a
    black rack on a dark table. The lower ledge's edge steps about 5 ΔE at L 11–14, under what
    one column must step beside the tile (a third of the columns show it), so no bar was found
    and the photo was answered "no rack found"; taken together (their median colour down the
    strip) the free columns step at the same depth as under the tile."""
    render = rack_of_kind("one tile on the upper tier", 37016000)
    reading = read_rack(jpeg_bytes(render.image))
    assert reading.rows == 2
    assert Counter(reading.rack) == Counter(render.rack_tiles)


def test_face_colours_of_many_crops_are_each_crops_own_to_the_last_bit():
    # rack._face_colours converts all crops' middles at once: the same values as one by one
    from companion.vision.crops import crop_tile
    from companion.vision.pipeline import find_and_read
    from companion.vision.rack import _face_colours

    render = render_rack(random_rack(np.random.default_rng(103), most=8), seed=103)
    read = find_and_read(render.image, upright=True)
    crops = np.stack([crop_tile(render.image, corners) for corners in read.corners])
    one_by_one = []
    for crop in crops:
        lab = cv2.cvtColor(crop[8:-8, 6:-6].astype(np.float32) / 255,
                           cv2.COLOR_BGR2Lab).reshape(-1, 3)
        plastic = lab[lab[:, 0] >= np.percentile(lab[:, 0], 67)]
        one_by_one.append(np.median(plastic[:, 1:], axis=0))
    assert len(crops) >= 5
    assert np.array_equal(_face_colours(crops), np.array(one_by_one))


def test_a_shadowed_rack_reads_the_same_without_the_turned_readings_that_cannot_matter(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # rack._reoutlined and rack._shaded_slots read their crops with ``least`` at what they
    # take (networks.read_crops): the rack under a side shadow reads the same, bit for bit,
    # as with every unsure crop read turned round too, and with fewer crops read
    from companion.vision import rack

    render = render_rack(random_rack(np.random.default_rng(50000007)), seed=50000007,
                         shadow="side")
    data = jpeg_bytes(render.image)
    floored, floored_count, every, every_count = read_with_and_without_the_floor(
        monkeypatch, rack, lambda: read_rack(data))
    assert floored_count < every_count
    assert floored == every
    assert len(floored.tiles) >= 8
