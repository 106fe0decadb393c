"""`companion serve`: Hypercorn in another process, the database migrated first, every page."""

from __future__ import annotations

import re
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from flask import Flask

import companion
from companion.web import create_app
from tests.every_page import HttpBrowser, visit_every_page
from tests.serving import free_port, server_environment, serving
from tests.sse import HttpStream
from tests.web.test_live_server import api

COMPANION = [sys.executable, "-m", "companion"]


@pytest.fixture(scope="module")
def url_map_app(tmp_path_factory: pytest.TempPathFactory) -> Flask:
    """The app as the server builds it, for its list of pages (no database needed)."""
    folder = tmp_path_factory.mktemp("url-map")
    return create_app({"SECRET_KEY": "x",
                       "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / 'unused.sqlite'}"})


def test_serve_migrates_the_database_then_serves_every_page_with_a_log_line_each(
        tmp_path: Path, url_map_app: Flask) -> None:
    instance = tmp_path / "instance"
    environment = server_environment(COMPANION_INSTANCE=str(instance))
    with serving([*COMPANION, "serve", "--threads", "4"], environment=environment,
                 log=tmp_path / "server.log", cwd=tmp_path) as server:
        answers = visit_every_page(HttpBrowser(server.url), url_map_app)  # CSRF on, cookies
        with urllib.request.urlopen(server.url + "/healthz", timeout=10) as health:
            assert health.status == 200
            assert health.headers["Server"].startswith("hypercorn")
    assert server.process.returncode == 0
    log = server.log_text()
    assert "Running on http://127.0.0.1:" in log
    assert "Running upgrade" in log  # the same as `flask db upgrade`
    for path, answer in answers.items():
        request_id = answer.headers["x-request-id"]
        line = re.search(rf"request_id={request_id} GET (\S+) (\d{{3}}) [\d.]+ms", log)
        assert line, (path, request_id)
        assert line.group(1) == path.split("?")[0] and int(line.group(2)) == answer.status
    assert "Traceback" not in log
    with sqlite3.connect(instance / "companion.sqlite") as database:
        assert database.execute("PRAGMA journal_mode").fetchone() == ("wal",)
        assert database.execute("SELECT version_num FROM alembic_version").fetchone()


def test_a_server_stopped_while_a_phone_watches_ends_the_stream_and_exits_cleanly(
        tmp_path: Path) -> None:
    """Ctrl-C (SIGINT) with a sheet open on a phone: the live stream is ended by the server,
    not cancelled after Hypercorn's graceful timeout with a traceback in the log."""
    environment = server_environment(COMPANION_INSTANCE=str(tmp_path / "instance"))
    with serving([*COMPANION, "serve", "--threads", "3"], environment=environment,
                 log=tmp_path / "server.log", cwd=tmp_path) as server:
        created = api(server.url, "/api/v1/sessions", {"players": ["A", "B"]})
        stream = HttpStream("127.0.0.1", int(server.url.rsplit(":", 1)[1]),
                            f"/api/v1/sessions/{created['id']}/events")
        assert stream.next_game()[1]["games_played"] == 0
        server.process.send_signal(signal.SIGINT)
        assert server.process.wait(timeout=30) == 0  # by itself: the stream did not hold it
    assert "Traceback" not in server.log_text()


def test_more_than_one_worker_refuses_to_start_without_a_secret_key(tmp_path: Path) -> None:
    environment = server_environment(COMPANION_INSTANCE=str(tmp_path))
    refused = subprocess.run([*COMPANION, "serve", "--workers", "2", "--port", str(free_port())],
                             env=environment, cwd=tmp_path, capture_output=True, text=True,
                             timeout=120, check=False)
    assert refused.returncode == 2
    assert "SECRET_KEY" in refused.stderr and "Traceback" not in refused.stderr
    assert not (tmp_path / "companion.sqlite").exists()  # refused before touching anything


def test_two_workers_with_a_secret_key_and_the_port_from_the_environment(
        tmp_path: Path) -> None:
    environment = server_environment(COMPANION_INSTANCE=str(tmp_path), SECRET_KEY="k" * 64,
                                     PORT=str(free_port()))
    with serving([*COMPANION, "serve", "--workers", "2", "--threads", "2"],
                 environment=environment, log=tmp_path / "server.log", cwd=tmp_path) as server:
        assert server.url.endswith(environment["PORT"])
        browser = HttpBrowser(server.url)
        assert browser.get("/scores/new").status == 200
        # The first worker may answer before the second has started: wait for it (bounded),
        # rather than stop the server while the second is still importing the app.
        deadline = time.monotonic() + 60
        while server.log_text().count("Running on http://") < 2 and time.monotonic() < deadline:
            time.sleep(0.2)
    assert server.log_text().count("Running on http://") == 2  # one line per worker


@pytest.mark.parametrize(("setting", "said"), [
    ({"DATABASE_URL": "postgresql://club:hunter2@127.0.0.1:1/companion"},
     "cannot prepare the database postgresql+psycopg://club:***@127.0.0.1:1/companion"),
    ({"COMPANION_BASE_URL": "scores.example.org"},
     "COMPANION_BASE_URL must look like https://scores.example.org"),
])
def test_a_setting_that_cannot_work_stops_serve_with_one_clear_line(
        tmp_path: Path, setting: dict[str, str], said: str) -> None:
    environment = server_environment(COMPANION_INSTANCE=str(tmp_path), **setting)
    refused = subprocess.run([*COMPANION, "serve", "--port", str(free_port())], env=environment,
                             cwd=tmp_path, capture_output=True, text=True, timeout=120,
                             check=False)
    assert refused.returncode == 2
    assert said in refused.stderr
    assert "Traceback" not in refused.stderr and "hunter2" not in refused.stderr


def test_an_address_serve_cannot_listen_on_is_one_clear_line_before_anything_is_done(
        tmp_path: Path) -> None:
    """Gunicorn retried a port in use for five seconds, a log line each time, then exited 1
    with "Can't connect"; the database had been migrated already."""
    environment = server_environment(COMPANION_INSTANCE=str(tmp_path))
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        in_use = (f"cannot listen on 127.0.0.1:{port}: Address already in use (is another "
                  f"server running there? choose another port: --port {port + 1}, or make run "
                  f"PORT={port + 1})")
        for host, said in (("127.0.0.1", in_use),
                           ("no-such-host.invalid", "cannot listen on no-such-host.invalid")):
            refused = subprocess.run([*COMPANION, "serve", "--host", host, "--port", str(port)],
                                     env=environment, cwd=tmp_path, capture_output=True,
                                     text=True, timeout=120, check=False)
            assert refused.returncode == 2, refused.stderr
            assert said in refused.stderr
            assert "Traceback" not in refused.stderr and "hypercorn" not in refused.stderr
            assert len(refused.stderr.strip().splitlines()) <= 2, refused.stderr
    assert not (tmp_path / "companion.sqlite").exists()


def test_make_run_takes_the_host_and_port_from_the_command_line_or_the_environment() -> None:
    """`make run` always served 127.0.0.1:5000: with 5000 taken, or phones to reach it over
    the Wi-Fi, a newcomer had to edit the Makefile."""
    root = Path(__file__).resolve().parent.parent
    said = subprocess.run(["make", "-n", "run", "HOST=0.0.0.0", "PORT=5001"], cwd=root,
                          capture_output=True, text=True, timeout=60, check=True).stdout
    assert "companion serve --host 0.0.0.0 --port 5001" in said
    from_environment = subprocess.run(["make", "-n", "run"], cwd=root, capture_output=True,
                                      text=True, timeout=60, check=True,
                                      env={"PATH": "/usr/bin:/bin", "PORT": "5002"}).stdout
    assert "companion serve --host 127.0.0.1 --port 5002" in from_environment


def test_the_version_comes_from_one_place() -> None:
    shown = subprocess.run([*COMPANION, "--version"], capture_output=True, text=True,
                           check=True, timeout=60)
    assert shown.stdout.strip() == f"companion, version {companion.__version__}"
    pyproject = (Path(__file__).parents[1] / "pyproject.toml").read_text()
    assert 'dynamic = ["version"]' in pyproject and "companion.__version__" in pyproject
