"""Where a new user tripped (issue 15), tried again in headless chromium on a 360 px phone and
on a desktop, with real taps and clicks, so that each stays fixed."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

pytestmark = pytest.mark.e2e

SCREENS = {
    "phone": {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True},
    "desktop": {"viewport": {"width": 1280, "height": 800}},
}


@pytest.fixture(params=list(SCREENS))
def screen(request: Any, browser: Any, live_server: str) -> Iterator[Any]:
    """A page on a 360 px touch phone, then on a desktop."""
    context = browser.new_context(base_url=live_server, **SCREENS[request.param])
    page = context.new_page()
    page.is_phone = request.param == "phone"
    yield page
    context.close()


def press(page: Any, selector: str) -> None:
    """A finger's tap on the phone, a mouse click on the desktop (both at the element's centre)."""
    target = page.locator(selector)
    if page.is_phone:
        target.tap()
    else:
        target.click()


def test_start_from_the_table_before_works_on_the_first_tap(screen: Any) -> None:
    from playwright.sync_api import expect

    screen.goto("/turn")
    press(screen, "#before")
    screen.keyboard.type("R5 R6 R7")
    expect(screen.locator(".palette[data-palette-for=before]")).to_be_visible()

    press(screen, "#copy-before")

    assert screen.input_value("#after") == "R5 R6 R7"
    expect(screen.locator(".palette[data-palette-for=after]")).to_be_visible()
    expect(screen.locator(".palette[data-palette-for=before]")).to_be_hidden()
    expect(screen.locator("#after")).to_be_focused()
    expect(screen.locator("#after")).to_be_in_viewport()
