"""The score keeper's pages: forms, the sheet, who may write, CSV and history."""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from companion.web import create_app
from companion.web.extensions import db
from companion.web.models import ScoreSession
from tests.golden import GOLDEN_ROWS


def start(client: FlaskClient, names: tuple[str, ...] = ("A", "B", "C", "D"),
          rounds: int = 1, **extra: Any) -> str:
    form = {f"player_{i}": name for i, name in enumerate(names, start=1)}
    answer = client.post("/scores/new", data={**form, "rounds": rounds, "preset": "pressman",
                                              **extra})
    assert answer.status_code == 302, answer.text
    return answer.location.rstrip("/").rsplit("/", 1)[1]


def lines(values: dict[str, Any]) -> dict[str, Any]:
    """Form fields for player lines: {"0-rack": "K5"} → {"lines-0-rack": "K5"}."""
    return {f"lines-{key}": value for key, value in values.items()}


def record(client: FlaskClient, session_id: str, ending: str, **fields: Any) -> Any:
    return client.post(f"/scores/{session_id}/games/new", data={"ending": ending, **fields})


def test_the_golden_score_table_through_the_pages(client: FlaskClient) -> None:
    session_id = start(client)
    for scores in GOLDEN_ROWS:
        as_written = [f"+{s}" if s > 0 else f"−{-s}" for s in scores]  # signs as on paper
        answer = record(client, session_id, "paper",
                        **lines({f"{i}-score": s for i, s in enumerate(as_written)}))
        assert answer.status_code == 302
    sheet = client.get(f"/scores/{session_id}").text
    total_row = re.search(r'<tr class="total">(.*?)</tr>', sheet, re.DOTALL)
    assert total_row is not None
    assert re.findall(r"<td>([^<]*)</td>", total_row.group(1)) == ["−24", "−54", "+45", "+33"]
    place_row = re.search(r'<tr class="place">(.*?)</tr>', sheet, re.DOTALL)
    assert place_row is not None
    assert re.findall(r"<td>(\d)</td>", place_row.group(1)) == ["3", "4", "1", "2"]
    assert "Every game, round and the total balance" in sheet
    assert "Record game" not in sheet


def test_a_game_typed_as_tiles_totals_and_jokers_is_scored(client: FlaskClient) -> None:
    session_id = start(client, ("Ann", "Bob", "Cyd"))
    answer = record(client, session_id, "out", winner="Ann",
                    **lines({"1-rack": "R5 J", "2-total": "4", "2-jokers": "1"}))
    assert answer.status_code == 302
    sheet = client.get(f"/scores/{session_id}").text
    assert "+69" in sheet and "−35" in sheet and "−34" in sheet


def test_a_refused_rack_keeps_what_was_typed_and_names_the_tile(client: FlaskClient) -> None:
    session_id = start(client, ("Ann", "Bob"))
    answer = record(client, session_id, "out", winner="Ann", **lines({"1-rack": "R5 Q7"}))
    assert answer.status_code == 422
    assert "<code>Q7</code>" in answer.text and 'R5 Q7</textarea>' in answer.text
    third = record(client, session_id, "out", winner="Ann", **lines({"1-rack": "R5 R5 R5"}))
    assert third.status_code == 422 and "appears 3 times" in third.text
    with client.application.app_context():
        assert db.session.scalar(select(ScoreSession).where(ScoreSession.public_id == session_id)).games == []


def test_unbalanced_paper_scores_show_what_the_winner_should_score(client: FlaskClient) -> None:
    session_id = start(client, ("Ann", "Bob"))
    answer = record(client, session_id, "paper", **lines({"0-score": "12", "1-score": "-10"}))
    assert answer.status_code == 422
    assert "add up to +2" in answer.text and "should score +10" in answer.text
    assert 'value="12"' in answer.text
    garbled = record(client, session_id, "paper", **lines({"0-score": "1O", "1-score": "-10"}))
    assert garbled.status_code == 422 and "“1O” is not a score" in garbled.text
    # Python's int() reads "1_1" as 11: a score on paper is a sign and digits only
    underscored = record(client, session_id, "paper", **lines({"0-score": "1_1",
                                                               "1-score": "-11"}))
    assert underscored.status_code == 422 and "“1_1” is not a score" in underscored.text
    assert 'value="1_1"' in underscored.text


def test_a_tie_offers_fewest_tiles_and_the_table_names_the_winner(client: FlaskClient) -> None:
    session_id = start(client, ("Ann", "Bob"))
    racks = lines({"0-rack": "K3 K4", "1-rack": "R7"})
    tie = record(client, session_id, "exhausted", **racks)
    assert tie.status_code == 422
    assert "Fewest tiles would pick Bob" in tie.text
    assert 'name="tie_break" value="Ann"' in tie.text
    chosen = record(client, session_id, "exhausted", tie_break="Ann", **racks)
    assert chosen.status_code == 302
    assert "Ann won" in client.get(f"/scores/{session_id}/history").text


def test_another_phone_reads_but_cannot_write_until_it_opens_the_share_link(
        app: Flask, client: FlaskClient) -> None:
    session_id = start(client, ("Ann", "Bob"))
    sheet = client.get(f"/scores/{session_id}").text
    share = re.search(r'id="share-link" readonly value="([^"]+)"', sheet)
    assert share is not None
    other = app.test_client()
    assert other.get(f"/scores/{session_id}").status_code == 200
    assert "Record game" not in other.get(f"/scores/{session_id}").text
    assert other.get(f"/scores/{session_id}/games/new").status_code == 403
    assert record(other, session_id, "paper",
                  **lines({"0-score": "5", "1-score": "-5"})).status_code == 403
    assert other.get(f"/scores/{session_id}/join?key=wrong").status_code == 403
    assert other.get(share.group(1).replace("&amp;", "&")).status_code == 302
    assert record(other, session_id, "paper",
                  **lines({"0-score": "5", "1-score": "-5"})).status_code == 302
    view = client.get(f"/scores/{session_id}/view").text
    assert "Undo" not in view and "✎" not in view and "+5" in view


def test_every_page_another_phone_cannot_use_says_which_link_opens_it(
        app: Flask, client: FlaskClient) -> None:
    """The edit and delete pages said only "This phone cannot change this session."."""
    session_id = start(client, ("Ann", "Bob"))
    assert record(client, session_id, "paper",
                  **lines({"0-score": "5", "1-score": "-5"})).status_code == 302
    other = app.test_client()
    for page in ("games/new", "games/1/edit", "delete"):
        refused = other.get(f"/scores/{session_id}/{page}")
        assert refused.status_code == 403
        assert "open the “share to edit” link from a phone that can" in refused.text, page
    sheet = other.get(f"/scores/{session_id}").text
    assert "To record games on this phone, open the “share to edit” link" in sheet
    other.get("/language/de")
    assert "Um auf diesem Handy Spiele einzutragen" in other.get(f"/scores/{session_id}").text


def test_editing_and_undoing_games_from_the_sheet(client: FlaskClient) -> None:
    session_id = start(client, ("Ann", "Bob"))
    record(client, session_id, "out", winner="Ann", **lines({"1-rack": "K9"}))
    record(client, session_id, "out", winner="Bob", **lines({"0-rack": "K2"}))
    form = client.get(f"/scores/{session_id}/games/1/edit").text
    assert 'K9</textarea>' in form
    edited = client.post(f"/scores/{session_id}/games/1/edit",
                         data={"ending": "out", "winner": "Ann", **lines({"1-rack": "K10"})})
    assert edited.status_code == 302
    assert client.post(f"/scores/{session_id}/games/1/undo").status_code == 302
    assert client.post(f"/scores/{session_id}/games/2/undo").status_code == 302
    history = client.get(f"/scores/{session_id}/history").text
    assert "Bob −9 → −10" in history and "Game 2 undone" in history
    assert "Bob&#39;s rack K9 → K10" in history
    rows = list(csv.reader(io.StringIO(client.get(f"/scores/{session_id}/sheet.csv").text)))
    assert rows[0] == ["round", "game", "ending", "winner", "Ann", "Bob", "balanced"]
    assert rows[1] == ["1", "1", "out", "Ann", "10", "-10", "True"]
    assert len([row for row in rows if row[1].isdigit()]) == 1


def test_new_session_form_refuses_duplicate_names_and_keeps_them(client: FlaskClient) -> None:
    answer = client.post("/scores/new", data={"player_1": "Ann", "player_2": " ann ",
                                              "rounds": "2", "preset": "twist"})
    assert answer.status_code == 422
    assert "already playing" in answer.text and 'value=" ann "' in answer.text


def test_a_session_can_override_the_joker_penalty_and_be_deleted(client: FlaskClient) -> None:
    session_id = start(client, ("Ann", "Bob"), joker_penalty="20",
                       exhausted_pool="fewest_tiles")
    record(client, session_id, "out", winner="Ann", **lines({"1-rack": "J"}))
    assert "+20" in client.get(f"/scores/{session_id}").text
    assert "Delete this session?" in client.get(f"/scores/{session_id}/delete").text
    assert client.post(f"/scores/{session_id}/delete").status_code == 302
    assert client.get(f"/scores/{session_id}").status_code == 404
    assert "No sessions on this browser yet" in client.get("/scores/").text


def test_a_form_posted_without_its_csrf_token_is_refused(tmp_path: Path) -> None:
    app = create_app({"TESTING": True, "SECRET_KEY": "test", "WTF_CSRF_ENABLED": True,
                      "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'csrf.sqlite'}"})
    with app.app_context():
        db.create_all()
    answer = app.test_client().post("/scores/new", data={"player_1": "Ann", "player_2": "Bob",
                                                         "rounds": "1", "preset": "pressman"})
    assert answer.status_code == 400
    with app.app_context():
        assert db.session.query(ScoreSession).count() == 0
