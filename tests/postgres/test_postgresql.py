"""The app on a real PostgreSQL server: the migrations, the score keeping, the constraints.

SQLite is forgiving about types and only checks foreign keys when asked; a club server runs
PostgreSQL, which is strict. These tests run the same migrations and the same JSON API there.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import delete, func, inspect, select, text
from sqlalchemy.exc import IntegrityError

from companion.web import create_app
from companion.web.extensions import db
from companion.web.models import Game, GameChange, GameEntry, Player, ScoreSession
from tests.golden import GOLDEN, GOLDEN_AS_PLAYED, GOLDEN_STANDINGS
from tests.postgres.conftest import PostgresCluster, dispose, postgres_app


def start(client: FlaskClient, **extra: Any) -> tuple[str, dict[str, str]]:
    answer = client.post("/api/v1/sessions",
                         json={"players": ["A", "B", "C", "D"], "rounds": 1, **extra})
    assert answer.status_code == 201, answer.json
    return answer.json["id"], {"Authorization": f"Bearer {answer.json['edit_key']}"}


def play(client: FlaskClient, session_id: str, key: dict[str, str], games: int) -> None:
    for body in GOLDEN_AS_PLAYED[:games]:
        answer = client.post(f"/api/v1/sessions/{session_id}/games", json=body, headers=key)
        assert answer.status_code == 201, answer.json


def internal_id(app: Flask, public_id: str) -> int:
    """The integer key behind a session's public id (it never leaves the server)."""
    with app.app_context():
        found = db.session.scalar(select(ScoreSession.id)
                                  .where(ScoreSession.public_id == public_id))
    assert found is not None
    return found


def rows_of(session_id: int) -> dict[str, int]:
    """How many rows of each table belong to a session (entries through their game)."""
    def count(statement: Any) -> int:
        return db.session.scalar(statement) or 0

    return {
        "players": count(select(func.count()).where(Player.session_id == session_id)),
        "games": count(select(func.count()).where(Game.session_id == session_id)),
        "history": count(select(func.count()).where(GameChange.session_id == session_id)),
        "entries": count(select(func.count()).select_from(GameEntry).join(Game)
                         .where(Game.session_id == session_id)),
    }


def test_the_migrations_build_exactly_the_models_schema_and_take_it_down_again(
        postgres: PostgresCluster) -> None:
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext
    from flask_migrate import downgrade, upgrade

    app = postgres_app(postgres.url(postgres.create_database()))
    try:
        with app.app_context():
            upgrade()
            with db.engine.connect() as connection:
                differences = compare_metadata(MigrationContext.configure(connection),
                                               db.metadata)
            downgrade(revision="base")
            tables_left = inspect(db.engine).get_table_names()
    finally:
        dispose(app)
    assert differences == []
    assert tables_left == ["alembic_version"]


def test_the_golden_score_table_is_kept_and_its_last_game_undone(client: FlaskClient) -> None:
    session_id, key = start(client)
    for number, (body, expected) in enumerate(zip(GOLDEN_AS_PLAYED, GOLDEN, strict=True), 1):
        answer = client.post(f"/api/v1/sessions/{session_id}/games", json=body, headers=key)
        assert answer.status_code == 201, answer.json
        assert answer.json["scores"] == expected and answer.json["number"] == number
    sheet = client.get(f"/api/v1/sessions/{session_id}").json
    assert sheet["standings"] == GOLDEN_STANDINGS
    assert sheet["games"][2]["racks"]["A"] == "J K2"

    undone = client.delete(f"/api/v1/sessions/{session_id}/games/4", headers=key)
    assert undone.status_code == 200, undone.json
    sheet = client.get(f"/api/v1/sessions/{session_id}").json
    assert sheet["totals"] == {name: sum(game[name] for game in GOLDEN[:3]) for name in "ABCD"}
    assert len(sheet["games"]) == 3 and sheet["next_game"]["number"] == 4
    history = client.get(f"/api/v1/sessions/{session_id}/history").json["history"]
    assert [change["action"] for change in history] == ["recorded"] * 4 + ["undone"]


def test_a_session_keeps_its_preset_and_rule_overrides_in_the_json_column(
        client: FlaskClient) -> None:
    session_id, key = start(client, preset="sabra", rules={"joker_penalty": 25})
    sheet = client.get(f"/api/v1/sessions/{session_id}").json
    assert sheet["preset"] == "sabra" and sheet["rules"]["joker_penalty"] == 25
    answer = client.post(f"/api/v1/sessions/{session_id}/games", headers=key, json={
        "ending": "out", "winner": "A", "racks": {"B": "J K4", "C": 3, "D": 4}})
    assert answer.json["scores"] == {"A": 36, "B": -29, "C": -3, "D": -4}, answer.json


def test_deleting_a_session_removes_its_players_games_entries_and_history_only(
        app: Flask, client: FlaskClient) -> None:
    kept_id, kept_key = start(client)
    play(client, kept_id, kept_key, games=1)
    gone_id, gone_key = start(client)
    play(client, gone_id, gone_key, games=2)
    kept, gone = internal_id(app, kept_id), internal_id(app, gone_id)

    assert client.delete(f"/api/v1/sessions/{gone_id}", headers=gone_key).status_code == 200
    with app.app_context():
        assert rows_of(gone) == {"players": 0, "games": 0, "history": 0, "entries": 0}
        assert rows_of(kept) == {"players": 4, "games": 1, "history": 1, "entries": 4}
    assert client.get(f"/api/v1/sessions/{kept_id}").json["totals"] == GOLDEN[0]


def test_the_database_itself_cascades_a_deleted_session_and_refuses_orphans(
        app: Flask, client: FlaskClient) -> None:
    public_id, key = start(client)
    play(client, public_id, key, games=2)
    session_id = internal_id(app, public_id)
    with app.app_context():
        db.session.execute(delete(ScoreSession).where(ScoreSession.id == session_id))
        db.session.commit()
        assert rows_of(session_id) == {"players": 0, "games": 0, "history": 0, "entries": 0}

        db.session.add(Player(session_id=session_id, seat=1, name="Ghost"))
        with pytest.raises(IntegrityError, match="fk_score_player_session_id_score_session"):
            db.session.commit()


def test_the_database_refuses_a_taken_seat_a_taken_name_and_a_repeated_game_number(
        app: Flask, client: FlaskClient) -> None:
    public_id, key = start(client)
    play(client, public_id, key, games=1)
    session_id = internal_id(app, public_id)
    with app.app_context():
        first = db.session.scalars(select(Player).where(Player.session_id == session_id)
                                   .order_by(Player.seat)).first()
        assert first is not None
        duplicates = [
            (Player(session_id=session_id, seat=first.seat, name="Extra"), "uq_score_player_seat"),
            (Player(session_id=session_id, seat=9, name=first.name), "uq_score_player_name"),
            (Game(session_id=session_id, number=1, ending="paper", winner_id=first.id),
             "uq_score_game_number"),
        ]
        for row, constraint in duplicates:
            db.session.add(row)
            with pytest.raises(IntegrityError, match=constraint):
                db.session.commit()
            db.session.rollback()


def test_an_old_style_postgres_url_in_database_url_is_accepted(
        postgres: PostgresCluster, migrated_template: str, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    database = postgres.create_database(template=migrated_template)
    old_style = postgres.url(database, scheme="postgres")
    assert old_style.startswith("postgres://")
    monkeypatch.setenv("DATABASE_URL", old_style)
    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path / "instance"))
    for variable in [name for name in os.environ if name.startswith("FLASK_")]:
        monkeypatch.delenv(variable)

    app = create_app()
    try:
        with app.app_context():
            connected_to = db.session.scalar(text("SELECT current_database()"))
        listed = app.test_client().get("/api/v1/sessions")
    finally:
        dispose(app)
    assert connected_to == database
    assert listed.status_code == 200 and listed.json == {"sessions": []}
    assert (tmp_path / "instance" / "secret_key").is_file()


def test_writers_at_once_on_postgresql_are_each_stored_once(
        postgres: PostgresCluster, migrated_template: str, tmp_path: Path) -> None:
    """The live load of ``tests/web/test_scores_live.py`` against PostgreSQL: the server under
    the real server, writers, an undoing phone and a reader at once; then a ``kill -9``."""
    from tests.live_server import check_database, kill_during_writes, run_writers, served

    url = postgres.url(postgres.create_database(template=migrated_template))
    with served(url, tmp_path / "instance") as server:
        report = run_writers(server, writers=4, seconds=3, undo=True, readers=1)
        assert len(report.acknowledged) >= 20 and report.server_errors == []
        assert check_database(url, report) == []
        killed = kill_during_writes(server, writers=4, after_games=15)
        assert killed.server_errors == [] and len(killed.acknowledged) >= 15
        assert check_database(url, killed) == []
