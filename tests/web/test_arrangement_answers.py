"""Every answer that finds an illegal set also says whether its tiles could be laid, and how.

Issue 11: "when some set is illegal, 'these tiles can be laid as: …' or 'these tiles cannot all
be laid'" — the check, the turn (the tiles on the table after it) and the photo, through the
CLI (text and JSON) and the JSON API alike, all from one core call (``arrangement_hint``).
"""

from __future__ import annotations

import json
from typing import Any

from click.testing import CliRunner
from flask.testing import FlaskClient

from companion.cli import main
from companion.core.melds import check_meld
from companion.core.tiles import parse_tiles
from tests.fixtures import SAMPLE_PHOTO

LAID_WRONGLY = "R5 R6 | R7 K9 B9 O9 | R8"
CANNOT_BE_LAID = "R5 R6 | K1"


def cli(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout


def assert_a_legal_arrangement_of(answer: dict[str, Any], table: str) -> None:
    assert answer["possible"] is True and answer["complete"] is True
    laid = [tile for meld in answer["sets"] for tile in meld]
    assert sorted(laid) == sorted(str(tile) for tile in parse_tiles(table.replace("|", " ")))
    assert all(check_meld(parse_tiles(" ".join(meld))).legal for meld in answer["sets"])


def test_the_check_command_answers_how_the_tiles_could_be_laid() -> None:
    code, text = cli("check", LAID_WRONGLY)
    assert code == 1 and text.rstrip().endswith("These tiles can be laid as: "
                                                 "R5 R6 R7 R8 | K9 B9 O9")
    code, text = cli("check", "--json", LAID_WRONGLY)
    assert code == 1
    assert_a_legal_arrangement_of(json.loads(text)["arrangement"], LAID_WRONGLY)


def test_tiles_that_cannot_be_laid_say_which_fit_nowhere() -> None:
    code, text = cli("check", "--json", CANNOT_BE_LAID)
    answer = json.loads(text)["arrangement"]
    assert code == 1 and answer["possible"] is False and answer["sets"] == []
    assert answer["reason_code"] == "solver_tiles_fit_nowhere"
    assert "K1" in answer["reason"]


def test_a_legal_table_has_no_arrangement() -> None:
    code, text = cli("check", "--json", "R5 R6 R7 | K9 B9 O9")
    assert code == 0 and json.loads(text)["arrangement"] is None
    code, text = cli("check", "R5 R6 R7")
    assert code == 0 and "laid as" not in text


def test_an_illegal_turn_says_how_the_table_after_it_could_have_been_laid() -> None:
    turn = ("turn", "--before", "R5 R6 R7 | K9 B9 O9", "--after", LAID_WRONGLY, "--rack", "R8",
            "--opened")
    code, text = cli(*turn)
    assert code == 1 and "These tiles can be laid as: R5 R6 R7 R8 | K9 B9 O9" in text
    code, text = cli(*turn, "--json")
    answer = json.loads(text)
    assert code == 1 and answer["legal"] is False
    assert_a_legal_arrangement_of(answer["arrangement"], LAID_WRONGLY)


def test_a_turn_broken_only_by_its_rules_not_its_sets_has_no_arrangement() -> None:
    code, text = cli("turn", "--before", "R5 R6 R7", "--after", "R5 R6 R7 | K1 K2 K3",
                     "--json")
    answer = json.loads(text)
    assert code == 1 and answer["violations"][0]["code"] == "meld_too_low"
    assert answer["arrangement"] is None


def test_the_check_and_turn_apis_carry_the_same_arrangement(client: FlaskClient) -> None:
    checked = client.post("/api/v1/check", json={"table": LAID_WRONGLY}).get_json()
    assert_a_legal_arrangement_of(checked["arrangement"], LAID_WRONGLY)
    turned = client.post("/api/v1/turn", json={
        "before": "R5 R6 R7 | K9 B9 O9", "after": LAID_WRONGLY, "rack": "R8",
        "opened": True}).get_json()
    assert turned["arrangement"] == checked["arrangement"]
    legal = client.post("/api/v1/check", json={"table": "R5 R6 R7"}).get_json()
    assert legal["legal"] is True and legal["arrangement"] is None
    cannot = client.post("/api/v1/check", json={"table": CANNOT_BE_LAID,
                                                "preset": "sabra"}).get_json()
    assert cannot["arrangement"]["possible"] is False


def test_a_photo_answer_carries_an_arrangement_exactly_when_its_reading_is_illegal(
        client: FlaskClient) -> None:
    with SAMPLE_PHOTO.open("rb") as photo:
        answer = client.post("/api/v1/photo", data={"photo": (photo, "table.jpg")},
                             content_type="multipart/form-data").get_json()
    code, text = cli("read-photo", "--json", str(SAMPLE_PHOTO))
    assert code == (0 if answer["legal"] is True else 1)
    assert json.loads(text)["arrangement"] == answer["arrangement"]
    assert (answer["arrangement"] is None) is (answer["legal"] is True)
