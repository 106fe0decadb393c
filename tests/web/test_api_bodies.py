"""What every JSON endpoint reads, through the one shared reader (``companion.web.api``):
the same refusals for a body of the wrong shape, size or text on every route, and nothing
stored when a body is refused."""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from companion.web.extensions import db
from companion.web.models import Group, ScoreSession

LONE_SURROGATE = "\ud800"
"""JSON may spell ``"\\ud800"``; Python decodes it to a str that cannot be encoded again."""


def start_session(client: FlaskClient) -> tuple[str, dict[str, str]]:
    answer = client.post("/api/v1/sessions", json={"players": ["Ann", "Bob", "Cy"]})
    assert answer.status_code == 201, answer.json
    return answer.json["id"], {"Authorization": f"Bearer {answer.json['edit_key']}"}


def stored(app: Flask) -> tuple[int, int]:
    """How many sessions and groups the database holds."""
    with app.app_context():
        return (db.session.scalar(select(func.count()).select_from(ScoreSession)) or 0,
                db.session.scalar(select(func.count()).select_from(Group)) or 0)


def post_json(client: FlaskClient, url: str, body: Any, **headers: str) -> Any:
    """Posts ``body`` as JSON text with escapes, as a phone's JSON library would send it."""
    return client.post(url, data=json.dumps(body), headers={
        "Content-Type": "application/json", **headers})


BODIES_WITH_A_LONE_SURROGATE = [
    ("/api/v1/check", {"table": f"R5 R6 R7{LONE_SURROGATE}"}, "table"),
    ("/api/v1/rack-value", {"rack": LONE_SURROGATE}, "rack"),
    ("/api/v1/solve", {"table": "R5 R6 R7", "rack": f"R8{LONE_SURROGATE}"}, "rack"),
    ("/api/v1/turn", {"after": "R5 R6 R7", "before": LONE_SURROGATE}, "before"),
    ("/api/v1/groups", {"name": f"club {LONE_SURROGATE}"}, "name"),
    ("/api/v1/sessions", {"players": ["Ann", f"B{LONE_SURROGATE}b"]}, "players"),
    ("/api/v1/sessions", {"players": ["Ann", "Bob"], "group": LONE_SURROGATE}, "group"),
    ("/api/v1/sessions", {"players": ["Ann", "Bob"], "rules": {LONE_SURROGATE: 5}}, "rules"),
]


@pytest.mark.parametrize(("url", "body", "field"), BODIES_WITH_A_LONE_SURROGATE)
def test_half_a_surrogate_pair_anywhere_in_a_body_is_a_400_naming_the_field(
        app: Flask, client: FlaskClient, url: str, body: dict[str, Any], field: str) -> None:
    answer = post_json(client, url, body)
    assert answer.status_code == 400, answer.text
    assert answer.json["where"]["field"] == field
    assert "\\ud800" in answer.json["error"] and "surrogate" in answer.json["error"]
    assert stored(app) == (0, 0)


def test_a_game_with_half_a_surrogate_pair_and_an_idempotency_key_stores_nothing(
        client: FlaskClient) -> None:
    """The idempotency hash encoded the body and failed with a 500 on such text."""
    session_id, key = start_session(client)
    url = f"/api/v1/sessions/{session_id}/games"
    game = {"ending": "out", "winner": "Ann", "racks": {"Bob": 5, "Cy": 6}}
    for body, said in [({**game, "note": LONE_SURROGATE}, "`note`"),
                       ({**game, "racks": {"Bob": 5, LONE_SURROGATE: 6}}, "a name in `racks`"),
                       ({**game, "racks": {"Bob": [5, LONE_SURROGATE]}}, "`racks.Bob[1]`")]:
        answer = post_json(client, url, body, **key, **{"Idempotency-Key": "phone-1-write-1"})
        assert answer.status_code == 400, answer.text
        assert answer.json["error"].startswith(said)
    assert client.get(f"/api/v1/sessions/{session_id}").json["games"] == []
    recorded = post_json(client, url, game, **key, **{"Idempotency-Key": "phone-1-write-1"})
    assert recorded.status_code == 201, recorded.json


def test_a_surrogate_pair_written_as_two_escapes_is_one_character_and_accepted(
        client: FlaskClient) -> None:
    answer = client.post("/api/v1/sessions", data='{"players": ["Ann", "\\ud83d\\ude00"]}',
                         content_type="application/json")
    assert answer.status_code == 201, answer.json
    assert answer.json["players"] == ["Ann", "😀"]


@pytest.mark.parametrize("url", ["/api/v1/check", "/api/v1/rack-value", "/api/v1/solve",
                                 "/api/v1/turn", "/api/v1/groups"])
def test_every_tool_endpoint_reads_its_body_as_the_score_keeper_does(
        client: FlaskClient, url: str) -> None:
    """These read ``request.get_json`` themselves: no size bound of their own, no Content-Type
    hint, a list answered like an empty object."""
    huge = client.post(url, json={"table": "x" * 100_000, "rack": "x", "name": "x",
                                  "after": "x"})
    assert huge.status_code == 413 and "at most 64 KB" in huge.json["error"]
    plain = client.post(url, data="table=R5", content_type="text/plain")
    assert plain.status_code == 400
    assert "Content-Type: application/json" in plain.json["error"]
    assert "such as {" in plain.json["error"]
    listed = client.post(url, json=["R5 R6 R7"])
    assert listed.status_code == 400 and "not a list" in listed.json["error"]
    assert listed.json["where"] == {"field": "body"}


@pytest.mark.parametrize(("body", "field", "said"), [
    ({"rules": []}, "rules", "`rules` must be an object"),
    ({"rules": 0}, "rules", "`rules` must be an object"),
    ({"overrides": ""}, "overrides", "`overrides` must be an object"),
    ({"rules": {"joker_penalty": 25}, "overrides": {"initial_meld": 50}}, "rules",
     "send the rules once"),
    ({"rules": {"joker_penalty": 25}, "joker_penalty": 50}, "joker_penalty",
     "`joker_penalty` is given twice"),
])
def test_rules_of_the_wrong_shape_or_given_twice_are_refused_not_dropped(
        app: Flask, client: FlaskClient, body: dict[str, Any], field: str, said: str) -> None:
    """An empty list or 0 as ``rules`` was taken as "no rules"; with both ``rules`` and
    ``overrides`` the second was dropped; a rule at the top level silently beat ``rules``."""
    answer = client.post("/api/v1/sessions", json={"players": ["Ann", "Bob"], **body})
    assert answer.status_code == 400, answer.json
    assert answer.json["where"] == {"field": field} and said in answer.json["error"]
    assert stored(app) == (0, 0)


def test_rules_given_once_in_any_accepted_spelling_are_kept(client: FlaskClient) -> None:
    for body in ({"rules": {"joker_penalty": 25}}, {"overrides": {"joker_penalty": 25}},
                 {"joker_penalty": 25}, {"rules": {"joker_penalty": 25}, "joker_penalty": 25},
                 {"rules": None, "joker_penalty": 25}):
        answer = client.post("/api/v1/sessions", json={"players": ["Ann", "Bob"], **body})
        assert answer.status_code == 201, (body, answer.json)
        assert answer.json["rules"]["joker_penalty"] == 25, body
