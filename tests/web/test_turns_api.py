"""POST /api/v1/turn: the same verdict as the CLI, and bad input answered with 400."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient


def test_a_legal_turn_is_answered_with_the_verdict(client: FlaskClient) -> None:
    response = client.post("/api/v1/turn", json={
        "before": "K4 R4 B4 O4", "after": "K4 R4 O4 | B3 B4 B5 B6", "rack": "B3 B5 B6",
        "opened": True})
    assert response.status_code == 200
    data = response.get_json()
    assert data["legal"] is True and data["violations"] == []
    assert data["played"] == ["B3", "B5", "B6"] and data["value"] == 18


def test_an_illegal_turn_lists_its_violations(client: FlaskClient) -> None:
    response = client.post("/api/v1/turn", json={
        "before": "B3 B4 J | K7 B7 O7 R7", "after": "B3 B4 B5 | K7 B7 O7 | J R7 O7",
        "rack": "B5", "opened": True, "preset": "sabra"})
    assert response.status_code == 200
    data = response.get_json()
    assert data["legal"] is False
    assert [v["code"] for v in data["violations"]] == ["not_from_rack",
                                                        "joker_needs_two_rack_tiles"]


def test_an_absent_before_is_an_empty_table(client: FlaskClient) -> None:
    data = client.post("/api/v1/turn", json={"after": "K10 K11 K12"}).get_json()
    assert data["legal"] is True and data["value"] == 33


@pytest.mark.parametrize(("payload", "field", "words"), [
    ({"before": "R5 R6 R7"}, "after", "`after` is required"),
    ({"after": ["R5"]}, "after", "must be a string"),
    ({"after": "R5 R6 R7", "opened": "yes"}, "opened", "true or false"),
    ({"after": "R5 R6 R7", "preset": "poker"}, "preset", "unknown preset"),
    ({"after": "R5 R6 Z7"}, "after", "`Z7`"),
    ({"after": "R5 R6 R7", "rack": "R5 R5 R5"}, "rack", "appears 3 times"),
])
def test_bad_input_is_a_400_naming_the_field(client: FlaskClient, payload: dict[str, Any],
                                             field: str, words: str) -> None:
    response = client.post("/api/v1/turn", json=payload)
    assert response.status_code == 400
    data = response.get_json()
    assert data["where"]["field"] == field
    assert words in data["error"]


def test_a_body_that_is_not_a_json_object_is_refused(client: FlaskClient) -> None:
    response = client.post("/api/v1/turn", data="before=R5", content_type="text/plain")
    assert response.status_code == 400
    assert "JSON object" in response.get_json()["error"]


def test_every_turn_verdict_says_its_penalty(client: FlaskClient) -> None:
    answers = [client.post("/api/v1/turn", json=body).get_json() for body in (
        {"before": "R5 R6 R7", "after": "R5 R6 R7 R8", "rack": "R8", "opened": True},
        {"before": "R5 R6 R7", "after": "R5 R6 R7", "opened": True},
        {"before": "R5 R6 R7", "after": "R5 R6 R7 R9", "opened": True})]
    assert [answer["penalty"] for answer in answers] == ["none", "draw_one", "draw_three"]


def test_a_huge_tile_number_in_a_turn_is_a_400_naming_the_field(client: FlaskClient) -> None:
    response = client.post("/api/v1/turn", json={"after": "R5 R6 R" + "9" * 4301})
    assert response.status_code == 400
    assert response.get_json()["where"]["field"] == "after"


def test_the_tournament_rule_is_a_switch_of_the_turn_api(client: FlaskClient) -> None:
    # Seed 004: "Under tournament rules, a Joker taken from a group of three tiles must be
    # replaced with both missing tiles."
    body = {"before": "K5 R5 J", "after": "K5 R5 B5 | J O9 O10", "rack": "B5 O9 O10",
            "opened": True, "preset": "sabra"}
    assert client.post("/api/v1/turn", json=body).get_json()["legal"] is True
    strict = client.post("/api/v1/turn", json=body | {"tournament_joker_rule": True}).get_json()
    assert [v["code"] for v in strict["violations"]] == ["joker_needs_both_missing_tiles"]
    bad = client.post("/api/v1/turn", json=body | {"tournament_joker_rule": "yes"})
    assert bad.status_code == 400 and bad.get_json()["where"] == {"field": "tournament_joker_rule"}


def test_over_time_is_a_field_of_the_turn_api(client: FlaskClient) -> None:
    body = {"before": "R5 R6 R7", "after": "R5 R6 R7", "opened": True, "over_time": True}
    answer = client.post("/api/v1/turn", json=body).get_json()
    assert answer["penalty"] == "draw_one" and answer["violations"][-1]["code"] == "over_time"
    bad = client.post("/api/v1/turn", json=body | {"over_time": 1})
    assert bad.status_code == 400 and bad.get_json()["where"] == {"field": "over_time"}
