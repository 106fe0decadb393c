"""The event stream through a real threaded server: several phones, each on its own
connection, all told of a game recorded from another one.

The SQLite poll between processes is set to 30 s here, so a game that arrives sooner was
announced by the server process that recorded it (``companion/web/live/hub.py``); PostgreSQL's
NOTIFY, which carries writes between server processes, is proven by tests/postgres."""

from __future__ import annotations

import json
import threading
import time
import urllib.request
from pathlib import Path

from werkzeug.serving import make_server

from companion.web import create_app
from companion.web.extensions import db
from tests.golden import GOLDEN_AS_PLAYED
from tests.sse import HttpStream


def api(base: str, path: str, body: dict[str, object] | None = None,
        key: str | None = None) -> dict[str, object]:
    request = urllib.request.Request(base + path, method="GET" if body is None else "POST",
                                     data=None if body is None else json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    if key:
        request.add_header("Authorization", f"Bearer {key}")
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read())


def test_every_open_stream_on_a_threaded_server_is_woken_by_the_game_another_phone_records(
        tmp_path: Path) -> None:
    app = create_app({"SECRET_KEY": "live",
                      "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'companion.sqlite'}",
                      "LIVE_STREAM_SECONDS": 20, "LIVE_POLL_SECONDS": 30})
    with app.app_context():
        db.create_all()
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_port}"
    streams: list[HttpStream] = []
    try:
        created = api(base, "/api/v1/sessions", {"players": ["A", "B", "C", "D"], "rounds": 1})
        path = f"/api/v1/sessions/{created['id']}/events"
        streams = [HttpStream("127.0.0.1", server.server_port, path) for _phone in range(3)]
        for stream in streams:
            assert stream.response.status == 200
            assert stream.response.getheader("Content-Type", "").startswith("text/event-stream")
            assert stream.next_game()[1]["games_played"] == 0

        for number, body in enumerate(GOLDEN_AS_PLAYED[:2], start=1):
            recorded_at = time.monotonic()
            api(base, f"/api/v1/sessions/{created['id']}/games", body, str(created["edit_key"]))
            for stream in streams:
                arrived, state = stream.next_game()
                assert state["games_played"] == number
                assert state["games"][-1]["number"] == number
                print(f"game {number} reached a phone {arrived - recorded_at:.2f} s after it "
                      "was acknowledged")
    finally:
        for stream in streams:
            stream.close()
        server.shutdown()
