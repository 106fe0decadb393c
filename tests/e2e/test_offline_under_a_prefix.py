"""A club serving Companion under a path (COMPANION_BASE_URL=https://example.org/club) keeps
the offline copy working: the service worker's scope, its lists and its checks follow the prefix
instead of assuming the site root."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from werkzeug.serving import make_server

from companion.web import create_app
from companion.web.extensions import db
from tests.e2e.conftest import wait_until_the_service_worker_serves
from tests.live_server import free_port

pytestmark = pytest.mark.e2e

PREFIX = "/club"


@pytest.fixture
def club_url(tmp_path: Path) -> Iterator[str]:
    port = free_port()
    base = f"http://127.0.0.1:{port}{PREFIX}"
    app = create_app({"SECRET_KEY": "e2e", "COMPANION_BASE_URL": base,
                      "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'companion.sqlite'}"})
    with app.app_context():
        db.create_all()
    server = make_server("127.0.0.1", port, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield base
    server.shutdown()
    server.server_close()


def test_pages_under_a_path_prefix_open_offline(browser: Any, club_url: str) -> None:
    context = browser.new_context(viewport={"width": 360, "height": 800}, is_mobile=True)
    phone = context.new_page()
    phone.goto(f"{club_url}/check")
    scope = phone.evaluate("""async () => {
        const registration = await navigator.serviceWorker.ready;
        return registration.scope; }""")
    assert scope == f"{club_url}/"
    wait_until_the_service_worker_serves(phone)
    saved = phone.evaluate("""async () => {
        const names = await caches.keys();
        const urls = [];
        for (const name of names) {
            for (const request of await (await caches.open(name)).keys()) urls.push(request.url);
        }
        return urls; }""")
    assert saved and all(url.startswith(f"{club_url}/") for url in saved), saved
    assert any(url.endswith("/static/style.css") for url in saved)
    title = phone.title()

    context.set_offline(True)
    phone.goto(f"{club_url}/check")
    assert phone.title() == title
    assert "Offline" in phone.locator("#offline-banner").inner_text()
    phone.goto(f"{club_url}/scores/never-opened")
    assert "has not opened this page before" in phone.locator("main").inner_text()
    context.close()
