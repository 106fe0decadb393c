"""Export and import: every sheet comes back exactly; a wrong file imports nothing."""

from __future__ import annotations

import copy
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from companion.cli import main
from companion.web import create_app
from companion.web.extensions import db
from companion.web.groups.transfer import ImportRefused, export_data, import_data
from companion.web.models import Game, Group, ScoreSession
from tests.generated_group import generate_evenings
from tests.serving import server_environment
from tests.web.groups_helpers import bearer, play_group


def fresh_app(path: Path) -> Flask:
    app = create_app({"TESTING": True, "SECRET_KEY": "test", "WTF_CSRF_ENABLED": False,
                      "SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}"})
    with app.app_context():
        db.create_all()
    return app


def every_sheet(client: FlaskClient, app: Flask) -> list[dict[str, Any]]:
    """Every session as the API serves it, with its history and its read-only page, oldest
    first (a session keeps its public id, so its links are the same on the new server)."""
    with app.app_context():
        ids = list(db.session.scalars(select(ScoreSession.public_id).order_by(
            ScoreSession.created_at, ScoreSession.id)))
    sheets = []
    for session_id in ids:
        sheet = client.get(f"/api/v1/sessions/{session_id}").json
        sheet["history"] = client.get(f"/api/v1/sessions/{session_id}/history").json["history"]
        page = client.get(f"/scores/{session_id}/view").get_data(as_text=True)
        # The live stream's starting version is a server-side counter (an import starts it at
        # random so no cached copy of a deleted session is served): not part of the sheet.
        sheet["page"] = re.sub(r' data-version="\d+"', "", page)
        sheets.append(sheet)
    return sheets


def count(app: Flask, model: Any) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(model)) or 0


@pytest.fixture
def exported(app: Flask, client: FlaskClient) -> dict[str, Any]:
    """Twelve evenings of a group, and a session outside any group with an edit and an undo
    in its history; exported as everything."""
    played = play_group(app, client, generate_evenings(seed=3, count=12))
    loose = client.post("/api/v1/sessions", json={"players": ["Zed", "Yan"], "rounds": 1})
    games, key = f"/api/v1/sessions/{loose.json['id']}/games", bearer(loose.json["edit_key"])
    for method, url, body in (
            ("post", games, {"ending": "exhausted", "racks": {"Zed": "R1 R2", "Yan": "K9"}}),
            ("put", games + "/1", {"ending": "out", "winner": "Zed", "racks": {"Yan": 7}}),
            ("post", games, {"ending": "paper", "scores": {"Zed": -4, "Yan": 4}}),
            ("delete", games + "/2", None)):
        answer = getattr(client, method)(url, json=body, headers=key)
        assert answer.status_code in (200, 201), answer.json
    with app.app_context():
        data = json.loads(json.dumps(export_data()))
    return {"played": played, "data": data}


def test_export_then_import_reproduces_every_sheet_exactly(
        app: Flask, client: FlaskClient, exported: dict[str, Any], tmp_path: Path) -> None:
    target = fresh_app(tmp_path / "server.sqlite")
    with target.app_context():
        assert import_data(exported["data"]) == (1, 13)
    assert every_sheet(target.test_client(), target) == every_sheet(client, app)
    played = exported["played"]
    before = client.get(f"/api/v1/groups/{played.id}").json
    after = target.test_client().get(f"/api/v1/groups/{played.id}").json
    assert after["league"] == before["league"]
    assert after["players"] == before["players"]
    # The same edit key still opens the group on the new server.
    joined = target.test_client().post("/api/v1/sessions", headers=bearer(played.key), json={
        "players": ["Ann", "Bob"], "group": played.id})
    assert joined.status_code == 201


def test_the_command_line_exports_one_group_and_imports_it_elsewhere(
        app: Flask, client: FlaskClient, exported: dict[str, Any], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path / "laptop"))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    laptop = create_app()
    with laptop.app_context():
        db.create_all()
        import_data(exported["data"])
    runner = CliRunner()
    group_file = tmp_path / "group.json"
    result = runner.invoke(main, ["export", "--group", exported["played"].id, str(group_file)])
    assert result.exit_code == 0, result.output
    data = json.loads(group_file.read_text())
    assert len(data["groups"]) == 1 and data["sessions"] == []
    unknown = runner.invoke(main, ["export", "--group", "nope", str(tmp_path / "x.json")])
    assert unknown.exit_code == 2 and "there is no group nope" in unknown.output

    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path / "club"))
    with create_app().app_context():
        db.create_all()
    result = runner.invoke(main, ["import", str(group_file)])
    assert result.exit_code == 0, result.output
    assert "Imported 1 group and 12 sessions." in result.output
    again = runner.invoke(main, ["import", str(group_file)])
    assert again.exit_code == 2
    assert "nothing imported" in again.output and "already here" in again.output
    (tmp_path / "bad.json").write_text("{not json")
    broken = runner.invoke(main, ["import", str(tmp_path / "bad.json")])
    assert broken.exit_code == 2 and "not a readable JSON file" in broken.output


def first_game_of_kind(data: dict[str, Any], ending: str) -> tuple[int, int, dict[str, Any]]:
    for s_index, session in enumerate(data["groups"][0]["sessions"]):
        for game in session["games"]:
            if game["ending"] == ending:
                return s_index, game["number"], game
    raise AssertionError(f"no {ending} game generated")


def refused(tmp_path: Path, data: dict[str, Any]) -> str:
    target = fresh_app(tmp_path / "target.sqlite")
    with target.app_context():
        with pytest.raises(ImportRefused) as problem:
            import_data(data)
        db.session.rollback()
    assert count(target, ScoreSession) == count(target, Group) == count(target, Game) == 0
    return str(problem.value)


def test_a_paper_game_that_does_not_balance_is_refused_with_its_place(
        exported: dict[str, Any], tmp_path: Path) -> None:
    data = copy.deepcopy(exported["data"])
    s_index, number, game = first_game_of_kind(data, "paper")
    game["scores"][game["winner"]] += 1
    message = refused(tmp_path, data)
    assert message.startswith(f"group 1 (Thursday club), session {s_index + 1}, game {number}: ")
    assert "not 0" in message


def test_scores_the_racks_do_not_give_are_refused(exported: dict[str, Any],
                                                   tmp_path: Path) -> None:
    data = copy.deepcopy(exported["data"])
    s_index, number, game = first_game_of_kind(data, "out")
    loser = next(name for name in game["scores"] if name != game["winner"])
    game["scores"][loser] -= 2
    game["scores"][game["winner"]] += 2
    message = refused(tmp_path, data)
    assert f"session {s_index + 1}, game {number}" in message
    assert "are not what the racks give" in message


def test_a_rack_that_breaks_the_boxs_inventory_is_refused(exported: dict[str, Any],
                                                           tmp_path: Path) -> None:
    data = copy.deepcopy(exported["data"])
    s_index, number, game = first_game_of_kind(data, "out")
    loser = next(name for name in game["scores"] if name != game["winner"])
    game["racks"][loser] = "R7 R7 R7"
    message = refused(tmp_path, data)
    assert f"session {s_index + 1}, game {number}" in message
    assert "R7" in message and loser in message


def test_a_session_twice_in_the_file_is_refused(exported: dict[str, Any],
                                                 tmp_path: Path) -> None:
    data = copy.deepcopy(exported["data"])
    sessions = data["groups"][0]["sessions"]
    sessions.append(copy.deepcopy(sessions[0]))
    message = refused(tmp_path, data)
    assert f"session {len(sessions)}: this session is in the file twice" in message


def test_a_file_that_is_not_an_export_is_refused(tmp_path: Path) -> None:
    assert "not a Companion export" in refused(tmp_path, {"groups": []})
    assert "must be a JSON object" in refused(tmp_path, [])


def test_a_session_keeps_its_public_id_and_an_id_already_taken_is_refused(
        exported: dict[str, Any], tmp_path: Path) -> None:
    data = copy.deepcopy(exported["data"])
    kept = data["sessions"][0]["id"]
    target = fresh_app(tmp_path / "server.sqlite")
    with target.app_context():
        import_data({**data, "groups": []})
    assert target.test_client().get(f"/api/v1/sessions/{kept}").json["id"] == kept
    # Another session (other start, other players) under an id the server already holds.
    clash = copy.deepcopy(data["groups"][0]["sessions"][0])
    clash["id"] = kept
    with target.app_context():
        with pytest.raises(ImportRefused, match=f"a session with the id {kept} is already here"):
            import_data({**data, "groups": [], "sessions": [clash]})
        db.session.rollback()
    twice = copy.deepcopy(data)
    twice["groups"][0]["sessions"][1]["id"] = twice["groups"][0]["sessions"][0]["id"]
    assert "is in the file twice" in refused(tmp_path, twice)
    bad = copy.deepcopy(data)
    bad["sessions"][0]["id"] = "../../etc"
    assert "session 1: a session's `id` must be 8 to 32 letters" in refused(tmp_path, bad)


def test_export_migrates_a_new_database_once_then_says_nothing_but_its_errors(
        tmp_path: Path) -> None:
    """Every `companion export` printed Alembic's "Context impl SQLiteImpl." lines."""
    environment = server_environment(COMPANION_INSTANCE=str(tmp_path / "instance"))
    runs = [subprocess.run([sys.executable, "-m", "companion", "export", str(tmp_path / "x.json")],
                           env=environment, cwd=tmp_path, capture_output=True, text=True,
                           timeout=120, check=False) for _ in range(2)]
    assert [run.returncode for run in runs] == [0, 0], runs[0].stderr
    assert "Running upgrade" in runs[0].stderr
    assert runs[1].stderr == ""
    assert json.loads((tmp_path / "x.json").read_text())["groups"] == []
