"""The night's pages on the test client, and a group's ratings across evenings."""

from __future__ import annotations

import csv
import io
import random
import re

from flask.testing import FlaskClient
from openskill.models import PlackettLuce

NAMES = [f"Guest {n}" for n in range(1, 12)]


def start(client: FlaskClient, **extra: object) -> str:
    form = {"names": "\n".join(NAMES), "format": "reseat", "rounds": 2, "games_per_table": 1,
            "advance": "1", "preset": "pressman", **extra}
    answer = client.post("/nights/new" + str(extra.pop("query", "")), data=form)
    assert answer.status_code == 302, answer.text
    return answer.location.rstrip("/").rsplit("/", 1)[1]


def test_a_rejected_night_keeps_what_the_host_typed(client: FlaskClient) -> None:
    answer = client.post("/nights/new", data={"names": "Ann\nBob\nann", "format": "fixed",
                                              "rounds": 1, "games_per_table": 1,
                                              "advance": "1", "preset": "pressman"})
    assert answer.status_code == 422
    assert "ann is in the night already" in answer.text
    assert "Ann\nBob\nann" in answer.text


def test_the_host_seats_rounds_and_the_pages_show_the_room(client: FlaskClient) -> None:
    night_id = start(client)
    host = client.get(f"/nights/{night_id}/")
    assert "Seat round 2" in host.text and "Guest 11" in host.text
    cards = client.get(f"/nights/{night_id}/cards").text
    assert cards.count('class="table-card"') == 3 and cards.count("<svg") >= 3
    assert "/join?key=" in cards
    stranger = client.application.test_client()
    assert stranger.get(f"/nights/{night_id}/cards").status_code == 403
    assert stranger.post(f"/nights/{night_id}/rounds").status_code == 403
    seated = client.post(f"/nights/{night_id}/rounds", follow_redirects=True)
    assert "is still being played at table(s) 1, 2, 3" in seated.text
    night = client.get(f"/api/v1/nights/{night_id}").json
    keys = dict(re.findall(r'/scores/([^/"]+)/join\?key=([^"&]+)"', cards))
    for table in night["rounds_played"][0]["tables"]:
        players = table["players"]
        client.post(f"/api/v1/sessions/{table['session']}/games",
                    json={"ending": "paper", "winner": players[0],
                          "scores": {n: (10 * (len(players) - 1) if i == 0 else -10)
                                     for i, n in enumerate(players)}},
                    headers={"Authorization": f"Bearer {keys[table['session']]}"})
    assert "Round 2 is seated" in client.post(f"/nights/{night_id}/rounds",
                                              follow_redirects=True).text
    tv = client.get(f"/nights/{night_id}/tv").text
    assert 'name="companion-night-live"' in tv and "Round 2 of 2" in tv
    sheet = client.get(f"/nights/{night_id}/sheet").text
    assert "4–2–1–0" in sheet and "Round 1" in sheet and "Round 2" in sheet
    rows = list(csv.reader(io.StringIO(client.get(f"/nights/{night_id}/standings.csv").text)))
    assert rows[0][:3] == ["place", "player", "table points"]
    assert sorted(r[1] for r in rows[1:12]) == sorted(NAMES)
    winners = {t["players"][0] for t in night["rounds_played"][0]["tables"]}
    assert {r[1] for r in rows[1:12] if r[2] == "4"} == winners


def test_the_room_stream_says_when_a_table_records_a_game(client: FlaskClient) -> None:
    night_id = start(client)
    first = client.get(f"/api/v1/nights/{night_id}/events").get_data(as_text=True)
    assert "event: night" in first and "retry: 2000" in first  # one answer: the TV asks again
    night = client.get(f"/api/v1/nights/{night_id}").json
    table = night["rounds_played"][0]["tables"][0]
    before = first.split("id: ")[1].split("\n")[0]
    client.post(f"/api/v1/sessions/{table['session']}/games",
                json={"ending": "paper", "winner": table["players"][0],
                      "scores": {n: (30 if i == 0 else -10)
                                 for i, n in enumerate(table["players"])}})
    # no key: refused, nothing changes
    again = client.get(f"/api/v1/nights/{night_id}/events").get_data(as_text=True)
    assert again.split("id: ")[1].split("\n")[0] == before
    cards = client.get(f"/nights/{night_id}/cards").text
    key = dict(re.findall(r'/scores/([^/"]+)/join\?key=([^"&]+)"', cards))[table["session"]]
    client.post(f"/api/v1/sessions/{table['session']}/games",
                json={"ending": "paper", "winner": table["players"][0],
                      "scores": {n: (10 * (len(table["players"]) - 1) if i == 0 else -10)
                                 for i, n in enumerate(table["players"])}},
                headers={"Authorization": f"Bearer {key}"})
    after = client.get(f"/api/v1/nights/{night_id}/events").get_data(as_text=True)
    assert after.split("id: ")[1].split("\n")[0] != before


def test_a_groups_ratings_follow_each_games_order_of_finish(client: FlaskClient) -> None:
    group = client.post("/api/v1/groups", json={"name": "Club"}).json
    rng = random.Random(5)
    players = ["Ann", "Bob", "Cy", "Di"]
    session = client.post("/api/v1/sessions", json={"players": players, "rounds": 2,
                                                    "group": group["id"]},
                          headers={"Authorization": f"Bearer {group['edit_key']}"}).json
    model = PlackettLuce()
    mine = {name: model.rating(name=name) for name in players}
    for _ in range(5):
        winner = rng.choice(players)
        racks = {n: rng.randint(1, 30) for n in players if n != winner}
        racks[players[(players.index(winner) + 1) % 4]] = 7  # a tie of racks now and then
        racks[players[(players.index(winner) + 2) % 4]] = 7
        client.post(f"/api/v1/sessions/{session['id']}/games",
                    json={"ending": "out", "winner": winner, "racks": racks},
                    headers={"Authorization": f"Bearer {session['edit_key']}"})
        order = sorted(players, key=lambda n: (n != winner, racks.get(n, 0)))
        ranks = [1 + sum(1 for o in players if (o != winner, racks.get(o, 0))
                         < (n != winner, racks.get(n, 0))) for n in players]
        del order
        rated = model.rate([[mine[n]] for n in players], ranks=ranks)
        mine = {n: team[0] for n, team in zip(players, rated, strict=True)}
    page = client.get(f"/groups/{group['id']}/")
    assert "Ratings" in page.text
    for name, rating in mine.items():
        assert f"{rating.mu:.1f} ± {rating.sigma:.1f}" in page.text, name
    member = next(p for p in client.get(f"/api/v1/groups/{group['id']}").json["players"]
                  if p["name"] == "Ann")
    chart = client.get(f"/groups/{group['id']}/players/{member['id']}/rating.svg")
    assert chart.status_code == 200 and chart.mimetype == "image/svg+xml"
    assert b"<script" not in chart.data
