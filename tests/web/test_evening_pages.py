"""Smaller snags of an evening (issue 30), each on the real pages."""

from __future__ import annotations

import io
import re

from flask import Flask
from flask.testing import FlaskClient

from companion.web.extensions import db


def test_an_empty_new_session_form_says_name_at_least_two_players_once(
        client: FlaskClient) -> None:
    answer = client.post("/scores/new", data={"rounds": 1, "preset": "pressman"})
    assert answer.status_code == 422
    assert answer.text.count("Name at least two players.") == 1


def test_a_refusal_on_a_page_begins_upper_case(client: FlaskClient) -> None:
    answer = client.post("/scores/new", data={"player_1": "Ann", "player_2": "ann",
                                              "rounds": 1, "preset": "pressman"})
    assert answer.status_code == 422
    assert "Player 2: ann is already playing" in answer.text


def test_the_forbidden_page_links_back_to_the_sheet(client: FlaskClient) -> None:
    created = client.post("/api/v1/sessions", json={"players": ["Ann", "Bob"]}).json
    stranger = client.application.test_client()
    answer = stranger.get(f"/scores/{created['id']}/games/new")
    assert answer.status_code == 403
    assert f'href="/scores/{created["id"]}"' in answer.text and "Back to the score sheet" in answer.text


def test_the_turn_page_shows_the_sentence_not_the_code(client: FlaskClient) -> None:
    answer = client.post("/turn", data={"before": "R5 R6 R7", "after": "R5 R6 R7 K1",
                                        "rack": "K2", "opened": "y", "preset": "pressman"})
    text = answer.get_data(as_text=True)
    assert 'data-code="not_from_rack"' in text  # kept for scripts and tests, not shown
    assert ">not_from_rack<" not in text and "<code lang=\"en\">" not in text


def test_the_timer_refuses_a_name_twice_and_seconds_the_server_refuses(
        client: FlaskClient) -> None:
    twice = client.get("/timer?players=Anna,Anna")
    assert twice.status_code == 422 and "Anna is already playing" in twice.text
    short = client.get("/timer?players=Ann,Bob&seconds=5")
    assert short.status_code == 422 and "10 to 600 seconds" in short.text
    setup = client.get("/timer?edit=1").text
    assert 'min="10"' in setup and 'max="600"' in setup


def test_a_text_file_given_as_an_import_gets_a_plain_message(client: FlaskClient) -> None:
    answer = client.post("/groups/import", data={"file": (io.BytesIO(b"shopping list\n"),
                                                          "notes.txt")},
                         content_type="multipart/form-data")
    assert answer.status_code == 422
    assert "This is not a file exported from Companion" in answer.text
    assert "Expecting value" not in answer.text


def test_an_import_on_a_fresh_server_links_to_the_imported_group(
        app: Flask, client: FlaskClient) -> None:
    started = client.post("/groups/", data={"name": "Thursday club"})
    group_id = started.headers["Location"].rstrip("/").split("/")[-1]
    export = client.get(f"/groups/{group_id}/export.json").data
    fresh = app.test_client()
    with app.app_context():
        db.drop_all()
        db.create_all()
    answer = fresh.post("/groups/import", data={"file": (io.BytesIO(export), "export.json")},
                        content_type="multipart/form-data")
    assert answer.status_code == 201  # the page of what was imported, with its new links
    link = re.search(r'<a href="([^"]*/groups/([^/"]+)/)">Thursday club</a>', answer.text)
    assert link is not None and link.group(2) != group_id  # a web import gets fresh ids
    assert fresh.get(link.group(1)).status_code == 200


def test_chart_dates_are_written_once_each() -> None:
    from datetime import datetime

    from companion.web.groups.charts import date_labels

    evenings = [datetime(2026, 1, 8, 19), datetime(2026, 1, 8, 22), datetime(2026, 1, 15, 20),
                *(datetime(2026, 1, 20 + day, 20) for day in range(8))]
    labels, pattern = date_labels(evenings, 8)
    assert pattern == "d MMM" and len(labels) <= 8 and len(set(labels)) == len(labels)
    years = [datetime(2024 + i // 12, i % 12 + 1, 5) for i in range(30)]
    labels, pattern = date_labels(years, 4)
    assert pattern == "MMM y" and len(labels) <= 4 and all(label.day == 1 for label in labels)
