"""A game recorded in Hebrew on a 360-px phone: right to left, four long names, the sheet's
game column sticking on the right, no sideways scroll of the page; the same sheet in German,
the TV view and the print view. Screenshots go to $COMPANION_SCREENSHOTS when set."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import submit

pytestmark = pytest.mark.e2e

PHONE = {"width": 360, "height": 780}
NAMES = ("Alexandrina", "Bartholomew", "Christabella", "Maximiliano")


def shoot(page: Any, tmp_path: Path, name: str) -> None:
    shot = Path(os.environ.get("COMPANION_SCREENSHOTS", tmp_path)) / name
    shot.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 10_000


def no_sideways_scroll(page: Any) -> bool:
    page.wait_for_load_state("load")  # measured before its stylesheets apply, a page is wide
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"))


def test_a_game_recorded_in_hebrew_on_a_phone_reads_right_to_left(
        browser: Any, live_server: str, tmp_path: Path) -> None:
    context = browser.new_context(viewport=PHONE, base_url=live_server, locale="he-IL")
    page = context.new_page()
    try:
        page.goto("/scores/new")
        assert page.get_attribute("html", "dir") == "rtl"
        assert page.locator("h1").inner_text() == "לפתוח מפגש"
        for seat, name in enumerate(NAMES, start=1):
            page.fill(f"#player_{seat}", name)
        submit(page)
        page.get_by_text("המפגש התחיל").wait_for()

        page.get_by_role("link", name="לרשום את משחק 1").click()
        assert no_sideways_scroll(page)
        page.get_by_label(NAMES[0], exact=True).check()
        page.get_by_label(f"המעמד של {NAMES[1]}", exact=True).fill("R13 B12 O11")
        page.get_by_label(f"הנקודות של {NAMES[2]}", exact=True).fill("104")
        page.get_by_label(f"המעמד של {NAMES[3]}", exact=True).fill("K9 K10 J")
        shoot(page, tmp_path, "scores-game-he-360.png")
        submit(page)
        page.get_by_text(f"משחק 1 נרשם: {NAMES[0]} ניצח.").wait_for()

        assert page.get_attribute("html", "dir") == "rtl"
        assert no_sideways_scroll(page), "the sheet makes the page scroll sideways"
        sheet = page.locator(".score-sheet")
        game_cell = page.locator(".score-sheet tr.game th").first
        sheet_box, game_box = sheet.bounding_box(), game_cell.bounding_box()
        assert sheet_box is not None and game_box is not None
        # The game column is the first column: on the right of a right-to-left sheet.
        assert game_box["x"] + game_box["width"] >= sheet_box["x"] + sheet_box["width"] - 2
        # It stays there when the sheet itself is scrolled sideways.
        page.evaluate("document.querySelector('.sheet-wrap').scrollLeft = -400")
        moved = game_cell.bounding_box()
        assert moved is not None and abs(moved["x"] - game_box["x"]) < 2
        # A minus score keeps its sign before its digits.
        loser = page.locator(".score-sheet tr.game td").nth(2)
        assert loser.inner_text().strip() == "−104"
        assert page.locator(".standings .score").first.evaluate(
            "element => getComputedStyle(element).direction") == "ltr"
        shoot(page, tmp_path, "scores-sheet-he-360.png")

        page.emulate_media(media="print")
        assert page.locator(".sheet-print-header").is_visible()
        assert "דף ניקוד רמיקוב" in page.locator(".sheet-print-header").inner_text()
        shoot(page, tmp_path, "scores-print-he-360.png")
        page.emulate_media(media="screen")

        page.get_by_role("link", name="תצוגת טלוויזיה").click()
        assert re.search(r"משחק 2 מתוך 4", page.locator(".tv-progress").inner_text())
        assert no_sideways_scroll(page)
        shoot(page, tmp_path, "scores-tv-he-360.png")

        page.go_back()
        page.click(".language-switch a[lang=de]")
        page.wait_for_load_state()
        assert page.get_attribute("html", "dir") == "ltr"
        assert page.locator(".score-sheet .round-head th").first.inner_text() == "Runde 1"
        assert no_sideways_scroll(page)
        shoot(page, tmp_path, "scores-sheet-de-360.png")
    finally:
        context.close()
