"""Groups on PostgreSQL: the statistics' SQL aggregates (strict GROUP BY, bigint sums) give
the same league and player statistics as on SQLite, through the real migrations."""

from __future__ import annotations

from pathlib import Path

from flask import Flask
from flask.testing import FlaskClient

from companion.web import create_app
from companion.web.extensions import db
from tests.generated_group import generate_evenings
from tests.golden import GOLDEN_AS_PLAYED, GOLDEN_STANDINGS
from tests.web.groups_helpers import bearer, new_group, play_group


def test_the_golden_table_in_a_group_gives_its_standings_as_the_league(
        client: FlaskClient) -> None:
    group_id, key = new_group(client)
    created = client.post("/api/v1/sessions", headers=bearer(key), json={
        "players": ["A", "B", "C", "D"], "rounds": 1, "group": group_id})
    assert created.status_code == 201, created.json
    for body in GOLDEN_AS_PLAYED:
        answer = client.post(f"/api/v1/sessions/{created.json['id']}/games", json=body,
                             headers=bearer(created.json["edit_key"]))
        assert answer.status_code == 201
    group = client.get(f"/api/v1/groups/{group_id}").json
    assert [{k: row[k] for k in ("name", "games_won", "total_score", "place")}
            for row in group["league"]] == [
        {"name": s["name"], "games_won": s["games_won"], "total_score": s["score"],
         "place": s["place"]} for s in GOLDEN_STANDINGS]
    assert [row["sessions_won"] for row in group["league"]] == [1, 0, 0, 0]
    c_player = next(p["id"] for p in group["players"] if p["name"] == "C")
    stats = client.get(f"/api/v1/players/{c_player}").json
    assert (stats["games_won"], stats["total_score"], stats["best_game"],
            stats["worst_game"], stats["nemesis"]) == (2, 45, 41, -16, "D")
    # C lost game 1 to A and game 3 to D: one each, so the later one, D, is the nemesis.


def test_a_generated_group_reads_the_same_on_postgresql_as_on_sqlite(
        app: Flask, client: FlaskClient, tmp_path: Path) -> None:
    evenings = generate_evenings(seed=21, count=8)
    on_postgres = play_group(app, client, evenings)
    lite = create_app({"TESTING": True, "SECRET_KEY": "t", "WTF_CSRF_ENABLED": False,
                       "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path}/lite.sqlite"})
    with lite.app_context():
        db.create_all()
    lite_client = lite.test_client()
    on_sqlite = play_group(lite, lite_client, evenings)

    def read(c: FlaskClient, group_id: str) -> list[object]:
        group = c.get(f"/api/v1/groups/{group_id}").json
        players = [{k: v for k, v in c.get(f"/api/v1/players/{p['id']}").json.items()
                    if k not in ("id", "group")} for p in group["players"]]
        return [[{k: v for k, v in row.items() if k != "id"} for row in group["league"]],
                players]

    assert read(client, on_postgres.id) == read(lite_client, on_sqlite.id)
