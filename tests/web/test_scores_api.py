"""The scores JSON API: the same core, the same rules as the pages."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.web import create_app
from companion.web.extensions import db
from tests.golden import GOLDEN, GOLDEN_AS_PLAYED, GOLDEN_STANDINGS


def start(client: FlaskClient, players: list[str] | None = None, rounds: int = 1,
          **extra: Any) -> tuple[int, dict[str, str]]:
    answer = client.post("/api/v1/sessions", json={"players": players or ["A", "B", "C", "D"],
                                                    "rounds": rounds, **extra})
    assert answer.status_code == 201, answer.json
    return answer.json["id"], {"Authorization": f"Bearer {answer.json['edit_key']}"}


def post_game(client: FlaskClient, session_id: int, key: dict[str, str],
              body: dict[str, Any]) -> Any:
    return client.post(f"/api/v1/sessions/{session_id}/games", json=body, headers=key)


def games_stored(client: FlaskClient, session_id: int) -> int:
    return len(client.get(f"/api/v1/sessions/{session_id}").json["games"])


def test_the_golden_score_table_through_the_api_each_way(client: FlaskClient) -> None:
    session_id, key = start(client)
    for number, (body, expected) in enumerate(zip(GOLDEN_AS_PLAYED, GOLDEN, strict=True),
                                              start=1):
        answer = post_game(client, session_id, key, body)
        assert answer.status_code == 201, answer.json
        assert answer.json["scores"] == expected
        assert answer.json["number"] == number and answer.json["round"] == 1
    sheet = client.get(f"/api/v1/sessions/{session_id}").json
    assert sheet["standings"] == GOLDEN_STANDINGS
    assert sheet["balanced"] is True and sheet["complete"] is True
    assert sheet["games"][2]["racks"]["A"] == "J K2"
    refused = post_game(client, session_id, key, {"ending": "paper", "scores": GOLDEN[0]})
    assert refused.status_code == 409 and "complete" in refused.json["error"]


def test_the_rule_book_exhausted_pool_example(client: FlaskClient) -> None:
    session_id, key = start(client)
    answer = post_game(client, session_id, key, {"ending": "exhausted",
                                                 "racks": {"A": 12, "B": 20, "C": 31, "D": 7}})
    assert answer.status_code == 201
    assert answer.json["winner"] == "D"
    assert answer.json["scores"] == {"A": -5, "B": -13, "C": -24, "D": 42}


def test_a_tie_for_the_lowest_rack_asks_for_the_winner_and_stores_nothing(
        client: FlaskClient) -> None:
    session_id, key = start(client, ["Ann", "Bob", "Cy"])
    racks = {"Ann": "K3 K4", "Bob": "R7", "Cy": 20}
    tie = post_game(client, session_id, key, {"ending": "exhausted", "racks": racks})
    assert tie.status_code == 422
    assert tie.json["tied"] == ["Ann", "Bob"] and tie.json["fewest_tiles"] == "Bob"
    assert games_stored(client, session_id) == 0
    named = post_game(client, session_id, key,
                      {"ending": "exhausted", "racks": racks, "winner": "Ann"})
    assert named.json["scores"] == {"Ann": 13, "Bob": 0, "Cy": -13}


def test_paper_scores_that_do_not_sum_to_zero_are_refused_with_the_difference(
        client: FlaskClient) -> None:
    session_id, key = start(client)
    answer = post_game(client, session_id, key, {"ending": "paper", "scores": {
        "A": 30, "B": -5, "C": -16, "D": -3}})
    assert answer.status_code == 422
    assert "+6" in answer.json["error"] and "should score +24" in answer.json["error"]
    assert games_stored(client, session_id) == 0


@pytest.mark.parametrize(("body", "named"), [
    ({"ending": "out", "winner": "A", "racks": {"B": 5, "C": 5, "Zed": 5}}, "Zed"),
    ({"ending": "out", "winner": "A", "racks": {"B": 5, "C": 5}}, "D"),
    ({"ending": "out", "winner": "A", "racks": {"A": "K5", "B": 5, "C": 5, "D": 5}}, "A"),
    ({"ending": "out", "winner": "A", "racks": {"B": "R5 X9", "C": 5, "D": 5}}, "B"),
    ({"ending": "out", "winner": "A", "racks": {"B": -5, "C": 5, "D": 5}}, "B"),
    ({"ending": "out", "winner": "A", "racks": {"B": "R5 R5", "C": "R5", "D": 5}}, "R5"),
    ({"ending": "out", "winner": "A", "racks": {"B": "D", "C": 5, "D": 5}}, "double joker"),
    ({"ending": "exhausted", "racks": {"A": 1, "B": 2, "C": 3}}, "D"),
    ({"ending": "paper", "scores": {"A": 5, "B": 5, "C": -5, "D": -5}}, "plus scores"),
    ({"ending": "paper", "scores": {"A": 5, "B": -5, "C": 0, "D": "x"}}, "D"),
    ({"ending": "sideways"}, "ending"),
    ({"ending": "out", "racks": {"B": 5, "C": 5, "D": 5}}, "winner"),
])
def test_bad_games_are_refused_naming_what_is_wrong_and_store_nothing(
        client: FlaskClient, body: dict[str, Any], named: str) -> None:
    session_id, key = start(client)
    answer = post_game(client, session_id, key, body)
    assert answer.status_code in (400, 422)
    assert named in answer.json["error"]
    assert games_stored(client, session_id) == 0


def test_writes_need_the_edit_key(client: FlaskClient) -> None:
    session_id, _key = start(client)
    body = {"ending": "paper", "scores": GOLDEN[0]}
    assert post_game(client, session_id, {}, body).status_code == 401
    wrong = post_game(client, session_id, {"Authorization": "Bearer nope"}, body)
    assert wrong.status_code == 403 and "error" in wrong.json
    assert post_game(client, 999, {"Authorization": "Bearer nope"}, body).status_code == 404
    assert client.get("/api/v1/sessions/999").json["error"]
    assert games_stored(client, session_id) == 0


def test_bad_sessions_are_refused_naming_the_field(client: FlaskClient) -> None:
    cases = [({"players": ["A"], "rounds": 1}, "2 to 4 players"),
             ({"players": ["A", "a"], "rounds": 1}, "already playing"),
             ({"players": ["A", "B"], "rounds": 0}, "rounds"),
             ({"players": ["A", "B"], "rounds": 1, "preset": "chess"}, "unknown preset"),
             ({"players": ["A", "B"], "rules": {"joker_penalty": -4}}, "joker_penalty"),
             ({"players": ["A", " ", "B"]}, "player 2 has no name"),
             ({"players": "A, B"}, "players")]
    for body, named in cases:
        answer = client.post("/api/v1/sessions", json=body)
        assert answer.status_code in (400, 422) and named in answer.json["error"], body
    assert client.get("/api/v1/sessions").json["sessions"] == []


def test_a_session_keeps_its_preset_and_overridden_joker_penalty(client: FlaskClient) -> None:
    session_id, key = start(client, ["Ann", "Bob"], preset="sabra",
                            rules={"joker_penalty": 25})
    sheet = client.get(f"/api/v1/sessions/{session_id}").json
    assert sheet["preset"] == "sabra" and sheet["rules"]["joker_penalty"] == 25
    answer = post_game(client, session_id, key,
                       {"ending": "out", "winner": "Ann", "racks": {"Bob": "J K4"}})
    assert answer.json["scores"] == {"Ann": 29, "Bob": -29}


def test_editing_a_game_recomputes_the_standings_and_keeps_a_history(
        client: FlaskClient) -> None:
    session_id, key = start(client, ["Ann", "Bob"], rounds=2)
    post_game(client, session_id, key, {"ending": "out", "winner": "Ann", "racks": {"Bob": 10}})
    post_game(client, session_id, key, {"ending": "out", "winner": "Bob", "racks": {"Ann": 4}})
    edited = client.put(f"/api/v1/sessions/{session_id}/games/1", headers=key,
                        json={"ending": "out", "winner": "Bob", "racks": {"Ann": "K13"}})
    assert edited.status_code == 200 and edited.json["scores"] == {"Ann": -13, "Bob": 13}
    sheet = client.get(f"/api/v1/sessions/{session_id}").json
    assert sheet["standings"][0] == {"name": "Bob", "games_won": 2, "score": 17, "place": 1}
    history = client.get(f"/api/v1/sessions/{session_id}/history").json["history"]
    assert [change["action"] for change in history] == ["recorded", "recorded", "edited"]
    assert "Ann +10 → −13" in history[-1]["summary"]


def test_only_the_last_game_can_be_undone(client: FlaskClient) -> None:
    session_id, key = start(client, ["Ann", "Bob"])
    post_game(client, session_id, key, {"ending": "paper", "scores": {"Ann": 5, "Bob": -5}})
    post_game(client, session_id, key, {"ending": "paper", "scores": {"Ann": -7, "Bob": 7}})
    not_last = client.delete(f"/api/v1/sessions/{session_id}/games/1", headers=key)
    assert not_last.status_code == 409 and "game 2" in not_last.json["error"]
    assert client.delete(f"/api/v1/sessions/{session_id}/games/2").status_code == 401
    undone = client.delete(f"/api/v1/sessions/{session_id}/games/2", headers=key)
    assert undone.status_code == 200
    sheet = client.get(f"/api/v1/sessions/{session_id}").json
    assert sheet["totals"] == {"Ann": 5, "Bob": -5} and sheet["next_game"]["number"] == 2
    again = post_game(client, session_id, key,
                      {"ending": "paper", "scores": {"Ann": -1, "Bob": 1}})
    assert again.json["number"] == 2


def test_deleting_a_session_needs_its_key(client: FlaskClient) -> None:
    session_id, key = start(client, ["Ann", "Bob"])
    assert client.delete(f"/api/v1/sessions/{session_id}").status_code == 401
    assert client.delete(f"/api/v1/sessions/{session_id}", headers=key).status_code == 200
    assert client.get(f"/api/v1/sessions/{session_id}").status_code == 404


def test_the_migrations_build_exactly_the_models_schema(tmp_path: Path) -> None:
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext
    from flask_migrate import upgrade

    app: Flask = create_app({"TESTING": True, "SECRET_KEY": "test",
                             "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'm.sqlite'}"})
    with app.app_context():
        upgrade()
        with db.engine.connect() as connection:
            differences = compare_metadata(MigrationContext.configure(connection),
                                           db.metadata)
    assert differences == []


def test_a_paper_sheet_of_zeros_is_kept_once_the_winner_is_named(client: FlaskClient) -> None:
    # equal racks when the pool ran out: the app itself records 0 / 0; typed from paper the
    # same game balances too, and the winner (+0) is the one the table names
    session_id, key = start(client, ["Ann", "Bob"])
    unnamed = post_game(client, session_id, key, {"ending": "paper",
                                                  "scores": {"Ann": 0, "Bob": 0}})
    assert unnamed.status_code == 422 and "say who won" in unnamed.json["error"]
    assert games_stored(client, session_id) == 0
    named = post_game(client, session_id, key, {"ending": "paper", "winner": "Bob",
                                                "scores": {"Ann": 0, "Bob": 0}})
    assert named.status_code in (200, 201), named.json
    assert named.json["scores"] == {"Ann": 0, "Bob": 0} and named.json["winner"] == "Bob"
    assert games_stored(client, session_id) == 1
