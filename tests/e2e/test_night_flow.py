"""A club night in chromium: the host starts it on a 360 px phone, the pages fit the screen,
and the room's TV view moves by itself when a table records a game."""

from __future__ import annotations

import json
import re
import urllib.request
from typing import Any

import pytest

from tests.e2e.conftest import submit

pytestmark = pytest.mark.e2e

PHONE = {"width": 360, "height": 740}


def fits(page: Any) -> None:
    page.wait_for_load_state("load")  # measured before its stylesheets apply, a photo is wide
    wide = page.evaluate("document.documentElement.scrollWidth")
    widest = page.evaluate("""[...document.querySelectorAll('body *')].filter(
        e => e.getBoundingClientRect().right > 360).map(e => e.tagName + '.' + e.className
        + ' ' + Math.round(e.getBoundingClientRect().right)).slice(0, 5).join('; ')""")
    assert wide <= PHONE["width"], f"{page.url} is {wide} px wide on a 360 px phone: {widest}"


def test_a_night_on_a_phone_and_its_tv_view_follow_the_tables(browser: Any,
                                                              live_server: str) -> None:
    phone = browser.new_context(viewport=PHONE, base_url=live_server)
    page = phone.new_page()
    page.goto("/nights/new")
    fits(page)
    page.fill("textarea[name=names]", "\n".join(f"Player number {n}" for n in range(1, 12)))
    page.fill("input[name=games_per_table]", "1")
    submit(page)
    assert "round 1 is seated" in page.text_content("main")
    fits(page)
    night_url = page.url
    night_id = night_url.rstrip("/").rsplit("/", 1)[1]
    for path in ("cards", "sheet", "tv"):
        page.goto(f"{night_url}{path}")
        fits(page)
    links = dict(re.findall(r'/scores/([^/"]+)/join\?key=([^"&]+)"',
                            page.goto(f"{night_url}cards").text()))
    tv = browser.new_context(viewport={"width": 1280, "height": 720},
                             base_url=live_server).new_page()
    tv.goto(f"/nights/{night_id}/tv")
    assert "0 of 3 tables done" in tv.text_content(".tv-progress")
    with urllib.request.urlopen(f"{live_server}/api/v1/nights/{night_id}") as answer:
        table = json.load(answer)["rounds_played"][0]["tables"][0]
    players = table["players"]
    game = json.dumps({"ending": "paper", "winner": players[0],
                       "scores": {n: (10 * (len(players) - 1) if i == 0 else -10)
                                  for i, n in enumerate(players)}}).encode()
    request = urllib.request.Request(
        f"{live_server}/api/v1/sessions/{table['session']}/games", data=game, method="POST",
        headers={"Content-Type": "application/json",
                 "Authorization": f"Bearer {links[table['session']]}"})
    with urllib.request.urlopen(request) as answer:
        assert answer.status == 201
    for _ in range(100):  # the page's own stream and fetch, no reload from here
        if "1 of 3 tables done" in tv.text_content(".tv-progress"):
            break
        tv.wait_for_timeout(100)
    assert "1 of 3 tables done" in tv.text_content(".tv-progress")
    leader = tv.text_content(".tv-standings li:first-child .tv-name")
    assert leader.strip() == players[0]
    tv.context.close()
    phone.close()
