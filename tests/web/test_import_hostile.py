"""Import and export as a clumsy or hostile user drives them: a hand-edited export, a backup
restored on a new machine, two imports at once. Each is refused with its place named (nothing
stored) or works; never a traceback, a 500, or a group whose pages then fail."""

from __future__ import annotations

import copy
import io
import json
import threading
from collections.abc import Callable
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
from companion.web.models import Group, GroupMember, ScoreSession
from tests.web.groups_helpers import bearer, new_group


@pytest.fixture
def export(app: Flask, client: FlaskClient) -> dict[str, Any]:
    """A group with one session of Ann and Bob: a game recorded, then edited."""
    group_id, group_key = new_group(client, "club")
    started = client.post("/api/v1/sessions", headers=bearer(group_key), json={
        "players": ["Ann", "Bob"], "group": group_id})
    games = f"/api/v1/sessions/{started.json['id']}/games"
    key = bearer(started.json["edit_key"])
    assert client.post(games, headers=key, json={
        "ending": "out", "winner": "Ann", "racks": {"Bob": 5}}).status_code == 201
    assert client.put(games + "/1", headers=key, json={
        "ending": "out", "winner": "Bob", "racks": {"Ann": "R7 J"}}).status_code == 200
    with app.app_context():
        return json.loads(json.dumps(export_data()))


def count(app: Flask, model: Any) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(model)) or 0


def group(data: dict[str, Any]) -> dict[str, Any]:
    return data["groups"][0]  # type: ignore[no-any-return]


def session(data: dict[str, Any]) -> dict[str, Any]:
    return group(data)["sessions"][0]  # type: ignore[no-any-return]


def history_line(data: dict[str, Any]) -> dict[str, Any]:
    return session(data)["history"][-1]  # type: ignore[no-any-return]


EDITS: list[tuple[str, Callable[[dict[str, Any]], None], str]] = [
    ("half a surrogate pair in a summary",
     lambda d: history_line(d).update(summary="Game 1 \udc00"),
     "the file: `groups[0].sessions[0].history[1].summary` holds half of a surrogate pair"),
    ("half a surrogate pair in a group id", lambda d: group(d).update(id="\ud800" * 10),
     "holds half of a surrogate pair (\\ud800)"),
    ("a session's start as a number", lambda d: session(d).update(created_at=1764136800),
     "group 1 (club), session 1: `created_at` must be a date and time"),
    ("a game's time as a number",
     lambda d: session(d)["games"][0].update(recorded_at=1764136800),
     "session 1, game 1: `recorded_at` must be a date and time"),
    ("an edit time as a number", lambda d: session(d)["games"][0].update(edited_at=5),
     "game 1: `edited_at` must be a date and time"),
    ("a last change as a number", lambda d: session(d).update(updated_at=5),
     "session 1: `updated_at` must be a date and time"),
    ("a group id of 100 KB", lambda d: group(d).update(id="x" * 100_000),
     "group 1 (club): a group's `id` must be 8 to 32 letters"),
    ("a player id with a slash", lambda d: group(d)["members"][0].update(id="../../etc"),
     "a player needs a `name` (and an `id` of 8 to 32 letters"),
    ("a player twice in the group, once lower case",
     lambda d: group(d)["members"][1].update(name="ann"),
     "group 1 (club), members: player ann is in the group twice (also as Ann)"),
    ("a player spelled otherwise than at the table",
     lambda d: group(d)["members"][0].update(name="ANN"),
     "group 1 (club), session 1: Ann is spelled ANN in the group's members"),
    ("a player's name with a bidi override",
     lambda d: group(d)["members"][0].update(name="\u202eAnn"),
     "members: player 1: the name holds a control character"),
    ("a history line that undoes nothing", lambda d: history_line(d).update(action="exploded"),
     "a history line needs its `game` number and `action`"),
    ("a history line with true for its game", lambda d: history_line(d).update(game=True),
     "a history line needs its `game` number and `action`"),
    ("a history line with a number for its summary",
     lambda d: history_line(d).update(summary=5), "a history line's `summary` must be text"),
    ("a history line with a list for the game before",
     lambda d: history_line(d).update(before=[1, 2]), "a history line's `before` must be"),
    ("version true", lambda d: d.update(version=True), "not a Companion export"),
]


@pytest.mark.parametrize(("edit", "said"), [(edit, said) for _, edit, said in EDITS],
                         ids=[name for name, _, _ in EDITS])
def test_a_hand_edited_export_is_refused_with_its_place_and_stores_nothing(
        export: dict[str, Any], tmp_path: Path, edit: Callable[[dict[str, Any]], None],
        said: str) -> None:
    data = copy.deepcopy(export)
    edit(data)
    target = create_app({"TESTING": True, "SECRET_KEY": "test",
                         "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'target.sqlite'}"})
    with target.app_context():
        db.create_all()
        with pytest.raises(ImportRefused) as problem:
            import_data(data)
        db.session.rollback()
    assert said in str(problem.value)
    assert count(target, Group) == count(target, GroupMember) == count(target, ScoreSession) == 0


def test_the_unedited_export_imports_and_its_group_pages_answer(
        export: dict[str, Any], tmp_path: Path) -> None:
    """The edits above are refused for what they change, not for the rest of the file."""
    target = create_app({"TESTING": True, "SECRET_KEY": "test",
                         "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'target.sqlite'}"})
    with target.app_context():
        db.create_all()
        assert import_data(copy.deepcopy(export)) == (1, 1)
    client = target.test_client()
    assert client.get(f"/api/v1/groups/{group(export)['id']}").status_code == 200
    assert client.get(f"/groups/{group(export)['id']}/").status_code == 200


def test_a_backup_imports_and_exports_on_a_new_machine_with_no_step_before(
        export: dict[str, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The database of a new instance has no tables until ``serve`` migrates it: import and
    export failed there with a traceback ("no such table")."""
    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path / "new-laptop"))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    backup = tmp_path / "backup.json"
    backup.write_text(json.dumps(export), encoding="utf-8")
    runner = CliRunner()
    imported = runner.invoke(main, ["import", str(backup)])
    assert imported.exit_code == 0, imported.output
    assert "Imported 1 group and 1 session." in imported.output
    again = runner.invoke(main, ["import", str(backup)])
    assert again.exit_code == 2 and "already here" in again.output
    exported = runner.invoke(main, ["export", "-"])
    assert exported.exit_code == 0, exported.output
    assert session(json.loads(exported.output[exported.output.index("{"):]))["id"] == (
        session(export)["id"])
    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path / "another-laptop"))
    empty = runner.invoke(main, ["export", "-"])
    assert empty.exit_code == 0, empty.output
    assert '"groups": []' in empty.output


def test_export_to_a_folder_that_does_not_exist_is_one_line_and_exit_two(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path / "instance"))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    result = CliRunner().invoke(main, ["export", str(tmp_path / "no" / "such" / "x.json")])
    assert result.exit_code == 2 and isinstance(result.exception, SystemExit)
    assert "cannot write" in result.output and "No such file or directory" in result.output
    assert "Traceback" not in result.output


def run_together(count_of: int, work: Callable[[int], Any]) -> list[Any]:
    answers: list[Any] = [None] * count_of
    start = threading.Barrier(count_of)

    def one(index: int) -> None:
        start.wait()
        answers[index] = work(index)

    threads = [threading.Thread(target=one, args=(index,)) for index in range(count_of)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


def test_the_same_file_imported_from_four_phones_at_once_is_stored_once(
        export: dict[str, Any], tmp_path: Path) -> None:
    """Each import read, then wrote: the others failed with "database is locked" (500)."""
    target = create_app({"TESTING": True, "SECRET_KEY": "test", "WTF_CSRF_ENABLED": False,
                         "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'target.sqlite'}"})
    with target.app_context():
        db.create_all()
    body = json.dumps(export).encode()

    def upload(_index: int) -> int:
        return target.test_client().post(
            "/groups/import", data={"file": (io.BytesIO(body), "backup.json")},
            content_type="multipart/form-data").status_code

    assert sorted(run_together(4, upload)) == [201, 422, 422, 422]
    assert count(target, Group) == count(target, ScoreSession) == 1


def test_groups_started_while_sessions_join_a_group_all_succeed(
        app: Flask, client: FlaskClient) -> None:
    """Starting a group wrote without taking the write turn, and joining a session to a group
    read the members before writing: SQLite refused the joiner's write with "database is
    locked" (a 500, its session stored outside the group)."""
    group_id, group_key = new_group(client, "club")

    def write(index: int) -> list[int]:
        phone = app.test_client()
        if index % 2:
            return [phone.post("/api/v1/groups", json={"name": f"club {index}.{turn}"}
                               ).status_code for turn in range(4)]
        return [phone.post("/api/v1/sessions", headers=bearer(group_key), json={
            "players": ["Ann", "Newcomer", f"Guest {index}.{turn}"], "group": group_id}
        ).status_code for turn in range(4)]

    assert run_together(8, write) == [[201] * 4] * 8
    names = [player["name"] for player in client.get(f"/api/v1/groups/{group_id}").json[
        "players"]]
    assert sorted(names) == sorted(["Ann", "Newcomer", *(f"Guest {index}.{turn}"
                                                        for index in range(0, 8, 2)
                                                        for turn in range(4))])
    assert count(app, ScoreSession) == 16 and count(app, Group) == 17


UNREADABLE_FILES = [
    (b"[" * 20_000 + b"]" * 20_000, "nests lists or objects too deeply"),
    (b'{"format": ' + b"9" * 5000 + b"}", "4300 digits"),
    (b'{"format": "companion-export", "version": NaN}', "NaN is not a JSON number"),
]


@pytest.mark.parametrize(("content", "said"), UNREADABLE_FILES,
                         ids=["deep", "long number", "NaN"])
def test_a_file_the_json_parser_chokes_on_is_refused_by_the_page_and_the_cli(
        app: Flask, client: FlaskClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        content: bytes, said: str) -> None:
    """json.loads raises a RecursionError for deep nesting and a plain ValueError for a long
    number: neither is a JSONDecodeError, so the page answered 500 and the CLI a traceback."""
    answer = client.post("/groups/import", data={"file": (io.BytesIO(content), "x.json")},
                         content_type="multipart/form-data")
    assert answer.status_code == 422
    assert "This file is not JSON" in answer.text and said in answer.text
    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path / "instance"))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    path = tmp_path / "x.json"
    path.write_bytes(content)
    result = CliRunner().invoke(main, ["import", str(path)])
    assert result.exit_code == 2 and isinstance(result.exception, SystemExit)
    assert "not a readable JSON file" in result.output and said in result.output


def test_an_export_saved_with_a_byte_order_mark_imports(
        export: dict[str, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Windows editors save UTF-8 with a BOM; the file is the same export."""
    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path / "instance"))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    path = tmp_path / "backup.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(export).encode())
    result = CliRunner().invoke(main, ["import", str(path)])
    assert result.exit_code == 0, result.output
