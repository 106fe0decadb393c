"""The forms' tokens (CSRF) never refuse a form a person just filled in, and say plainly when
they refuse an old one.

Found under load in the end-to-end tests: on a first visit the service worker fetches the main
pages in the background while the person opens "Start a session"; each background answer
started a session of its own, the last cookie stored did not match the form on screen, and the
first form sent was refused with "The CSRF session token is missing".
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.web import create_app
from companion.web.extensions import db

BACKGROUND_PAGES = ("/", "/check", "/turn", "/timer", "/photo", "/offline", "/scores/new")
NEW_SESSION = {"player_1": "Ann", "player_2": "Bob", "rounds": "1", "preset": "pressman"}


@pytest.fixture
def guarded(tmp_path: Path) -> Flask:
    """The app with its form tokens checked, as it is served."""
    app = create_app({"TESTING": True, "SECRET_KEY": "test", "WTF_CSRF_ENABLED": True,
                      "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'tokens.sqlite'}"})
    with app.app_context():
        db.create_all()
    return app


def form_token(html: str) -> str:
    match = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', html)
    assert match, "the page has no form token"
    return match.group(1)


def session_cookie(response: object) -> list[str]:
    return [header for header in response.headers.getlist("Set-Cookie")  # type: ignore[attr-defined]
            if header.startswith("session=")]


def test_the_first_page_starts_the_session_that_every_later_form_uses(guarded: Flask) -> None:
    browser = guarded.test_client()
    first = browser.get("/scores/")  # no form on it, and it is where the worker registers
    assert first.status_code == 200 and session_cookie(first)
    token = form_token(browser.get("/scores/new").text)
    for page in BACKGROUND_PAGES:  # what the service worker saves for offline use
        answer = browser.get(page, headers={"Accept": "text/html"})
        assert answer.status_code == 200, page
        assert not session_cookie(answer), f"{page} replaced the session the form belongs to"
    sent = browser.post("/scores/new", data=NEW_SESSION | {"csrf_token": token})
    assert sent.status_code == 302, sent.text


def test_the_api_and_static_files_start_no_session(guarded: Flask) -> None:
    browser = guarded.test_client()
    for path in ("/static/style.css", "/api/v1/check"):
        answer = browser.get(path)
        assert not session_cookie(answer), path


def test_a_form_whose_session_is_gone_says_so_and_links_back_to_it(guarded: Flask) -> None:
    old_browser = guarded.test_client()
    token = form_token(old_browser.get("/scores/new").text)
    forgetful = guarded.test_client()  # the same phone after its cookies were dropped
    refused = forgetful.post("/scores/new", data=NEW_SESSION | {"csrf_token": token},
                             headers={"Referer": "http://localhost/scores/new"})
    assert refused.status_code == 400
    assert "This form has expired" in refused.text and "Nothing was saved" in refused.text
    assert 'href="/scores/new">Open the form again' in refused.text
    assert "CSRF" not in refused.text
    assert "No sessions on this browser yet" in forgetful.get("/scores/").text


def test_the_expired_form_page_is_in_the_page_language(guarded: Flask) -> None:
    browser: FlaskClient = guarded.test_client()
    browser.set_cookie("language", "de")
    refused = browser.post("/scores/new", data=NEW_SESSION | {"csrf_token": "stale"},
                           headers={"Referer": "https://elsewhere.example/form"})
    assert refused.status_code == 400
    assert "Dieses Formular ist abgelaufen" in refused.text
    assert "Formular erneut öffnen" not in refused.text  # no link to another site


def test_a_page_fetched_in_the_background_leaves_the_message_to_the_page_opened(
        guarded: Flask) -> None:
    """Seen in the end-to-end tests: the offline prefetch fetched "Start a session" between the
    form's redirect and the sheet it leads to, and took "Session started" with it."""
    browser = guarded.test_client()
    token = form_token(browser.get("/scores/new").text)
    sent = browser.post("/scores/new", data=NEW_SESSION | {"csrf_token": token})
    assert sent.status_code == 302, sent.text
    background = browser.get("/scores/new", headers={"Sec-Fetch-Mode": "cors",
                                                     "Accept": "text/html"})
    assert background.status_code == 200 and "Session started" not in background.text
    opened = browser.get(sent.headers["Location"], headers={"Sec-Fetch-Mode": "navigate"})
    assert "Session started" in opened.text
    assert "Session started" not in browser.get(sent.headers["Location"]).text
