"""Benchmark of the served app: throughput against a yardstick, writers at once, kills.

    .venv/bin/python -m benchmarks.web            # full size: 32 writers, 60 s, ten kills
    .venv/bin/python -m benchmarks.web --quick    # a smoke run of every part

Everything runs against the real server (Hypercorn around the app, started by
``tests.live_server.start_server``) on 127.0.0.1, with a bounded threaded client on the same
machine. Throughput is reported as a ratio to a bare route that returns a short string, served
by the same server in the same run, so the figures compare across machines.

1. Throughput: the score sheet page and the session JSON of a 4-player, 16-game session, and
   ``POST /api/v1/check``, each as a share of the bare route's requests per second.
2. Writers at once, on SQLite and on PostgreSQL: writers record games into one shared session
   and into their own while another phone undoes and redoes and a reader reads; then every
   acknowledged game is checked in the database (stored once, no number twice, balanced).
3. Kills: the server ``kill -9``-ed at random moments during writes, restarted, checked
   (``PRAGMA integrity_check``, every acknowledged game present, none half-written).
"""

from __future__ import annotations

import argparse
import random
import shutil
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from flask import Flask

from tests.live_server import (
    PLAYERS,
    Client,
    LiveServer,
    check_database,
    kill_during_writes,
    random_game,
    run_writers,
    served,
)

BARE_APP = "benchmarks.web:app_with_bare_route()"


def app_with_bare_route() -> Flask:
    """The real app plus the yardstick: a route that returns a short string."""
    from companion.web import create_app

    app = create_app()
    app.add_url_rule("/bench/bare", "bench_bare", lambda: "ok")
    return app


def throughput(server: LiveServer, method: str, path: str, body: Any = None, *,
               clients: int, seconds: float) -> float:
    """Requests per second answered 2xx by ``clients`` kept-alive connections."""
    stop = threading.Event()
    counts = [0] * clients
    failures: list[str] = []

    def client(index: int) -> None:
        phone = Client(server)
        while not stop.is_set():
            status, answer = phone.request(method, path, body)
            if 200 <= status < 300:
                counts[index] += 1
            else:
                failures.append(f"{status} {str(answer)[:200]}")
                return

    threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
    for thread in threads:
        thread.start()
    began = time.monotonic()
    time.sleep(seconds)
    stop.set()
    for thread in threads:
        thread.join()
    if failures:
        raise RuntimeError(f"{method} {path}: {failures[0]}")
    return sum(counts) / (time.monotonic() - began)


def sixteen_game_session(server: LiveServer) -> str:
    phone = Client(server)
    status, created = phone.request("POST", "/api/v1/sessions",
                                    {"players": PLAYERS, "rounds": 4})
    assert status == 201, created
    auth = {"Authorization": f"Bearer {created['edit_key']}"}
    rng = random.Random(16)
    for _ in range(16):
        status, answer = phone.request("POST", f"/api/v1/sessions/{created['id']}/games",
                                       random_game(rng), auth)
        assert status == 201, answer
    return str(created["id"])


def measure_throughput(folder: Path, *, seconds: float, clients: int) -> list[str]:
    url = f"sqlite:///{folder / 'throughput.sqlite'}"
    lines = []
    with served(url, folder / "throughput", app=BARE_APP) as server:
        session_id = sixteen_game_session(server)
        routes = [("bare route (yardstick)", "GET", "/bench/bare", None),
                  ("score sheet page, 4 players x 16 games", "GET", f"/scores/{session_id}",
                   None),
                  ("session JSON, 4 players x 16 games", "GET",
                   f"/api/v1/sessions/{session_id}", None),
                  ("check API, a 3-set table", "POST", "/api/v1/check",
                   {"table": "R5 R6 R7 | K9 B9 O9 | J B12 B13"})]
        for _name, method, path, body in routes:  # warm up every route once
            throughput(server, method, path, body, clients=2, seconds=0.5)
        bare = routes[0]
        # The machine is shared, so its speed drifts: each route is measured in turns with the
        # bare route, three times, and compared with the bare route's turns beside it.
        for name, method, path, body in routes[1:]:
            route_rates, bare_rates = [], []
            for _turn in range(3):
                bare_rates.append(throughput(server, *bare[1:], clients=clients,
                                             seconds=seconds / 3))
                route_rates.append(throughput(server, method, path, body, clients=clients,
                                              seconds=seconds / 3))
            rate, yardstick = sum(route_rates) / 3, sum(bare_rates) / 3
            lines.append(f"{name:42} {rate:6.0f} req/s; bare route beside it {yardstick:6.0f} "
                         f"req/s: {rate / yardstick:4.0%}")
    return lines


def measure_writers(url: str, folder: Path, *, writers: int, seconds: float) -> list[str]:
    with served(url, folder) as server:
        report = run_writers(server, writers=writers, seconds=seconds, undo=True, readers=2)
        problems = check_database(url, report)
        locked = "database is locked" in server.log.read_text()
    five_xx = sum(n for status, n in report.statuses.items() if status >= 500)
    summary = (f"{writers} writers for {seconds:.0f} s: {len(report.acknowledged)} games "
               f"acknowledged ({report.writes_per_second:.0f}/s), {report.reads} page and JSON "
               f"reads; answers {dict(sorted(report.statuses.items()))}; 5xx: {five_xx}; "
               f"'database is locked': {'yes' if locked else 'no'}; problems found: "
               f"{len(problems)}")
    return [summary, *problems[:10]]


def measure_kills(url: str, folder: Path, *, kills: int, writers: int) -> list[str]:
    """Each kill comes at a random moment: after a random number of acknowledged games."""
    rng = random.Random(10)
    acknowledged = unanswered = 0
    problems: list[str] = []
    with served(url, folder) as server:
        for round_number in range(kills):
            report = kill_during_writes(server, writers=writers,
                                        after_games=rng.randint(5, 120), seed=round_number)
            acknowledged += len(report.acknowledged)
            unanswered += len(report.unanswered)
            problems += [f"kill {round_number + 1}: {problem}"
                         for problem in check_database(url, report)]
            problems += [f"kill {round_number + 1}: {error}" for error in report.server_errors]
        locked = "database is locked" in server.log.read_text()
    summary = (f"{kills} kills (kill -9) at random moments during {writers} writers: "
               f"{acknowledged} games acknowledged, {unanswered} writes cut off unanswered; "
               f"'database is locked': {'yes' if locked else 'no'}; problems found after the "
               f"restarts: {len(problems)}")
    return [summary, *problems[:10]]


@contextmanager
def postgres_database() -> Iterator[str | None]:
    """A throwaway PostgreSQL cluster (as the tests make it), or None without PostgreSQL."""
    import contextlib

    from tests.postgres import conftest

    if conftest.postgres_bin_dir() is None:
        yield None
        return
    cluster_fixture = conftest.postgres.__wrapped__()  # type: ignore[attr-defined]
    cluster = next(cluster_fixture)
    try:
        yield cluster.url(cluster.create_database())
    finally:
        with contextlib.suppress(StopIteration):
            next(cluster_fixture)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run of every part")
    parser.add_argument("--only", choices=["throughput", "writers", "kills"])
    arguments = parser.parse_args()
    quick = arguments.quick
    folder = Path(tempfile.mkdtemp(prefix="companion-bench-"))
    try:
        if arguments.only in (None, "throughput"):
            print("Throughput (Hypercorn, 1 worker x 8 threads, SQLite):")
            for line in measure_throughput(folder, seconds=2 if quick else 10, clients=8):
                print("  " + line)
        writers, seconds, kills = (4, 3, 1) if quick else (32, 60, 10)
        if arguments.only in (None, "writers"):
            print("Writers at once, SQLite:")
            for line in measure_writers(f"sqlite:///{folder / 'writers.sqlite'}",
                                        folder / "writers", writers=writers, seconds=seconds):
                print("  " + line)
            with postgres_database() as url:
                print("Writers at once, PostgreSQL:")
                if url is None:
                    print("  skipped: PostgreSQL's initdb/pg_ctl are missing (make postgres)")
                else:
                    for line in measure_writers(url, folder / "pg-writers", writers=writers,
                                                seconds=seconds):
                        print("  " + line)
        if arguments.only in (None, "kills"):
            print("Kills, SQLite:")
            for line in measure_kills(f"sqlite:///{folder / 'kills.sqlite'}", folder / "kills",
                                      kills=kills, writers=writers):
                print("  " + line)
            with postgres_database() as url:
                print("Kills, PostgreSQL:")
                if url is None:
                    print("  skipped: PostgreSQL is missing")
                else:
                    for line in measure_kills(url, folder / "pg-kills", kills=kills,
                                              writers=writers):
                        print("  " + line)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
