"""A new user keeps score in headless chromium: start, record each way, standings, print."""

from __future__ import annotations

import re
from typing import Any

import pytest

pytestmark = pytest.mark.e2e


def pdf_page_count(pdf: bytes) -> int:
    """Count page objects (``/Type /Page``, not ``/Pages``) in chromium's uncompressed tree."""
    return len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", pdf))


def record_through_the_form(page: Any, ending_tab: str, fill: dict[str, str],
                            winner: str | None = None) -> None:
    page.get_by_role("link", name=re.compile(r"^Record game")).click()
    page.get_by_role("link", name=ending_tab).click()
    if winner:
        page.get_by_label(winner, exact=True).check()
    for label, value in fill.items():
        page.get_by_label(label, exact=True).fill(value)
    page.get_by_role("button", name=re.compile(r"^Record game")).click()


def test_a_new_user_keeps_score_and_prints_the_sheet_on_one_page(page: Any) -> None:
    page.goto("/scores/")
    page.get_by_role("link", name="Start a session").click()
    for seat, name in enumerate(["Ann", "Bob", "Chloé", "Dov"], start=1):
        page.fill(f"#player_{seat}", name)
    page.fill("#rounds", "4")
    page.get_by_role("button", name="Start the session").click()
    page.get_by_text("Session started").wait_for()

    # 1. Someone went out, with racks tapped on the palette and typed as a total.
    page.get_by_role("link", name="Record game 1").click()
    page.get_by_label("Ann", exact=True).check()
    page.get_by_label("Bob rack").click()
    page.locator(".palette button[data-tile='R5']").click()
    page.locator(".palette button[data-tile='J']").click()
    assert page.get_by_label("Bob rack").input_value() == "R5 J"
    page.get_by_label("Chloé points").fill("12")
    page.get_by_label("Dov rack").fill("K1 K2")
    page.get_by_role("button", name="Record game 1").click()
    page.get_by_text("Game 1 recorded: Ann won.").wait_for()

    # 2. The pool ran out: a tie the table breaks with the fewest-tiles offer.
    record_through_the_form(page, "The pool ran out", {
        "Ann rack": "K3 K4", "Bob rack": "R7", "Chloé rack": "B13", "Dov rack": "O12"})
    page.get_by_text("Fewest tiles would pick Bob").wait_for()
    page.get_by_role("button", name="Bob won (fewest tiles)").click()
    page.get_by_text("Game 2 recorded: Bob won.").wait_for()

    # 3. Copied from paper: first unbalanced (refused, the typing kept), then corrected.
    record_through_the_form(page, "Copy from paper", {
        "Ann score": "-4", "Bob score": "-6", "Chloé score": "20", "Dov score": "-8"})
    page.get_by_text("should score +18, not +20").wait_for()
    assert page.get_by_label("Bob score").input_value() == "-6"
    page.get_by_label("Chloé score").fill("18")
    page.get_by_role("button", name="Record game 3").click()
    page.get_by_text("Game 3 recorded: Chloé won.").wait_for()

    # 4. Someone went out, every rack given as a total with jokers.
    record_through_the_form(page, "Someone went out", {
        "Ann points": "3", "Bob points": "0", "Bob jokers": "1", "Chloé points": "9"},
        winner="Dov")
    page.get_by_text("Game 4 recorded: Dov won.").wait_for()

    totals = page.locator("tr.total td").all_inner_texts()
    assert totals[:4] == ["+43", "−60", "−9", "+26"]
    assert "✓" in totals[4]
    assert page.locator(".standings li").first.inner_text().startswith("Ann")

    # Fill the other three rounds through the API with the key from the share link,
    # then print the full four-round sheet.
    share = page.locator("#share-link").input_value()
    key = share.split("key=", 1)[1]
    session_id = re.search(r"/scores/([A-Za-z0-9_-]+)", page.url).group(1)
    for number in range(5, 17):
        winner = ["Ann", "Bob", "Chloé", "Dov"][number % 4]
        answer = page.request.post(
            f"/api/v1/sessions/{session_id}/games",
            headers={"Authorization": f"Bearer {key}"},
            data={"ending": "out", "winner": winner,
                  "racks": {n: 10 + number for n in ["Ann", "Bob", "Chloé", "Dov"]
                            if n != winner}})
        assert answer.status == 201, answer.text()
    page.reload()
    assert page.get_by_text("complete").first.is_visible()
    page.emulate_media(media="print")
    assert page.locator(".site-header").is_hidden()
    pdf = page.pdf(format="A4", print_background=False)
    assert pdf_page_count(pdf) == 1
