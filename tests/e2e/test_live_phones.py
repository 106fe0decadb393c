"""Four people, four phones: live updates, games recorded offline, and every page offline.

Each phone is its own browser context (its own cookies, service worker, cache and IndexedDB)
of Debian's headless chromium at 360×800. The server is the real app on a loopback port that
the tests can stop and start again on the same address, to cut the phones off for real:
chromium's offline switch does not reach a service worker's own requests.
"""

from __future__ import annotations

import json
import re
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from werkzeug.serving import BaseWSGIServer, make_server

from companion.web import create_app
from companion.web.extensions import db
from tests.e2e.conftest import close_palette, wait_until_the_service_worker_serves

pytestmark = pytest.mark.e2e

PHONE = {"width": 360, "height": 800}
# The other phones show a game without a reload. How soon ("within a second", issue 12) is
# measured by benchmarks/live.py and printed here, never asserted: a loaded CI machine must
# not fail a test for being slow.
LIVE_WITHOUT_RELOAD_MS = 10_000


class RestartableServer:
    """The app on one loopback address that survives a stop and a start."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        self.port = 0
        self.server: BaseWSGIServer | None = None
        self.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        self.server = make_server("127.0.0.1", self.port, self.app, threaded=True)
        self.port = self.server.server_port
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self) -> None:
        if self.server is not None:
            self.server.shutdown()
            self.server.server_close()
            self.server = None

    def session(self, session_id: str) -> dict[str, Any]:
        with urllib.request.urlopen(f"{self.url}/api/v1/sessions/{session_id}") as answer:
            return json.loads(answer.read())


@pytest.fixture
def server(tmp_path: Path) -> Iterator[RestartableServer]:
    app = create_app({"SECRET_KEY": "e2e",
                      "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'companion.sqlite'}",
                      "LIVE_STREAM_SECONDS": 5})
    with app.app_context():
        db.create_all()
    running = RestartableServer(app)
    yield running
    running.stop()


@pytest.fixture
def phones(browser: Any, server: RestartableServer) -> Iterator[list[Any]]:
    """Two phones, each with a page open; more pages can be opened in `page.context`."""
    contexts = [browser.new_context(viewport=PHONE, base_url=server.url, is_mobile=True,
                                    has_touch=True) for _phone in range(2)]
    pages = [context.new_page() for context in contexts]
    for page in pages:
        page.on("dialog", lambda dialog: dialog.accept())
    yield pages
    for context in contexts:
        context.close()


def start_session(page: Any, players: list[str]) -> str:
    page.goto("/scores/new")
    for seat, name in enumerate(players, start=1):
        page.fill(f"#player_{seat}", name)
    page.get_by_role("button", name="Start the session").click()
    page.get_by_text("Session started").wait_for()
    return re.search(r"/scores/([^/?#]+)$", page.url).group(1)


def join(page: Any, share_link: str) -> None:
    page.goto(share_link)
    page.get_by_text("This phone can now record games").wait_for()


# Waits are given functions, never bare expressions: Playwright polls an expression with eval,
# which the pages' Content-Security-Policy forbids.
def wait_until_live(page: Any) -> None:
    page.wait_for_function("() => document.documentElement.dataset.liveState === 'connected'")


def fill_game(page: Any, winner: str, racks: dict[str, str]) -> None:
    page.get_by_label(winner, exact=True).check()
    for label, value in racks.items():
        page.get_by_label(label, exact=True).fill(value)
    close_palette(page)


def record_online(page: Any, number: int, winner: str, racks: dict[str, str]) -> None:
    page.get_by_role("link", name=f"Record game {number}").click()
    fill_game(page, winner, racks)
    page.get_by_role("button", name=f"Record game {number}").click()
    page.get_by_text(f"Game {number} recorded").wait_for()


def record_offline(page: Any, number: int, winner: str, racks: dict[str, str]) -> None:
    """Open the record form online (as the table does between games), lose the connection,
    then type and record the game."""
    wait_until_the_service_worker_serves(page)
    page.get_by_role("link", name=f"Record game {number}").click()
    page.wait_for_url(re.compile(r"/games/new\?ending=out$"))
    page.wait_for_load_state("load")  # its scripts are running: a person is never faster
    page.context.set_offline(True)
    page.wait_for_function("() => !navigator.onLine")  # the page has heard that it is offline
    fill_game(page, winner, racks)
    page.get_by_role("button", name=re.compile(r"^Record game")).click()
    try:
        page.locator("#pending-games").wait_for(timeout=15000)
    except Exception as timeout:
        raise AssertionError(f"no pending game on {page.url}: {describe_phone(page)}") from timeout


QUEUE_NOW = """() => new Promise(done => {
  const opening = indexedDB.open('companion-offline', 1);
  opening.onsuccess = () => {
    const reading = opening.result.transaction('games').objectStore('games').getAll();
    reading.onsuccess = () => done(reading.result.map(e => e.state + ' ' + e.number));
  };
  opening.onerror = () => done('no queue');
})"""


SAVED_PAGES = """async () => (await (await caches.open('companion-pages')).keys())
  .map(request => new URL(request.url).pathname + new URL(request.url).search)"""


def describe_phone(page: Any) -> str:
    """What a phone shows and keeps, for a failure message."""
    return (f"offline copy: {page.evaluate('document.documentElement.dataset.offlineCopy')}; "
            f"queue: {page.evaluate(QUEUE_NOW)}; saved pages: {page.evaluate(SAVED_PAGES)}; "
            f"page: {page.locator('main').inner_text()[:300]!r}")


def test_a_game_recorded_on_one_phone_shows_on_the_other_within_a_second(
        phones: list[Any], server: RestartableServer) -> None:
    ann, bob = phones
    session_id = start_session(ann, ["Ann", "Bob", "Cy"])
    join(bob, ann.locator("#share-link").input_value())
    tv = bob.context.new_page()
    tv.goto(f"/scores/{session_id}/tv")
    for page in (ann, bob, tv):
        wait_until_live(page)

    record_online(ann, 1, "Ann", {"Bob rack": "K5 J", "Cy points": "12"})
    shown_at = time.monotonic()
    bob.locator("tr[data-game='1']").wait_for(timeout=LIVE_WITHOUT_RELOAD_MS)
    tv.get_by_text("Game 1: Ann won").wait_for(timeout=LIVE_WITHOUT_RELOAD_MS)
    print(f"game 1 on the other phone and the TV within {time.monotonic() - shown_at:.2f} s")
    assert bob.locator("tr[data-game='1'] td").all_inner_texts()[:3] == ["+47 ★", "−35", "−12"]
    assert tv.locator(".tv-name").first.inner_text().startswith("Ann")

    # Undone on the other phone: the first phone loses the row, still without a reload.
    bob.get_by_role("button", name="Undo game 1").click()
    bob.get_by_text("Game 1 undone").wait_for()
    ann.locator("tr[data-game='1']").wait_for(state="detached", timeout=LIVE_WITHOUT_RELOAD_MS)
    tv.get_by_text("No game recorded yet").wait_for(timeout=LIVE_WITHOUT_RELOAD_MS)


def test_a_game_recorded_offline_is_kept_as_typed_and_sent_once_when_back_online(
        phones: list[Any], server: RestartableServer) -> None:
    ann, bob = phones
    session_id = start_session(ann, ["Ann", "Bob", "Cy"])
    join(bob, ann.locator("#share-link").input_value())
    wait_until_live(bob)
    posts: list[str] = []
    ann.context.on("request", lambda request: posts.append(request.url)
                   if request.method == "POST" and request.url.endswith("/games") else None)

    record_offline(ann, 1, "Ann", {"Bob rack": "k5 j", "Cy points": "12", "Cy jokers": "1"})
    waiting = ann.locator(".pending-game[data-pending-game='1']")
    assert "waiting to be sent (pending)" in waiting.inner_text()
    assert "Bob: k5 j" in waiting.inner_text()  # exactly as typed, not yet scored
    assert "Offline" in ann.locator("#offline-banner").inner_text()
    assert server.session(session_id)["games_played"] == 0 and posts == []

    ann.context.set_offline(False)
    ann.locator("tr[data-game='1']").wait_for()
    ann.locator("#pending-games").wait_for(state="detached")
    bob.locator("tr[data-game='1']").wait_for(timeout=LIVE_WITHOUT_RELOAD_MS)
    game = server.session(session_id)["games"][0]
    assert (game["racks"]["Bob"], game["racks"]["Cy"]) == ("K5 J", {"points": 12, "jokers": 1})
    assert game["scores"] == {"Ann": 77, "Bob": -35, "Cy": -42}  # scored by the server

    ann.reload()  # a new page sends whatever still waits: nothing does
    ann.wait_for_function("() => !document.getElementById('pending-games')")
    ann.context.set_offline(True)
    ann.context.set_offline(False)
    ann.locator("tr[data-game='1']").wait_for()
    assert server.session(session_id)["games_played"] == 1
    assert len(posts) == 1


def test_a_game_recorded_on_both_phones_is_shown_to_the_table_to_choose_nothing_lost(
        phones: list[Any], server: RestartableServer) -> None:
    ann, bob = phones
    session_id = start_session(ann, ["Ann", "Bob", "Cy"])
    join(bob, ann.locator("#share-link").input_value())

    # Game 1 on both phones: Ann's offline, Bob's online. The table keeps Ann's.
    record_offline(ann, 1, "Ann", {"Bob rack": "K5 J", "Cy rack": "R1"})
    record_online(bob, 1, "Bob", {"Ann points": "20", "Cy points": "3"})
    ann.context.set_offline(False)
    conflict = ann.locator(".pending-conflict[data-pending-game='1']")
    conflict.wait_for()
    assert "This phone (typed offline): Ann won, went out · Ann: — · Bob: K5 J · Cy: R1" in \
        conflict.inner_text()
    assert "The other phone: Bob won, went out · Ann −20 · Bob +23 · Cy −3" in conflict.inner_text()
    assert server.session(session_id)["games_played"] == 1  # nothing replaced without asking
    conflict.get_by_role("button", name="Use this phone's for game 1").click()
    ann.locator("#pending-games").wait_for(state="detached")
    bob.wait_for_function("() => document.querySelector(\"tr[data-game='1'] td\").textContent"
                          ".includes('+36')", timeout=LIVE_WITHOUT_RELOAD_MS)
    assert server.session(session_id)["games"][0]["winner"] == "Ann"
    ann.goto(f"/scores/{session_id}/history")
    assert "Game 1 edited: winner Bob → Ann" in ann.locator("main").inner_text()
    ann.goto(f"/scores/{session_id}")

    # Game 2 on both phones again: both were played, so Ann's becomes game 3.
    record_offline(ann, 2, "Cy", {"Ann rack": "O9", "Bob rack": "B2"})
    record_online(bob, 2, "Bob", {"Ann points": "4", "Cy points": "6"})
    ann.context.set_offline(False)
    conflict = ann.locator(".pending-conflict[data-pending-game='2']")
    conflict.get_by_role("button", name=re.compile("Both were played")).click()
    ann.locator("tr[data-game='3']").wait_for()
    bob.locator("tr[data-game='3']").wait_for(timeout=LIVE_WITHOUT_RELOAD_MS)
    games = server.session(session_id)["games"]
    assert [(g["number"], g["winner"]) for g in games] == [(1, "Ann"), (2, "Bob"), (3, "Cy")]


def test_every_page_opens_offline_after_a_first_visit_and_says_it_is_offline(
        phones: list[Any], server: RestartableServer) -> None:
    phone = phones[0]
    session_id = start_session(phone, ["Ann", "Bob"])
    wait_until_the_service_worker_serves(phone)
    record_online(phone, 1, "Ann", {"Bob rack": "R7"})
    pages = ["/", "/check", "/check?table=R5+R6+J", "/turn", "/timer", "/timer?players=Ann,Bob",
             "/photo", "/scores/", "/scores/new", f"/scores/{session_id}",
             f"/scores/{session_id}/view", f"/scores/{session_id}/tv",
             f"/scores/{session_id}/history", f"/scores/{session_id}/games/new?ending=out"]
    titles = {}
    for url in pages:
        phone.goto(url)
        titles[url] = phone.title()
        assert not phone.locator("#offline-banner").count(), url

    server.stop()
    phone.context.set_offline(True)
    for url in pages:
        phone.goto(url)
        assert phone.title() == titles[url], url
        assert "Offline" in phone.locator("#offline-banner").inner_text(), url
    phone.goto(f"/scores/{session_id}")
    assert phone.locator("tr[data-game='1'] td").first.inner_text() == "+7 ★"

    # The timer runs with no connection at all.
    phone.goto("/timer?players=Ann,Bob")
    phone.locator("#timer-face").click()
    phone.wait_for_function("() => document.getElementById('timer-digits').textContent < '1:00'")
    phone.keyboard.press("Space")
    assert phone.locator("#timer-player").inner_text() == "Bob"

    # A page never opened on this phone: the offline page, listing what can be opened.
    phone.goto(f"/scores/{session_id}/games/new?ending=paper&never=opened")
    assert "has not opened this page before" in phone.locator("main").inner_text()
    phone.locator("[data-offline-pages] a[href='/timer?players=Ann,Bob']").wait_for()


def test_a_retry_after_a_lost_answer_is_still_one_game(
        phones: list[Any], server: RestartableServer) -> None:
    ann = phones[0]
    session_id = start_session(ann, ["Ann", "Bob"])
    answers_lost: list[str] = []

    def lose_the_first_answer(route: Any) -> None:
        if answers_lost:
            route.continue_()
            return
        route.fetch()  # the server records the game ...
        answers_lost.append(route.request.headers.get("idempotency-key", ""))
        route.abort("connectionreset")  # ... and the phone never hears that it did

    ann.context.route("**/api/v1/sessions/*/games", lose_the_first_answer)
    record_offline(ann, 1, "Ann", {"Bob rack": "K5 J"})
    ann.context.set_offline(False)
    ann.wait_for_function("() => document.querySelector('.pending-waiting') !== null")
    deadline = time.monotonic() + 10
    while not answers_lost and time.monotonic() < deadline:
        ann.wait_for_timeout(50)
    assert answers_lost and answers_lost[0]
    assert server.session(session_id)["games_played"] == 1
    assert ann.locator(".pending-waiting[data-pending-game='1']").count() == 1  # still waiting

    ann.context.set_offline(True)  # the connection drops and returns: the phone tries again
    ann.context.set_offline(False)
    ann.locator("#pending-games").wait_for(state="detached")
    assert server.session(session_id)["games_played"] == 1


def test_editing_a_game_older_than_the_last_asks_first(
        phones: list[Any], server: RestartableServer) -> None:
    session_id = start_session(phones[0], ["Ann", "Bob"])
    record_online(phones[0], 1, "Ann", {"Bob rack": "R7"})
    record_online(phones[0], 2, "Bob", {"Ann rack": "R8"})
    page = phones[0].context.new_page()  # one that says "no" to the question
    asked: list[str] = []
    opened: list[str] = []
    page.on("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    page.on("framenavigated", lambda frame: opened.append(frame.url))
    page.goto(f"/scores/{session_id}")
    page.get_by_role("link", name="edit game 1").click()
    page.get_by_role("link", name="edit game 2").click()
    page.wait_for_url(re.compile(r"/games/2/edit$"))
    assert asked == ["Game 1 is not the last game (game 2 is). Edit game 1 anyway?"]
    assert not [url for url in opened if url.endswith("/games/1/edit")]


def test_a_game_refused_after_the_connection_returns_is_kept_to_correct_in_the_form(
        phones: list[Any], server: RestartableServer) -> None:
    ann = phones[0]
    session_id = start_session(ann, ["Ann", "Bob"])
    record_offline(ann, 1, "Ann", {"Bob rack": "R14 J"})  # a typo the server refuses
    ann.context.set_offline(False)
    refused = ann.locator(".pending-refused[data-pending-game='1']")
    refused.wait_for()
    assert "`R14`" in refused.inner_text() and "Bob: R14 J" in refused.inner_text()
    assert server.session(session_id)["games_played"] == 0

    refused.get_by_role("button", name="Correct it in the form").click()
    ann.wait_for_function(  # the form is filled again from the phone's copy, as typed
        "() => (document.querySelector(\"[aria-label='Bob rack']\") || {}).value === 'R14 J'")
    assert ann.get_by_label("Ann", exact=True).is_checked()
    ann.get_by_label("Bob rack", exact=True).fill("R13 J")
    ann.get_by_role("button", name="Record game 1").click()
    ann.get_by_text("Game 1 recorded: Ann won.").wait_for()
    assert not ann.locator("#pending-games").count()
    assert server.session(session_id)["games"][0]["scores"] == {"Ann": 43, "Bob": -43}


def test_offline_the_next_game_is_offered_and_the_same_racks_again_are_asked_about(
        browser: Any, server: RestartableServer) -> None:
    """Issue 30: offline, the sheet offered "Record game 1" again after game 1 was kept, and
    the same game typed again was queued as an identical game 2 without a word."""
    context = browser.new_context(viewport=PHONE, base_url=server.url, is_mobile=True,
                                  has_touch=True)
    page = context.new_page()
    answers: list[bool] = []
    asked: list[str] = []

    def on_dialog(dialog: Any) -> None:
        asked.append(dialog.message)
        if answers.pop(0) if answers else True:
            dialog.accept()
        else:
            dialog.dismiss()

    page.on("dialog", on_dialog)
    try:
        session_id = start_session(page, ["Ann", "Bob"])
        record_offline(page, 1, "Ann", {"Bob rack": "k5 j"})
        page.get_by_role("link", name="Record game 2").wait_for()
        assert page.locator("table.score-sheet tr[data-pending-row='1']").is_visible()

        page.get_by_role("link", name="Record game 2").click()
        page.wait_for_url(re.compile(r"/games/new"))
        page.get_by_role("heading", name=re.compile("Record game 2")).wait_for()
        fill_game(page, "Ann", {"Bob rack": "k5 j"})
        answers.append(False)  # not played twice: keep nothing
        page.get_by_role("button", name="Record game 2").click()
        page.wait_for_function("() => !document.querySelector('form').dataset.queued")
        assert "exactly the same racks" in asked[-1]
        assert page.evaluate(QUEUE_NOW) == ["waiting 1"]

        answers.append(True)  # it was played twice after all
        page.get_by_role("button", name="Record game 2").click()
        page.locator("tr[data-pending-row='2']").wait_for()
        page.get_by_role("link", name="Record game 3").wait_for()
        assert sorted(page.evaluate(QUEUE_NOW)) == ["waiting 1", "waiting 2"]
        assert server.session(session_id)["games_played"] == 0

        context.set_offline(False)
        page.locator("tr[data-game='2']").wait_for()
        assert server.session(session_id)["games_played"] == 2
        page.locator("#pending-rows").wait_for(state="detached")
        assert page.get_by_role("link", name=re.compile("Record game")).count() == 0  # complete
    finally:
        context.close()
