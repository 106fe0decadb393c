"""Two phones at once, for real: the app served as `companion serve` serves it (Hypercorn) on
a SQLite file, several writers at the same time, and a ``kill -9`` of the server in the middle
of the writes.

Small sizes for CI (a few writers, a few seconds, one kill); ``benchmarks/web.py`` runs the
same load at full size (32 writers, 60 s, ten kills) and PostgreSQL's variant is in
``tests/postgres``.
"""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from tests.live_server import (
    Acknowledged,
    Client,
    check_database,
    kill_during_writes,
    run_writers,
    served,
)


def test_writers_at_once_are_each_stored_once_with_no_5xx_and_no_locked_database(
        tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'live.sqlite'}"
    with served(url, tmp_path / "instance") as server:
        report = run_writers(server, writers=4, seconds=3, undo=True, readers=1)
    print(f"{len(report.acknowledged)} games acknowledged, {report.reads} reads, "
          f"statuses {dict(report.statuses)}")
    assert len(report.acknowledged) >= 20, report.statuses
    assert report.server_errors == []
    assert "database is locked" not in server.log.read_text()
    assert check_database(url, report) == []


def test_a_kill_9_during_writes_loses_no_acknowledged_game(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'kill.sqlite'}"
    with served(url, tmp_path / "instance") as server:
        report = kill_during_writes(server, writers=4, after_games=15)
        assert len(report.acknowledged) >= 15 and report.server_errors == []
        assert check_database(url, report) == []
        # What got no answer is sent again with the same key: at most one game each.
        phone = Client(server)
        for session_id, auth, body, key in report.unanswered:
            status, answer = phone.request("POST", f"/api/v1/sessions/{session_id}/games",
                                           body, {**auth, "Idempotency-Key": key})
            assert status in (200, 201), (status, answer)
            report.acknowledged.append(
                Acknowledged(key, session_id, answer["number"], answer["scores"]))
    assert check_database(url, report) == []
    assert "database is locked" not in server.log.read_text()


def test_phones_adding_the_same_round_at_once_add_it_once(tmp_path: Path) -> None:
    """Six phones tap "Add a round" for the same round at the same moment: one adds it, the
    others are told it was added (409), and the session has one round more, not six."""
    url = f"sqlite:///{tmp_path / 'rounds.sqlite'}"
    with served(url, tmp_path / "instance") as server:
        status, created = Client(server).request("POST", "/api/v1/sessions",
                                                 {"players": ["Ann", "Bob"], "rounds": 2})
        assert status == 201, created
        session_id, auth = created["id"], {"Authorization": f"Bearer {created['edit_key']}"}
        number = 3
        phones = [Client(server) for _ in range(6)]
        start = threading.Barrier(len(phones))

        def tap(phone: Client) -> int:
            start.wait()
            status, _ = phone.request("POST", f"/api/v1/sessions/{session_id}/rounds",
                                      {"number": number}, auth)
            return status

        with ThreadPoolExecutor(len(phones)) as pool:
            statuses = sorted(pool.map(tap, phones))
        _, after = Client(server).request("GET", f"/api/v1/sessions/{session_id}")
    assert statuses == [200] + [409] * 5
    assert after["rounds"] == number
