"""Tiles and notation: parse, print back, and say exactly where a typo is."""

from __future__ import annotations

import doctest

import pytest
from hypothesis import given
from hypothesis import strategies as st

import companion.core.tiles as tiles_module
from companion.core.tiles import (
    Colour,
    ImpossibleTilesError,
    JokerKind,
    NotationError,
    Tile,
    check_inventory,
    format_table,
    parse_rack,
    parse_table,
    parse_tiles,
)

STANDARD_JOKERS = {JokerKind.REGULAR: 2}
TWIST_JOKERS = {kind: 2 for kind in JokerKind}


def test_the_notation_doctests_hold() -> None:
    assert doctest.testmod(tiles_module).failed == 0


@pytest.mark.parametrize(("token", "expected"), [
    ("K7", Tile.numbered(Colour.BLACK, 7)),
    ("r13", Tile.numbered(Colour.RED, 13)),
    ("B1", Tile.numbered(Colour.BLUE, 1)),
    ("O10", Tile.numbered(Colour.ORANGE, 10)),
    ("Y10", Tile.numbered(Colour.ORANGE, 10)),
    ("j", Tile.of_joker()),
    ("D", Tile.of_joker(JokerKind.DOUBLE)),
    ("m", Tile.of_joker(JokerKind.MIRROR)),
    ("C", Tile.of_joker(JokerKind.COLOUR_CHANGE)),
])
def test_each_kind_of_tile_parses(token: str, expected: Tile) -> None:
    assert Tile.parse(token) == expected


def test_yellow_is_printed_back_as_orange() -> None:
    assert str(Tile.parse("Y4")) == "O4"


def test_sets_split_on_bars_semicolons_and_new_lines_and_tiles_on_spaces_and_commas() -> None:
    table = parse_table("R5 R6 R7 | K9,B9, O9;\nJ B1 B2\n\n")
    assert format_table(table) == "R5 R6 R7 | K9 B9 O9 | J B1 B2"


def test_an_empty_table_is_an_empty_tuple() -> None:
    assert parse_table("  \n | ; ") == ()


def test_a_number_out_of_range_names_the_token_set_and_tile() -> None:
    with pytest.raises(NotationError) as caught:
        parse_table("R5 R6 R7 | K9 B9 R14")
    assert str(caught.value) == "`R14` at set 2, tile 3: numbers run 1–13"
    assert caught.value.where == {"token": "R14", "set": 2, "tile": 3}


@pytest.mark.parametrize(("text", "fragment"), [
    ("R0", "numbers run 1–13"),
    ("X5", "`X` is not a colour"),
    ("R", "a colour needs a number"),
    ("7", "colour letter"),
    ("hello", "not a tile"),
    ("R5.5", "colour letter"),
])
def test_typos_get_a_message_that_says_what_is_wrong(text: str, fragment: str) -> None:
    with pytest.raises(NotationError, match=fragment):
        parse_tiles(text)


def test_a_rack_ignores_set_separators() -> None:
    assert parse_rack("R5 | J\nK1") == parse_tiles("R5 J K1")


def test_a_third_copy_of_a_tile_is_refused_naming_the_tile() -> None:
    with pytest.raises(ImpossibleTilesError, match=r"R7 \(red 7\) appears 3 times"):
        check_inventory(parse_tiles("R7 R7 R7"), STANDARD_JOKERS)


def test_of_several_impossible_tiles_the_first_in_order_is_named() -> None:
    with pytest.raises(ImpossibleTilesError, match=r"^K9 \(black 9\) appears 3 times"):
        check_inventory(parse_tiles("J J J O3 O3 O3 K9 K9 K9"), STANDARD_JOKERS)


def test_a_third_joker_is_refused() -> None:
    with pytest.raises(ImpossibleTilesError, match="only 2 jokers"):
        check_inventory(parse_tiles("J J J"), STANDARD_JOKERS)


def test_bonus_jokers_are_refused_outside_twist() -> None:
    with pytest.raises(ImpossibleTilesError, match="no double jokers"):
        check_inventory(parse_tiles("R5 D"), STANDARD_JOKERS)
    check_inventory(parse_tiles("R5 D D M M C C J J"), TWIST_JOKERS)


def test_a_joker_on_the_rack_costs_thirty_and_a_tile_its_face_value() -> None:
    assert [t.rack_value() for t in parse_tiles("J M R9 K1")] == [30, 30, 9, 1]
    # Issue 8: a session's own joker penalty is the one a joker costs.
    assert [t.rack_value(joker_penalty=25) for t in parse_tiles("J R9")] == [25, 9]


tile_strategy = st.one_of(
    st.builds(Tile.numbered, st.sampled_from(Colour), st.integers(1, 13)),
    st.builds(Tile.of_joker, st.sampled_from(JokerKind)),
)
table_strategy = st.lists(st.lists(tile_strategy, min_size=1, max_size=8).map(tuple),
                          max_size=6).map(tuple)


@given(table_strategy)
def test_parsing_the_printed_table_gives_the_same_table(table: tuple[tuple[Tile, ...], ...]) -> None:
    assert parse_table(format_table(table)) == table


@given(st.lists(tile_strategy, min_size=1, max_size=10))
def test_parsing_is_case_insensitive(tiles: list[Tile]) -> None:
    text = " ".join(str(t) for t in tiles)
    assert parse_tiles(text.lower()) == tuple(tiles)
