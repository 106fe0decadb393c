"""Two `companion serve` processes on one PostgreSQL database, as two machines behind a reverse
proxy would run: a game recorded through one reaches the live streams held by the other.

The streams ask the database nothing on their own: the write's NOTIFY, heard by the other
server's one listening connection, is what wakes them (companion/web/live/hub.py)."""

from __future__ import annotations

import sys
from pathlib import Path

from tests.golden import GOLDEN_AS_PLAYED
from tests.postgres.conftest import PostgresCluster
from tests.serving import server_environment, serving
from tests.sse import HttpStream
from tests.web.test_live_server import api


def test_a_game_recorded_through_one_server_reaches_a_stream_on_the_other(
        tmp_path: Path, postgres: PostgresCluster, migrated_template: str) -> None:
    url = postgres.url(postgres.create_database(template=migrated_template), scheme="postgresql")
    command = [sys.executable, "-m", "companion", "serve", "--threads", "3"]
    settings = {"DATABASE_URL": url, "SECRET_KEY": "s" * 64}
    with serving(command, environment=server_environment(COMPANION_INSTANCE=str(tmp_path / "a"),
                                                         **settings),
                 log=tmp_path / "a.log", cwd=tmp_path) as writer, \
            serving(command, environment=server_environment(
                COMPANION_INSTANCE=str(tmp_path / "b"), **settings),
                log=tmp_path / "b.log", cwd=tmp_path) as other:
        created = api(writer.url, "/api/v1/sessions", {"players": ["A", "B", "C", "D"]})
        path = f"/api/v1/sessions/{created['id']}/events"
        streams = [HttpStream("127.0.0.1", int(server.url.rsplit(":", 1)[1]), path)
                   for server in (other, other, writer)]
        try:
            for stream in streams:
                assert stream.next_game()[1]["games_played"] == 0
            for number, body in enumerate(GOLDEN_AS_PLAYED[:3], start=1):
                api(writer.url, f"/api/v1/sessions/{created['id']}/games", body,
                    str(created["edit_key"]))
                for stream in streams:
                    assert stream.next_game()[1]["games_played"] == number
        finally:
            for stream in streams:
                stream.close()
    for log in (writer.log_text(), other.log_text()):
        assert "Traceback" not in log
