"""Start `companion serve` as a real server process on a free loopback port, and stop it."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

STARTUP_SECONDS = 90  # two busy cores shared with other test runs
# Settings of the machine running the tests that must not leak into the server under test.
NOT_INHERITED = ("DATABASE_URL", "SECRET_KEY", "PORT", "COMPANION_BASE_URL",
                 "COMPANION_INSTANCE", "WEB_CONCURRENCY")


@dataclass
class Server:
    url: str
    process: subprocess.Popen[bytes]
    log: Path

    def log_text(self) -> str:
        return self.log.read_text(errors="replace")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def server_environment(**settings: str) -> dict[str, str]:
    environment = {name: value for name, value in os.environ.items()
                   if name not in NOT_INHERITED and not name.startswith("FLASK_")}
    return environment | settings


@contextmanager
def serving(command: Sequence[str], *, environment: dict[str, str], log: Path,
            cwd: Path, port: int | None = None) -> Iterator[Server]:
    """Run ``command`` (a `companion serve ...`), wait for /healthz, stop it with SIGTERM."""
    port = port or free_port()
    arguments = [*command] if "PORT" in environment else [*command, "--port", str(port)]
    url = f"http://127.0.0.1:{int(environment.get('PORT', port))}"
    with log.open("wb") as log_file:
        process = subprocess.Popen(arguments, env=environment, cwd=cwd, stdout=log_file,
                                   stderr=subprocess.STDOUT)
    try:
        wait_until_healthy(url, process, log)
        yield Server(url, process, log)
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def wait_until_healthy(url: str, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + STARTUP_SECONDS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"the server exited with {process.returncode}:\n"
                                 f"{log.read_text(errors='replace')}")
        try:
            with urllib.request.urlopen(url + "/healthz", timeout=5) as answer:
                if answer.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.2)
    raise AssertionError(f"no answer from {url}/healthz:\n{log.read_text(errors='replace')}")
