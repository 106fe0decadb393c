"""`companion serve` holds a club's evening: clients that send half a request are closed and
hold no thread, and hundreds of open live streams all hear of a game recorded.

Run against the real server with only 4 threads, so that before (one thread per open stream
and per request being read) 4 slow clients or 4 streams stopped it answering anyone."""

from __future__ import annotations

import asyncio
import json
import socket
import sys
import time
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest

from companion.web.front import REQUEST_HEAD_SECONDS
from tests.golden import GOLDEN_AS_PLAYED
from tests.serving import Server, server_environment, serving
from tests.web.test_live_server import api

THREADS = 4
STREAMS = 300


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("club")
    with serving([sys.executable, "-m", "companion", "serve", "--threads", str(THREADS)],
                 environment=server_environment(COMPANION_INSTANCE=str(folder)),
                 log=folder / "server.log", cwd=folder) as running:
        yield running


def port_of(server: Server) -> int:
    return int(server.url.rsplit(":", 1)[1])


def half_requests(server: Server, count: int) -> list[socket.socket]:
    clients = []
    for _client in range(count):
        client = socket.create_connection(("127.0.0.1", port_of(server)), timeout=30)
        client.sendall(b"GET / HTTP/1.1\r\nHost: club\r\nX-Still-Typing: ")
        clients.append(client)
    return clients


def test_clients_sending_half_a_request_are_closed_and_block_nobody(server: Server) -> None:
    slow = half_requests(server, THREADS * 10)
    body = socket.create_connection(("127.0.0.1", port_of(server)), timeout=30)
    body.sendall(b"POST /api/v1/sessions HTTP/1.1\r\nHost: club\r\nContent-Type: "
                 b"application/json\r\nContent-Length: 200\r\n\r\n{\"players\": [")
    try:
        for _request in range(THREADS * 2):  # every thread free: none is waiting on a client
            with urllib.request.urlopen(server.url + "/", timeout=REQUEST_HEAD_SECONDS / 2) \
                    as page:
                assert page.status == 200
        started = time.monotonic()
        assert slow[0].recv(100) == b""  # closed by the server, with nothing said
        assert time.monotonic() - started < REQUEST_HEAD_SECONDS * 3
        assert all(client.recv(100) == b"" for client in slow[1:])
        assert body.recv(100).startswith(b"HTTP/1.1 408")
    finally:
        for client in [*slow, body]:
            client.close()
    assert "Traceback" not in server.log_text()


async def listen(port: int, path: str, count: int, games: int) -> list[list[int]]:
    """``count`` streams, each read until it has seen ``games`` games: what each saw."""

    async def stream(opened: asyncio.Queue[None]) -> list[int]:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(f"GET {path} HTTP/1.1\r\nHost: club\r\n\r\n".encode())
        seen: list[int] = []
        try:
            while not seen or seen[-1] < games:
                line = await reader.readline()
                assert line, "the stream ended early"
                if line.startswith(b"data: {"):
                    seen.append(json.loads(line[6:])["games_played"])
                    if len(seen) == 1:
                        opened.put_nowait(None)
        finally:
            writer.close()
        return seen

    opened: asyncio.Queue[None] = asyncio.Queue()
    tasks = [asyncio.create_task(stream(opened)) for _stream in range(count)]
    for _stream in range(count):
        await asyncio.wait_for(opened.get(), 60)
    return await asyncio.wait_for(asyncio.gather(*tasks), 60)


def test_hundreds_of_open_streams_all_hear_of_every_game_and_pages_still_answer(
        server: Server) -> None:
    created = api(server.url, "/api/v1/sessions", {"players": ["A", "B", "C", "D"]})
    path = f"/api/v1/sessions/{created['id']}/events"
    games = 2

    async def evening() -> list[list[int]]:
        listening = asyncio.create_task(listen(port_of(server), path, STREAMS, games))
        while not listening.done() and server.log_text().count(path) < STREAMS:
            await asyncio.sleep(0.2)  # every stream has been answered (its log line)
        for body in GOLDEN_AS_PLAYED[:games]:
            await asyncio.to_thread(urllib.request.urlopen, server.url + "/", timeout=10)
            await asyncio.to_thread(api, server.url, f"/api/v1/sessions/{created['id']}/games",
                                    body, str(created["edit_key"]))
        return await listening

    # In a thread of its own: Playwright's browser tests leave an event loop on this one.
    with ThreadPoolExecutor(max_workers=1) as own_thread:
        seen = own_thread.submit(asyncio.run, evening()).result()
    assert len(seen) == STREAMS
    # each stream hears every game, in order, once (one it opened too late for may come as the
    # state it opened at)
    assert all(each == sorted(set(each)) and each[-1] == games for each in seen), seen
    assert sum(each[0] == 0 for each in seen) == STREAMS, "every stream opened before a game"
