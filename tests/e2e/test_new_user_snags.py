"""Where a new user tripped (issue 15), tried again in headless chromium on a 360 px phone and
on a desktop, with real taps and clicks, so that each stays fixed."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

pytestmark = pytest.mark.e2e

SCREENS = {
    "phone": {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True},
    "desktop": {"viewport": {"width": 1280, "height": 800}},
}


@pytest.fixture(params=list(SCREENS))
def screen(request: Any, browser: Any, live_server: str) -> Iterator[Any]:
    """A page on a 360 px touch phone, then on a desktop."""
    context = browser.new_context(base_url=live_server, **SCREENS[request.param])
    page = context.new_page()
    page.is_phone = request.param == "phone"
    yield page
    context.close()


def press(page: Any, selector: str) -> None:
    """A finger's tap on the phone, a mouse click on the desktop (both at the element's centre)."""
    target = page.locator(selector)
    if page.is_phone:
        target.tap()
    else:
        target.click()


def test_start_from_the_table_before_works_on_the_first_tap(screen: Any) -> None:
    from playwright.sync_api import expect

    screen.goto("/turn")
    press(screen, "#before")
    screen.keyboard.type("R5 R6 R7")
    expect(screen.locator(".palette[data-palette-for=before]")).to_be_visible()

    button = screen.locator("#copy-before")
    button.scroll_into_view_if_needed()
    press(screen, "#copy-before")

    assert screen.input_value("#after") == "R5 R6 R7"
    # The tap landed (the table was copied); then the page moves only to show the field above
    # its palette, docked under the thumb (issue 13).
    docked = screen.locator(".palette.palette-docked[data-palette-for=after]")
    expect(docked).to_be_visible()
    after_box, docked_box = screen.locator("#after").bounding_box(), docked.bounding_box()
    assert 0 <= after_box["y"] and after_box["y"] + after_box["height"] <= docked_box["y"]
    expect(screen.locator(".palette[data-palette-for=after]")).to_be_visible()
    expect(screen.locator(".palette[data-palette-for=before]")).to_be_hidden()
    expect(screen.locator("#after")).to_be_focused()
    expect(screen.locator("#after")).to_be_in_viewport()


# Every element that shows text of its own, with the contrast of that text against what is
# painted behind it: the nearest backgrounds up the tree, each faded by the opacity above it.
TEXT_CONTRASTS = """() => {
  function rgba(css) {
    const parts = css.match(/[\\d.]+/g).map(Number);
    return { r: parts[0], g: parts[1], b: parts[2], a: parts.length > 3 ? parts[3] : 1 };
  }
  function over(top, bottom) {
    const a = top.a;
    return { r: top.r * a + bottom.r * (1 - a), g: top.g * a + bottom.g * (1 - a),
             b: top.b * a + bottom.b * (1 - a), a: 1 };
  }
  function luminance(c) {
    const [r, g, b] = [c.r, c.g, c.b].map(function (v) {
      v /= 255;
      return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  }
  function ratio(x, y) {
    const [light, dark] = [luminance(x), luminance(y)].sort(function (p, q) { return q - p; });
    return (light + 0.05) / (dark + 0.05);
  }
  const found = [];
  for (const element of document.body.querySelectorAll("*")) {
    const ownText = Array.from(element.childNodes)
      .filter(function (node) { return node.nodeType === Node.TEXT_NODE; })
      .map(function (node) { return node.textContent.trim(); }).join(" ").trim();
    if (!ownText || !element.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true }))
      continue;
    const chain = [];
    for (let node = element; node; node = node.parentElement) chain.unshift(node);
    let behind = { r: 255, g: 255, b: 255, a: 1 };
    let opacity = 1;
    for (const node of chain) {
      const style = getComputedStyle(node);
      opacity *= Number(style.opacity);
      const background = rgba(style.backgroundColor);
      background.a *= opacity;
      behind = over(background, behind);
    }
    const text = rgba(getComputedStyle(element).color);
    text.a *= opacity;
    found.push({ text: ownText, ratio: ratio(over(text, behind), behind),
                 background: [behind.r, behind.g, behind.b].map(Math.round).join(",") });
  }
  return found;
}"""
RED = "179,38,30"  # --red in static/style.css


def test_everything_on_the_red_timer_screen_reads_at_arms_length(screen: Any) -> None:
    from playwright.sync_api import expect

    screen.clock.install()
    screen.goto("/timer?players=Ann,Bob,Cy&seconds=10")
    press(screen, "#timer-face")
    screen.clock.run_for(11_000)
    expect(screen.locator("#timer-alert")).to_have_text("Time! Ann draws one tile")
    screen.evaluate("document.getAnimations().forEach(animation => animation.finish())")

    texts = screen.evaluate(TEXT_CONTRASTS)
    on_red = {item["text"] for item in texts if item["background"] == RED}
    assert {"Time! Ann draws one tile", "Ann", "0:00", "Next: Bob"} <= on_red
    assert any(text.startswith("Pressman (2018): 10 seconds a turn") for text in on_red)
    hard_to_read = [(item["text"], round(item["ratio"], 2)) for item in texts
                    if item["ratio"] < 4.5]
    assert hard_to_read == []


def start_session(browser_side: Any, players: list[str], **fields: Any) -> tuple[str, str]:
    """A session started through the API (from a page or a browser context); id and edit key."""
    answer = browser_side.request.post("/api/v1/sessions", data={"players": players, **fields})
    assert answer.status == 201, answer.text()
    session = answer.json()
    return str(session["id"]), session["edit_key"]


def test_history_shows_the_viewers_local_time(browser: Any, live_server: str) -> None:
    from datetime import UTC, datetime
    from zoneinfo import ZoneInfo

    for screen in SCREENS.values():
        context = browser.new_context(base_url=live_server, timezone_id="Asia/Jerusalem",
                                      locale="en-GB", **screen)
        page = context.new_page()
        session_id, key = start_session(page, ["Ann", "Bob"], rounds=1)
        answer = page.request.post(f"/api/v1/sessions/{session_id}/games",
                                   headers={"Authorization": f"Bearer {key}"},
                                   data={"ending": "out", "winner": "Ann", "racks": {"Bob": 12}})
        assert answer.status == 201, answer.text()

        page.goto(f"/scores/{session_id}/history")
        time = page.locator(".history time").first
        written = time.get_attribute("datetime")
        assert written.endswith("Z")
        at_utc = datetime.fromisoformat(written[:-1]).replace(tzinfo=UTC)
        in_jerusalem = at_utc.astimezone(ZoneInfo("Asia/Jerusalem"))
        shown = time.inner_text()
        assert in_jerusalem.strftime("%H:%M:%S") in shown
        assert in_jerusalem.strftime("%-d %b %Y") in shown
        assert "UTC" not in shown
        # The server writes Babel's 'd MMM HH:mm:ss': the day without a leading zero (1 Dec).
        assert time.get_attribute("title") == f"{at_utc.day} {at_utc:%b %H:%M:%S} UTC"
        context.close()


def test_the_sheets_timer_link_keeps_every_seat_and_the_sessions_turn_time(screen: Any) -> None:
    from playwright.sync_api import expect

    session_id, _key = start_session(screen, ["Ann", "Bob, Jr", "Cy"], preset="sabra")
    screen.goto(f"/scores/{session_id}")
    press(screen, "a:text-is('Turn timer')")
    # The timer's script must be running before the face is tapped: the names are the server's.
    screen.wait_for_url("**/timer?**", wait_until="load")

    expect(screen.locator("#timer-digits")).to_have_text("2:00")  # Sabra Way: two minutes
    expect(screen.locator("#timer-player")).to_have_text("Ann")
    expect(screen.locator("#timer-next")).to_have_text("Next: Bob, Jr")
    press(screen, "#timer-face")
    press(screen, "#timer-face")
    expect(screen.locator("#timer-player")).to_have_text("Bob, Jr")
    expect(screen.locator("#timer-next")).to_have_text("Next: Cy")
    press(screen, "#timer-face")
    expect(screen.locator("#timer-next")).to_have_text("Next: Ann")  # three seats, not four

    screen.goto("/timer?players=Ann,Bob,Cy")  # typed by hand
    expect(screen.locator("#timer-next")).to_have_text("Next: Bob")
    expect(screen.locator("#timer-digits")).to_have_text("1:00")


def test_the_printed_sheet_says_when_under_which_rules_and_which_session(
        browser: Any, live_server: str) -> None:
    import re
    from datetime import UTC, datetime
    from zoneinfo import ZoneInfo

    from tests.e2e.test_scores_flow import pdf_page_count

    players = ["Ann", "Bob", "Chloé", "Dov"]
    contexts = [browser.new_context(base_url=live_server, timezone_id="Europe/Amsterdam",
                                    locale="en-GB", **screen) for screen in SCREENS.values()]
    session_id, key = start_session(contexts[0], players, rounds=4, preset="sabra",
                                    rules={"turn_seconds": 90, "joker_penalty": 25})
    for number in range(1, 17):  # four players by four rounds: the sheet at its longest
        winner = players[number % 4]
        answer = contexts[0].request.post(
            f"/api/v1/sessions/{session_id}/games", headers={"Authorization": f"Bearer {key}"},
            data={"ending": "out", "winner": winner,
                  "racks": {name: 10 + number for name in players if name != winner}})
        assert answer.status == 201, answer.text()

    for context in contexts:
        page = context.new_page()
        page.goto(f"/scores/{session_id}")
        heading = page.locator(".sheet-print-header")
        assert heading.is_hidden()  # on the screen the sheet says it all already

        page.emulate_media(media="print")
        assert heading.is_visible()
        text = " ".join(heading.inner_text().split())
        assert (f"Session {session_id} {live_server}/scores/{session_id}/view") in text
        assert ("Rules: Sabra Way, changed for this session: turn time 90 s (Sabra Way: 120 s); "
                "a joker left on a rack counts 25 (Sabra Way: 30).") in text
        assert "Players, in seating order: Ann, Bob, Chloé, Dov." in text
        written = heading.locator("time").get_attribute("datetime")
        started = datetime.fromisoformat(written[:-1]).replace(tzinfo=UTC)
        local = started.astimezone(ZoneInfo("Europe/Amsterdam"))
        assert re.search(rf"started {local:%A},? {local.day} {local:%B %Y},? (at )?"
                         rf"{local:%H:%M}", text), text
    # The printed page does not depend on the screen it was printed from: A4 either way.
    assert pdf_page_count(page.pdf(format="A4", print_background=False)) == 1
    for context in contexts:
        context.close()
