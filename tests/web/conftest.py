"""Fixtures for the web layer: the real app on a real SQLite file in a temp folder."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner

from companion.web import create_app
from companion.web.extensions import db


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    app = create_app({
        "TESTING": True,
        "SECRET_KEY": "test",
        "WTF_CSRF_ENABLED": False,
        "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'companion.sqlite'}",
    })
    with app.app_context():
        db.create_all()
    yield app


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def runner(app: Flask) -> FlaskCliRunner:
    return app.test_cli_runner()


def start_page(client: FlaskClient, *names: str, rounds: int = 2) -> str:
    """A Pressman session started on the new-session page (Ann and Bob unless ``names``); its
    public id."""
    seats = {f"player_{i}": name for i, name in enumerate(names or ("Ann", "Bob"), start=1)}
    answer = client.post("/scores/new", data={**seats, "rounds": rounds, "preset": "pressman"})
    assert answer.status_code == 302, answer.text
    return answer.location.rsplit("/", 1)[1]
