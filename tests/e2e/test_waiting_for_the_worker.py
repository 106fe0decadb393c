"""The e2e tests' wait for the service worker must really wait.

Playwright's `wait_for_function` does not await a promise, so the async check the offline
tests used passed at once; CI went offline before the worker had saved a page (stop 20).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.conftest import wait_until_the_service_worker_serves

pytestmark = pytest.mark.e2e


def test_the_wait_fails_when_no_worker_ever_serves_the_page(browser: Any, live_server: str) -> None:
    context = browser.new_context(base_url=live_server, service_workers="block")
    page = context.new_page()
    page.goto("/check")
    with pytest.raises(AssertionError, match="did not save"):
        wait_until_the_service_worker_serves(page, timeout_s=1)
    context.close()


def test_the_wait_returns_once_the_worker_has_saved_the_page(browser: Any, live_server: str) -> None:
    context = browser.new_context(base_url=live_server)
    page = context.new_page()
    page.goto("/check")
    wait_until_the_service_worker_serves(page)
    assert page.evaluate("() => navigator.serviceWorker.controller !== null")
    context.close()
