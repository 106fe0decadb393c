"""Helpers of the group tests: a generated group played through the real JSON API."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import update

from companion.web.extensions import db
from companion.web.models import ScoreSession
from tests.generated_group import Evening


@dataclass
class PlayedGroup:
    id: str
    key: str
    session_ids: list[str]


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def new_group(client: FlaskClient, name: str = "Thursday club") -> tuple[str, str]:
    answer = client.post("/api/v1/groups", json={"name": name})
    assert answer.status_code == 201, answer.json
    return answer.json["id"], answer.json["edit_key"]


def play_group(app: Flask, client: FlaskClient, evenings: list[Evening],
               today: datetime | None = None) -> PlayedGroup:
    """Every evening through the API, then each session's start moved to its day."""
    group_id, group_key = new_group(client)
    today = today or datetime.now().replace(hour=20, minute=0, second=0, microsecond=0)
    session_ids = []
    for evening in evenings:
        answer = client.post("/api/v1/sessions", headers=bearer(group_key), json={
            "players": evening.players, "rounds": evening.rounds, "group": group_id})
        assert answer.status_code == 201, answer.json
        session_id, key = answer.json["id"], answer.json["edit_key"]
        for body in evening.games:
            recorded = client.post(f"/api/v1/sessions/{session_id}/games", json=body,
                                   headers=bearer(key))
            assert recorded.status_code == 201, (body, recorded.json)
        session_ids.append(session_id)
    with app.app_context():
        for session_id, evening in zip(session_ids, evenings, strict=True):
            db.session.execute(update(ScoreSession).where(ScoreSession.public_id == session_id)
                               .values(created_at=today - timedelta(days=evening.days_ago)))
        db.session.commit()
    return PlayedGroup(group_id, group_key, session_ids)


def sessions_as_served(client: FlaskClient, session_ids: list[str]) -> list[dict[str, Any]]:
    sheets = []
    for session_id in session_ids:
        answer = client.get(f"/api/v1/sessions/{session_id}")
        assert answer.status_code == 200
        sheets.append(answer.json)
    return sheets
