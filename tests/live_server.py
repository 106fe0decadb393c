"""The real server for live tests and benchmarks, and a bounded threaded load against it.

``start_server`` is the one place that starts the app as a club would run it: migrate, then a
production server (Hypercorn around the app, as `companion serve` runs it) on 127.0.0.1. Tests and
``benchmarks/web.py`` go through it only, so pointing it at another command changes them all.

``run_writers`` is the load: writer threads recording games (each with an ``Idempotency-Key``)
into one shared session and into sessions of their own, optionally while another phone undoes
and redoes games in the shared session and readers read it. ``check_database`` then reads the
database itself and lists every way the stored state betrays what the server acknowledged.
"""

from __future__ import annotations

import http.client
import json
import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, text

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
ROUNDS = 50  # 200 games per session before it is complete


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class LiveServer:
    """A running server process; ``kill`` is ``kill -9``, ``restart`` starts it again."""

    database_url: str
    instance: Path
    threads: int
    app: str = "companion.web:create_app()"
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None

    @property
    def log(self) -> Path:
        return self.instance / "server.log"

    @property
    def environment(self) -> dict[str, str]:
        return {**os.environ, "DATABASE_URL": self.database_url,
                "COMPANION_INSTANCE": str(self.instance), "PYTHONUNBUFFERED": "1",
                "COMPANION_WSGI_APP": self.app, "COMPANION_THREADS": str(self.threads),
                "FLASK_DATABASE_POOL_SIZE": str(self.threads)}

    def command(self) -> list[str]:
        """Hypercorn with the app as ``companion serve`` wraps it (``companion.web.front``)."""
        return [sys.executable, "-m", "hypercorn", "-b", f"127.0.0.1:{self.port}",
                "--keep-alive", "10", "--backlog", "2048", "--log-level", "warning",
                "companion.web.front:serving_app()"]

    def migrate(self) -> None:
        subprocess.run([sys.executable, "-m", "flask", "--app", "companion.web", "db",
                        "upgrade"], env=self.environment, check=True, capture_output=True)

    def start(self) -> None:
        """Start the server and wait until it answers a request (the master listening is not
        enough: its worker may still be booting)."""
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(self.command(), env=self.environment, stdout=log,
                                            stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server stopped: {self.log.read_text()[-2000:]}")
            try:
                probe = http.client.HTTPConnection("127.0.0.1", self.port, timeout=5)
                probe.request("GET", "/api/v1/sessions")
                answered = probe.getresponse().status
                probe.close()
            except (OSError, http.client.HTTPException):
                time.sleep(0.1)
                continue
            if answered == 200:
                return
            time.sleep(0.1)
        raise RuntimeError("the server did not answer within 60 s")

    def kill(self) -> None:
        """``kill -9`` of the master and its workers: nothing gets to clean up. Returns once
        nothing listens on the port any more."""
        assert self.process is not None
        children = subprocess.run(["pgrep", "-P", str(self.process.pid)], check=False,
                                  capture_output=True, text=True).stdout.split()
        for pid in [self.process.pid, *map(int, children)]:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self.process.wait()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    time.sleep(0.1)
            except OSError:
                return

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.kill()

    def restart(self) -> None:
        self.start()


def start_server(database_url: str, instance: Path, *, threads: int = 8,
                 app: str = "companion.web:create_app()") -> LiveServer:
    """Migrate the database and serve the app with Hypercorn on 127.0.0.1, as serve does.

    ``app`` is the WSGI app the server loads (the benchmark adds a bare route to the real app)."""
    instance.mkdir(parents=True, exist_ok=True)
    server = LiveServer(database_url, instance, threads, app)
    server.migrate()
    server.start()
    return server


def kill_during_writes(server: LiveServer, *, writers: int, after_games: int,
                       seed: int = 9, timeout: float = 120) -> LoadReport:
    """Writers record games until ``after_games`` are acknowledged (and a random moment
    more), then the server gets ``kill -9``; it is restarted before this returns."""
    report, stop = LoadReport(), threading.Event()
    load = threading.Thread(target=run_writers, args=(server,), kwargs={
        "writers": writers, "seconds": 0, "undo": False, "readers": 0, "stop_event": stop,
        "seed": seed, "report": report})
    load.start()
    deadline = time.monotonic() + timeout
    while len(report.acknowledged) < after_games and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(random.Random(seed).uniform(0, 0.5))
    server.kill()
    stop.set()
    load.join()
    server.restart()
    return report


@contextmanager
def served(database_url: str, instance: Path, *, threads: int = 8,
           app: str = "companion.web:create_app()") -> Iterator[LiveServer]:
    server = start_server(database_url, instance, threads=threads, app=app)
    try:
        yield server
    finally:
        server.stop()


# Talking to it ---------------------------------------------------------------------------------

class Client:
    """One phone: a kept-alive HTTP connection, reconnecting after a failure."""

    def __init__(self, server: LiveServer, timeout: float = 60) -> None:
        self.server, self.timeout = server, timeout
        self.connection: http.client.HTTPConnection | None = None

    def request(self, method: str, path: str, body: Any = None,
                headers: dict[str, str] | None = None) -> tuple[int, Any]:
        if self.connection is None:
            self.connection = http.client.HTTPConnection("127.0.0.1", self.server.port,
                                                         timeout=self.timeout)
        payload = None if body is None else json.dumps(body)
        sent = {"Content-Type": "application/json", **(headers or {})}
        try:
            self.connection.request(method, path, body=payload, headers=sent)
            answer = self.connection.getresponse()
            raw = answer.read()
        except (OSError, http.client.HTTPException):
            self.connection.close()
            self.connection = None
            raise
        try:
            decoded = json.loads(raw) if raw else None
        except ValueError:
            decoded = raw.decode(errors="replace")
        return answer.status, decoded


def new_session(client: Client) -> tuple[str, dict[str, str]]:
    status, body = client.request("POST", "/api/v1/sessions",
                                  {"players": PLAYERS, "rounds": ROUNDS})
    assert status == 201, (status, body)
    return body["id"], {"Authorization": f"Bearer {body['edit_key']}"}


def random_game(rng: random.Random) -> dict[str, Any]:
    losers = [rng.randint(0, 40) for _ in PLAYERS[1:]]
    winner = rng.randrange(len(PLAYERS))
    scores = dict.fromkeys(PLAYERS, 0)
    others = [name for i, name in enumerate(PLAYERS) if i != winner]
    for name, points in zip(others, losers, strict=True):
        scores[name] = -points
    scores[PLAYERS[winner]] = sum(losers)
    if not sum(losers):
        scores[others[0]], scores[PLAYERS[winner]] = -1, sum(losers) + 1
    return {"ending": "paper", "scores": scores}


@dataclass
class Acknowledged:
    """A write the server answered with 2xx: its key, session, and the game it stored."""

    key: str
    session_id: str
    number: int
    scores: dict[str, int]


@dataclass
class LoadReport:
    statuses: Counter[int] = field(default_factory=Counter)
    acknowledged: list[Acknowledged] = field(default_factory=list)
    unanswered: list[tuple[str, dict[str, str], dict[str, Any], str]] = field(
        default_factory=list)
    """Writes that got no answer (the server was killed): session, auth, body, key."""
    server_errors: list[str] = field(default_factory=list)
    reads: int = 0
    seconds: float = 0.0
    shared_sessions: set[str] = field(default_factory=set)
    lock = threading.Lock()

    @property
    def writes_per_second(self) -> float:
        return len(self.acknowledged) / self.seconds if self.seconds else 0.0


def run_writers(server: LiveServer, *, writers: int, seconds: float, undo: bool = True,
                readers: int = 1, stop_event: threading.Event | None = None,
                seed: int = 9, report: LoadReport | None = None) -> LoadReport:
    """Writers record games for ``seconds`` (half into one shared session, half into their
    own); with ``undo`` another phone undoes and redoes games of the shared session meanwhile,
    and ``readers`` read it. A full session is replaced by a new one. With ``stop_event`` the
    load runs until it is set, and ``report`` (if given) shows the progress meanwhile."""
    report = report or LoadReport()
    stop = stop_event or threading.Event()
    setup = Client(server)
    for attempt in range(50):  # a server that has just been restarted may still be booting
        try:
            shared = [new_session(setup)]
            break
        except (OSError, http.client.HTTPException):
            if attempt == 49:
                raise
            time.sleep(0.2)
    report.shared_sessions.add(shared[0][0])
    shared_lock = threading.Lock()

    def note(status: int, body: Any, where: str) -> None:
        with report.lock:
            report.statuses[status] += 1
            if status >= 500:
                report.server_errors.append(f"{where}: {status} {str(body)[:300]}")

    def writer(index: int) -> None:
        rng = random.Random(seed * 1000 + index)
        phone = Client(server)
        try:
            own = new_session(phone)
        except (OSError, http.client.HTTPException):
            return  # the server was killed before this phone started
        while not stop.is_set():
            use_shared = rng.random() < 0.5
            session_id, auth = shared[0] if use_shared else own
            body, key = random_game(rng), uuid.uuid4().hex
            try:
                status, answer = phone.request("POST", f"/api/v1/sessions/{session_id}/games",
                                               body, {**auth, "Idempotency-Key": key})
            except (OSError, http.client.HTTPException):
                with report.lock:
                    report.unanswered.append((session_id, auth, body, key))
                if stop.is_set():
                    return
                time.sleep(0.05)
                continue
            note(status, answer, "record")
            if 200 <= status < 300:
                with report.lock:
                    report.acknowledged.append(
                        Acknowledged(key, session_id, answer["number"], answer["scores"]))
            elif status == 409 and "complete" in str(answer):
                if use_shared:
                    with shared_lock:
                        if shared[0][0] == session_id:
                            try:
                                shared[0] = new_session(phone)
                            except (OSError, http.client.HTTPException):
                                continue
                            report.shared_sessions.add(shared[0][0])
                else:
                    try:
                        own = new_session(phone)
                    except (OSError, http.client.HTTPException):
                        continue

    def undoer() -> None:
        rng = random.Random(seed)
        phone = Client(server)
        while not stop.is_set():
            session_id, auth = shared[0]
            try:
                status, body = phone.request("GET", f"/api/v1/sessions/{session_id}")
                note(status, body, "read before undo")
                if status == 200 and body["games"]:
                    last = body["games"][-1]["number"]
                    status, body = phone.request(
                        "DELETE", f"/api/v1/sessions/{session_id}/games/{last}", None, auth)
                    note(status, body, "undo")
                    if rng.random() < 0.7:
                        status, body = phone.request(
                            "POST", f"/api/v1/sessions/{session_id}/redo", None, auth)
                        note(status, body, "redo")
            except (OSError, http.client.HTTPException):
                if stop.is_set():
                    return
            time.sleep(0.02)

    def reader() -> None:
        phone = Client(server)
        while not stop.is_set():
            session_id, _auth = shared[0]
            try:
                for path in (f"/api/v1/sessions/{session_id}", f"/scores/{session_id}",
                             f"/scores/{session_id}/view"):
                    status, body = phone.request("GET", path)
                    note(status, body, f"read {path}")
                    with report.lock:
                        report.reads += 1
            except (OSError, http.client.HTTPException):
                if stop.is_set():
                    return

    threads = [threading.Thread(target=writer, args=(i,)) for i in range(writers)]
    if undo:
        threads.append(threading.Thread(target=undoer))
    threads += [threading.Thread(target=reader) for _ in range(readers)]
    began = time.monotonic()
    for thread in threads:
        thread.start()
    if stop_event is None:
        stop.wait(seconds)
        stop.set()
    for thread in threads:
        thread.join()
    report.seconds = time.monotonic() - began
    return report


# Checking what was stored ----------------------------------------------------------------------

def check_database(database_url: str, report: LoadReport) -> list[str]:
    """Every way the stored state disagrees with what was acknowledged; empty when all is well.

    Stored once: each acknowledged key is in the history exactly once. Present: a game
    acknowledged in a session nobody undid from is stored with its number and scores; in the
    shared sessions the stored games are exactly what the history says (records, undos,
    redos applied in order). No number twice, no gap, every game whole and balanced.
    """
    problems: list[str] = []
    engine = create_engine(database_url)
    with engine.connect() as connection:
        if engine.dialect.name == "sqlite":
            verdict = connection.exec_driver_sql("PRAGMA integrity_check").scalar()
            if verdict != "ok":
                problems.append(f"integrity_check: {verdict}")
        sessions = dict(connection.execute(text("SELECT public_id, id FROM score_session")).all())
        players = {row[0]: row[1] for row in connection.execute(text(
            "SELECT id, name FROM score_player"))}
        games: dict[int, dict[int, dict[str, int]]] = {}
        for session_id, number, player_id, score in connection.execute(text(
                "SELECT g.session_id, g.number, e.player_id, e.score FROM score_game g "
                "JOIN score_game_entry e ON e.game_id = g.id")):
            games.setdefault(session_id, {}).setdefault(number, {})[players[player_id]] = score
        stored_games = connection.execute(text(
            "SELECT session_id, number FROM score_game")).all()
        keys = Counter(row[0] for row in connection.execute(text(
            "SELECT idempotency_key FROM score_game_change WHERE idempotency_key IS NOT NULL")))
        history: dict[int, list[tuple[str, int, Any]]] = {}
        for session_id, action, number, after in connection.execute(text(
                "SELECT session_id, action, game_number, after FROM score_game_change "
                "ORDER BY id")):
            history.setdefault(session_id, []).append(
                (action, number, json.loads(after) if isinstance(after, str) else after))
    engine.dispose()

    numbers = Counter(stored_games)
    problems += [f"game number stored twice: {pair}" for pair, n in numbers.items() if n > 1]
    for session_id, by_number in games.items():
        if sorted(by_number) != list(range(1, len(by_number) + 1)):
            problems.append(f"session {session_id}: game numbers {sorted(by_number)}")
        for number, scores in by_number.items():
            if len(scores) != len(PLAYERS) or sum(scores.values()) != 0:
                problems.append(f"session {session_id} game {number} is not whole and "
                                f"balanced: {scores}")
    if len(stored_games) != sum(len(by_number) for by_number in games.values()):
        problems.append("a game is stored without its scores")
    for ack in report.acknowledged:
        if keys[ack.key] != 1:
            problems.append(f"acknowledged write {ack.key} is in the history {keys[ack.key]} "
                            "times")
        internal = sessions.get(ack.session_id)
        if internal is None:
            problems.append(f"session {ack.session_id} of an acknowledged game is gone")
        elif (ack.session_id not in report.shared_sessions
              and games.get(internal, {}).get(ack.number) != ack.scores):
            problems.append(f"acknowledged game {ack.number} of {ack.session_id} is missing "
                            f"or different: {games.get(internal, {}).get(ack.number)}")
    for public_id in report.shared_sessions:
        internal = sessions[public_id]
        replayed: dict[int, dict[str, int]] = {}
        for action, number, after in history.get(internal, []):
            if action == "undone":
                replayed.pop(number, None)
            else:
                replayed[number] = after["scores"]
        if replayed != games.get(internal, {}):
            problems.append(f"shared session {public_id}: stored games differ from its history")
    return problems
