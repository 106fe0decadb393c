"""Benchmark of a club's evening against a real `companion serve` on 127.0.0.1 (SQLite).

    .venv/bin/python -m benchmarks.live [--streams 100 300 1000] [--slow 64] [--games 3]

For each number of open live streams (with ``--slow`` clients that send half a request and
wait, opened again as soon as the server closes them): ``GET /`` latency (p50, p95, each on a
new connection), the time from a game acknowledged to its event on every stream, and the
server's memory per open stream (the growth of its processes' resident memory, divided by the
streams). Then an editing phone's sheet, a reader's sheet and a static file, each fetched as
fast as two keep-alive connections can for a few seconds: the sheets as a share of the static
file's throughput. The streams and the slow clients are asyncio connections of this process;
the open-files limit is raised to the hard limit first.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import http.cookiejar
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

from tests.golden import GOLDEN_AS_PLAYED
from tests.serving import free_port, server_environment, wait_until_healthy

PLAYERS = ["A", "B", "C", "D"]


def api(base: str, path: str, body: dict[str, Any] | None = None,
        key: str | None = None) -> dict[str, Any]:
    request = urllib.request.Request(base + path, method="GET" if body is None else "POST",
                                     data=None if body is None else json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    if key:
        request.add_header("Authorization", f"Bearer {key}")
    with urllib.request.urlopen(request, timeout=30) as answer:
        return dict(json.loads(answer.read()))


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))]


def server_memory_kb(pid: int) -> int:
    """Resident memory of the server and its worker processes."""
    pids = [pid, *map(int, subprocess.run(["pgrep", "-P", str(pid)], capture_output=True,
                                          text=True, check=False).stdout.split())]
    total = 0
    for each in pids:
        for line in Path(f"/proc/{each}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                total += int(line.split()[1])
    return total


class Streams:
    """Open event streams and half-sent requests, held by an asyncio loop in a thread."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.loop = asyncio.new_event_loop()
        self.arrivals: dict[int, list[float]] = {}  # games played -> arrival times
        self.open = 0
        self.tasks: list[asyncio.Task[None]] = []
        threading.Thread(target=self.loop.run_forever, daemon=True).start()

    def run(self, coroutine: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result()

    async def _stream(self, path: str, ready: asyncio.Event, target: int) -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
        writer.write(f"GET {path} HTTP/1.1\r\nHost: bench\r\n"
                     "Accept: text/event-stream\r\n\r\n".encode())
        first = True
        try:
            while line := await reader.readline():
                if line.startswith(b"data: {"):
                    played = json.loads(line[6:])["games_played"]
                    if first:  # the state it opened at
                        first = False
                        self.open += 1
                        if self.open >= target:
                            ready.set()
                    else:
                        self.arrivals.setdefault(played, []).append(time.monotonic())
        finally:
            writer.close()

    async def open_streams(self, path: str, count: int) -> None:
        ready, target = asyncio.Event(), self.open + count
        for _stream in range(count):
            self.tasks.append(asyncio.create_task(self._stream(path, ready, target)))
            await asyncio.sleep(0.002)
        await asyncio.wait_for(ready.wait(), 120)

    async def _slow_client(self) -> None:
        while True:
            try:
                reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
                writer.write(b"GET / HTTP/1.1\r\nHost: bench\r\nX-Half: ")
                await reader.read()  # until the server closes it
                writer.close()
            except OSError:
                await asyncio.sleep(0.1)

    async def start_slow_clients(self, count: int) -> None:
        for _client in range(count):
            self.tasks.append(asyncio.create_task(self._slow_client()))

    async def close(self) -> None:
        for task in self.tasks:
            task.cancel()


def page_latencies(base: str, count: int) -> list[float]:
    seconds = []
    for _request in range(count):
        started = time.perf_counter()
        with urllib.request.urlopen(base + "/", timeout=30) as answer:
            answer.read()
        seconds.append(time.perf_counter() - started)
    return seconds


def throughput(port: int, path: str, cookie: str, seconds: float) -> float:
    """Answers a second for ``path`` from two keep-alive connections."""
    counts = [0, 0]

    def fetch(slot: int) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        ends = time.monotonic() + seconds
        while time.monotonic() < ends:
            connection.request("GET", path, headers={"Cookie": cookie})
            answer = connection.getresponse()
            answer.read()
            assert answer.status == 200, (path, answer.status)
            counts[slot] += 1
        connection.close()

    workers = [threading.Thread(target=fetch, args=(slot,)) for slot in range(2)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    return sum(counts) / seconds


def editor_cookie(base: str, session: dict[str, Any]) -> str:
    """The cookies of a phone that joined through the share-to-edit link."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    with opener.open(f"{base}/scores/{session['id']}/join?key={session['edit_key']}") as page:
        assert b"share-to-edit link" in page.read(), "the phone did not get the edit right"
    return "; ".join(f"{cookie.name}={cookie.value}" for cookie in jar)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--streams", type=int, nargs="+", default=[100, 300, 1000])
    parser.add_argument("--slow", type=int, default=64)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=4.0, help="per throughput figure")
    arguments = parser.parse_args()
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))

    folder = Path(tempfile.mkdtemp(prefix="companion-live-"))
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log = folder / "server.log"
    with log.open("wb") as log_file:
        server = subprocess.Popen(
            [sys.executable, "-m", "companion", "serve", "--port", str(port)],
            env=server_environment(COMPANION_INSTANCE=str(folder)), cwd=folder,
            stdout=log_file, stderr=subprocess.STDOUT)
    streams = Streams(port)
    try:
        wait_until_healthy(base, server, log)
        print(f"companion serve (defaults: 1 worker, 16 threads), SQLite; load average "
              f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; {arguments.slow} clients "
              "sending half a request throughout")
        streams.run(streams.start_slow_clients(arguments.slow))
        rounds = -(-arguments.games * len(arguments.streams) // len(PLAYERS)) + 1
        created = api(base, "/api/v1/sessions", {"players": PLAYERS, "rounds": rounds})
        path = f"/api/v1/sessions/{created['id']}/events"
        page_latencies(base, 5)  # warm
        time.sleep(1)
        memory_before = server_memory_kb(server.pid)
        played = 0
        print(f"{'streams':>8} {'GET / p50':>10} {'p95':>8} {'event p50':>10} {'p95':>8} "
              f"{'max':>8} {'<=1 s':>7} {'KB/stream':>10}")
        for target in arguments.streams:
            streams.run(streams.open_streams(path, target - streams.open))
            time.sleep(1)
            per_stream = (server_memory_kb(server.pid) - memory_before) / target
            latencies = page_latencies(base, 100)
            delays: list[float] = []
            for _game in range(arguments.games):
                played += 1
                body = GOLDEN_AS_PLAYED[(played - 1) % len(GOLDEN_AS_PLAYED)]
                api(base, f"/api/v1/sessions/{created['id']}/games", body, created["edit_key"])
                acknowledged = time.monotonic()
                deadline = acknowledged + 30
                while len(streams.arrivals.get(played, [])) < target and \
                        time.monotonic() < deadline:
                    time.sleep(0.01)
                arrived = streams.arrivals.get(played, [])
                delays += [moment - acknowledged for moment in arrived]
                delays += [float("inf")] * (target - len(arrived))
            within = sum(delay <= 1.0 for delay in delays) / len(delays)
            print(f"{target:>8} {statistics.median(latencies) * 1000:>8.0f}ms "
                  f"{percentile(latencies, 0.95) * 1000:>6.0f}ms "
                  f"{statistics.median(delays) * 1000:>8.0f}ms "
                  f"{percentile(delays, 0.95) * 1000:>6.0f}ms {max(delays) * 1000:>6.0f}ms "
                  f"{within:>7.1%} {per_stream:>10.1f}")
        streams.run(streams.close())
        time.sleep(2)

        cookie = editor_cookie(base, created)
        sheet = f"/scores/{created['id']}"
        static = throughput(port, "/static/live.css", cookie, arguments.seconds)
        editor = throughput(port, sheet, cookie, arguments.seconds)
        reader = throughput(port, sheet + "/view", "", arguments.seconds)
        print(f"throughput (2 keep-alive connections, {played} games on the sheet): static "
              f"file {static:.0f}/s; editor's sheet {editor:.0f}/s ({editor / static:.0%} of "
              f"the static file); reader's sheet {reader:.0f}/s ({reader / static:.0%})")
    finally:
        server.terminate()
        server.wait(timeout=30)


if __name__ == "__main__":
    main()
