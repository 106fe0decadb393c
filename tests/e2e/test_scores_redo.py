"""Undo asks first, and a redo puts the game back until the next change (issue 15), in
headless chromium at phone width: the buttons work from the static script (no inline
handlers, which the Content-Security-Policy forbids)."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.e2e


def test_an_undone_game_comes_back_with_redo_until_the_next_change(page: Any) -> None:
    page.goto("/scores/new")
    page.fill("#player_1", "Ann")
    page.fill("#player_2", "Bob")
    page.fill("#rounds", "2")
    page.get_by_role("button", name="Start the session").click()
    page.get_by_role("link", name="Record game 1").click()
    page.get_by_label("Ann", exact=True).check()
    page.get_by_label("Bob rack").fill("R9 B4")
    page.get_by_role("button", name="Record game 1").click()
    page.get_by_text("Game 1 recorded: Ann won.").wait_for()

    page.once("dialog", lambda dialog: dialog.dismiss())
    page.get_by_role("button", name="Undo game 1").click()
    assert page.locator("tr.game").count() == 1  # dismissed: nothing undone

    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Undo game 1").click()
    page.get_by_text("Game 1 undone").wait_for()
    assert page.locator("tr.game").count() == 0
    page.get_by_role("button", name="Redo game 1").click()
    page.get_by_text("Game 1 put back.").wait_for()
    assert page.locator("tr.game").count() == 1
    assert page.locator("tr.total td").all_inner_texts()[:2] == ["+13", "−13"]
    assert page.get_by_role("button", name="Redo game 1").count() == 0
