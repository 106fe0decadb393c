"""The group pages through the real app: links and keys, sessions from a group, rematch and
more rounds, the player page, charts without scripts, the standings picture, import."""

from __future__ import annotations

import html
import io
import json
import re
from xml.etree import ElementTree

from flask import Flask
from flask.testing import FlaskClient
from PIL import Image
from sqlalchemy import select

from companion.web.extensions import db
from companion.web.models import Group, ScoreSession
from tests.generated_group import generate_evenings
from tests.web.groups_helpers import bearer, play_group

SVG = "{http://www.w3.org/2000/svg}"


def start_group(client: FlaskClient, name: str = "Thursday club") -> str:
    answer = client.post("/groups/", data={"name": name})
    assert answer.status_code == 302
    return answer.headers["Location"].split("/")[2]


def test_starting_a_group_keeps_its_key_in_an_httponly_cookie(client: FlaskClient) -> None:
    answer = client.post("/groups/", data={"name": "Thursday club"})
    cookie = answer.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Max-Age=" in cookie
    group_id = answer.headers["Location"].split("/")[2]
    page = client.get(f"/groups/{group_id}/").get_data(as_text=True)
    assert "Start a session" in page and "Share to edit" in page


def test_a_blank_group_name_is_refused_and_the_form_comes_back(client: FlaskClient) -> None:
    answer = client.post("/groups/", data={"name": "   "})
    assert answer.status_code == 422
    assert "give the group a name" in answer.get_data(as_text=True)


def test_the_read_only_link_shows_the_league_but_no_edit_and_the_share_link_gives_rights(
        app: Flask, client: FlaskClient) -> None:
    group_id = start_group(client)
    share = re.search(r'id="share-link" readonly value="([^"]+)"',
                      client.get(f"/groups/{group_id}/").get_data(as_text=True)).group(1)
    other = app.test_client()
    page = other.get(f"/groups/{group_id}/").get_data(as_text=True)
    assert "Read only" in page and "Start a session" not in page and "share-link" not in page
    assert other.get(f"/groups/{group_id}/sessions/new").status_code == 403
    assert other.get(f"/groups/{group_id}/export.json").status_code == 403
    assert other.get(f"/groups/{group_id}/join?key=wrong").status_code == 403
    assert other.get(share.replace("http://localhost", "")).status_code == 302
    assert other.get(f"/groups/{group_id}/sessions/new").status_code == 200


def test_strangers_cannot_guess_a_group(app: Flask, client: FlaskClient) -> None:
    start_group(client)
    with app.app_context():
        internal = db.session.scalar(select(Group.id))
    assert client.get(f"/groups/{internal}/").status_code == 404
    assert client.get("/groups/AAAAAAAAAAAAAAAAAAAAAA/").status_code == 404


def test_a_session_from_the_group_offers_its_players_and_new_names_join(
        app: Flask, client: FlaskClient) -> None:
    group_id = start_group(client)
    answer = client.post(f"/groups/{group_id}/sessions/new",
                         data={"seat_1": "Ann", "seat_2": "Bob", "rounds": 1, "preset": "pressman"})
    assert answer.status_code == 302
    form = client.get(f"/groups/{group_id}/sessions/new").get_data(as_text=True)
    assert 'data-member="Ann"' in form and 'data-member="Bob"' in form
    assert '<option value="Ann">' in form  # each seat offers the members to pick from
    four = client.post(f"/groups/{group_id}/sessions/new", data={
        "seat_1": "Cy", "seat_2": "Bob", "seat_3": "Ann", "seat_4": "Dee", "rounds": 1})
    assert four.status_code == 302
    twice = client.post(f"/groups/{group_id}/sessions/new", data={
        "seat_1": "Ann", "seat_2": "Ann", "rounds": 1})
    assert twice.status_code == 422
    refused = client.post(f"/groups/{group_id}/sessions/new", data={
        "seat_1": "Ann", "rounds": 2, "preset": "pressman"})
    assert refused.status_code == 422
    assert "A session has 2 to 4 players, not 1" in refused.get_data(as_text=True)
    assert 'value="2"' in refused.get_data(as_text=True)  # what was typed is kept
    with app.app_context():
        sessions = list(db.session.scalars(select(ScoreSession).order_by(ScoreSession.id)))
        assert [s.player_names for s in sessions] == [("Ann", "Bob"), ("Cy", "Bob", "Ann", "Dee")]
        assert all(s.group_id is not None for s in sessions)
        assert all(p.member is not None and p.member.name == p.name
                   for s in sessions for p in s.players)


def test_add_a_round_in_progress_and_rematch_when_finished(app: Flask,
                                                           client: FlaskClient) -> None:
    group_id = start_group(client)
    sheet_url = client.post(f"/groups/{group_id}/sessions/new", data={
        "seat_1": "Ann", "seat_2": "Bob", "rounds": 1, "preset": "sabra"}).headers["Location"]
    session_id = sheet_url.rstrip("/").split("/")[-1]
    sheet = client.get(sheet_url).get_data(as_text=True)
    assert "Add a round" in sheet and "Rematch" not in sheet
    assert client.post(f"/scores/{session_id}/add-round").status_code == 302
    for winner, loser in (("Ann", "Bob"), ("Bob", "Ann"), ("Ann", "Bob"), ("Ann", "Bob")):
        client.post(f"/scores/{session_id}/games/new", data={
            "ending": "paper", "winner": winner, "lines-0-score": "5" if winner == "Ann"
            else "-5", "lines-1-score": "-5" if winner == "Ann" else "5"})
    sheet = client.get(sheet_url).get_data(as_text=True)
    assert "2 rounds" in sheet and "complete" in sheet
    assert "Add a round" not in sheet and "Rematch" in sheet
    answer = client.post(f"/scores/{session_id}/rematch")
    assert answer.status_code == 302
    # The rematch is this phone's to record in, like the session it came from.
    assert "Record game 1" in client.get(answer.headers["Location"]).get_data(as_text=True)
    with app.app_context():
        old, new = db.session.scalars(select(ScoreSession).order_by(ScoreSession.id))
        assert new.player_names == old.player_names and new.rounds == old.rounds == 2
        assert new.preset_key == "sabra" and new.group_id == old.group_id
        assert [p.member_id for p in new.players] == [p.member_id for p in old.players]
        assert new.games == []
    stranger = app.test_client()
    assert stranger.post(f"/scores/{session_id}/rematch").status_code == 403
    assert stranger.post(f"/scores/{session_id}/add-round").status_code == 403


def parse_svg(data: bytes) -> ElementTree.Element:
    root = ElementTree.fromstring(data)
    assert root.tag == f"{SVG}svg"
    assert not [e for e in root.iter() if e.tag.endswith("script")]
    assert b"<script" not in data and b"javascript:" not in data
    return root


def test_the_sheet_shows_each_players_running_total_as_an_svg_without_script(
        client: FlaskClient) -> None:
    created = client.post("/api/v1/sessions", json={"players": ["Ann", "Bob"], "rounds": 2})
    session_id, key = created.json["id"], bearer(created.json["edit_key"])
    for scores in ({"Ann": 10, "Bob": -10}, {"Ann": -3, "Bob": 3}, {"Ann": 7, "Bob": -7}):
        client.post(f"/api/v1/sessions/{session_id}/games", headers=key,
                    json={"ending": "paper", "scores": scores})
    assert f"/scores/{session_id}/chart.svg" in client.get(
        f"/scores/{session_id}/view").get_data(as_text=True)
    answer = client.get(f"/scores/{session_id}/chart.svg")
    assert answer.mimetype == "image/svg+xml"
    root = parse_svg(answer.data)
    text = " ".join(t.text or "" for t in root.iter(f"{SVG}text"))
    assert "Ann" in text and "Bob" in text and "Running total" in text
    # Each point carries its value: Ann 0, 10, 7, 14 then Bob 0, -10, -7, -14.
    values = [d.text for d in root.iter(f"{SVG}desc") if d.get("class") == "value"]
    assert values == ["0", "10", "7", "14", "0", "-10", "-7", "-14"]


def test_the_player_page_shows_the_periods_statistics_and_a_chart(
        app: Flask, client: FlaskClient) -> None:
    played = play_group(app, client, generate_evenings(seed=5, count=10, days_apart=40))
    group = client.get(f"/api/v1/groups/{played.id}").json
    client.get(f"/groups/{played.id}/join?key={played.key}")
    page = client.get(f"/groups/{played.id}/").get_data(as_text=True)
    assert all(row["name"] in page for row in group["league"])
    assert "Export the group" in page and "Download the standings" in page
    player = group["players"][0]
    stats = client.get(f"/api/v1/players/{player['id']}?period=year").json
    html = client.get(f"/groups/{played.id}/players/{player['id']}?period=year").get_data(
        as_text=True)
    assert f"<dd>{stats['games_played']}</dd>" in html
    assert 'aria-current="page">This year' in html
    chart = client.get(f"/groups/{played.id}/players/{player['id']}/chart.svg?period=all")
    root = parse_svg(chart.data)
    assert player["name"] in " ".join(t.text or "" for t in root.iter(f"{SVG}text"))
    assert client.get(f"/groups/{played.id}/players/{player['id']}?period=day").status_code == 400
    other = client.post("/api/v1/groups", json={"name": "Other"}).json
    assert client.get(f"/groups/{other['id']}/players/{player['id']}").status_code == 404


def test_the_standings_picture_is_a_png_with_a_row_per_player(app: Flask,
                                                              client: FlaskClient) -> None:
    played = play_group(app, client, generate_evenings(seed=6, count=4))
    rows = len(client.get(f"/api/v1/groups/{played.id}").json["league"])
    answer = client.get(f"/groups/{played.id}/standings.png?period=all")
    assert answer.mimetype == "image/png"
    image = Image.open(io.BytesIO(answer.data))
    assert image.format == "PNG" and image.width == 900
    assert image.height == 36 * 2 + 110 + 56 * (rows + 1)
    assert 'id="share-standings" hidden' in client.get(f"/groups/{played.id}/").get_data(
        as_text=True)


def test_importing_on_the_page_refuses_a_wrong_file_and_keeps_nothing(
        app: Flask, client: FlaskClient) -> None:
    played = play_group(app, client, generate_evenings(seed=7, count=3))
    client.get(f"/groups/{played.id}/join?key={played.key}")
    exported = client.get(f"/groups/{played.id}/export.json")
    assert exported.headers["Content-Disposition"].startswith("attachment")
    data = exported.json
    again = client.post("/groups/import", data={"file": (io.BytesIO(exported.data), "g.json")},
                        content_type="multipart/form-data")
    assert again.status_code == 422
    assert "Nothing was imported" in again.get_data(as_text=True)
    assert "already here" in again.get_data(as_text=True)
    data["groups"][0]["id"] = "another-group"
    data["groups"][0]["created_at"] = data["groups"][0]["created_at"].replace("20", "19", 1)
    for session in data["groups"][0]["sessions"]:
        session["created_at"] = session["created_at"].replace("20", "19", 1)
    members = {member["id"] for member in data["groups"][0]["members"]}
    moved = client.post("/groups/import", content_type="multipart/form-data", data={
        "file": (io.BytesIO(json.dumps(data).encode()), "g.json")})
    assert moved.status_code == 201
    # a page import chooses no id: the group, its players and sessions get new ones
    assert client.get("/groups/another-group/").status_code == 404
    page = moved.get_data(as_text=True)
    [link] = re.findall(r'href="http://localhost/groups/([^/"]+)/"', page)
    assert link not in (played.id, "another-group")
    [share] = re.findall(r'value="(http://localhost/groups/[^"]+/join\?key=[^"]+)"',
                         html.unescape(page))
    fresh = app.test_client()  # the share link shown once opens the new group on another phone
    assert fresh.get(share.removeprefix("http://localhost")).status_code == 302
    assert "share-link" in fresh.get(f"/groups/{link}/").get_data(as_text=True)
    new_members = set(re.findall(rf"/groups/{link}/players/([^\"?]+)",
                                 fresh.get(f"/groups/{link}/").get_data(as_text=True)))
    assert new_members and not new_members & members
    junk = client.post("/groups/import", content_type="multipart/form-data",
                       data={"file": (io.BytesIO(b"\xff"), "g.json")})
    assert junk.status_code == 422 and "not a file exported from Companion" in junk.get_data(as_text=True)


def test_a_chart_may_style_itself_but_never_load_or_run_anything(client: FlaskClient) -> None:
    created = client.post("/api/v1/sessions", json={"players": ["Ann", "Bob"], "rounds": 1})
    answer = client.get(f"/scores/{created.json['id']}/chart.svg")
    assert answer.headers["Content-Security-Policy"] == \
        "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'"
    assert answer.headers["X-Content-Type-Options"] == "nosniff"
    parse_svg(answer.data)


def test_a_file_that_is_not_an_export_is_refused_in_one_plain_sentence(
        client: FlaskClient) -> None:
    """The page said "Nothing was imported. the file: this is not a Companion export"."""
    refused = client.post("/groups/import",
                          data={"file": (io.BytesIO(b'{"groups": []}'), "notes.json")},
                          content_type="multipart/form-data")
    assert refused.status_code == 422
    said = refused.get_data(as_text=True)
    assert "Nothing was imported. This is not a Companion export" in said
    assert "the file:" not in said
    assert 'accept=".json,application/json"' in said  # the phone's picker offers the exports
