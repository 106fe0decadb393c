""""What can I play?" in headless chromium on a 360 px phone: type, tap, see the best play."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import submit

pytestmark = pytest.mark.e2e


def test_a_player_taps_a_rack_and_sees_the_new_table_with_their_tiles_marked(page) -> None:
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto("/solve")
    page.fill("#table", "R5 R6 R7\nK9 B9 O9")
    page.click("#rack")
    for label in ("red 8", "black 1", "joker"):
        page.click(f".palette[data-palette-for=rack] button[aria-label='{label}']")
    assert page.input_value("#rack") == "R8 K1 J"
    page.check("#opened")
    submit(page)
    assert "Lay 2 tiles" in page.locator(".summary").inner_text()
    marked = page.locator(".chip-new")
    assert marked.count() == 2
    assert sorted(marked.evaluate_all("els => els.map(e => e.title)")) == [
        "joker (from your rack)", "red 8 (from your rack)"]
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert page.input_value("#rack") == "R8 K1 J"  # what was typed stays


def test_a_typo_is_shown_where_it_is_and_kept(page) -> None:
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto("/solve")
    page.fill("#table", "R5 R6 R7")
    page.fill("#rack", "R8 R14")
    submit(page)
    assert "R14 at rack, tile 2" in page.locator("#rack-errors").inner_text()
    assert page.input_value("#rack") == "R8 R14"
