"""Scoring a game, the zero-sum checks and the standings (RULES.md "Scoring a game")."""

from __future__ import annotations

import doctest
from dataclasses import replace

import pytest

from companion.core import scoring
from companion.core.presets import PRESSMAN, SABRA, TWIST, ExhaustedPoolRule
from companion.core.scoring import (
    Ending,
    Rack,
    ScoringError,
    TiedLowestRackError,
    UnbalancedScoresError,
    apply_rule_overrides,
    build_sheet,
    check_paper_scores,
    check_players,
    rack_value,
    round_of,
    score_exhausted,
    score_went_out,
    standings,
)
from companion.core.tiles import parse_rack
from tests.golden import GOLDEN

PLAYERS = ("A", "B", "C", "D")


def tiles(text: str) -> Rack:
    return Rack.of_tiles(parse_rack(text))


def test_the_module_examples_hold() -> None:
    assert doctest.testmod(scoring).failed == 0


def test_a_rack_is_worth_its_face_value_and_thirty_for_any_joker() -> None:
    assert rack_value(parse_rack("K5 R13 B1"), joker_penalty=30) == 19
    assert rack_value(parse_rack("J M D C"), joker_penalty=30) == 120
    assert rack_value(parse_rack("J R2"), joker_penalty=25) == 27


def test_a_rack_given_as_a_total_adds_thirty_for_each_joker() -> None:
    assert Rack.of_total(12, jokers=2).value(joker_penalty=30) == 72


def test_the_game_wiki_example_of_a_player_going_out() -> None:
    result = score_went_out(PLAYERS, "A", {"B": Rack.of_total(5), "C": Rack.of_total(10),
                                           "D": Rack.of_total(3)}, preset=PRESSMAN)
    assert result.scores == (18, -5, -10, -3)
    assert result.winner == "A" and result.ending is Ending.WENT_OUT


def test_a_mirror_joker_left_on_a_rack_costs_thirty_in_twist() -> None:
    result = score_went_out(("A", "B"), "B", {"A": tiles("M K2")}, preset=TWIST)
    assert result.scores_by_name() == {"A": -32, "B": 32}


def test_the_player_who_went_out_must_hold_nothing() -> None:
    with pytest.raises(ScoringError, match="A went out") as caught:
        score_went_out(("A", "B"), "A", {"A": tiles("K5"), "B": tiles("R5")}, preset=PRESSMAN)
    assert caught.value.player == "A"
    empty = score_went_out(("A", "B"), "A", {"A": Rack.of_total(0), "B": tiles("R5")},
                           preset=PRESSMAN)
    assert empty.scores == (5, -5)


def test_every_other_player_needs_a_rack_and_it_cannot_be_empty() -> None:
    with pytest.raises(ScoringError, match="C's rack is missing"):
        score_went_out(("A", "B", "C"), "A", {"B": tiles("R5")}, preset=PRESSMAN)
    with pytest.raises(ScoringError, match="B's rack is empty"):
        score_went_out(("A", "B"), "A", {"B": tiles("")}, preset=PRESSMAN)


def test_an_unknown_player_is_refused_by_name() -> None:
    with pytest.raises(ScoringError, match="`Zed` is not a player") as caught:
        score_went_out(("A", "B"), "A", {"Zed": tiles("R5")}, preset=PRESSMAN)
    assert caught.value.player == "Zed"


def test_a_third_copy_of_a_tile_across_racks_names_the_tile_and_holders() -> None:
    with pytest.raises(ScoringError, match=r"R5 \(red 5\) appears 3 times.*B and C"):
        score_went_out(("A", "B", "C"), "A", {"B": tiles("R5 R5"), "C": tiles("R5")},
                       preset=PRESSMAN)


def test_more_jokers_than_the_box_holds_counting_totals_is_refused() -> None:
    with pytest.raises(ScoringError, match="3 jokers"):
        score_went_out(("A", "B", "C"), "A", {"B": tiles("J"), "C": Rack.of_total(4, jokers=2)},
                       preset=PRESSMAN)
    with pytest.raises(ScoringError, match="no double jokers"):
        score_went_out(("A", "B"), "A", {"B": tiles("D")}, preset=PRESSMAN)


def test_a_total_must_be_reachable() -> None:
    with pytest.raises(ScoringError, match="cannot be negative"):
        score_went_out(("A", "B"), "A", {"B": Rack.of_total(-3)}, preset=PRESSMAN)
    assert score_went_out(("A", "B"), "A", {"B": Rack.of_total(788)}, preset=PRESSMAN).scores \
        == (788, -788)
    with pytest.raises(ScoringError, match="more than all the tiles in the box add up to"):
        score_went_out(("A", "B"), "A", {"B": Rack.of_total(789)}, preset=PRESSMAN)
    with pytest.raises(ScoringError, match=r"add up to \(728\)"):
        score_went_out(("A", "B"), "A", {"B": Rack.of_total(729, jokers=1)}, preset=PRESSMAN)
    with pytest.raises(ScoringError, match="the racks add up to 800 points"):
        score_went_out(("A", "B", "C"), "A", {"B": Rack.of_total(400), "C": Rack.of_total(400)},
                       preset=PRESSMAN)


def test_the_rule_book_example_of_an_exhausted_pool() -> None:
    racks = {"A": Rack.of_total(12), "B": Rack.of_total(20), "C": Rack.of_total(31),
             "D": Rack.of_total(7)}
    result = score_exhausted(PLAYERS, racks, preset=PRESSMAN)
    assert result.winner == "D"
    assert result.scores == (-5, -13, -24, 42)


def test_an_exhausted_pool_needs_every_players_rack() -> None:
    with pytest.raises(ScoringError, match="D's rack is missing"):
        score_exhausted(PLAYERS, {"A": tiles("K1"), "B": tiles("K2"), "C": tiles("K3")},
                        preset=PRESSMAN)


def test_a_tie_for_the_lowest_rack_is_never_resolved_silently() -> None:
    racks = {"A": tiles("K3 K4"), "B": tiles("R7"), "C": tiles("B13")}
    with pytest.raises(TiedLowestRackError) as caught:
        score_exhausted(("A", "B", "C"), racks, preset=PRESSMAN)
    assert caught.value.tied == ("A", "B")
    assert caught.value.fewest_tiles == "B"
    assert "Fewest tiles would pick B" in str(caught.value)


def test_a_tie_between_totals_offers_no_tile_count_tie_break() -> None:
    racks = {"A": Rack.of_total(7), "B": Rack.of_total(7)}
    with pytest.raises(TiedLowestRackError) as caught:
        score_exhausted(("A", "B"), racks, preset=PRESSMAN)
    assert caught.value.fewest_tiles is None


def test_the_table_names_the_winner_of_a_tie_and_the_other_tied_player_scores_zero() -> None:
    racks = {"A": tiles("K3 K4"), "B": tiles("R7"), "C": tiles("B13")}
    result = score_exhausted(("A", "B", "C"), racks, preset=PRESSMAN, winner="A")
    assert result.scores_by_name() == {"A": 6, "B": 0, "C": -6}


def test_naming_a_winner_who_does_not_have_the_lowest_rack_is_refused() -> None:
    racks = {"A": tiles("K3"), "B": tiles("R7")}
    with pytest.raises(ScoringError, match="B cannot win: A has the lowest rack"):
        score_exhausted(("A", "B"), racks, preset=PRESSMAN, winner="B")
    assert score_exhausted(("A", "B"), racks, preset=PRESSMAN, winner="a").winner == "A"


def test_the_fewest_tiles_variant_scores_as_a_normal_win() -> None:
    preset = replace(PRESSMAN, exhausted_pool=ExhaustedPoolRule.FEWEST_TILES)
    racks = {"A": tiles("K13 R13"), "B": tiles("K1 K2 K3")}
    result = score_exhausted(("A", "B"), racks, preset=preset)
    assert result.scores_by_name() == {"A": 6, "B": -6}
    with pytest.raises(ScoringError, match="needs every rack as tiles"):
        score_exhausted(("A", "B"), {"A": Rack.of_total(3), "B": tiles("K1")}, preset=preset)


def test_paper_scores_that_balance_are_kept_with_the_plus_score_as_winner() -> None:
    result = check_paper_scores(PLAYERS, {"A": 24, "B": -5, "C": -16, "D": -3})
    assert result.winner == "A" and result.ending is Ending.PAPER


def test_paper_scores_that_do_not_balance_show_the_difference_and_the_winners_score() -> None:
    with pytest.raises(UnbalancedScoresError) as caught:
        check_paper_scores(PLAYERS, {"A": 25, "B": -5, "C": -16, "D": -3})
    error = caught.value
    assert error.difference == 1 and error.expected_winner_score == 24
    assert "add up to +1" in str(error) and "should score +24, not +25" in str(error)


def test_paper_scores_need_exactly_one_plus_score() -> None:
    with pytest.raises(UnbalancedScoresError, match="A and B all have plus scores"):
        check_paper_scores(("A", "B", "C"), {"A": 5, "B": 5, "C": -10})
    with pytest.raises(UnbalancedScoresError, match="nobody has a plus score"):
        check_paper_scores(("A", "B"), {"A": 0, "B": -3})
    with pytest.raises(ScoringError, match="B is named the winner, but A has the plus score"):
        check_paper_scores(("A", "B"), {"A": 5, "B": -5}, winner="B")
    with pytest.raises(ScoringError, match="B's score is missing"):
        check_paper_scores(("A", "B"), {"A": 0})




def test_a_paper_sheet_of_zeros_balances_with_the_winner_named() -> None:
    # the pool ran out with equal racks: the app itself records 0 / 0 (the winner named by
    # the table, +0); "the winner's score should equal the total of the other players' minus
    # scores" (seed 000) holds, 0 = 0
    racks = {"A": Rack.of_total(12), "B": Rack.of_total(12)}
    recorded = score_exhausted(("A", "B"), racks, preset=PRESSMAN, winner="B")
    assert recorded.scores == (0, 0)
    typed = check_paper_scores(("A", "B"), {"A": 0, "B": 0}, winner="B")
    assert typed.winner == "B" and typed.scores == (0, 0) and typed.check.balanced
    assert check_paper_scores(("A", "B", "C"), {"A": 0, "B": 0, "C": 0}, winner="a").winner == "A"
    with pytest.raises(ScoringError, match="every score is 0: say who won") as caught:
        check_paper_scores(("A", "B"), {"A": 0, "B": 0})
    assert caught.value.code == "zero_needs_winner" and caught.value.field == "winner"
    with pytest.raises(ScoringError, match="is not a player"):
        check_paper_scores(("A", "B"), {"A": 0, "B": 0}, winner="Z")


def test_the_golden_score_table_adds_up_and_ranks() -> None:
    sheet = build_sheet(PLAYERS, 1, [check_paper_scores(PLAYERS, g) for g in GOLDEN])
    assert sheet.totals == (-24, -54, 45, 33)
    assert sheet.games_won == (1, 0, 2, 1)
    assert [(s.name, s.place) for s in sheet.standings] == [("C", 1), ("D", 2), ("A", 3),
                                                             ("B", 4)]
    assert sheet.balanced and sheet.complete and sheet.next_game is None
    assert sheet.rounds[0].check.plus == 78


def test_players_equal_on_games_won_and_total_share_a_place() -> None:
    games = [check_paper_scores(("A", "B", "C"), {"A": 10, "B": -10, "C": 0}),
             check_paper_scores(("A", "B", "C"), {"A": -10, "B": 10, "C": 0})]
    places = {s.name: s.place for s in standings(("A", "B", "C"), games)}
    assert places == {"A": 1, "B": 1, "C": 3}


def test_games_are_numbered_across_the_session_into_rounds() -> None:
    assert [round_of(n, 3) for n in range(1, 8)] == [1, 1, 1, 2, 2, 2, 3]


def test_player_names_are_trimmed_unique_and_may_be_any_script() -> None:
    assert check_players(["  Ann ", "Jürgen", "אבי", ""]) == ("Ann", "Jürgen", "אבי")
    with pytest.raises(ScoringError, match="ann is already playing"):
        check_players(["Ann", "ann"])
    with pytest.raises(ScoringError, match="2 to 4 players, not 1"):
        check_players(["Ann"])


def test_a_full_width_name_is_the_same_player_as_its_plain_spelling() -> None:
    """A phone's keyboard in full-width mode types ``Ａnn``: on the sheet it reads as Ann, so
    it was a second Ann at the table, and a winner typed "Ann" picked one of the two."""
    for twin in ("Ａnn", "ＡＮＮ", "Ann\u200a"):
        with pytest.raises(ScoringError, match="is already playing"):
            check_players(["Ann", twin])
    assert check_players(["Ann", "Anne", "Ån"]) == ("Ann", "Anne", "Ån")
    result = score_went_out(("Ann", "Bob"), "ａｎｎ", {"Bob": Rack.of_total(5)}, preset=PRESSMAN)
    assert result.winner == "Ann"


def test_rule_overrides_change_one_choice_and_refuse_unknown_ones() -> None:
    rules = apply_rule_overrides(SABRA, {"joker_penalty": 25, "exhausted_pool": "fewest_tiles"})
    assert rules.joker_penalty == 25 and rules.initial_meld == 50
    assert rules.exhausted_pool is ExhaustedPoolRule.FEWEST_TILES
    with pytest.raises(ScoringError, match="joker_penalty must be a whole number"):
        apply_rule_overrides(PRESSMAN, {"joker_penalty": -1})
    with pytest.raises(ScoringError, match="`colour` is not a rule"):
        apply_rule_overrides(PRESSMAN, {"colour": 1})
