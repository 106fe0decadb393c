"""The write path of the score keeper: two phones at once, retries, redo, and its cost.

The concurrency itself is proven against the real server in ``test_scores_live.py``; these
tests pin each piece of the design through the test client.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import event, func, select

from companion.web.extensions import db
from companion.web.models import Game, GameChange
from companion.web.scores import service
from tests.web.conftest import start_page

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
PAPER = {"ending": "paper", "scores": {"Ann": 6, "Bob": -1, "Cy": -2, "Dee": -3}}


def start(client: FlaskClient, rounds: int = 10) -> tuple[str, dict[str, str]]:
    answer = client.post("/api/v1/sessions", json={"players": PLAYERS, "rounds": rounds})
    assert answer.status_code == 201, answer.json
    return answer.json["id"], {"Authorization": f"Bearer {answer.json['edit_key']}"}


def post(client: FlaskClient, session_id: str, key: dict[str, str], body: dict[str, Any],
         **headers: str) -> Any:
    return client.post(f"/api/v1/sessions/{session_id}/games", json=body,
                       headers={**key, **headers})


@contextmanager
def counted_queries(app: Flask) -> Iterator[list[str]]:
    statements: list[str] = []

    def count(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        statements.append(statement)

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", count)
    try:
        yield statements
    finally:
        event.remove(engine, "before_cursor_execute", count)


def test_recording_or_reading_game_40_costs_no_more_queries_than_game_2(
        app: Flask, client: FlaskClient) -> None:
    session_id, key = start(client)
    cost: dict[int, dict[str, int]] = {}
    for number in range(1, 41):
        with counted_queries(app) as api_write:
            assert post(client, session_id, key, PAPER).status_code == 201
        with counted_queries(app) as api_read:
            assert client.get(f"/api/v1/sessions/{session_id}").status_code == 200
        with counted_queries(app) as page_read:
            assert client.get(f"/scores/{session_id}").status_code == 200
        cost[number] = {"record (API)": len(api_write), "read (API)": len(api_read),
                        "sheet page": len(page_read)}
    print("queries at game 2:", cost[2], "at game 40:", cost[40])
    assert cost[40] == cost[2]
    assert max(cost[40].values()) <= 12


def test_recording_through_the_page_costs_the_same_at_game_2_and_game_40(
        app: Flask, client: FlaskClient) -> None:
    session_id = start_page(client, rounds=20)
    counts = []
    for _ in range(40):
        with counted_queries(app) as page_write:
            answer = client.post(f"/scores/{session_id}/games/new", data={
                "ending": "paper", "lines-0-score": "+3", "lines-1-score": "-3"})
            assert answer.status_code == 302
        counts.append(len(page_write))
    assert counts[39] == counts[1], counts


def test_the_next_number_comes_from_the_stored_games_not_a_count(
        app: Flask, client: FlaskClient) -> None:
    """The broken session of issue 9 (games 1-12 and 14): the next game is 15, not 14."""
    session_id, key = start(client)
    for _ in range(3):
        post(client, session_id, key, PAPER)
    with app.app_context():
        game = db.session.scalar(select(Game).where(Game.number == 3))
        game.number = 5
        db.session.commit()
    answer = post(client, session_id, key, PAPER)
    assert answer.status_code == 201 and answer.json["number"] == 6


def test_a_phone_recording_a_game_another_phone_just_recorded_is_told_what_was_recorded(
        client: FlaskClient) -> None:
    session_id, key = start(client)
    first = post(client, session_id, key, {**PAPER, "number": 1})
    assert first.status_code == 201
    late = post(client, session_id, key, {"ending": "paper", "number": 1,
                                          "scores": {"Ann": -1, "Bob": 1, "Cy": 0, "Dee": 0}})
    assert late.status_code == 409
    assert late.json["recorded"]["scores"] == PAPER["scores"]
    assert "game 1 was already recorded" in late.json["error"] and late.json["where"]
    ahead = post(client, session_id, key, {**PAPER, "number": 7})
    assert ahead.status_code == 409 and "next game is 2" in ahead.json["error"]


def test_a_unique_number_conflict_in_the_database_is_a_409_with_the_stored_game(
        client: FlaskClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """If two writers ever got the same number (a database without the lock), the constraint
    decides: the change-log row is added inside the ``try``, so the answer is 409, not 500."""
    session_id, key = start(client)
    post(client, session_id, key, PAPER)
    monkeypatch.setattr(service, "games_stored", lambda _session: (0, 0))
    clash = post(client, session_id, key, PAPER)
    assert clash.status_code == 409
    assert clash.json["recorded"]["number"] == 1 and "another phone" in clash.json["error"]
    monkeypatch.undo()
    assert len(client.get(f"/api/v1/sessions/{session_id}").json["games"]) == 1


def test_the_same_request_twice_with_one_idempotency_key_is_one_game(
        client: FlaskClient) -> None:
    session_id, key = start(client)
    first = post(client, session_id, key, PAPER, **{"Idempotency-Key": "phone-1-game-1"})
    again = post(client, session_id, key, PAPER, **{"Idempotency-Key": "phone-1-game-1"})
    assert first.status_code == again.status_code == 201
    assert again.json == first.json and again.headers["Idempotent-Replayed"] == "true"
    other = post(client, session_id, key, {**PAPER, "scores": {"Ann": -1, "Bob": 1, "Cy": 0,
                                                               "Dee": 0}},
                 **{"Idempotency-Key": "phone-1-game-1"})
    assert other.status_code == 422 and other.json["where"] == {"header": "Idempotency-Key"}
    undo = client.delete(f"/api/v1/sessions/{session_id}/games/1",
                         headers={**key, "Idempotency-Key": "undo-1"})
    assert undo.status_code == 200
    # A retry of the first write after the undo records no new game, and says the game it
    # recorded was undone since (it replayed 201 while no game was stored: issue 27).
    late_retry = post(client, session_id, key, PAPER, **{"Idempotency-Key": "phone-1-game-1"})
    assert late_retry.status_code == 409 and "undone since" in late_retry.json["error"]
    assert client.get(f"/api/v1/sessions/{session_id}").json["games"] == []
    assert client.delete(f"/api/v1/sessions/{session_id}/games/1",
                         headers={**key, "Idempotency-Key": "undo-1"}).status_code == 200
    bad_key = post(client, session_id, key, PAPER, **{"Idempotency-Key": "x" * 101})
    assert bad_key.status_code == 400 and "Idempotency-Key" in bad_key.json["error"]


def test_the_same_form_posted_twice_records_one_game(client: FlaskClient) -> None:
    session_id = start_page(client)
    page = client.get(f"/scores/{session_id}/games/new?ending=paper").text
    token = re.search(r'name="idempotency_key" type="hidden" value="([^"]+)"', page)
    number = re.search(r'name="number" type="hidden" value="([^"]+)"', page)
    assert token is not None and number is not None and number.group(1) == "1"
    posted = {"ending": "paper", "idempotency_key": token.group(1), "number": "1",
              "lines-0-score": "+4", "lines-1-score": "-4"}
    assert client.post(f"/scores/{session_id}/games/new", data=posted).status_code == 302
    again = client.post(f"/scores/{session_id}/games/new", data=posted, follow_redirects=True)
    assert "was already recorded from this form" in again.text
    games = client.get(f"/api/v1/sessions/{session_id}").json["games"]
    assert [game["number"] for game in games] == [1]
    next_page = client.get(f"/scores/{session_id}/games/new?ending=paper").text
    assert token.group(1) not in next_page


def test_after_an_undo_redo_is_offered_until_the_next_change(client: FlaskClient) -> None:
    session_id, key = start(client, rounds=1)
    post(client, session_id, key, PAPER)
    second = {"ending": "out", "winner": "Bob", "racks": {"Ann": "K5 J", "Cy": 3, "Dee": 4}}
    post(client, session_id, key, second)
    assert client.get(f"/api/v1/sessions/{session_id}").json["redo"] is None
    assert client.post(f"/api/v1/sessions/{session_id}/redo", headers=key).status_code == 409
    client.delete(f"/api/v1/sessions/{session_id}/games/2", headers=key)
    assert client.get(f"/api/v1/sessions/{session_id}").json["redo"] == 2
    redone = client.post(f"/api/v1/sessions/{session_id}/redo", headers=key)
    assert redone.status_code == 201
    assert redone.json["number"] == 2 and redone.json["racks"]["Ann"] == "K5 J"
    assert redone.json["scores"] == {"Ann": -35, "Bob": 42, "Cy": -3, "Dee": -4}
    again = client.post(f"/api/v1/sessions/{session_id}/redo", headers=key)
    assert again.status_code == 409 and "nothing to redo" in again.json["error"]
    client.delete(f"/api/v1/sessions/{session_id}/games/2", headers=key)
    post(client, session_id, key, PAPER)  # the next change: the undone game is gone for good
    assert client.get(f"/api/v1/sessions/{session_id}").json["redo"] is None
    actions = [c["action"] for c in
               client.get(f"/api/v1/sessions/{session_id}/history").json["history"]]
    assert actions == ["recorded", "recorded", "undone", "redone", "undone", "recorded"]


def test_the_sheet_page_offers_redo_after_undo_and_it_puts_the_game_back(
        client: FlaskClient) -> None:
    session_id = start_page(client)
    client.post(f"/scores/{session_id}/games/new",
                data={"ending": "out", "winner": "Ann", "lines-1-rack": "R9 B4"})
    assert "Redo game" not in client.get(f"/scores/{session_id}").text
    client.post(f"/scores/{session_id}/games/1/undo")
    sheet = client.get(f"/scores/{session_id}").text
    assert "Redo game 1" in sheet and "+13" not in sheet
    client.post(f"/scores/{session_id}/redo")
    sheet = client.get(f"/scores/{session_id}").text
    assert "Redo game" not in sheet and "+13" in sheet
    assert "Game 1 put back (redo)" in client.get(f"/scores/{session_id}/history").text


def test_the_history_keeps_the_idempotency_key_with_the_change(
        app: Flask, client: FlaskClient) -> None:
    session_id, key = start(client)
    post(client, session_id, key, PAPER, **{"Idempotency-Key": "k-1"})
    with app.app_context():
        change = db.session.scalar(select(GameChange))
        assert change.idempotency_key == "k-1" and change.answer["status"] == 201
        assert db.session.scalar(select(func.count()).select_from(Game)) == 1


def test_a_form_for_a_game_another_phone_recorded_first_keeps_the_typing_and_says_what(
        app: Flask, client: FlaskClient) -> None:
    session_id = start_page(client)
    other_phone = {"ending": "paper", "number": "1", "lines-0-score": "+4",
                   "lines-1-score": "-4"}
    assert client.post(f"/scores/{session_id}/games/new", data=other_phone).status_code == 302
    late = client.post(f"/scores/{session_id}/games/new", data={
        "ending": "out", "winner": "Bob", "number": "1", "lines-0-rack": "K7 K8"})
    assert late.status_code == 409
    assert "Game 1 was already recorded from another phone (Ann won)" in late.text
    assert "Recorded there: game 1: Ann won (Ann +4, Bob −4)." in late.text
    assert 'K7 K8</textarea>' in late.text and 'name="number" type="hidden" value="2"' in late.text
    assert "Record game 2" in late.text


def test_an_edit_of_a_game_another_phone_undid_keeps_the_typing_to_record_it_again(
        client: FlaskClient) -> None:
    session_id = start_page(client)
    client.post(f"/scores/{session_id}/games/new",
                data={"ending": "out", "winner": "Ann", "lines-1-rack": "R9 B4"})
    assert client.get(f"/scores/{session_id}/games/1/edit").status_code == 200
    client.post(f"/scores/{session_id}/games/1/undo")  # the other phone, meanwhile
    late = client.post(f"/scores/{session_id}/games/1/edit", data={
        "ending": "out", "winner": "Ann", "lines-1-rack": "R9 B5"})
    assert late.status_code == 409
    assert ("Game 1 is no longer on the sheet (undone on another phone while you were editing"
            " it): nothing was saved") in late.text
    assert 'R9 B5</textarea>' in late.text and 'name="number" type="hidden" value="1"' in late.text
    assert client.get(f"/api/v1/sessions/{session_id}").json["games"] == []
    again = client.post(f"/scores/{session_id}/games/new", data={
        "ending": "out", "winner": "Ann", "number": "1", "lines-1-rack": "R9 B5"})
    assert again.status_code == 302
    assert "+14" in client.get(f"/scores/{session_id}").text
    # a game past the sheet's end is answered the same way: nothing saved, nothing typed lost
    assert client.post(f"/scores/{session_id}/games/9/edit", data={
        "ending": "out", "winner": "Ann", "lines-1-rack": "R9"}).status_code == 409


# Adding a round: two phones (or one double tap) at once add one round, not two

def test_a_round_asked_for_twice_by_its_number_is_added_once_by_the_api(
        client: FlaskClient) -> None:
    session_id, key = start(client, rounds=2)
    url = f"/api/v1/sessions/{session_id}/rounds"
    first = client.post(url, json={"number": 3}, headers=key)
    assert first.status_code == 200 and first.json["rounds"] == 3
    again = client.post(url, json={"number": 3}, headers=key)
    assert again.status_code == 409
    assert again.json["error"] == ("round 3 cannot be added: the session has 3 rounds now (one "
                                   "was added from another phone, or by a second tap); check "
                                   "the sheet")
    assert again.json["where"] == {"field": "number"}
    assert client.get(f"/api/v1/sessions/{session_id}").json["rounds"] == 3
    assert client.post(url, headers=key).json["rounds"] == 4  # no body: one more, as before
    for body, words in (({"number": "4"}, "whole number"), ({"number": 4.5}, "whole number")):
        refused = client.post(url, json=body, headers=key)
        assert refused.status_code == 400 and words in refused.json["error"]
    not_json = client.post(url, data="number=5", headers=key, content_type="text/plain")
    assert not_json.status_code == 400 and '{"number": 4}' in not_json.json["error"]
    assert client.get(f"/api/v1/sessions/{session_id}").json["rounds"] == 4


def test_a_double_tap_on_add_a_round_adds_one_round_and_says_so_in_the_pages_language(
        client: FlaskClient) -> None:
    session_id = start_page(client, rounds=2)
    sheet = client.get(f"/scores/{session_id}").get_data(as_text=True)
    form = re.search(r'<form method="post" action="(/scores/[^"]+/add-round)">.*?'
                     r'name="number" value="(\d+)"', sheet, re.DOTALL)
    assert form is not None and form.group(2) == "3"
    tap = {"number": form.group(2)}
    assert client.post(form.group(1), data=tap).status_code == 302
    client.set_cookie("language", "de")
    second = client.post(form.group(1), data=tap, follow_redirects=True)
    page = second.get_data(as_text=True)
    assert "Runde 3 kann nicht hinzugefügt werden: die Sitzung hat jetzt 3 Runden" in page
    assert client.get(f"/api/v1/sessions/{session_id}").json["rounds"] == 3


@pytest.mark.parametrize("day", [1, 9, 10, 28])
def test_the_history_writes_its_utc_time_the_same_on_every_day_of_the_month(
        app: Flask, client: FlaskClient, day: int) -> None:
    """The history's UTC text is Babel's 'd MMM HH:mm:ss' whatever day the suite runs on."""
    from datetime import datetime

    session_id, key = start(client)
    post(client, session_id, key, PAPER)
    with app.app_context():
        change = db.session.scalar(select(GameChange))
        change.at = datetime(2026, 12, day, 19, 12, 24)
        db.session.commit()
    history = client.get(f"/scores/{session_id}/history").text
    assert f'<time datetime="2026-12-{day:02d}T19:12:24Z">{day} Dec 19:12:24 UTC</time>' in history
