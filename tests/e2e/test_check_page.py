"""The check page in headless chromium, on a phone-sized screen: red, fix, green."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import submit

pytestmark = pytest.mark.e2e


def test_a_player_types_a_table_sees_red_fixes_it_and_sees_green(page) -> None:
    page.goto("/check")
    page.fill("#table", "R5 R6 J\nK7 K7 B7")
    submit(page)
    illegal = page.locator(".verdict-illegal")
    assert illegal.count() == 1
    assert "can't hold two black 7s" in illegal.inner_text()
    assert "R7" in page.locator(".verdict-legal").inner_text()

    assert page.input_value("#table") == "R5 R6 J\nK7 K7 B7"  # the table survives
    page.fill("#table", "R5 R6 J\nK7 O7 B7")
    submit(page)
    page.get_by_text("Every set is legal").wait_for()  # the answer has loaded
    assert page.locator(".verdict-illegal").count() == 0
    assert page.locator(".verdict-legal").count() == 2
    assert "Every set is legal" in page.locator(".summary").inner_text()


def test_the_palette_types_tiles_and_starts_new_sets(page) -> None:
    page.goto("/check")
    for label in ("red 5", "red 6", "red 7"):
        page.click(f".palette button[aria-label='{label}']")
    page.click(".palette [data-palette-action=new-set]")
    for label in ("black 9", "blue 9", "joker"):
        page.click(f".palette button[aria-label='{label}']")
    assert page.input_value("#table") == "R5 R6 R7\nK9 B9 J"
    page.click(".palette [data-palette-action=backspace]")
    assert page.input_value("#table") == "R5 R6 R7\nK9 B9"


def test_a_typo_shows_where_it_is(page) -> None:
    page.goto("/check")
    page.fill("#table", "R5 R6 R14")
    submit(page)
    assert "R14 at set 1, tile 3" in page.locator(".field-error").inner_text()  # <code>, no backticks
    assert page.input_value("#table") == "R5 R6 R14"
