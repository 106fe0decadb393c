"""The turn referee: the seeds' manipulation examples as legal turns, and each one broken."""

from __future__ import annotations

import pytest

from companion.core.presets import get_preset
from companion.core.referee import Penalty, TurnVerdict, ViolationCode, referee_turn
from companion.core.tiles import ImpossibleTilesError, parse_rack, parse_table


def judge(before: str, after: str, *, opened: bool = True, preset: str = "pressman",
          rack: str | None = None) -> TurnVerdict:
    return referee_turn(parse_table(before), parse_table(after), opened=opened,
                        preset=get_preset(preset),
                        rack=None if rack is None else parse_rack(rack))


def codes(verdict: TurnVerdict) -> list[str]:
    return list(verdict.codes)


# Seed 000/001/003: "Add one or more tiles from the rack to extend a run".

def test_adding_tiles_from_the_rack_to_both_ends_of_a_run_is_legal() -> None:
    verdict = judge("B4 B5 B6", "B3 B4 B5 B6 B7", rack="B3 B7 K1")
    assert verdict.legal and codes(verdict) == []
    assert [str(tile) for tile in verdict.played] == ["B3", "B7"]
    assert verdict.value == 25


def test_adding_a_tile_the_rack_did_not_hold_is_caught_and_named() -> None:
    verdict = judge("B4 B5 B6", "B3 B4 B5 B6 B7", rack="B3 K1")
    assert codes(verdict) == ["not_from_rack"]
    assert "B7" in verdict.violations[0].message


def test_building_onto_a_run_and_a_group_in_one_turn_is_legal() -> None:
    assert judge("B4 B5 B6 | O8 R8 K8", "B3 B4 B5 B6 | O8 R8 K8 B8").legal


# "Remove a fourth tile from a group and use it to form a new set".

def test_taking_the_fourth_tile_of_a_group_for_a_new_run_is_legal() -> None:
    verdict = judge("K4 R4 B4 O4", "K4 R4 O4 | B3 B4 B5 B6", rack="B3 B5 B6")
    assert verdict.legal
    assert [str(tile) for tile in verdict.played] == ["B3", "B5", "B6"]


def test_taking_a_tile_from_a_group_of_three_leaves_an_illegal_set() -> None:
    verdict = judge("K4 R4 B4", "K4 R4 | B3 B4 B5 B6", rack="B3 B5 B6")
    assert codes(verdict) == ["illegal_set"]
    assert "K4 R4" in verdict.violations[0].message


# "Add a fourth tile to a set and remove one tile from it to make another set".

def test_adding_to_a_run_and_taking_its_other_end_for_a_group_is_legal() -> None:
    assert judge("B8 B9 B10", "B9 B10 B11 | B8 R8 O8", rack="B11 R8 O8").legal


def test_taking_the_end_of_a_run_without_adding_to_it_leaves_an_illegal_set() -> None:
    verdict = judge("B8 B9 B10", "B9 B10 | B8 R8 O8", rack="B11 R8 O8")
    assert codes(verdict) == ["illegal_set"]


# "Splitting a run".

def test_splitting_a_run_around_a_tile_from_the_rack_is_legal() -> None:
    assert judge("R4 R5 R6 R7 R8", "R4 R5 R6 | R6 R7 R8", rack="R6").legal


def test_splitting_a_run_without_a_tile_from_the_rack_is_caught_twice() -> None:
    verdict = judge("R4 R5 R6 R7 R8", "R4 R5 R6 | R7 R8")
    assert codes(verdict) == ["nothing_played", "illegal_set"]


# "Combined split": blue 1 from the rack, orange 1 from the run, red 1 from the group.

def test_a_combined_split_into_a_new_group_is_legal() -> None:
    verdict = judge("O1 O2 O3 O4 | K1 R1 B1 O1", "O2 O3 O4 | K1 B1 O1 | B1 O1 R1", rack="B1")
    assert verdict.legal


def test_a_combined_split_that_breaks_a_group_of_three_is_caught() -> None:
    verdict = judge("O1 O2 O3 O4 | K1 R1 O1", "O2 O3 O4 | K1 O1 | B1 O1 R1", rack="B1")
    assert codes(verdict) == ["illegal_set"]


# "Multiple split": black 10 and blue 5 from the rack, three groups and one new run.

MULTIPLE_SPLIT_BEFORE = "R10 R11 R12 | O10 O11 O12 | B6 B7 B8 B9 B10 B11 B12"


def test_a_multiple_split_into_three_groups_and_a_run_is_legal() -> None:
    verdict = judge(MULTIPLE_SPLIT_BEFORE,
                    "K10 R10 O10 | R11 O11 B11 | R12 O12 B12 | B5 B6 B7 B8 B9 B10",
                    rack="K10 B5")
    assert verdict.legal
    assert [str(tile) for tile in verdict.played] == ["K10", "B5"]


def test_a_multiple_split_that_takes_a_table_tile_home_is_caught() -> None:
    verdict = judge(MULTIPLE_SPLIT_BEFORE,
                    "K10 R10 O10 | R11 O11 B11 | R12 O12 B12 | B5 B6 B7 B8 B9", rack="K10 B5")
    assert codes(verdict) == ["tile_removed"]
    assert "B10 (blue 10)" in verdict.violations[0].message


# Joker retrieval (seed 002's example; seed 003's clearing by moving tiles).

def test_retrieving_a_joker_and_playing_it_with_two_rack_tiles_is_legal_everywhere() -> None:
    for preset in ("pressman", "sabra"):
        verdict = judge("B3 B4 J", "B3 B4 B5 | J R7 O7", rack="B5 R7 O7", preset=preset)
        assert verdict.legal, (preset, verdict.violations)


def test_two_jokers_in_sets_retyped_in_another_order_are_both_still_in_place() -> None:
    """Seed 000: "When players cannot play any tiles from their racks, or purposely choose not
    to, they must draw a tile from the pool." Found by tests/core/test_referee_properties.py:
    the jokers of J K5 K6 (a K4) and K5 K6 K7 J (a K8), the sets typed the other way round
    and in the other order. The first joker was followed to the first set after the turn
    that it could stand in (K5 K6 K7 with a K4 before it), leaving the second with no place:
    "joker not reused". Each old joker is now paired with its place over all of them."""
    verdict = judge("J K5 K6 | K5 K6 K7 J", "J K7 K6 K5 | K6 K5 J")
    assert codes(verdict) == ["nothing_played"], verdict.violations


def test_clearing_a_joker_by_moving_table_tiles_is_legal() -> None:
    # Seed 003: "The player splits the run — the Black 1 is moved to the group of 1s and the
    # Black 2 is moved to the group of 2s, clearing the Regular Joker."
    before, after = "K1 K2 J | R1 B1 O1 | R2 B2 O2", "R1 B1 O1 K1 | R2 B2 O2 K2 | J R9 R10"
    assert judge(before, after, rack="R9 R10").legal
    assert judge(before, after, rack="R9 R10", preset="twist").legal


def test_clearing_a_joker_without_exchanging_it_from_the_hand_is_refused_in_sabra() -> None:
    # Behaviour corrected (issue 8): seed 004 "You may take a Joker from a run or group in
    # exchange for a tile of the same value from your hand"; "You may not take a tile away
    # from a meld which includes a Joker".
    verdict = judge("K1 K2 J | R1 B1 O1 | R2 B2 O2", "R1 B1 O1 K1 | R2 B2 O2 K2 | J R9 R10",
                    rack="R9 R10", preset="sabra")
    assert codes(verdict) == ["joker_set_manipulated", "joker_not_exchanged"]


def test_a_freed_joker_taken_home_is_caught() -> None:
    verdict = judge("B3 B4 J", "B3 B4 B5 | K7 R7 O7", rack="B5 K7 R7 O7")
    assert codes(verdict) == ["tile_removed", "joker_not_reused"]


def test_a_freed_joker_laid_only_with_table_tiles_is_caught() -> None:
    verdict = judge("B3 B4 J | K9 R9 O9", "B3 B4 B5 | K9 R9 O9 J", rack="B5")
    assert codes(verdict) == ["joker_not_reused"]


def test_a_joker_retrieved_before_the_initial_meld_is_caught() -> None:
    verdict = judge("B3 B4 J", "B3 B4 B5 | J K10 O10 | R10 R11 R12", opened=False,
                    rack="B5 K10 O10 R10 R11 R12")
    assert codes(verdict) == ["meld_touches_table", "joker_before_meld"]


def test_a_freed_joker_with_one_rack_tile_is_enough_for_pressman_not_for_sabra() -> None:
    before, after, rack = "B3 B4 J | K7 B7 O7 R7", "B3 B4 B5 | K7 B7 O7 | J R7 O7", "B5 O7"
    assert judge(before, after, rack=rack).legal
    verdict = judge(before, after, rack=rack, preset="sabra")
    assert codes(verdict) == ["joker_needs_two_rack_tiles"]


def test_replacing_a_joker_and_reusing_it_in_its_own_run_is_not_a_new_set() -> None:
    # Behaviour corrected (issue 8): seed 000 "must play the joker on his/her current turn to
    # make a new set"; seed 003 "used in the same turn as part of a new set".
    assert codes(judge("R5 J R7", "R5 R6 R7 J", rack="R6")) == ["joker_not_reused"]
    assert codes(judge("R5 J R7", "R5 R6 R7 R8 J", rack="R6 R8", preset="sabra")) == [
        "joker_not_reused"]
    assert judge("R5 J R7", "R5 R6 R7 | J R8 R9", rack="R6 R8 R9", preset="sabra").legal


def test_the_order_a_set_is_typed_in_after_the_turn_does_not_move_its_joker() -> None:
    assert judge("R5 R6 J", "J R4 R5 R6", rack="R4", preset="sabra").legal
    assert codes(judge("R5 R6 J", "R5 R6 R7 J", rack="R7", preset="sabra")) == [
        "joker_not_reused"]


def test_splitting_a_run_that_holds_a_joker_is_legal_except_in_sabra() -> None:
    before, after = "R3 R4 J R6 R7", "R3 R4 J | R6 R7 R8"
    assert judge(before, after, rack="R8").legal
    assert codes(judge(before, after, rack="R8", preset="sabra")) == ["joker_set_manipulated"]


def test_adding_to_a_set_that_holds_a_joker_is_legal_in_sabra() -> None:
    assert judge("R3 R4 J R6 R7", "R3 R4 J R6 R7 R8", preset="sabra").legal
    assert judge("K5 R5 J", "K5 R5 J B5", preset="sabra").legal


def test_taking_a_tile_from_a_group_that_holds_a_joker_is_caught_in_sabra() -> None:
    verdict = judge("K5 R5 B5 J | O6 O7 O8", "K5 R5 J | O5 O6 O7 O8 | B5 B6 B7",
                    rack="O5 B6 B7", preset="sabra")
    assert codes(verdict) == ["joker_set_manipulated"]


def test_an_illegal_set_holding_a_joker_is_not_also_read_as_a_retrieval() -> None:
    verdict = judge("R5 R6 J", "R5 R6 J R9", rack="R9", preset="sabra")
    assert codes(verdict) == ["illegal_set"]


# The initial meld.

def test_an_initial_meld_of_enough_points_on_an_empty_table_is_legal() -> None:
    verdict = judge("", "K10 J K12", opened=False)
    assert verdict.legal and verdict.value == 33


def test_an_initial_meld_below_the_minimum_says_the_value_reached() -> None:
    verdict = judge("B1 B2 B3", "B1 B2 B3 | R8 R9 R10", opened=False)
    assert codes(verdict) == ["meld_too_low"]
    assert verdict.value == 27
    assert "27" in verdict.violations[0].message and "30" in verdict.violations[0].message


def test_sabra_asks_fifty_points_for_the_initial_meld() -> None:
    assert codes(judge("", "K10 K11 K12", opened=False, preset="sabra")) == ["meld_too_low"]
    assert judge("", "K10 K11 K12 | R10 B10 O10", opened=False, preset="sabra").legal


def test_an_initial_meld_that_adds_to_a_table_set_is_caught() -> None:
    verdict = judge("R5 R6 R7", "R5 R6 R7 R8 | K10 K11 K12", opened=False)
    assert codes(verdict) == ["meld_touches_table"]
    assert verdict.value == 33


def test_an_initial_meld_made_only_by_adding_to_the_table_is_too_low_and_touches_it() -> None:
    verdict = judge("R5 R6 R7", "R5 R6 R7 R8 R9 R10", opened=False)
    assert codes(verdict) == ["meld_too_low", "meld_touches_table"]
    assert verdict.value == 0


def test_laying_the_same_sets_as_the_table_may_be_read_as_the_new_meld() -> None:
    verdict = judge("K10 K11 K12", "K10 K11 K12 | K10 K11 K12", opened=False)
    assert verdict.legal and verdict.value == 33


# Draws, removals, order of the violations.

def test_a_turn_that_lays_nothing_on_an_unchanged_table_is_a_draw_of_one_tile() -> None:
    # Seed 000: "When players cannot play any tiles from their racks, or purposely choose not
    # to, they must draw a tile from the pool."
    verdict = judge("R1 R2 R3", "R1 R2 R3", opened=False)
    assert codes(verdict) == ["nothing_played"]
    assert "draw" in verdict.violations[0].message
    assert verdict.penalty is Penalty.DRAW_ONE


def test_a_rearrangement_that_lays_nothing_from_the_rack_is_a_failed_turn() -> None:
    # Seed 000: "must also use at least one tile from his/her rack on that turn (just as on any
    # other turn)"; the penalty of a failed turn is "draw three tiles from the pool".
    verdict = judge("R1 R2 R3 R4 R5 R6", "R1 R2 R3 | R4 R5 R6")
    assert codes(verdict) == ["nothing_played"]
    assert verdict.penalty is Penalty.DRAW_THREE


def test_every_violation_is_reported_in_the_stable_order() -> None:
    verdict = judge("R1 R2 R3 R4 | K9 K10 J", "R1 R2 R3 | K9 K10 K11 | O5 O7 | J R12 R13",
                    opened=False, rack="K11 R12")
    assert codes(verdict) == ["tile_removed", "not_from_rack", "illegal_set", "meld_too_low",
                              "meld_touches_table", "joker_before_meld"]
    order = [code.value for code in ViolationCode]
    assert sorted(codes(verdict), key=order.index) == codes(verdict)


def test_each_illegal_set_gets_its_own_violation_with_its_reason() -> None:
    verdict = judge("", "R1 R2 R4 | K7 K7 B7 | K10 K11 K12")
    assert codes(verdict) == ["illegal_set", "illegal_set"]
    assert "set 1 “R1 R2 R4”" in verdict.violations[0].message
    assert "set 2" in verdict.violations[1].message


# Bad input is an exception, not a verdict.

@pytest.mark.parametrize(("before", "after", "rack"), [
    ("R7 R7 R7", "R7 R7 R7 R8", None),
    ("", "R7 R8 R9 | R7 B7 K7 | R7 O7 B7", None),
    ("R7 R8 R9 | R7 B7 O7", "R7 R8 R9 | R7 B7 O7 K7", "R7 K7"),
    ("J J J", "J J J", None),
])
def test_more_copies_of_a_tile_than_the_box_holds_is_bad_input(
        before: str, after: str, rack: str | None) -> None:
    with pytest.raises(ImpossibleTilesError):
        judge(before, after, rack=rack)


def test_the_verdict_as_json_has_the_documented_fields() -> None:
    data = judge("B4 B5 B6", "B4 B5 B6 B7", rack="B7 B8").to_json()
    assert data["legal"] is True and data["violations"] == []
    assert data["played"] == ["B7"] and data["value"] == 22
    broken = judge("B4 B5 B6", "B4 B5 B6 B9").to_json()
    assert broken["legal"] is False
    assert broken["violations"][0]["code"] == "illegal_set"
    assert isinstance(broken["violations"][0]["message"], str)
