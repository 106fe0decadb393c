"""The live feature through the test client: the event stream, the TV view, the manifest, the
service worker, the QR codes and what the offline queue is given."""

from __future__ import annotations

import html
import json
import re
import struct
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.web import create_app
from companion.web.extensions import db
from tests.golden import GOLDEN_AS_PLAYED, GOLDEN_STANDINGS
from tests.sse import parse_events

FAST_STREAMS = {"LIVE_POLL_SECONDS": 0.01, "LIVE_HEARTBEAT_SECONDS": 0.05,
                "LIVE_STREAM_SECONDS": 0.4, "LIVE_RETRY_MS": 700}


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    app = create_app({"TESTING": True, "SECRET_KEY": "test", "WTF_CSRF_ENABLED": False,
                      "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'companion.sqlite'}",
                      **FAST_STREAMS})
    with app.app_context():
        db.create_all()
    yield app


def start(client: FlaskClient) -> tuple[str, dict[str, str]]:
    answer = client.post("/api/v1/sessions", json={"players": ["A", "B", "C", "D"], "rounds": 1})
    assert answer.status_code == 201, answer.json
    return answer.json["id"], {"Authorization": f"Bearer {answer.json['edit_key']}"}


def lasting_streams(client: FlaskClient) -> None:
    """Streams that outlast the test's steps: with FAST_STREAMS' 0.4 s, a machine stalled for a
    moment (a loaded CI worker) ended the stream before the last change reached it."""
    client.application.config["LIVE_STREAM_SECONDS"] = 30.0


def open_stream(client: FlaskClient, session_id: str, **kwargs: Any) -> Iterator[dict[str, str]]:
    answer = client.get(f"/api/v1/sessions/{session_id}/events", buffered=False, **kwargs)
    assert answer.status_code == 200
    assert answer.mimetype == "text/event-stream"
    assert answer.headers["Cache-Control"] == "no-cache"
    return parse_events(iter(answer.response))


def next_game_event(events: Iterator[dict[str, str]]) -> dict[str, str]:
    return next(event for event in events if event.get("event") == "game")


def session_without_links(client: FlaskClient, session_id: str) -> dict[str, Any]:
    document = client.get(f"/api/v1/sessions/{session_id}").json
    document.pop("links")
    return document


def test_a_stream_sends_the_state_at_once_then_every_game_recorded_edited_or_undone(
        client: FlaskClient) -> None:
    lasting_streams(client)
    session_id, key = start(client)
    events = open_stream(client, session_id)
    assert next(events) == {"retry": "700"}
    first = next_game_event(events)
    assert json.loads(first["data"]) == session_without_links(client, session_id)

    assert client.post(f"/api/v1/sessions/{session_id}/games", json=GOLDEN_AS_PLAYED[0],
                       headers=key).status_code == 201
    recorded = next_game_event(events)
    assert recorded["id"] != first["id"]
    assert json.loads(recorded["data"]) == session_without_links(client, session_id)
    assert json.loads(recorded["data"])["games"][0]["scores"] == {"A": 24, "B": -5, "C": -16,
                                                                  "D": -3}

    edited_body = {"ending": "out", "winner": "A", "racks": {"B": 6, "C": 16, "D": "K1 R2"}}
    assert client.put(f"/api/v1/sessions/{session_id}/games/1", json=edited_body,
                      headers=key).status_code == 200
    edited = next_game_event(events)
    assert json.loads(edited["data"])["games"][0]["scores"]["B"] == -6

    # An undo does not touch the session's row: the history entry it writes is what changes.
    assert client.delete(f"/api/v1/sessions/{session_id}/games/1", headers=key).status_code == 200
    undone = next_game_event(events)
    assert json.loads(undone["data"])["games"] == []
    assert len({first["id"], recorded["id"], edited["id"], undone["id"]}) == 4


def test_a_client_that_has_the_current_state_gets_only_heartbeats_until_the_stream_ends(
        client: FlaskClient) -> None:
    session_id, _key = start(client)
    current = next_game_event(open_stream(client, session_id))["id"]
    for asked in ({"query_string": {"since": current}}, {"headers": {"Last-Event-ID": current}}):
        received = list(open_stream(client, session_id, **asked))  # ends by itself
        assert received[0] == {"retry": "700"}
        assert {"comment": "keepalive"} in received
        assert not [event for event in received if "event" in event]


def test_a_phone_that_slept_catches_up_from_its_last_event_id(client: FlaskClient) -> None:
    session_id, key = start(client)
    seen = next_game_event(open_stream(client, session_id))["id"]
    for body in GOLDEN_AS_PLAYED[:2]:  # played while the phone slept
        client.post(f"/api/v1/sessions/{session_id}/games", json=body, headers=key)
    caught_up = next_game_event(open_stream(client, session_id,
                                            headers={"Last-Event-ID": seen}))
    assert json.loads(caught_up["data"])["games_played"] == 2


def test_a_stream_is_told_when_its_session_is_deleted(client: FlaskClient) -> None:
    lasting_streams(client)
    session_id, key = start(client)
    events = open_stream(client, session_id)
    next_game_event(events)
    assert client.delete(f"/api/v1/sessions/{session_id}", headers=key).status_code == 200
    gone = next(event for event in events if "event" in event)
    assert gone["event"] == "gone"
    assert list(events) == []


def test_a_stream_of_an_unknown_session_is_a_json_404(client: FlaskClient) -> None:
    answer = client.get("/api/v1/sessions/999/events")
    assert answer.status_code == 404
    assert "no session 999" in answer.json["error"]


def test_the_tv_view_shows_the_standings_the_last_game_and_the_read_only_qr(
        client: FlaskClient) -> None:
    session_id, key = start(client)
    for body in GOLDEN_AS_PLAYED:
        client.post(f"/api/v1/sessions/{session_id}/games", json=body, headers=key)
    page = client.get(f"/scores/{session_id}/tv")
    assert page.status_code == 200
    text = page.text
    names = re.findall(r'<span class="tv-name">(\w+)', text)
    assert names == [standing["name"] for standing in GOLDEN_STANDINGS]
    assert re.findall(r'<span class="tv-score">([^<]+)</span>', text) == ["+45", "+33", "−24",
                                                                         "−54"]
    assert "Game 4: C won (went out)" in text
    assert f'content="/api/v1/sessions/{session_id}/events"' in text
    assert "QR code of the read-only link" in text
    assert "edit" not in re.sub(r"<[^>]+>", "", text).lower()
    assert client.get("/scores/999/tv").status_code == 404


def test_the_read_only_view_updates_live_instead_of_reloading_every_30_seconds(
        client: FlaskClient) -> None:
    session_id, _key = start(client)
    text = client.get(f"/scores/{session_id}/view").text
    assert 'http-equiv="refresh"' not in text
    assert 'name="companion-live"' in text and "live.js" in text


def sheet_of_a_new_session(client: FlaskClient) -> tuple[str, str]:
    answer = client.post("/scores/new", data={"player_1": "Ann", "player_2": "Bob",
                                              "rounds": 1, "preset": "pressman"})
    session_id = answer.location.rstrip("/").rsplit("/", 1)[1]
    return session_id, client.get(f"/scores/{session_id}").text


def test_the_sheet_offers_both_links_as_qr_codes_web_share_and_the_tv_view(
        client: FlaskClient, app: Flask) -> None:
    session_id, text = sheet_of_a_new_session(client)
    assert text.count('<svg viewBox=') == 2
    assert "QR code of the read-only link" in text and "QR code of the share-to-edit link" in text
    shared = [html.unescape(url) for url in re.findall(r'data-web-share="([^"]+)"', text)]
    assert shared[0].endswith(f"/scores/{session_id}/view")
    assert f"/scores/{session_id}/join?key=" in shared[1]
    assert f'href="/scores/{session_id}/tv"' in text
    # A phone without the key sees neither the share-to-edit link nor its QR code.
    stranger = app.test_client().get(f"/scores/{session_id}").text
    assert "share-to-edit" not in stranger and "join?key=" not in stranger


def test_the_record_form_gives_the_offline_queue_what_it_needs_to_send_the_game_later(
        client: FlaskClient, app: Flask) -> None:
    session_id, _sheet = sheet_of_a_new_session(client)
    page = client.get(f"/scores/{session_id}/games/new?ending=out").text
    queue = json.loads(html.unescape(re.search(r'data-offline-queue="([^"]+)"', page).group(1)))
    assert queue["number"] == 1 and queue["players"] == ["Ann", "Bob"]
    assert queue["endings"]["out"] == "went out"
    # What offline.js sends, from a phone that has nothing but this page's data.
    phone = app.test_client()
    answer = phone.post(queue["api"], json={"ending": "out", "winner": "Ann", "number": 1,
                                            "racks": {"Ann": None, "Bob": "K5 J"}},
                        headers={"Authorization": f"Bearer {queue['key']}",
                                 "Idempotency-Key": "phone-made-1"})
    assert answer.status_code == 201, answer.json
    assert answer.json["scores"] == {"Ann": 35, "Bob": -35}
    # An edit form is not queued: an edit waits until the phone is online.
    edit_page = client.get(f"/scores/{session_id}/games/1/edit").text
    assert "data-offline-queue" not in edit_page


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_the_manifest_makes_the_app_installable_with_real_icons(client: FlaskClient,
                                                                 app: Flask) -> None:
    answer = client.get("/manifest.webmanifest")
    assert answer.status_code == 200
    assert answer.mimetype == "application/manifest+json"
    manifest = json.loads(answer.data)
    assert manifest["start_url"] == "/" and manifest["scope"] == "/"
    assert manifest["display"] == "standalone"
    pngs = [icon for icon in manifest["icons"] if icon["type"] == "image/png"]
    assert {icon["sizes"] for icon in pngs} == {"192x192", "512x512"}
    assert any(icon["purpose"] == "maskable" for icon in pngs)
    static = Path(app.static_folder or "")
    for icon in pngs:
        assert client.get(icon["src"]).status_code == 200
        width = int(icon["sizes"].split("x")[0])
        assert png_size(static / icon["src"].removeprefix("/static/")) == (width, width)
    base = client.get("/").text
    assert '<link rel="manifest" href="/manifest.webmanifest">' in base
    assert 'data-service-worker="/sw.js"' in base


def test_the_service_worker_is_served_from_the_root_with_the_static_files_version(
        client: FlaskClient, app: Flask, tmp_path: Path) -> None:
    answer = client.get("/sw.js")
    assert answer.status_code == 200
    assert answer.mimetype == "text/javascript"
    assert answer.headers["Cache-Control"] == "no-cache"
    first_line = answer.text.splitlines()[0]
    precache = client.get("/offline/precache.json").json
    assert first_line == f'const STATIC_VERSION = "{precache["version"]}";'
    assert "/sw.js" not in precache["files"] and "/static/sw.js" not in precache["files"]
    for url in precache["files"] + precache["pages"]:
        assert client.get(url).status_code == 200, url
    assert {"/timer", "/scores/", "/offline"} <= set(precache["pages"])


def test_the_static_files_version_changes_when_a_static_file_does(tmp_path: Path) -> None:
    import shutil

    from companion.web.live.views import static_version

    def app_on(folder: Path) -> Flask:
        app = create_app({"TESTING": True, "SECRET_KEY": "t",
                          "SQLALCHEMY_DATABASE_URI": "sqlite://"})
        app.static_folder = str(folder)
        return app

    copy = tmp_path / "static"
    shutil.copytree(Path(create_app({"TESTING": True, "SECRET_KEY": "t",
                                     "SQLALCHEMY_DATABASE_URI": "sqlite://"}).static_folder
                         or ""), copy)
    before = static_version(app_on(copy))
    (copy / "style.css").write_text((copy / "style.css").read_text() + "\n/* changed */\n")
    assert static_version(app_on(copy)) != before


def test_the_offline_page_lists_what_the_phone_saved(client: FlaskClient) -> None:
    text = client.get("/offline").text
    assert "Offline" in text and "data-offline-pages" in text
