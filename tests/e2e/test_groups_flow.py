"""A club starts a group in headless chromium: a session from the group, the running-total
chart, a rematch, the league, a player's page and its chart, the standings picture."""

from __future__ import annotations

import re
from typing import Any

import pytest

pytestmark = pytest.mark.e2e


def record_paper_game(page: Any, number: int, scores: dict[str, str]) -> None:
    page.get_by_role("link", name=f"Record game {number}").click()
    page.get_by_role("link", name="Copy from paper").click()
    for name, score in scores.items():
        page.get_by_label(f"{name} score", exact=True).fill(score)
    page.get_by_role("button", name=f"Record game {number}").click()
    page.get_by_text(f"Game {number} recorded").wait_for()


def image_loaded(page: Any, selector: str) -> bool:
    """The picture has loaded (waited for: a chart comes after the page's own load)."""
    image = page.locator(selector)
    image.wait_for()
    image.evaluate("img => img.complete || new Promise(done => img.addEventListener("
                   "'load', done, {once: true}) || img.addEventListener('error', done))")
    return image.evaluate("img => img.complete && img.naturalWidth > 0")


def no_inline_script_or_style(page: Any) -> None:
    """What a Content-Security-Policy without 'unsafe-inline' would block."""
    assert page.locator("script:not([src])").count() == 0
    assert page.locator("[style]").count() == 0
    assert page.evaluate("""() => [...document.querySelectorAll('*')].filter(
        e => [...e.attributes].some(a => a.name.startsWith('on'))).length""") == 0


def test_a_club_keeps_a_league_across_evenings(page: Any) -> None:
    page.goto("/groups/")
    page.get_by_label("Name of the group").fill("Thursday club")
    page.get_by_role("button", name="Start a group").click()
    page.get_by_text("Group “Thursday club” started").wait_for()
    group_url = page.url
    no_inline_script_or_style(page)

    page.get_by_role("link", name="Start a session").click()
    page.get_by_label("Seat 1 (plays first)").fill("Ann")
    page.get_by_label("Seat 2", exact=True).fill("Bob")
    page.get_by_label("Rounds").fill("1")
    page.get_by_role("button", name="Start the session").click()
    page.get_by_text("Session started").wait_for()
    record_paper_game(page, 1, {"Ann": "12", "Bob": "-12"})
    page.get_by_role("button", name="Add a round").click()
    page.get_by_text("Round 2 added.").wait_for()
    for number, ann in ((2, "-5"), (3, "7"), (4, "9")):
        bob = str(-int(ann))
        record_paper_game(page, number, {"Ann": ann, "Bob": bob})
    assert image_loaded(page, ".sheet-chart img")

    page.get_by_role("button", name="Rematch: same players and rules").click()
    page.get_by_text("Rematch: a new session").wait_for()
    record_paper_game(page, 1, {"Ann": "-3", "Bob": "3"})

    page.goto(group_url)
    rows = page.locator("table.league tbody tr").all_inner_texts()
    assert re.match(r"1\s+Ann\s+1\s+3\s+\+20", rows[0])
    assert re.match(r"2\s+Bob\s+0\s+2\s+−20", rows[1])
    assert page.locator(".session-list li").count() == 2
    no_inline_script_or_style(page)

    with page.expect_download() as download:
        page.get_by_role("link", name="Download the standings (PNG)").click()
    with open(download.value.path(), "rb") as picture:
        assert picture.read(8) == b"\x89PNG\r\n\x1a\n"

    page.locator("table.league").get_by_role("link", name="Ann").click()
    page.get_by_role("heading", name="Ann").wait_for()
    stats = dict(zip(page.locator(".player-stats dt").all_inner_texts(),
                     page.locator(".player-stats dd").all_inner_texts(), strict=True))
    assert stats["Games played"] == "5" and stats["Games won"] == "3"
    assert stats["Best game"] == "+12" and stats["Worst game"] == "−5"
    assert stats["Nemesis"] == "Bob" and stats["Longest winning streak"] == "2 games"
    assert image_loaded(page, ".player-chart img")
    no_inline_script_or_style(page)
