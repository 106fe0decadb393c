"""POST /api/v1/solve and the "What can I play?" page, through the Flask test client."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient

from companion.core.melds import check_table
from companion.core.tiles import parse_table
from companion.web import create_app


def test_the_api_arranges_a_table_without_a_rack(client: FlaskClient) -> None:
    response = client.post("/api/v1/solve", json={"table": "R5 R6 | R7 K7 B7 O7"})
    assert response.status_code == 200
    data = response.get_json()
    assert data["possible"] is True and data["reason"] is None and data["complete"] is True
    assert check_table(parse_table(" | ".join(" ".join(s) for s in data["sets"]))).legal


def test_the_api_finds_the_best_play(client: FlaskClient) -> None:
    response = client.post("/api/v1/solve", json={
        "table": "R5 R6 R7 | K9 B9 O9", "rack": "R8 K1 J", "opened": True,
        "preset": "pressman", "goal": "tiles"})
    data = response.get_json()
    assert sorted(data["played"]) == ["J", "R8"]
    assert data["possible"] is True


def test_the_api_says_when_nothing_can_be_laid(client: FlaskClient) -> None:
    data = client.post("/api/v1/solve", json={"table": "R1 R2 R3 K7"}).get_json()
    assert data["possible"] is False and data["reason"] == "K7 fits in no run or group"


def test_bad_api_input_is_a_400_saying_what_and_where(client: FlaskClient) -> None:
    cases = [
        ({"table": "R5 R6 R7", "rack": "R8 X1"}, {"field": "rack", "place": "rack", "tile": 2,
                                                  "token": "X1"}),
        ({"table": "R5 R5 R5"}, {"tile": "R5", "count": 3, "allowed": 2}),
        ({"table": "R5 R6 R7", "rack": "R8", "goal": "fun"}, {"field": "goal"}),
        ({"table": "R5 R6 R7", "rack": "R8", "opened": "yes"}, {"field": "opened"}),
        ({"table": 5}, {"field": "table"}),
        ({"table": ""}, {"field": "table"}),
        ({"table": "R5 R6 R7", "preset": "chess"}, {"field": "preset"}),
    ]
    for payload, where in cases:
        response = client.post("/api/v1/solve", json=payload)
        assert response.status_code == 400, payload
        assert response.get_json()["where"] == where
        assert response.get_json()["error"]
    assert client.post("/api/v1/solve", data="not json").status_code == 400


def test_the_page_draws_the_new_table_with_the_rack_tiles_marked(client: FlaskClient) -> None:
    response = client.post("/solve", data={
        "table": "R5 R6 R7\nK9 B9 O9", "rack": "R8 K1", "opened": "y", "goal": "tiles",
        "preset": "pressman"})
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert "Lay 1 tile" in html
    assert 'class="chip chip-R chip-new" title="red 8 (from your rack)"' in html
    assert html.count("chip-new") == 1


def test_the_page_answers_from_the_address_and_arranges_without_a_rack(
        client: FlaskClient) -> None:
    html = client.get("/solve?table=R5+R6+R7+R8+K8+B8").get_data(as_text=True)
    assert "These tiles can be laid as:" in html
    assert "chip-new" not in html


def test_a_rejected_form_keeps_what_was_typed(client: FlaskClient) -> None:
    response = client.post("/solve", data={"table": "R5 R6 R7", "rack": "R8 K14",
                                           "goal": "tiles", "preset": "pressman"})
    html = response.get_data(as_text=True)
    assert response.status_code == 422
    assert "<code>K14</code> at rack, tile 2" in html
    assert "R8 K14" in html and "R5 R6 R7" in html
    response = client.post("/solve", data={"table": "R5 R6 R7", "rack": "R5 R5",
                                           "goal": "tiles", "preset": "pressman"})
    assert response.status_code == 422
    assert "appears 3 times" in response.get_data(as_text=True)


def test_the_nav_links_to_the_page(client: FlaskClient) -> None:
    assert 'href="/solve"' in client.get("/check").get_data(as_text=True)


def test_the_form_is_refused_without_its_csrf_token(tmp_path) -> None:
    app: Flask = create_app({"TESTING": True, "SECRET_KEY": "t",
                             "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'c.sqlite'}"})
    response = app.test_client().post("/solve", data={"table": "R5 R6 R7", "rack": "R8"})
    assert response.status_code == 400
    assert "This form has expired" in response.get_data(as_text=True)


def test_the_arrangement_partial_renders_both_answers(app: Flask) -> None:
    from flask import render_template

    from companion.core.solver import arrangement_hint

    with app.test_request_context():
        html = render_template("solve/_arrangement.html",
                               arrangement=arrangement_hint(parse_table("R5 R6 | R7 K7 B7 O7")))
        assert "These tiles can be laid as:" in html
        html = render_template("solve/_arrangement.html",
                               arrangement=arrangement_hint(parse_table("R5 R6 | K1")))
        assert "These tiles cannot all be laid" in html and "K1, R5, R6 fit" in html
        assert render_template("solve/_arrangement.html", arrangement=None).strip() == ""
