"""The score sheet's link to the turn timer keeps every seat and the session's turn time."""

from __future__ import annotations

import html
import json
import re

from flask.testing import FlaskClient
from hypothesis import given
from hypothesis import strategies as st

from companion.web.turns.forms import join_player_names, player_names


def seats(page: str) -> list[str]:
    found = re.search(r"data-players='([^']*)'", page)
    assert found, "no timer on the page"
    return list(json.loads(html.unescape(found.group(1))))


def timer_link(client: FlaskClient, session_id: str) -> str:
    sheet = client.get(f"/scores/{session_id}").get_data(as_text=True)
    found = re.search(r'<a class="button secondary" href="([^"]*)">Turn timer</a>', sheet)
    assert found, "the sheet has no timer link"
    return html.unescape(found.group(1))


def start_session(client: FlaskClient, players: list[str], **fields: object) -> str:
    answer = client.post("/api/v1/sessions", json={"players": players, **fields})
    assert answer.status_code == 201, answer.get_json()
    return str(answer.get_json()["id"])


def test_a_name_with_a_comma_keeps_one_seat_on_the_sheets_timer_link(
        client: FlaskClient) -> None:
    session_id = start_session(client, ["Ann", "Bob, Jr", 'Cy "the tile"'])
    page = client.get(timer_link(client, session_id))
    assert page.status_code == 200
    assert seats(page.get_data(as_text=True)) == ["Ann", "Bob, Jr", 'Cy "the tile"']


def test_the_sheets_timer_link_opens_the_sessions_turn_time(client: FlaskClient) -> None:
    sabra = client.get(timer_link(client, start_session(client, ["Ann", "Bob"], preset="sabra")))
    assert 'data-seconds="120"' in sabra.get_data(as_text=True)
    assert "Sabra Way: 120 seconds a turn" in sabra.get_data(as_text=True)

    overridden = start_session(client, ["Ann", "Bob"], preset="sabra", rules={"turn_seconds": 90})
    page = client.get(timer_link(client, overridden)).get_data(as_text=True)
    assert 'data-seconds="90"' in page and ">1:30<" in page


def test_the_timer_still_takes_names_typed_by_hand(client: FlaskClient) -> None:
    page = client.get("/timer?players=Ann,Bob,Cy").get_data(as_text=True)
    assert seats(page) == ["Ann", "Bob", "Cy"]
    page = client.get('/timer?players=Ann, "Bob, Jr" ,Cy').get_data(as_text=True)
    assert seats(page) == ["Ann", "Bob, Jr", "Cy"]


def test_changing_the_timer_keeps_a_name_with_a_comma(client: FlaskClient) -> None:
    page = client.get("/timer", query_string={"player": ["Ann", "Bob, Jr"], "seconds": "90"})
    change = re.search(r'href="([^"]*)">Change</a>', page.get_data(as_text=True))
    assert change
    form = client.get(html.unescape(change.group(1))).get_data(as_text=True)
    assert 'value="Ann, &#34;Bob, Jr&#34;"' in form
    again = client.get("/timer", query_string={"players": 'Ann, "Bob, Jr"', "seconds": "90"})
    assert seats(again.get_data(as_text=True)) == ["Ann", "Bob, Jr"]


names = st.text(st.characters(blacklist_categories=("C",)), min_size=1, max_size=30).map(
    str.strip).filter(bool)


@given(st.lists(names, min_size=1, max_size=4))
def test_names_written_for_the_timer_read_back_as_the_same_names(written: list[str]) -> None:
    assert player_names(join_player_names(written)) == written
