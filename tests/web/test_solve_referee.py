"""Issue 26 through the web doors: the solve API and page, the turn API's hint (the core and
CLI cases are in tests/core/test_solver_rules.py)."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

from tests.core.test_solver_rules import INITIAL, run


@pytest.mark.parametrize(("table", "rack", "goal", "count", "value"), INITIAL)
def test_the_api_lays_the_whole_initial_meld(client: FlaskClient, table: str, rack: str,
                                             goal: str, count: int, value: int) -> None:
    data = client.post("/api/v1/solve", json={"table": table, "rack": rack, "goal": goal,
                                              "opened": False}).get_json()
    assert data["possible"] is True
    assert len(data["played"]) == count and data["value"] == value


def test_the_api_says_which_best_play_it_answers(client: FlaskClient) -> None:
    ruled = client.post("/api/v1/solve", json={"table": "K5 J K7", "rack": "K6",
                                               "opened": True}).get_json()
    assert ruled["possible"] is False and ruled["any_table"] is False
    anything = client.post("/api/v1/solve", json={"table": "K5 J K7", "rack": "K6",
                                                  "opened": True, "any_table": True}).get_json()
    assert anything["played"] == ["K6"] and anything["any_table"] is True
    bad = client.post("/api/v1/solve", json={"table": "K5 J K7", "rack": "K6",
                                             "any_table": "yes"})
    assert bad.status_code == 400 and bad.get_json()["where"] == {"field": "any_table"}


def test_the_page_says_which_best_play_it_shows(client: FlaskClient) -> None:
    page = client.get("/solve", query_string={"table": "K5 J K7", "rack": "K6 R6 B6",
                                              "opened": "y", "preset": "pressman"})
    assert "Only a play the referee allows" in page.get_data(as_text=True)
    page = client.get("/solve", query_string={"table": "K5 J K7", "rack": "K6",
                                              "opened": "y", "any_table": "y"})
    text = page.get_data(as_text=True)
    assert "Any legal table after the turn: the referee may still refuse" in text
    assert "Lay 1 tile from your rack" in text


def test_the_turn_page_and_api_hint_follow_the_referee(client: FlaskClient) -> None:
    data = client.post("/api/v1/turn", json={"before": "K5 J K7", "after": "K5 K7 K6 | J",
                                             "rack": "K6", "opened": True}).get_json()
    assert data["arrangement"]["possible"] is False
    assert data["arrangement"]["reason_code"] == "solver_no_legal_turn"
    code, output = run("turn", "--before", "K5 J K7", "--after", "K5 K7 K6 | J", "--rack", "K6",
                       "--opened")
    assert code == 1 and "no arrangement of these tiles makes a turn the rules allow" in output
