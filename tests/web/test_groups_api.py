"""Groups through the JSON API: a generated group of evenings, its league and players'
statistics checked against a recomputation from the sessions the API serves."""

from __future__ import annotations

from collections import Counter
from datetime import datetime
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from companion.web.extensions import db
from companion.web.groups import service
from companion.web.models import Group, ScoreSession
from tests.generated_group import generate_evenings
from tests.web.groups_helpers import bearer, new_group, play_group, sessions_as_served


def expected_stats(name: str, sheets: list[dict[str, Any]], days_ago: list[int],
                   within_days: int | None) -> dict[str, object]:
    """The statistics recomputed from served sheets: flat list of games, oldest first."""
    chosen = [(sheet, age) for sheet, age in zip(sheets, days_ago, strict=True)
              if name in sheet["players"] and sheet["games"]
              and (within_days is None or age <= within_days)]
    chosen.sort(key=lambda pair: -pair[1])
    scores, wins, beaten, order = [], [], Counter(), {}
    for sheet, _ in chosen:
        for game in sheet["games"]:
            scores.append(game["scores"][name])
            wins.append(game["winner"] == name)
            if game["winner"] != name:
                beaten[game["winner"]] += 1
                order[game["winner"]] = len(scores)
    streak = best = 0
    for won in wins:
        streak = streak + 1 if won else 0
        best = max(best, streak)
    nemesis = max(beaten, key=lambda other: (beaten[other], order[other]), default=None)
    total = sum(scores)
    average = 0 if not scores else int(abs(total) / len(scores) + 0.5) * (1 if total >= 0 else -1)
    sessions_won = sum(1 for sheet, _ in chosen if sheet["complete"] and any(
        s["name"] == name and s["place"] == 1 for s in sheet["standings"]))
    return {"name": name, "sessions_played": len(chosen), "sessions_won": sessions_won,
            "games_played": len(scores), "games_won": sum(wins),
            "win_rate": sum(wins) / len(scores) if scores else 0.0, "total_score": total,
            "average_score": average, "best_game": max(scores, default=None),
            "worst_game": min(scores, default=None), "longest_streak": best,
            "nemesis": nemesis}


STAT_KEYS = ("name", "sessions_played", "sessions_won", "games_played", "games_won",
             "win_rate", "total_score", "average_score", "best_game", "worst_game",
             "longest_streak", "nemesis")
TODAY = datetime(2026, 11, 23, 20, 0)


@pytest.fixture
def generated(app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch) -> Any:
    """Thirty evenings a fortnight apart (some unfinished), with "now" fixed at TODAY."""
    monkeypatch.setattr(service, "now", lambda: TODAY)
    evenings = generate_evenings(seed=14, count=30, days_apart=13)
    played = play_group(app, client, evenings, today=TODAY)
    return evenings, played, sessions_as_served(client, played.session_ids)


def test_a_generated_groups_statistics_match_a_recomputation_for_every_period(
        client: FlaskClient, generated: Any) -> None:
    evenings, played, sheets = generated
    group = client.get(f"/api/v1/groups/{played.id}").json
    days_ago = [evening.days_ago for evening in evenings]
    assert {p["name"] for p in group["players"]} == {n for e in evenings for n in e.players}
    windows = {"all": None, "month": TODAY.day - 1, "year": TODAY.timetuple().tm_yday - 1}
    for player in group["players"]:
        for period, within in windows.items():
            answer = client.get(f"/api/v1/players/{player['id']}?period={period}")
            assert answer.status_code == 200
            assert {key: answer.json[key] for key in STAT_KEYS} == \
                expected_stats(player["name"], sheets, days_ago, within), period
            numbers = [answer.json[key] for key in STAT_KEYS
                       if key not in ("name", "win_rate", "nemesis")]
            assert all(isinstance(n, int) or n is None for n in numbers)
            assert isinstance(answer.json["win_rate"], float)


def test_the_league_adds_up_each_sessions_standings(client: FlaskClient,
                                                    generated: Any) -> None:
    _, played, sheets = generated
    group = client.get(f"/api/v1/groups/{played.id}").json
    games_won, totals, sessions_won = Counter(), Counter(), Counter()
    for sheet in sheets:
        for standing in sheet["standings"]:
            games_won[standing["name"]] += standing["games_won"]
            totals[standing["name"]] += standing["score"]
            if sheet["complete"] and standing["place"] == 1:
                sessions_won[standing["name"]] += 1
    league = group["league"]
    assert {row["name"]: (row["games_won"], row["total_score"], row["sessions_won"])
            for row in league} == {name: (games_won[name], totals[name], sessions_won[name])
                                   for name in games_won}
    # Places as on a sheet: most games won, then total; equal on both share the place.
    for row in league:
        better = sum(1 for other in league
                     if (other["games_won"], other["total_score"]) >
                     (row["games_won"], row["total_score"]))
        assert row["place"] == better + 1
    assert [row["place"] for row in league] == sorted(row["place"] for row in league)
    listed = {s["id"]: s for s in group["sessions"]}
    assert set(listed) == set(played.session_ids)
    for session_id, sheet in zip(played.session_ids, sheets, strict=True):
        assert listed[session_id]["games_played"] == sheet["games_played"]


def test_a_group_is_created_with_its_key_and_refuses_a_bad_name(client: FlaskClient) -> None:
    answer = client.post("/api/v1/groups", json={"name": "  Thursday   club "})
    assert answer.status_code == 201
    assert answer.json["name"] == "Thursday club"
    assert len(answer.json["id"]) >= 20 and len(answer.json["edit_key"]) >= 30
    assert answer.json["edit_key"] in answer.json["links"]["share_to_edit"]
    for body, message in (({"name": ""}, "give the group a name"),
                          ({"name": 5}, "`name` must be"), ([], "send a JSON object"),
                          ({"name": "x" * 61}, "at most 60 characters")):
        refused = client.post("/api/v1/groups", json=body)
        assert refused.status_code == 400
        assert message in refused.json["error"]


def test_a_session_joins_a_group_only_with_the_groups_key(app: Flask,
                                                          client: FlaskClient) -> None:
    group_id, key = new_group(client)
    body = {"players": ["Ann", "bob"], "rounds": 1, "group": group_id}
    assert client.post("/api/v1/sessions", json=body).status_code == 401
    wrong = client.post("/api/v1/sessions", json=body, headers=bearer("not-the-key"))
    assert wrong.status_code == 403 and wrong.json["where"] == {"field": "Authorization"}
    unknown = client.post("/api/v1/sessions", json={**body, "group": "nope"},
                          headers=bearer(key))
    assert unknown.status_code == 404
    not_text = client.post("/api/v1/sessions", json={**body, "group": 3}, headers=bearer(key))
    assert not_text.status_code == 400 and not_text.json["where"] == {"field": "group"}
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(ScoreSession)) == 0
    first = client.post("/api/v1/sessions", json={**body, "players": ["Ann", "Bob"]},
                        headers=bearer(key))
    second = client.post("/api/v1/sessions", json={**body, "players": ["ann", "BOB", "Cy"]},
                         headers=bearer(key))
    assert first.status_code == second.status_code == 201
    # Names join the group once, spelled as the group first spelled them.
    assert second.json["players"] == ["Ann", "Bob", "Cy"]
    group = client.get(f"/api/v1/groups/{group_id}").json
    assert [p["name"] for p in group["players"]] == ["Ann", "Bob", "Cy"]


def test_strangers_can_neither_list_nor_guess_groups_or_players(app: Flask,
                                                                client: FlaskClient) -> None:
    group_id, _ = new_group(client)
    assert client.get("/api/v1/groups").status_code in (404, 405)
    with app.app_context():
        internal = db.session.scalar(select(Group.id))
    assert client.get(f"/api/v1/groups/{internal}").status_code == 404
    assert client.get("/api/v1/players/1").status_code == 404
    answer = client.get(f"/api/v1/groups/{group_id}?period=week")
    assert answer.status_code == 400 and answer.json["where"] == {"field": "period"}


def test_rematch_and_one_more_round_through_the_api(client: FlaskClient) -> None:
    group_id, group_key = new_group(client)
    created = client.post("/api/v1/sessions", headers=bearer(group_key), json={
        "players": ["Ann", "Bob"], "rounds": 1, "preset": "sabra", "group": group_id,
        "joker_penalty": 25})
    session_id, key = created.json["id"], bearer(created.json["edit_key"])
    assert client.post(f"/api/v1/sessions/{session_id}/rounds").status_code == 401
    more = client.post(f"/api/v1/sessions/{session_id}/rounds", headers=key)
    assert more.status_code == 200
    assert (more.json["rounds"], more.json["games_planned"]) == (2, 4)
    rematch = client.post(f"/api/v1/sessions/{session_id}/rematch", headers=key)
    assert rematch.status_code == 201
    assert rematch.json["id"] != session_id and rematch.json["edit_key"] != key
    assert {k: rematch.json[k] for k in ("players", "rounds", "preset", "rules")} == \
        {k: more.json[k] for k in ("players", "rounds", "preset", "rules")}
    group = client.get(f"/api/v1/groups/{group_id}").json
    assert {s["id"] for s in group["sessions"]} == {session_id, rematch.json["id"]}
    for _ in range(48):  # rounds 3 to 50
        assert client.post(f"/api/v1/sessions/{session_id}/rounds", headers=key).status_code == 200
    at_most = client.post(f"/api/v1/sessions/{session_id}/rounds", headers=key)
    assert at_most.status_code == 422
    assert "the number of rounds must be 1 to 50, not 51" in at_most.json["error"]
