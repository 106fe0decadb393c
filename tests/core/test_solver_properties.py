"""The solver against a brute force on small random instances.

The brute force knows nothing of the search: it tries every split of the tiles into sets and
asks the core (``check_meld``) about each; best play tries every part of the rack.
"""

from __future__ import annotations

import time
from collections import Counter
from functools import cache
from itertools import combinations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.core.melds import check_meld, check_table
from companion.core.presets import PRESSMAN, SABRA, TWIST, Preset
from companion.core.referee import referee_turn
from companion.core.solver import _counts, _tile_of, arrange, best_play
from companion.core.solver_lay import Layer, _mirror_plan
from companion.core.tiles import Colour, JokerKind, Tile, parse_tiles

JOKER = Tile.of_joker(JokerKind.REGULAR)
DOUBLE = Tile.of_joker(JokerKind.DOUBLE)
SETTINGS = settings(max_examples=150, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def _key(tiles: tuple[Tile, ...]) -> tuple[Tile, ...]:
    return tuple(sorted(tiles, key=Tile.sort_key))


def brute_partitions(tiles: tuple[Tile, ...], preset: Preset) -> list[list[tuple[Tile, ...]]]:
    """Every split of ``tiles`` into legal sets (at most a few hundred on these sizes)."""

    @cache
    def splits(rest: tuple[Tile, ...]) -> tuple[tuple[tuple[Tile, ...], ...], ...]:
        if not rest:
            return ((),)
        first, others = rest[0], rest[1:]
        found = []
        for size in range(2, len(others) + 1):
            for combo in set(combinations(others, size)):
                meld = (first, *combo)
                if check_meld(meld, preset=preset).legal:
                    remaining = Counter(others)
                    remaining.subtract(combo)
                    for tail in splits(_key(tuple(remaining.elements()))):
                        found.append((meld, *tail))
                        if len(found) > 200:
                            return tuple(found)
        return tuple(found)

    return [list(split) for split in splits(_key(tiles))]


def brute_arrangeable(tiles: tuple[Tile, ...], preset: Preset) -> bool:
    return bool(brute_partitions(tiles, preset))


def numbered(colour_index: int, number: int) -> Tile:
    return Tile.numbered(list(Colour)[colour_index], number)


def small_tiles(*, low: int, jokers: int, doubles: int = 0, most: int = 9) -> st.SearchStrategy:
    """Tiles from two or three colours and four numbers, so that sets are likely."""
    numbered_tiles = st.lists(
        st.builds(numbered, st.integers(0, 2), st.integers(low, low + 3)), max_size=most)

    def within_box(tiles: list[Tile]) -> list[Tile]:
        counts: Counter[Tile] = Counter()
        kept = []
        for tile in tiles:
            if counts[tile] < 2:
                counts[tile] += 1
                kept.append(tile)
        return kept

    return st.tuples(numbered_tiles.map(within_box), st.integers(0, jokers),
                     st.integers(0, doubles)).map(
        lambda t: tuple(t[0]) + (JOKER,) * t[1] + (DOUBLE,) * t[2]).filter(bool)


def assert_legal_and_exact(solution, tiles, preset) -> None:
    table = solution.table
    assert check_table(table, preset=preset).legal
    assert Counter(t for meld in table for t in meld) == Counter(tiles)


@SETTINGS
@given(small_tiles(low=1, jokers=2, most=8))
def test_arrange_agrees_with_the_brute_force_near_the_low_end(tiles) -> None:
    solution = arrange(tiles, preset=PRESSMAN)
    assert solution.possible == brute_arrangeable(tiles, PRESSMAN), solution.reason
    if solution.possible:
        assert_legal_and_exact(solution, tiles, PRESSMAN)


@SETTINGS
@given(small_tiles(low=9, jokers=2, most=8))
def test_arrange_agrees_with_the_brute_force_near_13(tiles) -> None:
    solution = arrange(tiles, preset=PRESSMAN)
    assert solution.possible == brute_arrangeable(tiles, PRESSMAN), solution.reason
    if solution.possible:
        assert_legal_and_exact(solution, tiles, PRESSMAN)


@SETTINGS
@given(small_tiles(low=5, jokers=1, doubles=2, most=7))
def test_arrange_with_double_jokers_agrees_with_the_brute_force(tiles) -> None:
    solution = arrange(tiles, preset=TWIST)
    assert solution.possible == brute_arrangeable(tiles, TWIST), solution.reason
    if solution.possible:
        assert_legal_and_exact(solution, tiles, TWIST)


def brute_best_rack_count(table_tiles: tuple[Tile, ...], rack: tuple[Tile, ...],
                          preset: Preset) -> int:
    best = 0
    for size in range(len(rack), 0, -1):
        for part in set(combinations(_key(rack), size)):
            if brute_arrangeable(table_tiles + part, preset):
                return size
    return best


@SETTINGS
@given(small_tiles(low=3, jokers=1, most=6), small_tiles(low=3, jokers=1, most=4))
def test_best_play_lays_as_many_rack_tiles_as_the_brute_force(table_tiles, rack) -> None:
    if Counter(table_tiles + rack)[JOKER] > 2 or max(
            Counter(t for t in table_tiles + rack if not t.is_joker).values(), default=0) > 2:
        return  # not a box: the solver refuses it (tested elsewhere)
    splits = brute_partitions(table_tiles, PRESSMAN)
    if not splits:
        return  # the table must be legal before a turn
    table = splits[0]
    solution = best_play(table, rack, preset=PRESSMAN, opened=True, any_table=True)
    expected = brute_best_rack_count(table_tiles, rack, PRESSMAN)
    assert len(solution.played) == expected
    if solution.possible:
        assert_legal_and_exact(solution, table_tiles + solution.played, PRESSMAN)
        assert not Counter(solution.played) - Counter(rack)


def brute_initial_meld(rack: tuple[Tile, ...], preset: Preset) -> int:
    """The most rack tiles that make new sets worth the initial meld."""
    for size in range(len(rack), 2, -1):
        for part in set(combinations(_key(rack), size)):
            for split in brute_partitions(part, preset):
                if sum(check_meld(m, preset=preset).value or 0 for m in split) >= \
                        preset.initial_meld:
                    return size
    return 0


@SETTINGS
@given(small_tiles(low=7, jokers=1, most=8))
def test_the_initial_meld_lays_as_many_tiles_as_the_brute_force(rack) -> None:
    solution = best_play((), rack, preset=PRESSMAN, opened=False)
    assert len(solution.played) == brute_initial_meld(rack, PRESSMAN)
    if solution.possible:
        assert sum(v.value or 0 for v in solution.sets) >= PRESSMAN.initial_meld
        assert_legal_and_exact(solution, solution.played, PRESSMAN)


def brute_best_rack_value(table_tiles: tuple[Tile, ...], rack: tuple[Tile, ...],
                          preset: Preset) -> int:
    best = 0
    for size in range(len(rack), 0, -1):
        for part in set(combinations(_key(rack), size)):
            value = sum(t.rack_value() for t in part)
            if value > best and brute_arrangeable(table_tiles + part, preset):
                best = value
    return best


@SETTINGS
@given(small_tiles(low=4, jokers=1, most=6), small_tiles(low=4, jokers=1, most=4))
def test_best_play_by_value_takes_as_much_off_the_rack_as_the_brute_force(table_tiles,
                                                                           rack) -> None:
    if Counter(table_tiles + rack)[JOKER] > 2 or max(
            Counter(t for t in table_tiles + rack if not t.is_joker).values(), default=0) > 2:
        return
    splits = brute_partitions(table_tiles, PRESSMAN)
    if not splits:
        return
    solution = best_play(splits[0], rack, preset=PRESSMAN, opened=True, goal="value",
                         any_table=True)
    assert solution.value == brute_best_rack_value(table_tiles, rack, PRESSMAN)
    if solution.possible:
        assert_legal_and_exact(solution, table_tiles + solution.played, PRESSMAN)


@SETTINGS
@given(small_tiles(low=5, jokers=1, doubles=1, most=5), small_tiles(low=5, jokers=0, doubles=1,
                                                                    most=3))
def test_best_play_with_double_jokers_lays_as_many_rack_tiles_as_the_brute_force(
        table_tiles, rack) -> None:
    # "This Bonus Joker fills in two numbers" (seed 003): Twist, double jokers on both sides
    together = Counter(table_tiles + rack)
    if together[DOUBLE] > 2 or max(
            Counter(t for t in table_tiles + rack if not t.is_joker).values(), default=0) > 2:
        return
    splits = brute_partitions(table_tiles, TWIST)
    if not splits:
        return
    solution = best_play(splits[0], rack, preset=TWIST, opened=True, any_table=True)
    assert len(solution.played) == brute_best_rack_count(table_tiles, rack, TWIST)
    if solution.possible:
        assert_legal_and_exact(solution, table_tiles + solution.played, TWIST)


BOX = [Tile.numbered(colour, number) for colour in Colour for number in range(1, 14)] * 2


def _one_way(tiles: list[Tile], *, mirrored: bool) -> bool:
    """Whether the search alone, on the tiles as they are or mirrored, lays them all."""
    counts = _counts(tiles)[0]
    if mirrored:
        counts = [[0, *row[13:0:-1]] for row in counts]
    layer = Layer(tuple(map(tuple, counts)), tuple((0,) * 14 for _ in range(4)),
                  jokers=sum(t.is_joker for t in tiles), doubles=0, weights=(1,) * 14,
                  deadline=time.monotonic() + 60)
    return layer.solve(0) == 0


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(range(len(BOX))), min_size=12, max_size=40, unique=True),
       st.integers(0, 2))
def test_the_search_answers_the_same_on_the_tiles_mirrored(indexes, jokers) -> None:
    """The solver runs one search on the tiles and one on them mirrored (13 read as 1) in
    turns; both must be exact, and an arrangement found mirrored must read back legal."""
    tiles = [BOX[i] for i in indexes] + [JOKER] * jokers
    forward = _one_way(tiles, mirrored=False)
    assert forward == _one_way(tiles, mirrored=True)
    solution = arrange(tiles, preset=PRESSMAN)
    assert solution.possible == forward
    if forward:
        assert_legal_and_exact(solution, tuple(tiles), PRESSMAN)


def test_a_plan_found_mirrored_reads_back_as_legal_sets() -> None:
    # R1 R2 R3 | D R12 R13 and a group of 5s with a double joker, searched mirrored only
    tiles = parse_tiles("R1 R2 R3 R12 R13 D K5 B5 D")
    counts = _counts(tiles)[0]
    mirrored = tuple((0, *row[13:0:-1]) for row in counts)
    layer = Layer(mirrored, tuple((0,) * 14 for _ in range(4)), jokers=0, doubles=2,
                  weights=(1,) * 14, deadline=time.monotonic() + 60)
    assert layer.solve(0) == 0
    plan = _mirror_plan(layer.plan(0))
    melds = [tuple(_tile_of(piece) for piece in meld) for meld in plan.sets]
    assert check_table(melds, preset=TWIST).legal
    assert Counter(t for meld in melds for t in meld) == Counter(tiles)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_tiles(low=3, jokers=2, most=7), small_tiles(low=3, jokers=1, most=4),
       st.sampled_from([PRESSMAN, SABRA]))
def test_by_default_every_play_passes_the_referee(table_tiles, rack, preset) -> None:
    if Counter(table_tiles + rack)[JOKER] > 2 or max(
            Counter(t for t in table_tiles + rack if not t.is_joker).values(), default=0) > 2:
        return
    splits = brute_partitions(table_tiles, preset)
    if not splits:
        return
    play = best_play(splits[0], rack, opened=True, preset=preset)
    if play.possible:
        assert referee_turn(tuple(splits[0]), play.table, opened=True, preset=preset,
                            rack=rack).legal
