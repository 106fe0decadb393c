"""The "Referee a turn" page in headless chromium: the table checked, then a turn refereed."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import submit

pytestmark = pytest.mark.e2e


def test_the_last_checked_table_becomes_the_table_before_and_a_bad_turn_is_caught(page) -> None:
    from playwright.sync_api import expect

    page.goto("/turn")
    expect(page.locator("#use-last-table")).to_be_hidden()  # nothing checked yet
    page.goto("/check")
    page.fill("#table", "B3 B4 J\nK9 R9 O9")
    submit(page)
    expect(page.locator(".summary")).to_contain_text("Every set is legal")
    page.goto("/turn")
    page.click("#use-last-table")
    assert page.input_value("#before") == "B3 B4 J\nK9 R9 O9"

    page.click("#copy-before")
    page.fill("#after", "B3 B4 B5\nK9 R9 O9 J")
    expect(page.locator(".palette[data-palette-for=rack]")).to_be_hidden()
    page.click("#rack")  # the palette of the field in use shows
    page.click(".palette[data-palette-for=rack] button[aria-label='blue 5']")
    assert page.input_value("#rack") == "B5"
    page.check("#opened")
    submit(page)

    expect(page.locator(".summary")).to_contain_text("Not a legal turn")
    expect(page.locator(".violation")).to_have_count(1)
    expect(page.locator(".violation[data-code=joker_not_reused]")).to_be_visible()
    expect(page.locator(".penalty")).to_contain_text("draw 3 tiles")
    assert page.input_value("#after") == "B3 B4 B5\nK9 R9 O9 J"  # what was typed survives

    page.fill("#after", "B3 B4 B5\nK9 R9 O9\nJ O10 O11")
    page.fill("#rack", "B5 O10 O11")
    submit(page)
    expect(page.locator(".summary")).to_have_text("Legal turn.")
