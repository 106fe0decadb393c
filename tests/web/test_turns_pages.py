"""The "Referee a turn" page and the timer page, through the Flask test client."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient

from companion.web import create_app


def referee(client: FlaskClient, **fields: str) -> tuple[int, str]:
    data = {"before": "", "after": "", "rack": "", "preset": "pressman"} | fields
    response = client.post("/turn", data=data)
    return response.status_code, response.get_data(as_text=True)


def test_a_legal_turn_is_shown_legal_with_the_tiles_played(client: FlaskClient) -> None:
    status, html = referee(client, before="R4 R5 R6 R7 R8", after="R4 R5 R6 | R6 R7 R8",
                           rack="R6 K1", opened="y")
    assert status == 200
    assert "Legal turn." in html
    assert 'title="red 6"' in html
    assert "Put the table back" not in html


def test_an_illegal_turn_shows_every_violation_the_table_to_restore_and_the_penalty(
        client: FlaskClient) -> None:
    status, html = referee(client, before="B3 B4 J", after="B3 B4 B5 | K7 R7 O7",
                           rack="B5 K7 R7 O7", opened="y")
    assert status == 200
    assert 'data-code="tile_removed"' in html and 'data-code="joker_not_reused"' in html
    assert "freed from “B3 B4 J”" in html and "`" not in html
    restore = html[html.index("Put the table back"):html.index("Penalty:")]
    assert 'title="joker"' in restore and 'title="blue 4"' in restore
    assert "draw 3 tiles" in html and 'data-penalty="draw_three"' in html


def test_an_initial_meld_below_the_minimum_says_what_it_is_worth(client: FlaskClient) -> None:
    _, html = referee(client, after="R8 R9 R10", preset="sabra")
    assert 'data-code="meld_too_low"' in html
    assert "The initial meld is worth 27 (Sabra Way asks for 50)" in html


def test_bad_notation_is_refused_with_422_keeping_what_was_typed(client: FlaskClient) -> None:
    status, html = referee(client, before="R5 R6 R7", after="R5 R6 R7 Q8", rack="R8")
    assert status == 422
    assert "<code>Q8</code> at set 1, tile 4" in html
    assert "R5 R6 R7 Q8</textarea>" in html


def test_impossible_tiles_are_reported_on_the_field_that_holds_them(client: FlaskClient) -> None:
    status, html = referee(client, before="R7 R8 R9 | R7 B7 O7", after="R7 R8 R9 | R7 B7 O7 K7",
                           rack="R7 K7")
    assert status == 422
    rack_errors = html[html.index('id="rack-errors"'):html.index('id="rack-errors"') + 400]
    assert "appears 3 times" in rack_errors


def test_an_empty_table_after_is_refused(client: FlaskClient) -> None:
    status, html = referee(client, before="R5 R6 R7", after="  ")
    assert status == 422
    assert "Type the table after the turn" in html


def test_the_check_page_link_prefills_the_table_before(client: FlaskClient) -> None:
    response = client.get("/turn", query_string={"before": "R5 R6 R7"})
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert "R5 R6 R7</textarea>" in html and "summary" not in html


def test_a_turn_in_the_query_string_is_judged_at_once(client: FlaskClient) -> None:
    response = client.get("/turn", query_string={"before": "R5 R6 R7", "after": "R5 R6 R7 R8",
                                                 "opened": "y"})
    assert response.status_code == 200 and "Legal turn." in response.get_data(as_text=True)


def test_a_post_without_the_csrf_token_is_refused() -> None:
    app: Flask = create_app({"TESTING": True, "SECRET_KEY": "test",
                             "SQLALCHEMY_DATABASE_URI": "sqlite://"})
    response = app.test_client().post("/turn", data={"before": "", "after": "K10 K11 K12"})
    assert response.status_code == 400
    assert "Legal turn." not in response.get_data(as_text=True)


def test_the_timer_without_players_asks_for_them(client: FlaskClient) -> None:
    response = client.get("/timer")
    assert response.status_code == 200
    assert 'name="players"' in response.get_data(as_text=True)


def test_the_timer_takes_the_seating_order_and_the_presets_time(client: FlaskClient) -> None:
    html = client.get("/timer", query_string={"players": "Ann, Bob ,Cy", "preset": "sabra"}
                      ).get_data(as_text=True)
    assert "data-players='[\"Ann\", \"Bob\", \"Cy\"]'" in html
    assert 'data-seconds="120"' in html and ">2:00<" in html
    assert 'data-text-alarm="Time! {player} draws one tile"' in html


def test_the_timer_time_can_be_adjusted(client: FlaskClient) -> None:
    html = client.get("/timer", query_string={"players": "Ann,Bob", "seconds": "90"}
                      ).get_data(as_text=True)
    assert 'data-seconds="90"' in html and ">1:30<" in html


def test_a_player_name_cannot_break_out_of_the_page(client: FlaskClient) -> None:
    html = client.get("/timer", query_string={"players": "<b>O'Neil</b>,Bob"}
                      ).get_data(as_text=True)
    assert "<b>O'Neil</b>" not in html
    assert "\\u003cb\\u003eO\\u0027Neil" in html


def test_bad_timer_settings_are_refused_with_the_form_kept(client: FlaskClient) -> None:
    response = client.get("/timer", query_string={"players": "Ann,Bob", "seconds": "0"})
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    # Issue 8: the timer reads the core's limits (SHORTEST/LONGEST_TURN_SECONDS, 10-600 s;
    # "For 2 to 4 players", seed 000), not 1-3600 s and 1-8 players.
    assert "A turn lasts 10 to 600 seconds." in html and 'value="Ann,Bob"' in html
    for players in (" , ", "Ann"):
        response = client.get("/timer", query_string={"players": players})
        assert response.status_code == 422
        assert "Name at least 2 players" in response.get_data(as_text=True)
    assert client.get("/timer", query_string={"players": "Ann,Bob", "seconds": "9"}
                      ).status_code == 422


def test_the_timer_starts_with_the_first_player_keeping_the_seating_order(
        client: FlaskClient) -> None:
    html = client.get("/timer", query_string={"players": "Ann,Bob,Cy", "first": "cy"}
                      ).get_data(as_text=True)
    assert "data-players='[\"Cy\", \"Ann\", \"Bob\"]'" in html
    response = client.get("/timer", query_string={"players": "Ann,Bob", "first": "Zoe"})
    assert response.status_code == 422
    assert "“Zoe” is not one of the players: Ann, Bob." in response.get_data(as_text=True)


def test_a_link_with_only_the_table_after_prefills_it_without_judging(
        client: FlaskClient) -> None:
    response = client.get("/turn?after=R5+R6+R7")
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert "R5 R6 R7</textarea>" in html
    assert "data-code=" not in html


def test_a_link_with_before_and_after_is_judged_at_once(client: FlaskClient) -> None:
    response = client.get("/turn?before=&after=R10+R11+R12")
    assert response.status_code == 200
    assert "legal" in response.get_data(as_text=True).lower()


def test_the_empty_turn_page_shows_no_error_before_anything_is_typed(
        client: FlaskClient) -> None:
    response = client.get("/turn")
    assert response.status_code == 200
    assert "field-error" not in response.get_data(as_text=True)
    prefilled = client.get("/turn", query_string={"before": "R5 R6 R7"})
    assert "field-error" not in prefilled.get_data(as_text=True)


def test_a_draw_shows_draw_one_and_no_table_to_put_back(client: FlaskClient) -> None:
    # Seed 000: "When players cannot play any tiles from their racks, or purposely choose not
    # to, they must draw a tile from the pool."
    status, html = referee(client, before="R5 R6 R7", after="R5 R6 R7", opened="y")
    assert status == 200 and 'data-penalty="draw_one"' in html and "No play: a draw." in html
    assert "Put the table back" not in html and "Draw 1 tile from the pool" in html


def test_an_illegal_table_before_the_turn_is_flagged(client: FlaskClient) -> None:
    _, html = referee(client, before="R1 R2 R4", after="R1 R2 R3 R4", rack="R3", opened="y")
    assert "Legal turn." in html and 'data-code="table_before_illegal"' in html


def test_a_bad_rack_tile_is_located_in_the_rack(client: FlaskClient) -> None:
    status, html = referee(client, after="R5 R6 R7", rack="R5 R14")
    assert status == 422 and "<code>R14</code> at rack, tile 2: numbers run 1–13" in html


def test_an_illegal_turn_shows_whether_the_tiles_after_could_have_been_laid(client: FlaskClient) -> None:
    page = client.post("/turn", data={"before": "R5 R6 R7", "after": "R5 R6 | R7 R8 K8",
                                      "rack": "R8 K8", "opened": "y", "preset": "pressman"})
    text = page.get_data(as_text=True)
    assert "These tiles cannot all be laid" in text and "K8" in text
    assert "These tiles can be laid as:" not in client.post(
        "/turn", data={"before": "R5 R6 R7", "after": "R5 R6 R7 R8", "rack": "R8",
                       "opened": "y", "preset": "pressman"}).get_data(as_text=True)


def test_a_turn_laid_wrongly_shows_the_legal_arrangement_of_its_tiles(client: FlaskClient) -> None:
    page = client.post("/turn", data={"before": "R5 R6 R7", "after": "R5 R6 | R7 R8 R9",
                                      "rack": "R8 R9", "opened": "y", "preset": "pressman"})
    assert "These tiles can be laid as:" in page.get_data(as_text=True)
