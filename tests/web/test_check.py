"""The table check through its page and its JSON API."""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.web import create_app


def test_the_start_page_links_to_the_check(client: FlaskClient) -> None:
    page = client.get("/").get_data(as_text=True)
    assert "Check the table" in page


def test_the_check_page_shows_a_verdict_per_set_with_reason_and_joker(client: FlaskClient) -> None:
    response = client.post("/check", data={"table": "R5 R6 J\nK7 K7 B7", "preset": "pressman"})
    page = response.get_data(as_text=True)
    assert response.status_code == 200
    assert "1 of 2 sets not legal" in page
    assert "stands for\n        R7" in page or "stands for R7" in " ".join(page.split())
    assert "A group can&#39;t hold two black 7s" in page


def test_a_typo_is_shown_with_where_it_is_and_the_typed_table_survives(
        client: FlaskClient) -> None:
    response = client.post("/check", data={"table": "R5 R6 R7 | K9 B9 R14", "preset": "sabra"})
    page = response.get_data(as_text=True)
    assert response.status_code == 422
    assert "<code>R14</code> at set 2, tile 3: numbers run 1–13" in page and "`" not in page
    assert "R5 R6 R7 | K9 B9 R14</textarea>" in page
    assert '<option selected value="sabra">' in page


def test_a_third_copy_of_a_tile_is_shown_as_an_input_error(client: FlaskClient) -> None:
    response = client.post("/check", data={"table": "R7 R7 R7", "preset": "pressman"})
    assert response.status_code == 422
    assert "appears 3 times" in response.get_data(as_text=True)


def test_the_check_page_can_be_opened_with_a_table_in_the_address(client: FlaskClient) -> None:
    response = client.get("/check?table=R12+R13+J")
    assert response.status_code == 200
    assert "Every set is legal" in response.get_data(as_text=True)


def test_the_api_answers_the_documented_shape(client: FlaskClient) -> None:
    response = client.post("/api/v1/check", json={"table": "R12 R13 J | K1 B1 O1 R1",
                                                  "preset": "pressman"})
    assert response.status_code == 200
    data = response.get_json()
    assert data["legal"] is True and data["total"] == 36 + 4
    first = data["sets"][0]
    assert set(first) >= {"tiles", "legal", "kind", "reason", "value", "jokers", "reordered"}
    assert first["tiles"] == ["R12", "R13", "J"]
    assert first["kind"] == "run" and first["reordered"] is True
    # Issue 8: a reordered set numbers its jokers in the order laid (J R12 R13).
    assert first["jokers"] == [{"position": 1, "typed_position": 3, "joker": "J",
                                "stands_for": ["R11"]}]


@pytest.mark.parametrize(("payload", "status", "fragment", "where"), [
    ({"table": "R5 R6 X7"}, 400, "`X7` at set 1, tile 3", {"token": "X7", "set": 1, "tile": 3}),
    ({"table": ""}, 400, "empty", {"field": "table"}),
    ({"table": 5}, 400, "`table` must be a string", {"field": "table"}),
    ({"table": "R5 R6 R7", "preset": "poker"}, 400, "unknown preset", {"field": "preset"}),
    ({"table": "R7 R7 R7"}, 400, "appears 3 times", {"tile": "R7", "count": 3, "allowed": 2}),
    ([1, 2], 400, "JSON object", {"field": "body"}),
])
def test_the_api_answers_bad_input_with_a_400_saying_what_and_where(
        client: FlaskClient, payload, status, fragment, where) -> None:
    response = client.post("/api/v1/check", json=payload)
    assert response.status_code == status
    data = response.get_json()
    assert fragment in data["error"]
    assert data["where"] == where


def test_the_api_answers_a_body_that_is_not_json(client: FlaskClient) -> None:
    response = client.post("/api/v1/check", data="R5 R6 R7", content_type="text/plain")
    assert response.status_code == 400
    assert "JSON" in response.get_json()["error"]


def test_an_unknown_api_path_answers_json(client: FlaskClient) -> None:
    response = client.get("/api/v1/nothing-here")
    assert response.status_code == 404
    assert "error" in response.get_json()


def test_with_csrf_on_a_form_without_its_token_is_refused(tmp_path) -> None:
    app: Flask = create_app({"SECRET_KEY": "x", "WTF_CSRF_ENABLED": True,
                             "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'c.sqlite'}"})
    response = app.test_client().post("/check", data={"table": "R5 R6 R7"})
    assert response.status_code in (400, 422)
    assert "Every set is legal" not in response.get_data(as_text=True)


def test_the_empty_check_page_shows_no_error_before_anything_is_typed(
        client: FlaskClient) -> None:
    response = client.get("/check")
    assert response.status_code == 200
    assert "field-error" not in response.get_data(as_text=True)


def test_reasons_keep_their_capitals_and_counts_read_as_a_player_says_them(
        client: FlaskClient) -> None:
    page = client.get("/check", query_string={"table": "R5 R6 B7"}).get_data(as_text=True)
    assert "1 of 1 set not legal" in page and "no initial meld" in page
    assert "Blue 7 is not red" in page
    page = client.get("/check", query_string={"table": "K9 R9 J"}).get_data(as_text=True)
    assert "B9 or O9" in page  # not "b9 or o9": no lowering of the notation


def test_a_set_with_two_readings_shows_both_on_the_page(client: FlaskClient) -> None:
    page = client.get("/check", query_string={"table": "J K5 J"}).get_data(as_text=True)
    assert "legal run or group" in page
    assert "As a run (J K5 J), worth 15" in page and "As a group (J K5 J), worth 15" in page


def test_bonus_jokers_show_for_the_presets_the_core_lists(client: FlaskClient) -> None:
    page = client.get("/check").get_data(as_text=True)
    assert 'data-bonus-presets="twist"' in page
    twist = client.get("/check", query_string={"table": "R5 R6 D", "preset": "twist"})
    assert "D double, M mirror, C colour-change" in twist.get_data(as_text=True)


def test_the_api_refuses_a_number_of_thousands_of_digits_as_notation(client: FlaskClient) -> None:
    response = client.post("/api/v1/check", json={"table": "R5 R6 R" + "9" * 4301})
    assert response.status_code == 400
    answer = response.get_json()
    assert "numbers run 1–13" in answer["error"] and answer["where"]["tile"] == 3


def test_the_api_refuses_text_longer_than_any_table(client: FlaskClient) -> None:
    response = client.post("/api/v1/check", json={"table": "R5 R6 R7 | " * 2000})
    assert response.status_code == 400 and "characters long" in response.get_json()["error"]


def test_an_illegal_table_shows_how_its_tiles_could_be_laid(client: FlaskClient) -> None:
    page = client.post("/check", data={"table": "R5 R6 | R7 K9 B9 O9", "preset": "pressman"})
    text = page.get_data(as_text=True)
    assert "These tiles can be laid as:" in text


def test_tiles_that_cannot_be_laid_say_so(client: FlaskClient) -> None:
    page = client.post("/check", data={"table": "R5 K9", "preset": "pressman"})
    assert "These tiles cannot all be laid" in page.get_data(as_text=True)
