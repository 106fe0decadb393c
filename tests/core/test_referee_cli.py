"""`companion turn`: the exit codes and the JSON the held-out turns are judged on."""

from __future__ import annotations

import json

from click.testing import CliRunner

from companion.cli import main


def run(*args: str, stdin: str | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["turn", *args], input=stdin)
    return result.exit_code, result.output


def test_a_legal_turn_exits_zero_with_the_documented_json() -> None:
    code, output = run("--before", "B3 B4 J", "--after", "B3 B4 B5 | J R7 O7",
                       "--rack", "B5 R7 O7", "--opened", "--json")
    assert code == 0
    data = json.loads(output)
    assert data["legal"] is True and data["violations"] == []
    assert sorted(data["played"]) == ["B5", "O7", "R7"]
    assert data["value"] == 33


def test_an_illegal_turn_exits_one_and_lists_every_violation_code() -> None:
    code, output = run("--before", "R5 R6 R7", "--after", "R5 R6 R7 R8 R9 R10", "--json")
    assert code == 1
    codes = [v["code"] for v in json.loads(output)["violations"]]
    assert codes == ["meld_too_low", "meld_touches_table"]


def test_the_sabra_preset_applies_its_joker_rules() -> None:
    args = ("--before", "R3 R4 J R6 R7", "--after", "R3 R4 J | R6 R7 R8", "--opened", "--json")
    assert run(*args)[0] == 0
    code, output = run(*args, "--preset", "sabra")
    assert code == 1
    assert json.loads(output)["violations"][0]["code"] == "joker_set_manipulated"


def test_without_before_the_table_was_empty_and_the_text_report_names_the_penalty() -> None:
    code, output = run("--after", "R8 R9 R10")
    assert code == 1
    assert "[meld_too_low] the initial meld is worth 27" in output
    assert "draw 3" in output


def test_one_field_may_come_from_standard_input() -> None:
    code, output = run("--before", "-", "--after", "R5 R6 R7 R8", "--opened", stdin="R5 R6 R7\n")
    assert code == 0 and "Legal turn." in output


def test_bad_notation_exits_two_naming_the_field_and_the_tile() -> None:
    code, output = run("--before", "R5 R6 R7", "--after", "R5 R6 R7 X8")
    assert code == 2
    assert "table after the turn" in output and "`X8`" in output and "tile 4" in output


def test_impossible_tiles_across_the_rack_and_the_table_exit_two() -> None:
    code, output = run("--before", "R7 R8 R9 | R7 B7 O7", "--after", "R7 R8 R9 | R7 B7 O7",
                       "--rack", "R7")
    assert code == 2 and "rack" in output and "R7" in output


def test_two_fields_from_standard_input_are_refused() -> None:
    code, output = run("--before", "-", "--after", "-", stdin="R5 R6 R7")
    assert code == 2 and "only one of" in output
