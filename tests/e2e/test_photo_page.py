"""The photo page in headless chromium on a phone-sized screen: upload, see, correct, re-check."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest

pytestmark = pytest.mark.e2e

from tests.fixtures import SAMPLE_PHOTO


def test_a_player_uploads_a_photo_corrects_the_reading_and_rechecks(page) -> None:
    page.goto("/photo")
    page.set_input_files("#photo-library", str(SAMPLE_PHOTO))
    assert SAMPLE_PHOTO.name in page.inner_text("#chosen-photo")
    page.click("button.read-button")

    picture = page.locator("#annotated-photo")
    picture.wait_for()
    assert picture.get_attribute("src").startswith("data:image/png;base64,")
    assert picture.evaluate("image => image.complete && image.naturalWidth") > 0
    save = page.locator("#save-picture")
    assert save.is_visible() and save.get_attribute("href") == picture.get_attribute("src")
    lines = page.input_value("#table").strip().split("\n")
    assert len(lines) >= 1 and all(line.split() for line in lines)

    # whatever was read, correct it into distinct tiles set by set (threes make groups)
    tiles = iter([f"{colour}{number}" for number in range(1, 14) for colour in "KRBO"] * 2)
    lines = [" ".join(next(tiles) for _ in line.split()) for line in lines]
    corrected = "\n".join(lines)
    page.fill("#table", corrected)
    page.click(".recheck-form button[type=submit]")

    page.locator("#annotated-photo").wait_for()
    assert page.input_value("#table") == corrected
    assert page.locator(".verdicts .verdict").count() == len(lines)
    assert page.locator(".picture-note").count() == 0  # same tile counts: redrawn, no note
    check_link = page.locator("a[data-carries-table=table]")
    carried = parse_qs(urlsplit(check_link.get_attribute("href")).query)["table"][0]
    assert carried == " | ".join(lines)

    check_link.click()
    page.wait_for_url("**/check?*")
    assert page.input_value("#table") == " | ".join(lines)
    assert page.locator(".verdict").count() == len(lines)


def test_a_file_that_is_not_a_photo_is_answered_on_the_page(page, tmp_path) -> None:
    notes = tmp_path / "notes.jpg"
    notes.write_text("Shopping list: milk, eggs, tiles\n")
    page.goto("/photo")
    page.set_input_files("#photo-camera", str(notes))
    page.click("button.read-button")
    error = page.locator("#photo-errors .field-error")
    error.wait_for()
    assert "not an image" in error.inner_text()
    assert page.locator("#annotated-photo").count() == 0
