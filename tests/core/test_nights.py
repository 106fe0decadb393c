"""The club night's rules in the core: tables, sit-outs, formats and the room's standings."""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.core.nights import (
    NightError,
    NightFormat,
    NightRules,
    PlayedRound,
    PlayedTable,
    TablePoints,
    advance_rounds,
    check_night_players,
    room_standings,
    seat_round,
    sit_out_count,
    table_sizes,
)
from companion.core.scoring import Ending, GameResult


def game(players: tuple[str, ...], winner: str, points: int = 10) -> GameResult:
    scores = tuple(points * (len(players) - 1) if n == winner else -points for n in players)
    return GameResult(Ending.PAPER, winner, players, scores, (None,) * len(players))


@given(st.integers(min_value=6, max_value=40))
def test_tables_are_fours_with_as_few_threes_as_the_count_needs(count: int) -> None:
    sizes = table_sizes(count)
    assert sum(sizes) == count and set(sizes) <= {3, 4}
    assert sizes.count(3) <= 3 and sizes == tuple(sorted(sizes, reverse=True))


def test_only_five_players_at_tables_of_three_or_four_leave_one_sitting_out() -> None:
    assert [n for n in range(3, 41) if sit_out_count(n)] == [5]
    assert table_sizes(7, pairs=True) == (2, 2, 2) and sit_out_count(7, pairs=True) == 1


def test_nobody_sits_out_twice_while_another_has_not_sat_out() -> None:
    names = [f"P{n}" for n in range(1, 8)]
    rules = NightRules(NightFormat.RESEAT, 7, 1, pairs=True)
    rounds: list[PlayedRound] = []
    for number in range(1, 8):
        seating = seat_round(names, rounds, rules, seed=3)
        tables = tuple(PlayedTable(number, t, players, (game(players, players[0]),), 1)
                       for t, players in enumerate(seating.tables, 1))
        rounds.append(PlayedRound(number, tables, seating.sat_out))
    assert sorted(name for r in rounds for name in r.sat_out) == sorted(names)


def test_a_shared_place_earns_that_places_points_as_the_sheet_shares_it() -> None:
    players = ("Ann", "Bob", "Cy", "Di")
    table = PlayedTable(1, 1, players, (game(players, "Ann"), game(players, "Bob")), 2)
    assert table.places() == {"Ann": 1, "Bob": 1, "Cy": 3, "Di": 3}
    standings = room_standings(players, [PlayedRound(1, (table,))],
                               NightRules(NightFormat.FIXED, 1, 2))
    assert {s.name: s.table_points for s in standings} == {"Ann": 4, "Bob": 4, "Cy": 1,
                                                           "Di": 1}
    assert [s.place for s in standings] == [1, 1, 3, 3]


def test_winners_advance_counts_its_rounds_down_to_a_final_table() -> None:
    assert advance_rounds(22) == 3  # 6 tables → 6 → 2 at the final
    assert advance_rounds(22, advance=2) == 4  # 12 → 6 → 4
    assert advance_rounds(16) == 2  # 4 tables → a final of 4
    assert advance_rounds(20) == 2  # 5 winners: the best 4 of them play the final


def test_reseating_avoids_a_repeat_pair_when_it_can() -> None:
    names = [f"P{n}" for n in range(1, 17)]
    rules = NightRules(NightFormat.RESEAT, 2, 1)
    first = seat_round(names, [], rules, seed=1)
    tables = tuple(PlayedTable(1, t, p, (game(p, p[0]),), 1)
                   for t, p in enumerate(first.tables, 1))
    second = seat_round(names, [PlayedRound(1, tables)], rules, seed=1)
    met = {frozenset(pair) for t in first.tables for pair in combinations(t, 2)}
    assert not [pair for t in second.tables for pair in combinations(t, 2)
                if frozenset(pair) in met]


@pytest.mark.parametrize(("value", "words"), [
    ({"4": [4, 2, 1]}, "must be 4 whole numbers"),
    ({"5": [1, 1, 1, 1, 1]}, "tables of 2, 3 or 4"),
    ({"3": [0, 2, 4]}, "may not rise"),
    ([4, 2, 1, 0], "must be an object"),
])
def test_table_points_refuse_what_cannot_be_scored(value: object, words: str) -> None:
    with pytest.raises(NightError, match=words):
        TablePoints.parse(value)


def test_a_name_twice_is_refused_naming_both() -> None:
    with pytest.raises(NightError, match=r"player 9: ＡNN is in the night already \(as Ann\)"):
        check_night_players(["Ann", *(f"P{n}" for n in range(7)), "ＡNN"])
