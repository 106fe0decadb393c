"""The synthetic table renders: the picture and its answer must agree, or training learns lies."""

from __future__ import annotations

import itertools
from collections import Counter

import cv2
import numpy as np
import pytest

from companion.core.melds import check_meld
from companion.core.presets import get_preset
from companion.core.tiles import (
    JokerKind,
    Tile,
    check_inventory,
    format_table,
    parse_table,
    parse_tiles,
)
from training.synthetic import (
    BACKGROUNDS,
    DESIGNS,
    RenderedTable,
    random_table,
    render_table,
    render_tile,
)

SMALL = (640, 480)
BUSY_TABLE = parse_table("R3 R4 R5 R6 J | K9 B9 O9 | B10 B11 B12 B13 | O1 K1 R1 B1 | J K7 K8")


def _renders(count: int, **options: object) -> list[RenderedTable]:
    rng = np.random.default_rng(7)
    return [render_table(random_table(rng, min_sets=2, max_sets=6), seed=seed, size=SMALL,
                         **options)  # type: ignore[arg-type]
            for seed in range(count)]


def _upright(image: np.ndarray, outline: tuple[tuple[float, float], ...]) -> np.ndarray:
    """The tile face cut out of the photo and turned upright, 60 × 80, via its outline."""
    face = np.array([(0, 0), (60, 0), (60, 80), (0, 80)], np.float32)
    warp = cv2.getPerspectiveTransform(np.array(outline, np.float32), face)
    return cv2.warpPerspective(image, warp, (60, 80))


def test_the_same_seed_gives_the_same_picture_and_another_seed_another() -> None:
    first = render_table(BUSY_TABLE, seed=11, size=SMALL)
    again = render_table(BUSY_TABLE, seed=11, size=SMALL)
    other = render_table(BUSY_TABLE, seed=12, size=SMALL)
    assert np.array_equal(first.image, again.image)
    assert first.tiles == again.tiles
    assert not np.array_equal(first.image, other.image)


def test_random_tables_repeat_for_the_same_generator_seed() -> None:
    tables = [random_table(np.random.default_rng(5), max_sets=8) for _ in range(2)]
    assert tables[0] == tables[1]


def test_every_tile_has_an_outline_inside_the_picture() -> None:
    for rendered in _renders(8):
        height, width = rendered.image.shape[:2]
        assert (width, height) == SMALL
        assert len(rendered.tiles) == sum(len(meld) for meld in rendered.table)
        for placed in rendered.tiles:
            assert len(placed.outline) == 4
            for x, y in placed.outline:
                assert 0 <= x <= width and 0 <= y <= height


def test_the_answer_lists_every_set_in_laid_order_and_round_trips_the_notation() -> None:
    rendered = render_table(BUSY_TABLE, seed=3, size=SMALL)
    assert rendered.table == BUSY_TABLE
    by_set: dict[int, list[tuple[int, Tile]]] = {}
    for placed in rendered.tiles:
        by_set.setdefault(placed.set_index, []).append((placed.position, placed.tile))
    rebuilt = tuple(tuple(tile for _, tile in sorted(by_set[i])) for i in sorted(by_set))
    assert rebuilt == BUSY_TABLE
    assert parse_table(format_table(rendered.table)) == BUSY_TABLE


def test_no_two_tiles_overlap() -> None:
    for rendered in _renders(8, perspective=0.3) + _renders(4, upside_down_chance=0.6):
        outlines = [np.array(t.outline, np.float32) for t in rendered.tiles]
        for a, b in itertools.combinations(outlines, 2):
            overlap, _ = cv2.intersectConvexConvex(a, b)
            assert overlap < 0.5


def test_outlines_name_the_corners_of_the_printed_face_even_upside_down() -> None:
    # The number is printed above the middle of the face in both designs, so a face turned
    # upright by its outline has its ink in the upper part — wrong corner order would not.
    for design in DESIGNS:
        rendered = render_table(BUSY_TABLE, seed=21, size=(1280, 960), design=design,
                                glare=False, blur=0.0, upside_down_chance=0.5)
        for placed in rendered.tiles:
            grey = cv2.cvtColor(_upright(rendered.image, placed.outline), cv2.COLOR_BGR2GRAY)
            ink = grey[8:-8, 8:-8] < grey[8:-8, 8:-8].mean() - 35
            rows = np.nonzero(ink)[0]
            assert rows.size > 20, f"{placed.tile}: no number found inside its outline"
            assert rows.mean() < (80 - 16) * 0.5, f"{placed.tile}: outline corners out of order"


def test_options_that_are_given_are_kept_and_the_rest_vary_with_the_seed() -> None:
    for design, background in itertools.product(DESIGNS, BACKGROUNDS):
        rendered = render_table(BUSY_TABLE[:2], seed=1, size=SMALL, design=design,
                                background=background, light="cold", blur=1.0)
        assert (rendered.design, rendered.background, rendered.light, rendered.blur) == (
            design, background, "cold", 1.0)
    drawn = {(r.design, r.background) for r in _renders(12)}
    assert len(drawn) > 3


@pytest.mark.parametrize("design", DESIGNS)
def test_a_six_and_a_nine_are_drawn_differently_even_turned_over(design: str) -> None:
    six, nine = (render_tile(Tile.parse(t), design=design, rng=np.random.default_rng(0))
                 for t in ("K6", "K9"))
    assert six.shape == (160, 120, 3)
    turned_six = cv2.rotate(six, cv2.ROTATE_180)
    for a, b in ((six, nine), (turned_six, nine)):
        assert np.abs(a.astype(int) - b.astype(int)).mean() > 2


def test_the_two_designs_differ_and_every_tile_face_is_distinct() -> None:
    tiles = parse_tiles("K1 R1 B1 O1 K8 K10 K11 K13 J")
    for design in DESIGNS:
        faces = [render_tile(t, design=design, rng=np.random.default_rng(0)) for t in tiles]
        for a, b in itertools.combinations(faces, 2):
            assert np.abs(a.astype(int) - b.astype(int)).mean() > 1
    classic, current = (render_tile(Tile.parse("R7"), design=d, rng=np.random.default_rng(0))
                        for d in DESIGNS)
    assert np.abs(classic.astype(int) - current.astype(int)).mean() > 2


def test_random_tables_could_come_from_one_box_and_mix_legal_and_illegal_sets() -> None:
    rng = np.random.default_rng(2026)
    preset = get_preset("pressman")
    legal = Counter[bool]()
    for _ in range(150):
        table = random_table(rng, min_sets=2, max_sets=4)
        assert 1 <= len(table) <= 4 and all(table)
        check_inventory([t for meld in table for t in meld], {JokerKind.REGULAR: 2})
        legal.update(check_meld(meld, preset=preset).legal for meld in table)
    assert legal[True] > 2 * legal[False] > 0


def test_bad_options_are_refused_saying_what_is_wrong() -> None:
    with pytest.raises(ValueError, match="design"):
        render_table(BUSY_TABLE, seed=0, design="modern")
    with pytest.raises(ValueError, match="background"):
        render_table(BUSY_TABLE, seed=0, background="grass")
    with pytest.raises(ValueError, match="set 2 is empty"):
        render_table((BUSY_TABLE[0], ()), seed=0)
    with pytest.raises(ValueError, match="mirror joker"):
        render_tile(Tile.of_joker(JokerKind.MIRROR), design="current",
                    rng=np.random.default_rng(0))
    with pytest.raises(ValueError, match="min_sets"):
        random_table(np.random.default_rng(0), min_sets=3, max_sets=2)
    with pytest.raises(ValueError, match="font must be one of duplex, bold"):
        render_table(BUSY_TABLE, seed=0, font="comic")
    with pytest.raises(ValueError, match="blur must be >= 0"):
        render_table(BUSY_TABLE, seed=0, depth_of_field=-1)


def test_the_benchmark_set_covers_every_design_table_and_light() -> None:
    from benchmarks.synthetic_set import synthetic_set

    renders = synthetic_set(count=24, size=(480, 360))
    assert {(r.design, r.background, r.light) for r in renders} == set(
        itertools.product(DESIGNS, BACKGROUNDS, ("neutral", "warm", "cold")))
    assert any(r.glare for r in renders) and any(r.blur for r in renders)
    assert any(r.perspective >= 0.2 for r in renders)
    again = synthetic_set(count=2, size=(480, 360))
    assert all(np.array_equal(a.image, b.image) for a, b in zip(renders, again))


def test_an_empty_table_is_a_bare_table_with_no_tiles() -> None:
    rendered = render_table((), seed=4, size=SMALL)
    assert rendered.tiles == () and rendered.table == ()
    assert rendered.image.shape == (480, 640, 3) and rendered.image.dtype == np.uint8


def test_the_harder_set_repeats_and_covers_every_kind_and_classic_face() -> None:
    from benchmarks.synthetic_set import HARD_KINDS, hard_set

    renders = hard_set(count=len(HARD_KINDS), size=(800, 600))
    assert {r.design for r in renders} == set(DESIGNS)
    dense = renders[HARD_KINDS.index("dense table")]
    close_up = renders[HARD_KINDS.index("close-up")]
    assert len(dense.tiles) >= 50
    assert len(close_up.tiles) <= 15
    assert renders[HARD_KINDS.index("strong slant")].perspective == 0.5
    assert renders[HARD_KINDS.index("warm light")].light == "warm"
    again = hard_set(count=2, size=(800, 600))
    assert all(np.array_equal(a.image, b.image) for a, b in zip(renders, again))


def _face_size(rendered: RenderedTable) -> float:
    return float(np.median([np.linalg.norm(np.subtract(t.outline[3], t.outline[0]))
                            for t in rendered.tiles]))


def test_fill_makes_a_close_up_and_depth_of_field_blurs_away_from_the_sharp_band() -> None:
    table = parse_table("R3 R4 R5 R6")
    wide = render_table(table, seed=3, size=SMALL, fill=0.05, perspective=0.0, blur=0.0)
    close = render_table(table, seed=3, size=SMALL, fill=0.5, perspective=0.0, blur=0.0)
    assert _face_size(close) > 1.8 * _face_size(wide)
    sharp = render_table(BUSY_TABLE, seed=5, size=SMALL, blur=0.0, perspective=0.0)
    shallow = render_table(BUSY_TABLE, seed=5, size=SMALL, blur=0.0, perspective=0.0,
                           depth_of_field=5.0)
    def detail(image: np.ndarray) -> float:
        return float(cv2.Laplacian(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), cv2.CV_32F).var())
    assert detail(shallow.image) < 0.8 * detail(sharp.image)
    assert [t.outline for t in shallow.tiles] == [t.outline for t in sharp.tiles]


def test_the_classic_faces_print_the_same_number_differently() -> None:
    from training.synthetic import CLASSIC_FONTS

    faces = []
    for font in CLASSIC_FONTS:
        rendered = render_table(parse_table("K8"), seed=9, size=SMALL, design="classic",
                                font=font, fill=0.2, perspective=0.0, blur=0.0)
        faces.append(_upright(rendered.image, rendered.tiles[0].outline))
    ink = [(cv2.cvtColor(face, cv2.COLOR_BGR2GRAY) < 100) for face in faces]
    for a, b in itertools.combinations(ink, 2):
        assert np.mean(a != b) > 0.01
