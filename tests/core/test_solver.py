"""The solver: can these tiles be laid, and the best play. Rule texts quoted from the seeds."""

from __future__ import annotations

import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from companion.core.melds import check_table
from companion.core.presets import PRESSMAN, SABRA, TWIST
from companion.core.referee import referee_turn
from companion.core.solver import arrange, arrangement_hint, best_play, describe_arrangement
from companion.core.solver_lay import _moves_within
from companion.core.tiles import ImpossibleTilesError, all_numbered_tiles, parse_rack, parse_table


def laid(text: str, preset=PRESSMAN):
    tiles = parse_rack(text)
    solution = arrange(tiles, preset=preset)
    if solution.possible:
        assert check_table(solution.table, preset=preset).legal
        assert Counter(t for meld in solution.table for t in meld) == Counter(tiles)
    return solution


def test_tiles_laid_wrongly_can_be_laid_again_as_legal_sets() -> None:
    solution = laid("R5 R6 R7 R8 K8 B8")
    assert solution.possible and solution.complete
    assert sorted(len(meld) for meld in solution.table) == [3, 3]
    assert solution.reason is None


def test_a_tile_that_fits_nowhere_is_named() -> None:
    solution = laid("R1 R2 R3 K7")
    assert not solution.possible
    assert solution.reason == "K7 fits in no run or group"


def test_thirteen_is_never_followed_by_one() -> None:
    # "The number 1 is always played as the lowest number; it cannot follow the number 13."
    # (seed 000)
    assert not laid("R12 R13 R1").possible
    assert laid("R1 R2 R3 R12 R13 J").possible


def test_a_joker_takes_the_place_a_set_needs() -> None:
    # "Each joker can be used as any tile in a set" (seed 000)
    solution = laid("R12 R13 J")
    assert [str(t) for t in solution.table[0]] == ["J", "R12", "R13"]


def test_jokers_may_stand_for_tiles_whose_both_copies_are_elsewhere() -> None:
    # Three groups of 5s from seven tiles and two jokers: each joker is a third 5 of a colour.
    assert laid("K5 B5 O5 K5 B5 O5 R5 J J").possible


def test_the_double_joker_stands_for_two_numbers_but_is_one_tile() -> None:
    # "Run: 2 - Double Joker - 5. The Double Joker represents the numbers 3 and 4." (seed 003)
    assert laid("R2 D R5", TWIST).possible
    # "The Double Joker cannot be used before the number 2 or after the number 12" (seed 003)
    solution = laid("R12 R13 D", TWIST)
    assert [str(t) for t in solution.table[0]] == ["D", "R12", "R13"]
    # "you are not allowed to leave sets with two tiles on the table" (seed 003)
    assert not laid("R12 D", TWIST).possible


def test_mirror_and_colour_change_jokers_are_placed_in_sets_their_rules_allow() -> None:
    assert laid("R3 R4 M R4 R3 K1 K2 K3", TWIST).possible
    assert laid("R5 R6 C B8 B9", TWIST).possible
    solution = laid("M K1 O9", TWIST)
    assert not solution.possible
    assert solution.reason == ("the solver finds no set for the mirror joker: it could not place "
                               "it in any set the rules allow")
    both = laid("R3 R4 M R4 R3 C", TWIST)
    assert not both.possible
    assert "mirror joker and the colour-change joker together" in (both.reason or "")


def test_a_special_joker_on_the_rack_is_played_where_its_rules_allow() -> None:
    play = best_play(parse_table("R5 R6 R7 | K9 B9 O9"), parse_rack("R8 C B10 K1"),
                     opened=True, preset=TWIST)
    assert sorted(str(t) for t in play.played) == ["B10", "C", "R8"]
    assert check_table(play.table, preset=TWIST).legal


def test_the_whole_box_can_be_laid() -> None:
    box = list(all_numbered_tiles()) * 2 + list(parse_rack("J J"))
    solution = laid(" ".join(str(t) for t in box))
    assert solution.possible and solution.complete


def test_a_third_copy_is_an_input_error_naming_the_tile() -> None:
    # "2 sets of tiles numbered 1 to 13 in four colors" (seed 000)
    with pytest.raises(ImpossibleTilesError, match="R5"):
        arrange(parse_rack("R5 R5 R5"))
    with pytest.raises(ImpossibleTilesError, match="K9"):
        best_play(parse_table("K9 B9 O9"), parse_rack("K9 K9"), opened=True)


def test_a_search_that_runs_out_of_time_answers_and_says_it_is_incomplete() -> None:
    table = parse_table("R1 R2 R3 | K5 B5 O5 | B9 B10 B11 J")
    solution = best_play(table, parse_rack("K1 R4 J"), opened=True, time_limit=0.0)
    assert solution.complete is False
    assert solution.to_json()["complete"] is False


def test_the_initial_meld_uses_only_the_rack_and_reaches_the_minimum() -> None:
    # "each player must place tiles on the table in one or more sets that total at least 30
    # points ... players may not use tiles already played on the table." (seed 000)
    table = parse_table("R5 R6 R7 | K9 B9 O9")
    play = best_play(table, parse_rack("K10 K11 K12 R8 B1"), opened=False)
    assert play.possible
    assert sorted(str(t) for t in play.played) == ["K10", "K11", "K12"]
    assert play.table[:2] == table  # the table is not touched
    short = best_play(table, parse_rack("K8 K9 K10 R8"), opened=False)
    assert not short.possible
    assert "initial meld of 30" in (short.reason or "")


def test_a_joker_in_the_initial_meld_counts_the_tile_it_stands_for() -> None:
    # "A joker used in the initial meld scores the value of the tile it represents." (seed 000)
    play = best_play((), parse_rack("R7 R8 R9 J"), opened=False)
    assert len(play.played) == 4  # 7 + 8 + 9 + 10 = 34: only with the joker


def test_sabra_way_asks_fifty_for_the_initial_meld() -> None:
    rack = parse_rack("K10 K11 K12 B10 O10")
    assert best_play((), rack, opened=False, preset=PRESSMAN).possible
    assert not best_play((), rack, opened=False, preset=SABRA).possible


def test_after_the_initial_meld_the_table_may_be_rearranged() -> None:
    table = parse_table("R5 R6 R7 R8")
    play = best_play(table, parse_rack("K8 B8 O1"), opened=True)
    assert sorted(str(t) for t in play.played) == ["B8", "K8"]
    assert check_table(play.table).legal
    assert play.value == 16


def test_nothing_to_play_means_draw_a_tile() -> None:
    play = best_play(parse_table("R5 R6 R7"), parse_rack("K1 O12"), opened=True)
    assert not play.possible
    assert "draw a tile" in (play.reason or "")
    assert play.table == parse_table("R5 R6 R7")


def test_the_value_goal_takes_jokers_at_thirty() -> None:
    table = parse_table("R5 R6 R7")
    by_value = best_play(table, parse_rack("J K13"), opened=True, goal="value")
    assert [str(t) for t in by_value.played] == ["J"]
    assert by_value.value == 30


def test_the_hint_is_silent_on_a_legal_table_and_shows_a_legal_arrangement() -> None:
    assert arrangement_hint(parse_table("R5 R6 R7")) is None
    hint = arrangement_hint(parse_table("R5 R6 | R7 K7 B7 O7"))
    assert hint is not None and hint.possible
    assert describe_arrangement(hint).startswith("These tiles can be laid as: ")
    cannot = arrangement_hint(parse_table("R5 R6 | K1"))
    assert cannot is not None
    assert describe_arrangement(cannot) == ("These tiles cannot all be laid: K1, R5, R6 fit in no "
                                            "run or group.")


def test_by_default_a_retrieved_joker_must_make_a_new_set() -> None:
    # "a player who retrieves a joker must play the joker on his/her current turn to make a
    # new set" (seed 000): R5 frees the joker, which may not join K7 B7 O7 or its own run again
    table = parse_table("R3 R4 J | K7 B7 O7")
    rack = parse_rack("R5 R6")
    free = best_play(table, rack, opened=True, any_table=True)
    assert len(free.played) == 2
    assert not referee_turn(table, free.table, opened=True, preset=PRESSMAN, rack=rack).legal
    ruled = best_play(table, rack, opened=True)
    assert [str(t) for t in ruled.played] == ["R6"]
    assert referee_turn(table, ruled.table, opened=True, preset=PRESSMAN, rack=rack).legal


def test_by_default_a_joker_exchanged_for_a_rack_tile_may_make_a_new_set() -> None:
    # the Sabra text (seed 002): "replace the joker with his blue 5 and play the joker with the
    # two sevens as a new group"
    table = parse_table("B3 B4 J")
    rack = parse_rack("B5 R7 O7")
    for preset in (PRESSMAN, SABRA):
        play = best_play(table, rack, opened=True, preset=preset)
        assert len(play.played) == 3
        assert referee_turn(table, play.table, opened=True, preset=preset, rack=rack).legal


def test_a_double_joker_may_share_a_set_with_a_mirror_or_colour_change_joker() -> None:
    # "It is a great tool for playing with the Double Joker." (seed 003, the Mirror Joker);
    # "Note: A series may contain more than one Bonus Joker and/or Regular Joker." (seed 003)
    mirrored = laid("R3 D R6 M R6 D R3", TWIST)
    assert [" ".join(map(str, meld)) for meld in mirrored.table] == ["R3 D R6 M R6 D R3"]
    assert laid("R5 R6 C B8 D", TWIST).possible


def test_a_joker_may_stand_for_a_third_copy_inside_a_run() -> None:
    # "Each joker can be used as any tile in a set" (seed 000): the sets are judged one by one
    assert check_table(parse_table("R3 R4 R5 | R3 R4 R5 | J R6 R7")).legal
    assert laid("R3 R4 R5 R3 R4 R5 J R6 R7").possible
    # the search keeps any number of open runs per colour: two 6s continue two runs while a
    # joker stands for a third 6 in a third
    moves = _moves_within((1, 2, 2), 6, False, 2, 1, 0)
    assert any(move[:4] == ((2, 3, 3), 2, 1, 0) for move in moves)


SPECIAL_JOKER_TABLE = "K2 O2 R2 B2 C D"


def _arrangement_in_a_fresh_process(hash_seed: str) -> str:
    code = ("from companion.core.solver import arrange\n"
            "from companion.core.presets import TWIST\n"
            "from companion.core.tiles import parse_rack\n"
            f"print(arrange(parse_rack({SPECIAL_JOKER_TABLE!r}), preset=TWIST).to_json())")
    root = Path(__file__).resolve().parents[2]
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, cwd=root,
                          env={**os.environ, "PYTHONHASHSEED": hash_seed,
                               "PYTHONPATH": str(root)}).stdout


def test_the_sets_tried_for_special_jokers_do_not_depend_on_the_process() -> None:
    """The shapes tried for a mirror or colour-change joker come in the order they are made,
    not in a set's order (which follows the hashes, different in every process): the same
    tiles get the same arrangement every time."""
    assert len({_arrangement_in_a_fresh_process(seed) for seed in ("1", "2", "3")}) == 1
