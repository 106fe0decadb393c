"""Inputs that must not break the score keeper (issue 8, section 3): each a 4xx that says what
is wrong, never a 500; and who may see and change a session (issue 9, "Private and safe")."""

from __future__ import annotations

import csv
import io
import re
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from tests.web.conftest import start_page

PLAYERS = ["Ann", "Bob"]


def start_api(client: FlaskClient, **extra: Any) -> tuple[str, dict[str, str]]:
    answer = client.post("/api/v1/sessions", json={"players": PLAYERS, "rounds": 2, **extra})
    assert answer.status_code == 201, answer.json
    return answer.json["id"], {"Authorization": f"Bearer {answer.json['edit_key']}"}


def test_a_paper_score_beyond_any_game_is_refused_on_the_page_keeping_what_was_typed(
        client: FlaskClient) -> None:
    session_id = start_page(client)
    answer = client.post(f"/scores/{session_id}/games/new", data={
        "ending": "paper", "lines-0-score": "+100000000000000000000",
        "lines-1-score": "-100000000000000000000"})
    assert answer.status_code == 422
    assert "more than one game can produce" in answer.text
    assert 'value="+100000000000000000000"' in answer.text


def test_a_paper_score_of_two_to_the_63_is_refused_by_the_api(client: FlaskClient) -> None:
    session_id, key = start_api(client)
    for huge in (2**63, 10**20, 789):
        answer = client.post(f"/api/v1/sessions/{session_id}/games", headers=key, json={
            "ending": "paper", "scores": {"Ann": huge, "Bob": -huge}})
        assert answer.status_code == 422, huge
        assert answer.json["where"] == {"field": "scores", "player": "Ann"}
    rack = client.post(f"/api/v1/sessions/{session_id}/games", headers=key, json={
        "ending": "out", "winner": "Ann", "racks": {"Bob": 2**63}})
    assert rack.status_code == 422 and "more than all the tiles" in rack.json["error"]


def test_ids_out_of_range_and_unknown_are_404(client: FlaskClient) -> None:
    session_id, _key = start_api(client)
    assert client.get("/scores/99999999999999999999999").status_code == 404
    assert client.get("/api/v1/sessions/99999999999999999999999").status_code == 404
    page_session = start_page(client)
    for path in (f"/scores/{page_session}/games/99999999999999999999999/edit",
                 f"/api/v1/sessions/{session_id}/games/99999999999999999999999"):
        assert client.get(path).status_code == 404, path
    missing = client.get("/api/v1/sessions/nope")
    assert missing.json == {"error": "there is no session nope", "where": {"field": "session"}}


def test_the_games_api_refuses_a_request_of_the_wrong_shape_with_a_clear_message(
        client: FlaskClient) -> None:
    session_id, key = start_api(client)
    url = f"/api/v1/sessions/{session_id}/games"
    listed = client.post(url, headers=key, json={"ending": ["out"], "racks": {}})
    assert listed.status_code == 400 and listed.json["where"] == {"field": "ending"}
    deep = "[" * 100_000 + "]" * 100_000
    nested = client.post(url, headers={**key, "Content-Type": "application/json"}, data=deep)
    assert nested.status_code == 413 and "at most 64 KB are read" in nested.json["error"]
    deep = "[" * 30_000 + "]" * 30_000  # within the size limit: the depth is what is refused
    nested = client.post(url, headers={**key, "Content-Type": "application/json"}, data=deep)
    assert nested.status_code == 400 and "nests deeper" in nested.json["error"]
    moderately = '{"ending": "paper", "scores": ' + "[" * 40 + "]" * 40 + "}"
    answer = client.post(url, headers={**key, "Content-Type": "application/json"},
                         data=moderately)
    assert answer.status_code == 400 and "nests deeper than 16" in answer.json["error"]
    for raw, said in [("{", "not valid JSON"), ("[1]", "not a list"),
                      ('{"ending": NaN}', "not valid JSON"),
                      ('{"n": ' + "9" * 5000 + "}", "not valid JSON"),
                      ("{}" + " " * 70_000, "bytes")]:
        refused = client.post(url, headers={**key, "Content-Type": "application/json"},
                              data=raw)
        assert refused.status_code in (400, 413) and said in refused.json["error"], raw
        assert set(refused.json) == {"error", "where"}
    plain = client.post(url, headers=key, data="ending=out")
    assert plain.status_code == 400 and "Content-Type: application/json" in plain.json["error"]


def test_a_tampered_ending_on_the_record_form_is_refused_with_a_message(
        client: FlaskClient) -> None:
    session_id = start_page(client)
    for tampered in ("sideways", "", "x" * 5000):
        answer = client.post(f"/scores/{session_id}/games/new", data={
            "ending": tampered, "winner": "Ann", "lines-1-rack": "K5"})
        assert answer.status_code == 422
        assert "did not say how the game ended" in answer.text
    number = client.post(f"/scores/{session_id}/games/new", data={
        "ending": "out", "winner": "Ann", "lines-1-rack": "K5", "number": "٣"})
    assert number.status_code == 422 and "game number was changed" in number.text


def test_a_rack_with_both_tiles_and_points_is_refused(client: FlaskClient) -> None:
    session_id = start_page(client)
    answer = client.post(f"/scores/{session_id}/games/new", data={
        "ending": "out", "winner": "Ann", "lines-1-rack": "K5 R3", "lines-1-total": "8"})
    assert answer.status_code == 422
    assert "not both" in answer.text and 'K5 R3</textarea>' in answer.text


def test_a_gap_in_the_seats_says_so(client: FlaskClient) -> None:
    answer = client.post("/scores/new", data={"player_1": "Ann", "player_2": "Bob",
                                              "player_4": "Dee", "rounds": 1,
                                              "preset": "pressman"})
    assert answer.status_code == 422
    assert "Seat 3 is empty but seat 4 is not" in answer.text
    assert 'value="Dee"' in answer.text


def test_a_gap_in_the_seats_is_said_once_in_the_page_language(client: FlaskClient) -> None:
    """A blank first seat also showed "seat 1 is empty", in English, under player 4."""
    client.get("/language/de")
    answer = client.post("/scores/new", data={"player_1": "  ", "player_2": "Bob",
                                              "rounds": 1, "preset": "pressman"})
    assert answer.status_code == 422
    assert answer.text.count('class="field-error"') == 1
    assert "Platz 1 ist leer, Platz 2 aber nicht" in answer.text
    assert "seat 1 is empty" not in answer.text


def test_csv_cells_that_a_spreadsheet_would_run_are_escaped(client: FlaskClient) -> None:
    session_id = start_page(client, "=HYPERLINK(\"x\")", "@Bob")
    client.post(f"/scores/{session_id}/games/new", data={
        "ending": "paper", "lines-0-score": "+5", "lines-1-score": "-5"})
    rows = list(csv.reader(io.StringIO(client.get(f"/scores/{session_id}/sheet.csv").text)))
    assert rows[0][4:6] == ["'=HYPERLINK(\"x\")", "'@Bob"]
    assert rows[1][3] == "'=HYPERLINK(\"x\")"
    assert rows[1][4:6] == ["5", "-5"]  # numbers stay numbers


# Private and safe ------------------------------------------------------------------------------

def test_session_ids_are_random_and_never_given_again(client: FlaskClient) -> None:
    ids = [start_api(client)[0] for _ in range(5)]
    assert len(set(ids)) == 5
    assert all(re.fullmatch(r"[A-Za-z0-9_-]{16}", session_id) for session_id in ids)
    doomed, key = start_api(client)
    assert client.delete(f"/api/v1/sessions/{doomed}", headers=key).status_code == 200
    fresh, _key = start_api(client)
    assert fresh != doomed
    assert client.get(f"/scores/{doomed}").status_code == 404


def test_the_list_shows_only_the_sessions_this_browser_started_or_joined(
        app: Flask, client: FlaskClient) -> None:
    mine = start_page(client, "Ann", "Bob")
    stranger = app.test_client()
    theirs = start_page(stranger, "Zed", "Yan")
    listed = client.get("/scores/").text
    assert "Ann, Bob" in listed and "Zed" not in listed and theirs not in listed
    assert "Zed, Yan" in stranger.get("/scores/").text and mine not in stranger.get("/scores/").text
    assert app.test_client().get("/scores/").text.count("session-link") == 0
    assert [s["id"] for s in client.get("/api/v1/sessions").json["sessions"]] == [mine]


def test_edit_rights_are_a_small_httponly_cookie_and_the_join_link_drops_its_key(
        app: Flask, client: FlaskClient) -> None:
    first = client.post("/scores/new", data={"player_1": "Ann", "player_2": "Bob",
                                             "rounds": 1, "preset": "pressman"})
    cookie = first.headers["Set-Cookie"]
    assert "companion_device=" in cookie and "HttpOnly" in cookie and "SameSite=Lax" in cookie
    for _ in range(30):
        start_page(client)
    jar = {c.key: c.value for c in client._cookies.values()}  # type: ignore[attr-defined]
    assert "session" not in jar or "edit_keys" not in jar.get("session", "")
    assert sum(len(k) + len(v) for k, v in jar.items()) < 400
    session_id = first.location.rsplit("/", 1)[1]
    share = re.search(r'id="share-link" readonly value="([^"]+)"',
                      client.get(f"/scores/{session_id}").text)
    assert share is not None
    phone = app.test_client()
    joined = phone.get(share.group(1).replace("&amp;", "&"))
    assert joined.status_code == 302 and "key=" not in joined.location
    assert joined.location.endswith(f"/scores/{session_id}")
    assert "Record game 1" in phone.get(joined.location).text
    assert phone.get(f"/scores/{session_id}/join?key=" + "A" * 32).status_code == 403


def test_edit_keys_an_older_version_kept_in_the_cookie_become_access_and_leave_it(
        app: Flask, client: FlaskClient) -> None:
    from sqlalchemy import select

    from companion.web.extensions import db
    from companion.web.models import ScoreSession
    from companion.web.scores import service

    session_id, key = start_api(client)
    with app.app_context():
        internal = db.session.scalar(select(ScoreSession.id)
                                     .where(ScoreSession.public_id == session_id))
    old_browser = app.test_client()
    with old_browser.session_transaction() as cookie:
        cookie["edit_keys"] = {str(internal): key["Authorization"].split()[1], "77": "nope"}
    assert "Record game 1" in old_browser.get(f"/scores/{session_id}").text
    with old_browser.session_transaction() as cookie:
        assert "edit_keys" not in cookie
    assert service.MAX_GAME_NUMBER == 200
