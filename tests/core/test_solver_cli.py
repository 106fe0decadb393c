"""`companion solve` (and the hint `companion check` prints): exit codes and the JSON."""

from __future__ import annotations

import json

from click.testing import CliRunner

from companion.cli import main
from companion.core.melds import check_table
from companion.core.tiles import parse_table


def run(*args: str, stdin: str | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), input=stdin)
    return result.exit_code, result.output


def test_without_a_rack_solve_arranges_the_table_and_exits_zero() -> None:
    code, output = run("solve", "--table", "R5 R6 | R7 K7 B7 O7", "--json")
    assert code == 0
    data = json.loads(output)
    assert set(data) == {"possible", "sets", "played", "value", "reason", "reason_code",
                         "reason_params", "complete"}
    assert data["possible"] is True and data["complete"] is True and data["played"] == []
    assert check_table(parse_table(" | ".join(" ".join(s) for s in data["sets"]))).legal


def test_tiles_that_cannot_be_laid_exit_one_with_the_reason() -> None:
    code, output = run("solve", "--table", "R1 R2 R3 K7")
    assert code == 1
    assert "K7 fits in no run or group" in output


def test_best_play_lays_rack_tiles_and_marks_them_played() -> None:
    code, output = run("solve", "--table", "R5 R6 R7 | K9 B9 O9", "--rack", "R8 K1 J",
                       "--opened", "--json")
    assert code == 0
    data = json.loads(output)
    assert sorted(data["played"]) == ["J", "R8"]
    assert data["value"] == 38  # 8 + a joker's 30 off the rack


def test_the_rack_may_come_from_standard_input_and_the_text_names_the_play() -> None:
    code, output = run("solve", "--rack", "-", stdin="K10 K11 K12 O1\n")
    assert code == 0
    assert output.startswith("Lay K10 K11 K12 from your rack (3 tiles, value 33)")


def test_bad_input_exits_two_with_the_token_or_the_tile() -> None:
    code, output = run("solve", "--table", "R5 R14 R6")
    assert code == 2 and "`R14` at set 1, tile 2" in output
    code, output = run("solve", "--table", "R5 R6 R7", "--rack", "R5 R5")
    assert code == 2 and "R5 (red 5) appears 3 times" in output
    code, output = run("solve")
    assert code == 2


def test_check_says_how_an_illegal_table_could_be_laid() -> None:
    code, output = run("check", "R5 R6 | R7 K7 B7 O7")
    assert code == 1
    assert "These tiles can be laid as: " in output
    code, output = run("check", "R5 R6 | K1")
    assert code == 1
    assert "These tiles cannot all be laid: K1, R5, R6 fit in no run or group." in output


def test_a_time_limit_that_is_not_a_number_is_refused_not_taken_as_no_limit() -> None:
    """``nan`` passed click's range check, and the search then had no deadline at all."""
    for limit in ("nan", "NaN", "-nan"):
        code, output = run("solve", "--rack", "R1 R2 R3", "--time-limit", limit)
        assert code == 2, limit
        assert "is not a number of seconds" in output and "Traceback" not in output
    code, output = run("solve", "--rack", "R10 R11 R12", "--time-limit", "0.5")
    assert code == 0, output
