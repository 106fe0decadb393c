"""The check page in Hebrew on a 360-px phone: right to left, the reason in Hebrew, no sideways
scroll; the footer switch takes the player back to English on the same page."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.e2e.conftest import submit

pytestmark = pytest.mark.e2e

PHONE = {"width": 360, "height": 780}


def test_the_check_page_in_hebrew_reads_right_to_left_on_a_phone(
        browser, live_server: str, tmp_path: Path) -> None:
    context = browser.new_context(viewport=PHONE, base_url=live_server, locale="he-IL")
    page = context.new_page()
    try:
        page.goto("/check")
        assert page.get_attribute("html", "dir") == "rtl"
        assert page.get_attribute("html", "lang") == "he"
        page.fill("#table", "R5 R6 J\nK7 K7 B7")
        submit(page)
        reason = page.locator(".verdict-illegal .reason").inner_text()
        assert "קבוצה לא יכולה להכיל פעמיים שחור 7" in reason
        assert page.locator("h1").inner_text() == "בדיקת השולחן"
        # Right to left: the heading starts at the right edge of the page.
        heading = page.locator("h1").bounding_box()
        assert heading is not None and heading["x"] + heading["width"] > PHONE["width"] * 0.6
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        shot = Path(os.environ.get("COMPANION_SCREENSHOTS", tmp_path)) / "check-he-360.png"
        shot.parent.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(shot), full_page=True)
        assert shot.stat().st_size > 10_000

        page.click(".language-switch a[lang=en]")
        page.wait_for_url("**/check")
        assert page.get_attribute("html", "dir") == "ltr"
        assert page.locator("h1").inner_text() == "Check the table"
    finally:
        context.close()
