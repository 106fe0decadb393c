"""End-to-end fixtures: the real app served on loopback, driven by Debian's headless chromium."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from werkzeug.serving import make_server

from companion.web import create_app
from companion.web.extensions import db

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]


SERVED_BY_THE_WORKER = """async () => navigator.serviceWorker.controller !== null &&
    Boolean(await caches.match(location.href, {ignoreVary: true}))"""


def wait_until_the_service_worker_serves(page: Any, timeout_s: float = 30) -> None:
    """Until the service worker controls the page and has saved it (a page shown before the
    worker was installed is saved a moment after it takes over).

    Polled with `evaluate`, which awaits the check's promise: `wait_for_function` does not, so
    an async predicate passed at once (a promise is truthy) and a loaded CI machine went
    offline before the worker had saved anything.
    """
    deadline = time.monotonic() + timeout_s
    while not page.evaluate(SERVED_BY_THE_WORKER):
        if time.monotonic() > deadline:
            raise AssertionError(f"the service worker did not save {page.url} in {timeout_s} s")
        page.wait_for_timeout(100)


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    if not os.path.exists(CHROMIUM):
        if os.environ.get("CI"):
            pytest.fail(f"{CHROMIUM} is missing: `make test` installs Debian's chromium")
        pytest.skip(f"{CHROMIUM} is missing: run `make chromium`")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def live_server(tmp_path: Path) -> Iterator[str]:
    """The real app, with CSRF on, on a free loopback port; yields its base URL."""
    app = create_app({
        "SECRET_KEY": "e2e",
        "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'companion.sqlite'}",
    })
    with app.app_context():
        db.create_all()
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    thread.join()


@pytest.fixture
def page(browser: object, live_server: str) -> Iterator[object]:
    context = browser.new_context(viewport={"width": 390, "height": 844},  # a phone
                                  base_url=live_server)
    page = context.new_page()
    yield page
    context.close()


def close_palette(page: Any) -> None:
    """Tap "Done" on the docked palette, as a player does after typing: while docked it covers
    the lower half of a phone's screen, and a tap on a button it half covers moves the page
    (the field loses focus, the palette undocks) between the press and the release."""
    # One step in the page: the palette may undock between a check and a click from here.
    page.evaluate("document.querySelector('.palette-docked [data-palette-action=done]')?.click()")


def submit(page: Any, selector: str = "button[type=submit]") -> None:
    """Tap the form's button after closing the docked palette, and wait for the answer."""
    close_palette(page)
    with page.expect_navigation():  # the form posts: wait for the answer's page
        page.click(selector)
