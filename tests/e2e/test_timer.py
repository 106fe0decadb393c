"""The turn timer in headless chromium: counts down, alerts at zero, passes the turn."""

from __future__ import annotations

import pytest

CLOCK_START = 1_800_000_000  # seconds since the epoch: a fixed, paused page clock

pytestmark = pytest.mark.e2e


def test_the_timer_counts_down_alerts_at_zero_and_passes_the_turn(page) -> None:
    from playwright.sync_api import expect

    page.add_init_script("""
        window.beeps = 0;
        const start = OscillatorNode.prototype.start;
        OscillatorNode.prototype.start = function (...args) {
            if (this.frequency.value === 880) window.beeps += 1;  // the alarm's tone
            return start.apply(this, args);
        };
    """)
    page.clock.install(time=CLOCK_START)
    # Paused before the page loads: only run_for moves time, however slow the machine.
    page.clock.pause_at(CLOCK_START + 60)
    page.goto("/timer?players=Ann,Bob,Cy&seconds=10")  # the shortest turn the rules allow
    digits = page.locator("#timer-digits")
    expect(page.locator("#timer-player")).to_have_text("Ann")
    expect(digits).to_have_text("0:10")
    expect(page.locator("#timer-alert")).to_be_hidden()

    page.keyboard.press(" ")
    expect(page.locator("#timer")).to_have_attribute("data-state", "running")
    page.clock.run_for(9_000)
    expect(digits).to_have_text("0:01")
    page.clock.run_for(1_500)
    expect(page.locator("#timer-alert")).to_have_text("Time! Ann draws one tile")
    expect(digits).to_have_text("0:00")
    expect(page.locator("#timer")).to_have_attribute("data-state", "expired")
    assert page.evaluate("window.beeps") == 3  # the audible alarm

    page.keyboard.press(" ")
    expect(page.locator("#timer-player")).to_have_text("Bob")
    expect(page.locator("#timer-next")).to_have_text("Next: Cy")
    expect(page.locator("#timer-alert")).to_be_hidden()
    expect(digits).to_have_text("0:10")


def test_tapping_passes_the_turn_round_the_table_and_pause_stops_the_clock(page) -> None:
    from playwright.sync_api import expect

    page.clock.install()
    page.goto("/timer?players=Ann,Bob&preset=sabra")
    digits = page.locator("#timer-digits")
    expect(digits).to_have_text("2:00")
    page.click("#timer-face")  # start Ann's turn
    page.clock.run_for(30_000)
    expect(digits).to_have_text("1:30")

    page.click("#timer-pause")
    expect(page.locator("#timer-pause")).to_have_text("Resume")
    page.clock.run_for(60_000)
    expect(digits).to_have_text("1:30")
    page.click("#timer-pause")
    page.clock.run_for(10_000)
    expect(digits).to_have_text("1:20")

    page.click("#timer-face")
    expect(page.locator("#timer-player")).to_have_text("Bob")
    expect(digits).to_have_text("2:00")
    page.click("#timer-face")
    expect(page.locator("#timer-player")).to_have_text("Ann")


def test_a_mistaken_pass_can_be_undone_with_the_time_left(page) -> None:
    from playwright.sync_api import expect

    page.clock.install()
    page.goto("/timer?players=Ann,Bob,Cy&first=bob&seconds=60")
    expect(page.locator("#timer-player")).to_have_text("Bob")
    expect(page.locator("#timer-next")).to_have_text("Next: Cy")
    page.keyboard.press(" ")
    page.clock.run_for(20_000)
    page.keyboard.press(" ")
    expect(page.locator("#timer-player")).to_have_text("Cy")
    page.click("#timer-undo")
    expect(page.locator("#timer-player")).to_have_text("Bob")
    expect(page.locator("#timer-digits")).to_have_text("0:40")
    expect(page.locator("#timer-undo")).to_be_disabled()


def test_the_timer_can_fill_the_screen(page) -> None:
    from playwright.sync_api import expect

    page.goto("/timer?players=Ann,Bob")
    page.click("#timer-fullscreen")
    expect(page.locator("#timer-fullscreen")).to_have_text("Leave full screen")
    assert page.evaluate("document.fullscreenElement.id") == "timer"


def test_a_sleeping_page_shows_the_true_time_when_it_wakes(page) -> None:
    """The deadline is wall-clock time: timers that did not fire cannot make it run slow."""
    from playwright.sync_api import expect

    page.clock.install()
    page.goto("/timer?players=Ann,Bob&seconds=60")
    page.keyboard.press(" ")
    page.clock.fast_forward(45_000)  # a jump: the ticks due meanwhile fire at most once
    expect(page.locator("#timer-digits")).to_have_text("0:15")
    page.clock.fast_forward(20_000)
    expect(page.locator("#timer-alert")).to_have_text("Time! Ann draws one tile")


def test_without_players_the_timer_asks_for_them(page) -> None:
    from playwright.sync_api import expect

    page.goto("/timer")
    page.fill("#players", "Dana, Eli")
    page.click("button[type=submit]")
    expect(page.locator("#timer-player")).to_have_text("Dana")
    expect(page.locator("#timer-digits")).to_have_text("1:00")


TONES = """
    window.tones = [];
    const start = OscillatorNode.prototype.start;
    OscillatorNode.prototype.start = function (...args) {
        window.tones.push(this.frequency.value);
        return start.apply(this, args);
    };
"""


def test_the_last_ten_seconds_beep_sound_can_be_switched_off_and_time_used_adds_up(
        page) -> None:
    from playwright.sync_api import expect

    page.add_init_script(TONES)
    page.clock.install(time=CLOCK_START)
    # Paused before the page loads: only run_for moves time, however slow the machine.
    page.clock.pause_at(CLOCK_START + 60)
    page.goto("/timer?players=Ann,Bob&seconds=30")
    used = page.locator("#timer-used li")
    expect(used).to_have_text(["Ann 0:00", "Bob 0:00"])
    page.click("#timer-face")  # Ann's turn
    page.clock.run_for(15_000)
    assert page.evaluate("window.tones") == []  # no beep before the last ten seconds
    page.clock.run_for(10_300)  # 4.7 s left: beeps at 10, 9, 8, 7, 6 and 5
    countdown = [f for f in page.evaluate("window.tones") if f != 880]
    assert len(countdown) == 6
    page.click("#timer-face")  # Bob, after 25.3 s of Ann's
    page.clock.run_for(4_000)
    expect(used).to_have_text(["Ann 0:25", "Bob 0:04"])
    page.click("#timer-pause")
    page.clock.run_for(60_000)  # a pause is nobody's time
    expect(used).to_have_text(["Ann 0:25", "Bob 0:04"])
    page.click("#timer-pause")

    sound = page.locator("#timer-sound")
    expect(sound).to_have_attribute("aria-pressed", "true")
    sound.click()
    expect(sound).to_have_text("Sound off")
    before = len(page.evaluate("window.tones"))
    page.clock.run_for(40_000)  # Bob's last ten seconds and the alarm, silent
    expect(page.locator("#timer")).to_have_attribute("data-state", "expired")
    assert len(page.evaluate("window.tones")) == before
    expect(used).to_have_text(["Ann 0:25", "Bob 0:30"])  # a turn counts no more than its time

    page.reload()  # the choice is remembered
    expect(page.locator("#timer-sound")).to_have_text("Sound off")
