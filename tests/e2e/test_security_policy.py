"""The Content-Security-Policy in a real browser: nothing on any page is refused, and what
used to be inline (the undo question, the share links, the last checked table) still works."""

from __future__ import annotations

import re
from typing import Any

import pytest

pytestmark = pytest.mark.e2e

PAGES = ("/", "/check", "/check?table=R5+R6+J", "/turn", "/timer?players=Ann,Bob", "/photo",
         "/scores/", "/scores/new")


@pytest.fixture
def refused(page: Any) -> list[str]:
    """Every message chromium prints about the policy (it blocks, then says so here)."""
    messages: list[str] = []
    page.on("console", lambda message: messages.append(message.text)
            if "Content Security Policy" in message.text else None)
    return messages


def start_session_with_one_game(page: Any) -> None:
    page.goto("/scores/new")
    page.fill("#player_1", "Ann")
    page.fill("#player_2", "Bob")
    page.get_by_role("button", name="Start the session").click()
    page.get_by_text("Session started").wait_for()
    page.get_by_role("link", name=re.compile(r"^Record game")).click()
    page.get_by_role("link", name="Copy from paper").click()
    page.locator("input[name='lines-0-score']").fill("+10")
    page.locator("input[name='lines-1-score']").fill("-10")
    page.get_by_role("button", name=re.compile(r"^Record game")).click()
    page.get_by_text("Game 1 recorded").wait_for()


def test_no_page_has_anything_the_policy_refuses(page: Any, refused: list[str]) -> None:
    for path in PAGES:
        page.goto(path)
        page.wait_for_load_state("load")
    start_session_with_one_game(page)
    page.get_by_role("link", name="History").click()
    page.wait_for_load_state("load")
    assert refused == []


def test_undo_asks_first_and_the_share_link_selects_itself(page: Any,
                                                           refused: list[str]) -> None:
    start_session_with_one_game(page)
    questions: list[str] = []

    def answer(dialog: Any, accept: bool) -> None:
        questions.append(dialog.message)
        dialog.accept() if accept else dialog.dismiss()

    page.once("dialog", lambda dialog: answer(dialog, accept=False))
    page.get_by_role("button", name="Undo game 1").click()
    assert questions == ["Undo game 1?"]
    assert page.get_by_role("button", name="Undo game 1").is_visible()  # kept

    page.once("dialog", lambda dialog: answer(dialog, accept=True))
    page.get_by_role("button", name="Undo game 1").click()
    page.get_by_text("Game 1 undone").wait_for()

    page.click("#view-link")
    selected = page.evaluate("() => window.getSelection().toString() || "
                             "document.activeElement.value.substring("
                             "document.activeElement.selectionStart, "
                             "document.activeElement.selectionEnd)")
    assert selected == page.input_value("#view-link") and "/view" in selected
    assert refused == []


def test_the_turn_page_is_offered_the_table_last_checked(page: Any) -> None:
    page.goto("/check?table=R5+R6+R7")
    page.wait_for_load_state("load")
    assert page.evaluate("() => localStorage.getItem('companion.lastTable')") == "R5 R6 R7"
