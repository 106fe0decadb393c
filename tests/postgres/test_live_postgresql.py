"""Live updates with PostgreSQL behind several server processes: a phone listening to one
server process hears of a game written through another (no shared memory between them)."""

from __future__ import annotations

import subprocess
import sys

from flask import Flask
from flask.testing import FlaskClient

from tests.golden import GOLDEN_AS_PLAYED
from tests.sse import HttpStream

SERVE = """
import sys
from werkzeug.serving import make_server
from companion.web import create_app
app = create_app({"SECRET_KEY": "live", "SQLALCHEMY_DATABASE_URI": sys.argv[1],
                  "LIVE_STREAM_SECONDS": 20})
server = make_server("127.0.0.1", 0, app, threaded=True)
print(server.server_port, flush=True)
server.serve_forever()
"""


def test_a_stream_from_one_server_process_hears_a_game_written_through_another(
        app: Flask, client: FlaskClient) -> None:
    created = client.post("/api/v1/sessions", json={"players": ["A", "B", "C", "D"]}).json
    other_process = subprocess.Popen(
        [sys.executable, "-c", SERVE, app.config["SQLALCHEMY_DATABASE_URI"]],
        stdout=subprocess.PIPE, text=True)
    stream = None
    try:
        assert other_process.stdout is not None
        port = int(other_process.stdout.readline())
        stream = HttpStream("127.0.0.1", port, f"/api/v1/sessions/{created['id']}/events")
        assert stream.next_game()[1]["games_played"] == 0
        for number, body in enumerate(GOLDEN_AS_PLAYED, start=1):
            answer = client.post(f"/api/v1/sessions/{created['id']}/games", json=body,
                                 headers={"Authorization": f"Bearer {created['edit_key']}"})
            assert answer.status_code == 201
            state = stream.next_game()[1]
            assert state["games_played"] == number
        assert state["complete"] is True
    finally:
        if stream is not None:
            stream.close()
        other_process.terminate()
        other_process.wait(timeout=10)
