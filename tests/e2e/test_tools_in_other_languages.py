"""The scripts of the tool pages speak the page's language (issue 13): the timer's hints, alarm
and buttons in German, the docked palette's running rack value in Hebrew (right to left), both
on a 360-px phone in headless chromium."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.e2e

PHONE = {"width": 360, "height": 740}
CLOCK_START = 1_800_000_000  # a fixed, paused page clock: only run_for moves time


def phone_in(browser: Any, live_server: str, locale: str) -> Any:
    return browser.new_context(viewport=PHONE, base_url=live_server, locale=locale)


def shoot(page: Any, tmp_path: Path, name: str) -> None:
    folder = Path(os.environ.get("COMPANION_SCREENSHOTS", tmp_path))
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / f"{name}.png"), full_page=True)


def test_the_timer_speaks_german(browser: Any, live_server: str, tmp_path: Path) -> None:
    from playwright.sync_api import expect

    context = phone_in(browser, live_server, "de-DE")
    page = context.new_page()
    try:
        page.clock.install(time=CLOCK_START)
        page.clock.pause_at(CLOCK_START + 60)
        page.goto("/timer?players=Ann,Bob,Cy&seconds=10")
        expect(page.locator("#timer-hint")).to_have_text(
            "Hier tippen oder Leertaste drücken zum Starten")
        expect(page.locator("#timer-next")).to_have_text("Als Nächstes: Bob")

        page.keyboard.press(" ")
        expect(page.locator("#timer-hint")).to_have_text("Tippen oder Leertaste: Zug weitergeben")
        expect(page.locator("#timer-pause")).to_have_text("Pause")
        page.keyboard.press("p")
        expect(page.locator("#timer-pause")).to_have_text("Weiter")
        page.keyboard.press("p")
        page.clock.run_for(10_500)
        expect(page.locator("#timer-alert")).to_have_text("Zeit! Ann zieht einen Stein")
        expect(page.locator("#timer-hint")).to_have_text("Tippen oder Leertaste: nächster Spieler")
        assert page.title().endswith("· Ann · Zuguhr")
        sound = page.locator("#timer-sound")
        expect(sound).to_have_text("Ton an")
        sound.click()
        expect(sound).to_have_text("Ton aus")
        shoot(page, tmp_path, "timer-de-360")
    finally:
        context.close()


def test_the_docked_palette_counts_the_rack_in_hebrew(browser: Any, live_server: str,
                                                     tmp_path: Path) -> None:
    from playwright.sync_api import expect

    context = phone_in(browser, live_server, "he-IL")
    page = context.new_page()
    try:
        page.goto("/turn")
        assert page.get_attribute("html", "dir") == "rtl"
        page.locator("#rack").click()
        palette = page.locator(".palette[data-palette-for=rack]")
        expect(palette).to_have_class("palette palette-docked")
        for label in ("אדום 5", "ג'וקר", "כחול 13"):
            palette.locator(f"button[aria-label=\"{label}\"]").click()
        assert page.locator("#rack").input_value() == "R5 J B13"  # tiles stay left to right
        value = palette.locator(".palette-value")
        expect(value).to_have_text("ערך המעמד 48 · 3 אבנים · ג'וקר 1")
        box = palette.bounding_box()
        assert box is not None and abs(box["y"] + box["height"] - PHONE["height"]) <= 1
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        shoot(page, tmp_path, "turn-palette-docked-he-360")
        palette.locator("[data-palette-action=done]").click()
        expect(palette).not_to_have_class("palette palette-docked")
    finally:
        context.close()
