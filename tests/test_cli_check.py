"""`companion check`: exit 0 legal, 1 illegal, 2 bad input with the message on stderr."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest


def companion(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "companion", *args], input=stdin,
                          capture_output=True, text=True, check=False)


def test_a_legal_table_exits_zero_with_a_readable_report() -> None:
    result = companion("check", "R5 R6 J | K9 B9 O9")
    assert result.returncode == 0, result.stderr
    assert "joker at 3 = R7" in result.stdout
    assert "Table: legal." in result.stdout


def test_an_illegal_table_exits_one_and_says_why() -> None:
    result = companion("check", "R12 R13 R1")
    assert result.returncode == 1
    assert "13 cannot be followed by 1" in result.stdout


def test_json_output_has_the_documented_shape() -> None:
    result = companion("check", "--json", "--preset", "twist", "R2 D R5 | K7 K7 B7")
    assert result.returncode == 1
    data = json.loads(result.stdout)
    assert data["legal"] is False and data["total"] == 14
    assert [s["legal"] for s in data["sets"]] == [True, False]
    assert data["sets"][0]["jokers"][0]["stands_for"] == ["R3+R4"]
    assert data["sets"][1]["kind"] is None and data["sets"][1]["value"] is None


def test_a_dash_reads_the_table_from_stdin() -> None:
    result = companion("check", "--json", "-", stdin="R10 R11 R12\nK1 B1 O1\n")
    assert result.returncode == 0
    assert json.loads(result.stdout)["total"] == 36


@pytest.mark.parametrize(("args", "message"), [
    (("check", "R5 R6 R14"), "`R14` at set 1, tile 3: numbers run 1–13"),
    (("check", ""), "the table is empty"),
    (("check", "R7 R7 R7"), "appears 3 times"),
    (("check", "R2 D R5"), "no double jokers"),
    (("check", "--preset", "poker", "R5 R6 R7"), "poker"),
])
def test_bad_input_exits_two_with_a_message_and_no_traceback(args, message) -> None:
    result = companion(*args)
    assert result.returncode == 2
    assert message in result.stderr
    assert "Traceback" not in result.stderr
