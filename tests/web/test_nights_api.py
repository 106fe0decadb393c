"""A club night through the JSON API: 22 players, three rounds, each format; the room's
standings recomputed here, independently, from the games the tables' sessions hold."""

from __future__ import annotations

import random
from typing import Any

import pytest
from flask.testing import FlaskClient

NAMES = [f"Player {n:02}" for n in range(1, 23)]
POINTS = {4: (4, 2, 1, 0), 3: (4, 2, 0), 2: (4, 0)}


def auth(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def play_table(client: FlaskClient, table: dict[str, Any], games: int, rng: random.Random
               ) -> None:
    """Record ``games`` games at a table as its phone would: who went out, the others' racks."""
    for _ in range(games):
        winner = rng.choice(table["players"])
        racks = {name: rng.randint(1, 40) for name in table["players"] if name != winner}
        answer = client.post(f"/api/v1/sessions/{table['session']}/games",
                             json={"ending": "out", "winner": winner, "racks": racks},
                             headers=auth(table["edit_key"]))
        assert answer.status_code == 201, answer.json


def places(players: list[str], won: dict[str, int], score: dict[str, int]) -> dict[str, int]:
    def key(name: str) -> tuple[int, int]:
        return (-won[name], -score[name])
    return {name: 1 + sum(key(other) < key(name) for other in players) for name in players}


def recomputed(client: FlaskClient, night: dict[str, Any]) -> dict[str, tuple[int, ...]]:
    """Each player's (stage?, table points, games won, score) from the sessions' own games."""
    games_per_table = night["games_per_table"]
    bye = night["table_points"]["bye"]
    totals = {p["name"]: [0, 0, 0, 0] for p in night["players"]}  # stage, points, won, score
    for played in night["rounds_played"]:
        for name in played["sat_out"]:
            totals[name][1] += bye
        for table in played["tables"]:
            session = client.get(f"/api/v1/sessions/{table['session']}").json
            games = session["games"][:games_per_table]
            won = {name: sum(g["winner"] == name for g in games) for name in table["players"]}
            score = {name: sum(g["scores"][name] for g in games) for name in table["players"]}
            at_table = places(table["players"], won, score)
            for name in table["players"]:
                totals[name][0] = played["number"]
                totals[name][1] += POINTS[len(table["players"])][at_table[name] - 1]
                totals[name][2] += won[name]
                totals[name][3] += score[name]
    advance = night["format"] == "advance"
    return {name: (tuple(t) if advance else tuple(t[1:])) for name, t in totals.items()}


def expected_places(keys: dict[str, tuple[int, ...]]) -> dict[str, int]:
    def rank(name: str) -> tuple[int, ...]:
        return tuple(-part for part in keys[name])
    return {name: 1 + sum(rank(other) < rank(name) for other in keys) for name in keys}


@pytest.mark.parametrize("fmt", ["fixed", "reseat", "advance"])
def test_a_night_of_22_players_over_three_rounds_adds_up_from_its_tables_games(
        client: FlaskClient, fmt: str) -> None:
    rng = random.Random(fmt)
    answer = client.post("/api/v1/nights", json={"players": NAMES, "format": fmt, "rounds": 3,
                                                 "games_per_table": 3})
    assert answer.status_code == 201, answer.json
    night = answer.json
    key = night["edit_key"]
    assert night["rounds"] == 3
    tables = night["tables"]
    assert sorted(len(t["players"]) for t in tables) == [3, 3, 4, 4, 4, 4]
    assert sorted(n for t in tables for n in t["players"]) == sorted(NAMES)
    first_tables = [frozenset(t["players"]) for t in tables]
    for number in (1, 2, 3):
        for table in tables:
            play_table(client, table, 3, rng)
        if number < 3:
            seated = client.post(f"/api/v1/nights/{night['id']}/rounds", headers=auth(key))
            assert seated.status_code == 201, seated.json
            assert seated.json["round"] == number + 1
            tables = seated.json["tables"]
            if fmt == "fixed":
                assert [frozenset(t["players"]) for t in tables] == first_tables
    done = client.get(f"/api/v1/nights/{night['id']}").json
    assert done["over"]
    assert "edit_key" not in done["rounds_played"][0]["tables"][0]
    keys = recomputed(client, done)
    standings = {s["name"]: s for s in done["standings"]}
    for name, mine in keys.items():
        theirs = standings[name]
        assert (theirs["table_points"], theirs["games_won"], theirs["score"]) == mine[-3:]
    assert {name: s["place"] for name, s in standings.items()} == expected_places(keys)
    assert [s["place"] for s in done["standings"]] == sorted(s["place"]
                                                             for s in done["standings"])
    over = client.post(f"/api/v1/nights/{night['id']}/rounds", headers=auth(key))
    assert over.status_code == 409 and over.json["code"] == "night_over"
    if fmt == "advance":
        counts = [sum(len(t["players"]) for t in r["tables"]) for r in done["rounds_played"]]
        assert counts == [22, 6, 2]
        final = done["rounds_played"][-1]["tables"][0]["places"]
        champion = done["standings"][0]
        assert champion["stage"] == 3 and final[champion["name"]] == 1
    if fmt == "reseat":
        repeats = 0
        for r in done["rounds_played"][1:]:
            for t in r["tables"]:
                earlier = [set(e["players"]) for q in done["rounds_played"][:r["number"] - 1]
                           for e in q["tables"]]
                repeats += sum(len(set(t["players"]) & e) > 1 for e in earlier)
        assert repeats == 0, "re-seating repeats opponents where it need not"


def test_seating_while_a_table_is_still_playing_names_the_table(client: FlaskClient) -> None:
    night = client.post("/api/v1/nights", json={"players": NAMES[:9], "format": "reseat",
                                                "rounds": 2, "games_per_table": 1}).json
    rng = random.Random(1)
    for table in night["tables"][:2]:
        play_table(client, table, 1, rng)
    busy = night["tables"][2]
    answer = client.post(f"/api/v1/nights/{night['id']}/rounds",
                         headers=auth(night["edit_key"]))
    assert answer.status_code == 409
    assert f"table {busy['number']} ({', '.join(busy['players'])}) has 0 of 1" in \
        answer.json["error"]
    leaving = busy["players"][0]
    left = client.delete(f"/api/v1/nights/{night['id']}/players/{leaving}",
                         headers=auth(night["edit_key"]))
    assert left.status_code == 409 and "table 3" in left.json["error"]
    after = client.get(f"/api/v1/nights/{night['id']}").json
    assert len(after["rounds_played"]) == 1 and all(p["left_after"] is None
                                                    for p in after["players"])
    play_table(client, busy, 1, rng)
    assert client.delete(f"/api/v1/nights/{night['id']}/players/{leaving}",
                         headers=auth(night["edit_key"])).status_code == 200
    late = client.post(f"/api/v1/nights/{night['id']}/players", json={"name": "Zoe"},
                       headers=auth(night["edit_key"]))
    assert late.status_code == 201
    second = client.post(f"/api/v1/nights/{night['id']}/rounds",
                         headers=auth(night["edit_key"])).json
    seated = [n for t in second["tables"] for n in t["players"]]
    assert "Zoe" in seated and leaving not in seated and len(seated) == 9
    standings = client.get(f"/api/v1/nights/{night['id']}").json["standings"]
    assert next(s for s in standings if s["name"] == leaving)["left"]


@pytest.mark.parametrize(("body", "words"), [
    ({"players": ["Ann", "Bob", "Cy"], "format": "fixed", "rounds": 1},
     "8 to 40 players, not 3"),
    ({"players": [*NAMES[:8], "player 01"], "format": "fixed", "rounds": 1},
     "player 9: player 01 is in the night already (as Player 01)"),
    ({"players": NAMES, "format": "knockout", "rounds": 1}, "`format` must be one of"),
    ({"players": NAMES, "format": "reseat", "rounds": 0}, "`rounds` must be a whole number"),
    ({"players": NAMES, "format": "reseat", "rounds": 2, "table_points": {"4": [1, 2, 3, 4]}},
     "may not rise"),
])
def test_bad_nights_are_refused_saying_what_and_where(client: FlaskClient,
                                                      body: dict[str, Any], words: str
                                                      ) -> None:
    answer = client.post("/api/v1/nights", json=body)
    assert answer.status_code == 400
    assert words in answer.json["error"]
    assert client.get("/api/v1/sessions").json["sessions"] == []


def test_a_night_is_changed_only_with_its_key(client: FlaskClient) -> None:
    night = client.post("/api/v1/nights", json={"players": NAMES[:8], "format": "fixed",
                                                "rounds": 2}).json
    assert client.post(f"/api/v1/nights/{night['id']}/rounds").status_code == 401
    wrong = client.post(f"/api/v1/nights/{night['id']}/rounds", headers=auth("nope"))
    assert wrong.status_code == 403
    assert client.get("/api/v1/nights/nothing").status_code == 404


def test_two_player_swiss_seats_tables_of_two_and_rotates_the_bye(client: FlaskClient
                                                                  ) -> None:
    night = client.post("/api/v1/nights", json={"players": NAMES[:9], "format": "reseat",
                                                "rounds": 4, "games_per_table": 1,
                                                "pairs": True}).json
    rng = random.Random(2)
    byes = []
    tables = night["tables"]
    for number in range(1, 5):
        assert all(len(t["players"]) == 2 for t in tables) and len(tables) == 4
        for table in tables:
            play_table(client, table, 1, rng)
        state = client.get(f"/api/v1/nights/{night['id']}").json
        byes.extend(state["rounds_played"][-1]["sat_out"])
        if number < 4:
            tables = client.post(f"/api/v1/nights/{night['id']}/rounds",
                                 headers=auth(night["edit_key"])).json["tables"]
    assert len(byes) == 4 and len(set(byes)) == 4
