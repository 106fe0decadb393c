"""Explanations a player accepts (issue 8): readings, joker positions, hints, locations."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from companion.cli import main
from companion.core.english import known_codes, render
from companion.core.melds import MeldKind, check_meld, check_table
from companion.core.presets import PRESSMAN, TWIST
from companion.core.reasons import Reason
from companion.core.referee import TurnInputError, referee_typed_turn
from companion.core.tiles import (
    LONGEST_NOTATION,
    NotationError,
    Tile,
    parse_rack,
    parse_table,
    parse_tiles,
)


def test_a_set_that_is_both_a_run_and_a_group_lists_every_reading() -> None:
    # Seed 000: "Each joker can be used as any tile in a set"; J K5 J is K4 K5 K6 or a group.
    verdict = check_meld(parse_tiles("J K5 J"))
    assert verdict.kinds == (MeldKind.RUN, MeldKind.GROUP)
    run, group = verdict.readings
    assert [j.stands_for for j in run.jokers] == [("K4",), ("K6",)]
    assert [j.stands_for for j in group.jokers] == [("B5", "O5", "R5")] * 2
    # the jokers of the chosen reading carry the options of every reading of the same value
    assert [j.stands_for for j in verdict.jokers] == [("B5", "K4", "O5", "R5"),
                                                      ("B5", "K6", "O5", "R5")]
    text = verdict.describe()
    assert text.startswith("J K5 J: legal run or group, value 15")
    assert "as a run" in text and "as a group" in text and "K4" in text and "O5" in text
    assert [r["kind"] for r in verdict.to_json()["readings"]] == ["run", "group"]


def test_a_lower_reading_is_listed_but_does_not_blur_the_chosen_one() -> None:
    verdict = check_meld(parse_tiles("K5 J J"))
    assert verdict.kind is MeldKind.RUN and verdict.value == 18
    assert [j.stands_for for j in verdict.jokers] == [("K6",), ("K7",)]
    assert [r.value for r in verdict.readings] == [18, 15]


def test_a_set_with_one_reading_lists_one() -> None:
    assert check_meld(parse_tiles("R5 R6 J")).kinds == (MeldKind.RUN,)
    assert check_meld(parse_tiles("K9 B9 J")).kinds == (MeldKind.GROUP,)


def test_joker_positions_of_a_reordered_set_are_given_in_the_order_laid() -> None:
    verdict = check_meld(parse_tiles("R12 R13 J"))
    assert [str(t) for t in verdict.order] == ["J", "R12", "R13"]
    (joker,) = verdict.jokers
    assert joker.position == 1 and joker.typed_position == 3
    assert "joker at 1 = R11" in verdict.describe()


def test_an_illegal_table_never_reaches_the_initial_meld() -> None:
    text = check_table(parse_table("K10 K11 K12 | R1 R2 R4")).describe()
    assert "reaches" not in text and "no initial meld" in text
    assert "NOT LEGAL (1 of 2 sets illegal)" in text
    assert "(1 of 1 set illegal)" in check_table(parse_table("R1 R2 R4")).describe()
    assert "reaches the initial meld" in check_table(parse_table("K10 K11 K12")).describe()


@pytest.mark.parametrize(("token", "hint"), [
    ("J1", "did you mean J?"),
    ("R5R6R7", "did you mean R5 R6 R7?"),
    ("09", "did you mean O9?"),
    ("o9o10", "did you mean O9 O10?"),
    ("10r", "did you mean R10?"),
])
def test_the_usual_slips_get_a_did_you_mean_hint(token: str, hint: str) -> None:
    with pytest.raises(NotationError) as caught:
        parse_table(f"R1 R2 {token}")
    assert hint in str(caught.value) and "set 1, tile 3" in str(caught.value)


def test_a_bad_rack_tile_is_located_in_the_rack_not_in_a_set() -> None:
    with pytest.raises(NotationError) as caught:
        parse_rack("K5 R14 | J")
    assert str(caught.value) == "`R14` at rack, tile 2: numbers run 1–13"
    assert caught.value.where == {"token": "R14", "place": "rack", "tile": 2}
    with pytest.raises(TurnInputError) as turn_error:
        referee_typed_turn("", "R5 R6 R7", opened=True, preset=PRESSMAN, rack_text="R5 X6")
    assert str(turn_error.value) == ("`X6` at rack, tile 2: `X` is not a colour: use K (black), "
                                     "R (red), B (blue) or O (orange)")
    assert turn_error.value.where["field"] == "rack"


def test_a_number_of_thousands_of_digits_is_the_notations_own_error() -> None:
    with pytest.raises(NotationError, match="numbers run 1–13"):
        Tile.parse("R" + "9" * 4301)
    with pytest.raises(NotationError):
        parse_rack("R" + "9" * 4301)


def test_text_longer_than_any_real_table_is_refused_before_it_is_read() -> None:
    with pytest.raises(NotationError, match="characters long"):
        parse_table("R5 " * (LONGEST_NOTATION // 3 + 1))
    every_tile_of_a_twist_box = " | ".join(
        " ".join(f"{colour}{n}" for n in range(1, 14)) for colour in "KRBO" for _copy in (1, 2))
    assert len(parse_table(every_tile_of_a_twist_box + " | J J D D M M C C")) == 9


@pytest.mark.parametrize("args", [
    ["check", "R" + "9" * 4301],
    ["turn", "--after", "R" + "9" * 4301],
    ["turn", "--after", "R5 R6 R7", "--rack", "R" + "9" * 4301],
    ["check", "R5 " * 2000],
])
def test_the_cli_answers_huge_input_with_exit_two_and_no_traceback(args: list[str]) -> None:
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output and result.exception is not None
    assert isinstance(result.exception, SystemExit)


def test_the_cli_turn_reports_the_penalty_in_json_and_text() -> None:
    result = CliRunner().invoke(main, ["turn", "--before", "R1 R2 R3", "--after", "R1 R2 R3",
                                       "--opened", "--json"])
    assert result.exit_code == 1 and '"penalty": "draw_one"' in result.output
    result = CliRunner().invoke(main, ["turn", "--before", "R1 R2 R3", "--after",
                                       "R1 R2 R3 R5", "--opened"])
    assert "Penalty: put the table back" in result.output and "draw 3 tiles" in result.output


def test_every_reason_code_has_one_english_sentence() -> None:
    assert {"group_repeats_colour", "run_gap", "joker_not_reused", "table_before_illegal",
            "bonus_joker_replaced_joker"} <= known_codes()
    verdict = check_meld(parse_tiles("K7 K7 B7"))
    assert verdict.why == Reason("group_repeats_colour", {"colour": "black", "number": 7})
    assert verdict.reason == render(verdict.why) == "a group can't hold two black 7s"
    data = verdict.to_json()
    assert data["reason_code"] == "group_repeats_colour"
    assert data["reason_params"] == {"colour": "black", "number": 7}


def test_a_tile_prints_as_its_notation_in_a_failing_test() -> None:
    assert repr(Tile.parse("r7")) == "Tile.parse('R7')"
    assert repr(parse_tiles("R7 J")) == "TileSet.parse('R7 J')"
    assert repr(parse_table("r7 j | k1 k2 k3")) == "Tabletop.parse('R7 J | K1 K2 K3')"
    assert parse_tiles("R7 J") == (Tile.parse("R7"), Tile.parse("J"))  # still a tuple of tiles


def test_the_slowest_twist_set_of_the_issue_is_judged() -> None:
    verdict = check_meld(parse_tiles("R6 C D R5 R7 J C M J D"), preset=TWIST)
    assert not verdict.legal and verdict.reason


def test_the_cli_turns_the_tournament_rule_on() -> None:
    args = ["turn", "--before", "K5 R5 J", "--after", "K5 R5 B5 | J O9 O10", "--rack",
            "B5 O9 O10", "--opened", "--preset", "sabra"]
    assert CliRunner().invoke(main, args).exit_code == 0
    strict = CliRunner().invoke(main, [*args, "--tournament-rule"])
    assert strict.exit_code == 1 and "joker_needs_both_missing_tiles" in strict.output


def test_the_cli_takes_over_time() -> None:
    result = CliRunner().invoke(main, ["turn", "--before", "R5 R6 R7", "--after", "R5 R6 R7 R8",
                                       "--rack", "R8", "--opened", "--over-time", "--json"])
    assert result.exit_code == 1
    assert '"penalty": "draw_three"' in result.output and '"code": "over_time"' in result.output
