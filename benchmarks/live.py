"""Benchmark of the live stream: how soon every listening phone hears of a game, and what the
version check that every stream runs twice a second costs the database.

    .venv/bin/python -m benchmarks.live [--phones 50] [--games 12] [--across-processes]

A real threaded server on 127.0.0.1 with an SQLite file in a temp folder; the phones are
threads reading real connections. Games are recorded through the same server process (its
streams are woken at once), or with ``--across-processes`` through a second server process on
the same database file (the streams learn of them by their version check). The version check is timed against a yardstick measured in
the same run: a bare ``SELECT 1`` through the same SQLAlchemy session.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import timeit
from pathlib import Path

from werkzeug.serving import make_server

from companion.web import create_app
from companion.web.extensions import db
from tests.golden import GOLDEN_AS_PLAYED
from tests.postgres.test_live_postgresql import SERVE
from tests.sse import HttpStream
from tests.web.test_live_server import api


def version_check_cost(app: object, session_id: str) -> tuple[float, float]:
    """Median µs of one version check and of a bare SELECT 1, in one app context each."""
    from sqlalchemy import text

    from companion.web.live.state import session_version

    with app.app_context():  # type: ignore[attr-defined]
        def check() -> None:
            session_version(session_id)
            db.session.rollback()

        def yardstick() -> None:
            db.session.execute(text("SELECT 1"))
            db.session.rollback()

        results = []
        for function in (check, yardstick):
            timer = timeit.Timer(function)
            loops, _ = timer.autorange()
            results.append(statistics.median(timer.repeat(5, loops)) / loops * 1e6)
    return results[0], results[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--phones", type=int, default=50)
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--across-processes", action="store_true")
    arguments = parser.parse_args()

    folder = Path(tempfile.mkdtemp(prefix="companion-live-"))
    app = create_app({"SECRET_KEY": "bench", "LIVE_STREAM_SECONDS": 600,
                      "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / 'companion.sqlite'}"})
    with app.app_context():
        db.create_all()
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = writer = f"http://127.0.0.1:{server.server_port}"
    other_process = None
    if arguments.across_processes:
        other_process = subprocess.Popen(
            [sys.executable, "-c", SERVE, app.config["SQLALCHEMY_DATABASE_URI"]],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        assert other_process.stdout is not None
        writer = f"http://127.0.0.1:{int(other_process.stdout.readline())}"
    rounds = -(-arguments.games // 4)
    created = api(base, "/api/v1/sessions", {"players": ["A", "B", "C", "D"], "rounds": rounds})
    path = f"/api/v1/sessions/{created['id']}/events"
    phones = [HttpStream("127.0.0.1", server.server_port, path) for _ in range(arguments.phones)]
    for phone in phones:
        phone.next_game()

    delays: list[float] = []
    for number in range(1, arguments.games + 1):
        body = GOLDEN_AS_PLAYED[(number - 1) % len(GOLDEN_AS_PLAYED)]
        api(writer, f"/api/v1/sessions/{created['id']}/games", body, str(created["edit_key"]))
        acknowledged = time.monotonic()
        for phone in phones:
            arrived, state = phone.next_game()
            assert state["games_played"] == number
            delays.append(arrived - acknowledged)
    for phone in phones:
        phone.close()
    server.shutdown()
    if other_process is not None:
        other_process.terminate()
        other_process.wait()

    check, yardstick = version_check_cost(app, created["id"])
    delays.sort()
    where = "another server process" if arguments.across_processes else "the same process"
    print(f"{arguments.phones} phones, {arguments.games} games recorded through {where}, "
          f"version check every {app.config.get('LIVE_POLL_SECONDS', 0.5)} s")
    print(f"game acknowledged -> event on a phone: median {statistics.median(delays):.3f} s, "
          f"95th percentile {delays[int(len(delays) * 0.95) - 1]:.3f} s, max {delays[-1]:.3f} s")
    print(f"version check: {check:.0f} µs; SELECT 1: {yardstick:.0f} µs "
          f"(ratio {check / yardstick:.1f})")
    print(f"database load of {arguments.phones} idle phones: {arguments.phones * 2} version "
          f"checks a second, {arguments.phones * 2 * check / 1e6:.1%} of one core")


if __name__ == "__main__":
    main()
