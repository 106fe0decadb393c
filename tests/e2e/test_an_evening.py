"""An evening on a 360 px phone (issue 30): a group's first session with four seats, names that
look alike told apart on the sheet, and an evening ended early, then continued."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from tests.e2e.conftest import close_palette

pytestmark = pytest.mark.e2e

PHONE = {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True}
ALIKE = ["Christine", "Christoph", "Alexandra", "Alexander"]


@pytest.fixture
def phone(browser: Any, live_server: str) -> Iterator[Any]:
    context = browser.new_context(base_url=live_server, **PHONE)
    page = context.new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    yield page
    context.close()


def start_session(page: Any, players: list[str], rounds: int = 1) -> str:
    page.goto("/scores/new")
    for seat, name in enumerate(players, start=1):
        page.fill(f"#player_{seat}", name)
    page.fill("#rounds", str(rounds))
    page.get_by_role("button", name="Start the session").click()
    page.get_by_text("Session started").wait_for()
    return re.search(r"/scores/([^/?#]+)$", page.url).group(1)


def record_paper_game(page: Any, number: int, scores: dict[str, str]) -> None:
    page.get_by_role("link", name=f"Record game {number}").click()
    page.get_by_role("link", name="Copy from paper").click()
    for name, points in scores.items():
        page.get_by_label(f"{name} score").fill(points)
    close_palette(page)
    page.get_by_role("button", name=f"Record game {number}").click()
    page.get_by_text(f"Game {number} recorded").wait_for()


NAMES_SHOWN_WHOLE = """() => [...document.querySelectorAll('.score-sheet .player-name')].map(b => ({
  name: b.textContent, whole: b.scrollHeight <= b.clientHeight + 1 && b.scrollWidth <= b.clientWidth + 1,
  right: b.getBoundingClientRect().right}))"""


def test_names_that_look_alike_are_told_apart_on_a_360_px_sheet(phone: Any) -> None:
    start_session(phone, ALIKE)
    shown = phone.evaluate(NAMES_SHOWN_WHOLE)
    assert [each["name"] for each in shown] == ALIKE
    assert all(each["whole"] for each in shown), shown  # two lines, nothing cut
    assert phone.evaluate("() => document.documentElement.scrollWidth") <= 360


def start_group_session(phone: Any, group: str, names: list[str]) -> str:
    """A new group and its first session, seated in order through the pages; the group's URL."""
    phone.goto("/groups/")
    phone.get_by_label("Name of the group").fill(group)
    phone.get_by_role("button", name="Start a group").click()
    phone.get_by_text(f"Group “{group}” started").wait_for()
    group_url = str(phone.url)
    phone.get_by_role("link", name="Start a session").click()
    for seat, name in enumerate(names, start=1):
        phone.get_by_label(re.compile(f"^Seat {seat}")).fill(name)
    phone.get_by_role("button", name="Start the session").click()
    phone.get_by_text("Session started").wait_for()
    return group_url


def test_a_groups_first_session_seats_four_players_in_order(phone: Any) -> None:
    group_url = start_group_session(phone, "Family", ["Ann", "Bob", "Cy"])

    # The second evening: the members are buttons that seat them in the next free seat.
    phone.goto(group_url)
    phone.get_by_role("link", name="Start a session").click()
    picker = phone.locator(".member-pick")
    picker.wait_for()  # shown by the page's script once it has loaded
    assert picker.locator("button").all_inner_texts() == ["Ann", "Bob", "Cy"]
    picker.get_by_role("button", name="Cy").tap()
    picker.get_by_role("button", name="Ann").tap()
    picker.get_by_role("button", name="Bob").tap()
    picker.get_by_role("button", name="Ann").tap()  # a second tap frees Ann's seat
    assert [phone.input_value(f"#seat_{seat}") for seat in range(1, 5)] == ["Cy", "", "Bob", ""]
    picker.get_by_role("button", name="Ann").tap()  # into the first free seat: seat 2
    phone.get_by_label("Seat 4 (optional)").fill("Dee")  # a new name joins the group
    assert picker.get_by_role("button", name="Ann").get_attribute("aria-pressed") == "true"
    for button in picker.locator("button").all():
        box = button.bounding_box()
        assert box["height"] >= 44 and box["x"] + box["width"] <= 360
    phone.get_by_role("button", name="Start the session").click()
    phone.get_by_text("Session started").wait_for()
    assert phone.locator(".score-sheet .player-name").all_inner_texts() == [
        "Cy", "Ann", "Bob", "Dee"]


def test_an_evening_ended_early_then_continued(phone: Any) -> None:
    start_session(phone, ["Ann", "Bob"], rounds=2)
    record_paper_game(phone, 1, {"Ann": "12", "Bob": "-12"})
    record_paper_game(phone, 2, {"Ann": "-5", "Bob": "5"})
    phone.get_by_role("button", name="Finish now").tap()
    phone.get_by_text("these are the final standings").wait_for()
    note = phone.locator("[data-finished-early]")
    assert "after game 2 of 4" in note.inner_text()
    assert phone.get_by_role("link", name=re.compile("Record game")).count() == 0
    assert "winner" in phone.locator(".standings .place-1").inner_text()
    assert phone.get_by_role("button", name="Rematch: same players and rules").is_visible()

    phone.get_by_role("button", name="Continue the session").tap()
    phone.get_by_text("The session continues").wait_for()
    assert phone.locator("[data-finished-early]").count() == 0
    assert phone.get_by_role("link", name="Record game 3").is_visible()


def test_the_league_and_the_charts_fit_a_360_px_phone(phone: Any) -> None:
    group_url = start_group_session(phone, "Thursday club",
                                    ["Alexandrina", "Bartholomew", "Christabella"])
    record_paper_game(phone, 1, {"Alexandrina": "112", "Bartholomew": "-56",
                                 "Christabella": "-56"})
    chart = phone.locator(".sheet-chart img")
    chart.wait_for()
    phone.wait_for_function(
        "() => document.querySelector('.sheet-chart img').currentSrc !== ''")
    assert "size=phone" in chart.evaluate("img => img.currentSrc")  # drawn for the phone

    phone.goto(group_url)
    fits = phone.evaluate("""() => {
      const table = document.querySelector('table.league');
      return table.getBoundingClientRect().right <= document.documentElement.clientWidth;
    }""")
    assert fits
    phone.locator("table.league a", has_text="Alexandrina").click()
    player_chart = phone.locator(".player-chart img")
    player_chart.wait_for()
    phone.wait_for_function(
        "() => document.querySelector('.player-chart img').currentSrc !== ''")
    assert "size=phone" in player_chart.evaluate("img => img.currentSrc")


def test_the_tv_view_is_dark_to_the_foot_of_a_1280_by_900_screen(browser: Any,
                                                                   live_server: str) -> None:
    context = browser.new_context(base_url=live_server, viewport={"width": 1280, "height": 900})
    page = context.new_page()
    try:
        session_id = start_session(page, ["Ann", "Bob"])
        page.goto(f"/scores/{session_id}/tv")
        foot = page.evaluate("""() => {
          const below = document.elementFromPoint(640, 895) || document.documentElement;
          let element = below, colour = 'rgba(0, 0, 0, 0)';
          while (element && colour === 'rgba(0, 0, 0, 0)') {
            colour = getComputedStyle(element).backgroundColor;
            element = element.parentElement;
          }
          return colour === 'rgba(0, 0, 0, 0)'
            ? getComputedStyle(document.documentElement).backgroundColor : colour;
        }""")
        assert foot == "rgb(15, 45, 35)", foot
    finally:
        context.close()


def test_in_hebrew_tiles_read_left_to_right_in_the_field_the_palette_and_the_verdict(
        browser: Any, live_server: str) -> None:
    """The decision (docs/user-guide.md, "Languages"): tile notation is written left to right on
    a right-to-left page, as in the rule books' examples and on the table, so the field, the
    palette's rows and the verdict's tiles all read R5 R6 J from the left."""
    context = browser.new_context(base_url=live_server, locale="he-IL", **PHONE)
    page = context.new_page()
    try:
        page.goto("/check?table=R5+R6+J")
        assert page.get_attribute("html", "dir") == "rtl"
        chips = page.locator(".verdict .tiles .chip")
        lefts = [chip.bounding_box()["x"] for chip in chips.all()]
        assert [chip.inner_text() for chip in chips.all()] == ["5", "6", "J"]
        assert lefts == sorted(lefts), lefts  # R5 leftmost, the joker rightmost
        field = page.locator("#table")
        assert field.evaluate("element => getComputedStyle(element).direction") == "ltr"
        row = page.locator(".palette-row").first
        ones = row.locator("button[data-tile$='1']").first.bounding_box()["x"]
        thirteens = row.locator("button[data-tile$='13']").first.bounding_box()["x"]
        assert ones < thirteens  # 1 to 13 from the left, as the field reads
    finally:
        context.close()


FLASH_FRAMES = """() => {
  const face = document.getElementById('timer-face');
  const frames = [];
  for (const animation of face.getAnimations()) animation.pause();
  for (const at of [0, 130, 260, 390, 520, 900]) {
    for (const animation of face.getAnimations()) animation.currentTime = at;
    frames.push({face: getComputedStyle(face).backgroundColor,
                 digits: getComputedStyle(document.getElementById('timer-digits')).color,
                 name: getComputedStyle(document.getElementById('timer-player')).color});
  }
  return {frames, animations: face.getAnimations().length};
}"""


def test_the_timer_at_zero_stays_readable_through_the_flash(phone: Any) -> None:
    phone.goto("/timer?players=Ann,Bob&seconds=10")
    phone.locator("#timer-face").tap()  # start
    phone.wait_for_function("() => document.getElementById('timer').dataset.state === 'expired'",
                            timeout=20_000)
    shown = phone.evaluate(FLASH_FRAMES)
    assert shown["animations"] >= 1  # it does flash
    for frame in shown["frames"]:  # and on every frame white text stands on the red face
        assert frame["face"] == "rgb(179, 38, 30)", frame
        assert frame["digits"] == frame["name"] == "rgb(255, 255, 255)", frame
    assert phone.locator("#timer-digits").inner_text() == "0:00"


def test_a_rack_of_sixteen_tiles_shows_whole_in_its_field_at_360_px(phone: Any) -> None:
    start_session(phone, ["Ann", "Bob"])
    phone.get_by_role("link", name="Record game 1").click()
    rack = "R1 R2 R3 R4 B10 B11 B12 B13 K7 K8 K9 O5 O6 O7 J J"
    field = phone.get_by_label("Bob rack", exact=True)
    field.fill(rack)
    close_palette(phone)
    assert field.evaluate("f => f.scrollHeight <= f.clientHeight + 1 && "
                          "f.scrollWidth <= f.clientWidth + 1"), "tiles out of sight"
    assert field.bounding_box()["x"] + field.bounding_box()["width"] <= 360
