"""Reading Server-Sent Events in tests: from the test client's body or from a real socket."""

from __future__ import annotations

import http.client
import json
import queue
import socket
import threading
import time
from collections.abc import Iterable, Iterator
from typing import Any


def parse_events(chunks: Iterable[bytes]) -> Iterator[dict[str, str]]:
    """Events as dicts of their fields; a comment line comes as {"comment": ...}."""
    buffer = ""
    for chunk in chunks:
        buffer += chunk.decode()
        while "\n\n" in buffer:
            block, buffer = buffer.split("\n\n", 1)
            event: dict[str, str] = {}
            for line in block.split("\n"):
                field, _, value = line.partition(":")
                event[field or "comment"] = value.removeprefix(" ")
            yield event


class HttpStream:
    """An event stream read over a real connection by a thread of its own; each event is
    queued with the moment it arrived."""

    def __init__(self, host: str, port: int, path: str) -> None:
        self.connection = http.client.HTTPConnection(host, port, timeout=30)
        self.connection.request("GET", path, headers={"Accept": "text/event-stream"})
        self.socket = self.connection.sock  # the response's file keeps it open past close()
        self.response = self.connection.getresponse()
        self.events: queue.Queue[tuple[float, dict[str, str]]] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        def chunks() -> Iterator[bytes]:
            while True:
                line = self.response.readline()
                if not line:
                    return
                yield line

        try:
            for event in parse_events(chunks()):
                self.events.put((time.monotonic(), event))
        except (OSError, ValueError, AttributeError, http.client.HTTPException):
            return  # closed by the test (AttributeError: its file is gone) or the server stopped

    def next_game(self, timeout: float = 10.0) -> tuple[float, dict[str, Any]]:
        """The next `game` event's arrival time and its JSON data."""
        ends = time.monotonic() + timeout
        while True:
            arrived, event = self.events.get(timeout=max(0.01, ends - time.monotonic()))
            if event.get("event") == "game":
                return arrived, json.loads(event["data"])

    def close(self) -> None:
        """Hang up as a phone does: the server sees the stream end (closing the connection
        alone leaves the socket open under the response's file, so the server held the stream
        until it was stopped, and its stop waited for it)."""
        try:
            self.socket.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass  # the server has closed it already
        self.connection.close()
