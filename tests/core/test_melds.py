"""Sets: every example of RULES.md and the seeds, and the validator against a brute force."""

from __future__ import annotations

from itertools import combinations, product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.core.melds import MeldKind, _general_verdict, check_meld, check_table
from companion.core.presets import PRESSMAN, SABRA, TWIST
from companion.core.tiles import (
    Colour,
    ImpossibleTilesError,
    JokerKind,
    Tile,
    all_numbered_tiles,
    parse_table,
    parse_tiles,
)


def verdict(text: str, preset=PRESSMAN):
    return check_meld(parse_tiles(text), preset=preset)


# --- RULES.md "Sets" -----------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "K7 R7 B7", "K7 R7 B7 O7", "R5 R6 R7", "B1 B2 B3 B4",
    "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13",
])
def test_groups_and_runs_of_the_rule_book_are_legal(text: str) -> None:
    assert verdict(text).legal


@pytest.mark.parametrize(("text", "reason"), [
    ("R5 R6", "a set needs at least 3 tiles"),
    ("K7 K7 B7", "a group can't hold two black 7s"),
    ("O4 O4 R4", "a group can't hold two orange 4s"),
    ("R12 R13 R1", "13 cannot be followed by 1"),
    ("R13 R1 R2", "13 cannot be followed by 1"),
    ("R5 R6 B7", "blue 7 is not red: a run is one colour"),
    ("R5 R6 R8", "a run needs consecutive numbers: red 7 is missing"),
    ("K7 R7 B7 O7 J", "a group has at most 4 tiles"),
    ("K7 B7 R8", "red 8 is not a 7"),
    ("R5 R5 R6", "a run can't hold two red 5s"),
    ("R1 R5 J", "red 2, 3 and 4 are missing and only 1 joker can fill 1 place"),
])
def test_illegal_sets_say_why_in_words_a_player_accepts(text: str, reason: str) -> None:
    result = verdict(text)
    assert not result.legal
    assert result.kind is None and result.value is None
    assert reason in result.reason


def test_a_run_given_out_of_order_is_legal_and_reordered() -> None:
    result = verdict("R12 R13 J")
    assert result.legal and result.reordered
    assert [str(t) for t in result.order] == ["J", "R12", "R13"]
    assert result.jokers[0].stands_for == ("R11",)
    assert result.value == 36


def test_the_given_order_picks_the_jokers_reading() -> None:
    assert verdict("R5 R6 J").jokers[0].stands_for == ("R7",)
    assert verdict("J R5 R6").jokers[0].stands_for == ("R4",)
    assert not verdict("R5 R6 J").reordered


def test_a_joker_in_a_group_of_three_reports_both_missing_colours() -> None:
    result = verdict("K9 B9 J")
    assert result.kind is MeldKind.GROUP
    assert result.jokers[0].stands_for == ("O9", "R9")
    assert result.value == 27


def test_two_jokers_in_a_group_of_four_may_each_be_either_missing_colour() -> None:
    result = verdict("K9 B9 J J")
    assert [j.stands_for for j in result.jokers] == [("O9", "R9"), ("O9", "R9")]
    assert result.value == 36


def test_a_joker_between_two_tiles_fills_the_gap() -> None:
    result = verdict("B4 J B6")  # Sabra Way example A: total 15 points
    assert result.legal and result.value == 15
    assert result.jokers[0].stands_for == ("B5",)


@pytest.mark.parametrize(("text", "value"), [
    ("R13 O13 K13", 39),  # Sabra Way example B
    ("O10 O11 O12", 33),  # Sabra Way example C
    ("R4 J R6 R7 R8", 30),  # Sabra Way: joker substituting the red 5
    ("R4 R5 R6", 15), ("O1 O2 O3 O4", 10),
])
def test_meld_values_of_the_sabra_way_examples(text: str, value: int) -> None:
    assert verdict(text).value == value


def test_a_run_may_not_go_past_thirteen_even_with_jokers() -> None:
    assert not verdict("R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 J").legal
    assert verdict("R11 R12 R13 J").jokers[0].stands_for == ("R10",)


def test_a_run_given_backwards_is_legal_and_shown_ascending() -> None:
    result = verdict("R7 R6 R5")
    assert result.legal and result.reordered
    assert [str(t) for t in result.order] == ["R5", "R6", "R7"]


def test_a_group_is_never_reordered() -> None:
    assert not verdict("O7 K7 B7").reordered


# --- the seeds' manipulation examples (the sets after the move) ----------------------------

@pytest.mark.parametrize("table", [
    "B3 B4 B5 B6 B7",  # extend a run with blue 3 and blue 7 (seed 000)
    "B3 B4 B5 B6 | K4 R4 O4",  # take the blue 4 from a group of four (seed 000)
    "B9 B10 B11 | B8 R8 K8",  # add blue 11, use blue 8 in a group of 8s (seed 000)
    "R4 R5 R6 | R6 R7 R8",  # split a run with a red 6 (seed 000)
    "B1 O1 R1 | O2 O3 O4 | K1 K2 K3",  # combined split, shapes as in seed 000
    "B6 B7 B8 | B8 B9 B10",  # splitting a run (seed 002)
    "R4 R5 R6 R7",  # shifting a run (seed 002)
    # Sabra Way F: four groups after the black 4 and black 1 join
    "B1 O1 R1 K1 | B2 O2 R2 | B3 O3 R3 | B4 O4 K4",
    # Sabra Way E: the 9 orange moves to the group of 9s, the 9 blue joins a blue run
    "O6 O7 O8 | O9 R9 K9 | B8 B9 B10",
])
def test_tables_after_the_seeds_manipulations_are_legal(table: str) -> None:
    assert check_table(parse_table(table)).legal


# --- tables -------------------------------------------------------------------------------

def test_a_table_reports_every_set_and_the_value_against_the_initial_meld() -> None:
    result = check_table(parse_table("R10 R11 R12 | K7 K7 B7"))
    assert not result.legal
    assert [s.legal for s in result.sets] == [True, False]
    assert result.total == 33
    assert not result.meets_initial_meld
    data = result.to_json()
    assert data["sets"][1]["reason"] == "a group can't hold two black 7s"
    assert data["total"] == 33 and data["legal"] is False


@pytest.mark.parametrize(("preset", "meets"), [(PRESSMAN, True), (SABRA, False)])
def test_the_initial_meld_is_thirty_or_fifty(preset, meets) -> None:
    assert check_table(parse_table("R10 R11 R12"), preset=preset).meets_initial_meld is meets


def test_a_table_with_a_third_copy_is_an_input_error() -> None:
    with pytest.raises(ImpossibleTilesError, match="R7"):
        check_table(parse_table("R5 R6 R7 | R7 B7 K7 | R7 R8 R9"))


def test_a_table_with_three_jokers_is_an_input_error() -> None:
    with pytest.raises(ImpossibleTilesError):
        check_table(parse_table("R5 J J | K7 B7 J"))


def test_bonus_jokers_outside_twist_are_an_input_error() -> None:
    with pytest.raises(ImpossibleTilesError, match="double joker"):
        check_table(parse_table("R2 D R5"), preset=PRESSMAN)


# --- Twist bonus jokers --------------------------------------------------------------------

def test_a_double_joker_stands_for_two_numbers_in_a_run() -> None:
    result = verdict("R2 D R5", TWIST)  # seed 003: 2 - Double Joker - 5
    assert result.legal and result.kind is MeldKind.RUN
    assert result.jokers[0].stands_for == ("R3+R4",)
    assert result.value == 2 + 3 + 4 + 5


def test_a_double_joker_stands_for_two_colours_in_a_group() -> None:
    result = verdict("B3 R3 D", TWIST)  # seed 003: the double joker is yellow 3 and black 3
    assert result.legal and result.kind is MeldKind.GROUP
    assert result.jokers[0].stands_for == ("K3+O3",)
    assert result.value == 12


def test_a_double_joker_never_stands_for_zero_or_fourteen() -> None:
    assert verdict("R12 R13 D", TWIST).jokers[0].stands_for == ("R10+R11",)
    assert not verdict("R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 D", TWIST).legal


def test_a_set_with_a_double_joker_still_needs_three_tiles() -> None:
    result = verdict("R5 D", TWIST)
    assert not result.legal and "at least 3 tiles" in result.reason


def test_a_double_joker_must_fill_its_gap_exactly() -> None:
    assert not verdict("R5 D R7", TWIST).legal
    assert not verdict("K3 B3 R3 D", TWIST).legal  # five tiles of 3: groups stop at four


def test_a_colour_change_joker_changes_the_colour_and_keeps_counting() -> None:
    result = verdict("R5 R6 C B8 B9", TWIST)
    assert result.legal and result.kind is MeldKind.RUN
    assert result.jokers[0].stands_for == ("7",)
    assert result.value == 35


def test_a_colour_change_joker_may_end_a_run() -> None:
    assert verdict("R5 R6 C", TWIST).legal


def test_the_colour_must_change_across_a_colour_change_joker() -> None:
    result = verdict("R5 R6 C R8", TWIST)
    assert "colour must change" in result.reason


def test_a_colour_change_joker_is_only_for_runs() -> None:
    assert "only in runs" in verdict("K7 B7 C", TWIST).reason


def test_with_a_colour_change_joker_the_order_given_is_the_rule() -> None:
    assert not verdict("R6 R5 C B8 B9", TWIST).legal
    backwards = verdict("B9 B8 C R6 R5", TWIST)
    assert backwards.legal and backwards.reordered


def test_a_mirror_joker_reflects_a_run_and_is_worth_nothing() -> None:
    result = verdict("R3 R4 R5 M R5 R4 R3", TWIST)
    assert result.legal and result.kind is MeldKind.RUN
    assert result.value == 24


def test_a_mirror_joker_reflects_a_group() -> None:
    result = verdict("R7 B7 M B7 R7", TWIST)
    assert result.legal and result.kind is MeldKind.GROUP and result.value == 28


def test_a_mirror_joker_with_jokers_on_its_sides() -> None:
    assert verdict("R3 J M R4 R3", TWIST).jokers[0].stands_for == ("R4",)
    assert verdict("R3 D M D R3", TWIST).value == 24


@pytest.mark.parametrize(("text", "reason"), [
    ("R3 R4 M R3 R4", "do not mirror"),
    ("M R5 R6", "both sides"),
    ("R3 R4 M R3", "2 tiles on the left, 1 on the right"),
    ("R5 M R5", "at least two tiles"),
    ("R3 M R3 M R3", "only one mirror joker"),
])
def test_a_mirror_joker_whose_sides_do_not_reflect_is_illegal(text: str, reason: str) -> None:
    result = verdict(text, TWIST)
    assert not result.legal and reason in result.reason


def test_bonus_jokers_in_a_set_checked_under_pressman_are_refused() -> None:
    assert "only with Twist" in verdict("R2 D R5").reason


# --- against an independent brute force ----------------------------------------------------

ALL_TILES = all_numbered_tiles()
DOUBLE_READINGS = [
    (a, b) for a, b in combinations(ALL_TILES, 2)
    if (a.number == b.number and a.colour != b.colour)
    or (a.colour == b.colour and abs(a.number - b.number) == 1)
]


def _is_group(tiles: list[Tile]) -> bool:
    return (3 <= len(tiles) <= 4 and len({t.number for t in tiles}) == 1
            and len({t.colour for t in tiles}) == len(tiles))


def _is_run(tiles: list[Tile]) -> bool:
    numbers = sorted(t.number for t in tiles)
    return (len(tiles) >= 3 and len({t.colour for t in tiles}) == 1
            and numbers == list(range(numbers[0], numbers[0] + len(tiles))))


def reference_legal(meld: tuple[Tile, ...]) -> bool:
    """Try every reading of every joker: a joker is any tile, a double joker any pair of tiles
    that could lie side by side in a group or a run. Order is ignored."""
    if len(meld) < 3:
        return False
    numbered = [t for t in meld if not t.is_joker]
    singles = sum(t.joker is JokerKind.REGULAR for t in meld)
    doubles = sum(t.joker is JokerKind.DOUBLE for t in meld)
    for single_tiles in product(ALL_TILES, repeat=singles):
        for pairs in product(DOUBLE_READINGS, repeat=doubles):
            represented = numbered + list(single_tiles) + [t for pair in pairs for t in pair]
            if _is_group(represented) or _is_run(represented):
                return True
    return False


numbered_tiles = st.builds(Tile.numbered, st.sampled_from(Colour), st.integers(1, 13))


@st.composite
def near_sets(draw: st.DrawFn, joker_kinds: tuple[JokerKind, ...]) -> tuple[Tile, ...]:
    """Random sets, most of them close to legal: a run or group with tiles swapped for jokers,
    changed or shuffled."""
    shape = draw(st.sampled_from(["run", "group", "random"]))
    if shape == "run":
        colour = draw(st.sampled_from(Colour))
        length = draw(st.integers(2, 6))
        start = draw(st.integers(1, 14 - min(length, 13)))
        tiles = [Tile.numbered(colour, n) for n in range(start, min(start + length, 14))]
    elif shape == "group":
        number = draw(st.integers(1, 13))
        colours = draw(st.lists(st.sampled_from(Colour), min_size=2, max_size=5))
        tiles = [Tile.numbered(c, number) for c in colours]
    else:
        tiles = draw(st.lists(numbered_tiles, min_size=1, max_size=5))
    for _ in range(draw(st.integers(0, 2))):
        index = draw(st.integers(0, len(tiles)))
        tiles.insert(index, Tile.of_joker(draw(st.sampled_from(joker_kinds))))
    if draw(st.booleans()) and tiles:
        index = draw(st.integers(0, len(tiles) - 1))
        tiles[index] = draw(numbered_tiles)
    if draw(st.booleans()):
        tiles = draw(st.permutations(tiles))
    return tuple(tiles)


@settings(max_examples=600, deadline=None)
@given(near_sets((JokerKind.REGULAR,)))
def test_the_validator_agrees_with_the_brute_force_on_regular_jokers(meld) -> None:
    assert check_meld(meld).legal == reference_legal(meld)


@settings(max_examples=300, deadline=None)
@given(near_sets((JokerKind.REGULAR, JokerKind.DOUBLE)))
def test_the_validator_agrees_with_the_brute_force_on_double_jokers(meld) -> None:
    assert check_meld(meld, preset=TWIST).legal == reference_legal(meld)


@settings(max_examples=300, deadline=None)
@given(near_sets((JokerKind.REGULAR,)))
def test_a_legal_set_has_a_reading_and_a_value_from_its_tiles(meld) -> None:
    result = check_meld(meld)
    if not result.legal:
        assert result.reason
        return
    assert sorted(result.order, key=Tile.sort_key) == sorted(meld, key=Tile.sort_key)
    if not any(t.is_joker for t in meld):
        assert result.value == sum(t.number for t in meld)
        assert result.jokers == ()
    for reading in result.jokers:
        assert reading.stands_for


@st.composite
def joker_free_sets(draw: st.DrawFn) -> tuple[Tile, ...]:
    """Random sets of numbered tiles, legal and not: runs of any length, groups of two to five
    tiles, random tiles; some with a tile changed or added, some shuffled."""
    shape = draw(st.sampled_from(["run", "group", "random"]))
    if shape == "run":
        colour = draw(st.sampled_from(Colour))
        length = draw(st.integers(2, 13))
        start = draw(st.integers(1, 14 - length))
        tiles = [Tile.numbered(colour, n) for n in range(start, start + length)]
    elif shape == "group":
        number = draw(st.integers(1, 13))
        tiles = [Tile.numbered(c, number)
                 for c in draw(st.lists(st.sampled_from(Colour), min_size=2, max_size=5))]
    else:
        tiles = draw(st.lists(numbered_tiles, min_size=1, max_size=6))
    if draw(st.booleans()):
        tiles[draw(st.integers(0, len(tiles) - 1))] = draw(numbered_tiles)
    if draw(st.booleans()):
        tiles.insert(draw(st.integers(0, len(tiles))), draw(numbered_tiles))
    if draw(st.booleans()):
        tiles = draw(st.permutations(tiles))
    return tuple(tiles)


@settings(max_examples=1000, deadline=None)
@given(joker_free_sets())
def test_the_verdict_on_a_set_without_jokers_is_the_general_searchs(meld) -> None:
    """``check_meld`` builds the verdict on numbered tiles alone directly; it must be the one
    the search for every reading gives, field for field, under every preset."""
    for preset in (PRESSMAN, SABRA, TWIST):
        assert check_meld(meld, preset=preset) == _general_verdict(meld, preset)


@st.composite
def one_joker_sets(draw: st.DrawFn) -> tuple[Tile, ...]:
    """Random sets of numbered tiles and one regular joker, legal and not: a joker in place of
    a tile or beside the others, in runs near 1 and 13, groups (of every colour too), random
    tiles; some shuffled."""
    if draw(st.booleans()):
        tiles = list(draw(joker_free_sets()))
    else:
        number = draw(st.integers(1, 13))
        tiles = [Tile.numbered(colour, number) for colour in draw(st.permutations(Colour))]
    joker = Tile.of_joker(JokerKind.REGULAR)
    if draw(st.booleans()) and len(tiles) > 1:
        tiles[draw(st.integers(0, len(tiles) - 1))] = joker
    else:
        tiles.insert(draw(st.integers(0, len(tiles))), joker)
    if draw(st.booleans()):
        tiles = draw(st.permutations(tiles))
    return tuple(tiles)


@settings(max_examples=1000, deadline=None)
@given(one_joker_sets())
def test_the_verdict_on_a_set_with_one_joker_is_the_general_searchs(meld) -> None:
    """``check_meld`` builds the verdict on numbered tiles and one regular joker directly; it
    must be the one the search for every reading gives, field for field, under every preset."""
    for preset in (PRESSMAN, SABRA, TWIST):
        assert check_meld(meld, preset=preset) == _general_verdict(meld, preset)
