"""The live streams of one ``companion serve`` process, held by its event loop (asyncio).

An open stream is a coroutine waiting on an ``asyncio.Event``, not a thread: a thousand phones
cost a few megabytes. The streams of one session share a ``Channel``: when the hub hears that
the session changed, the channel reads it once (in the server's thread pool, from the sheet
cache) and hands the same bytes to every stream, so a game recorded costs one read per
process, not one per phone.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.exc import SQLAlchemyError

from companion.web.live import hub
from companion.web.live.events import GONE, StreamStart, current_event, setting, sse
from companion.web.live.listen import database_key, start_listening

Send = Callable[[dict[str, Any]], Awaitable[None]]
Receive = Callable[[], Awaitable[dict[str, Any]]]


@dataclass(eq=False)
class Channel:
    """One session's state as this process last read it, and the streams that show it."""

    app: Any
    session_ref: str
    version: str | None
    event: bytes
    streams: set[asyncio.Event] = field(default_factory=set)
    reading: asyncio.Task[None] | None = None
    read_again: bool = False

    def take(self, version: str | None, data: str | None) -> None:
        if version is None:
            self.version, self.event = None, GONE.encode()
        elif data is not None and (self.version is None or int(version) >= int(self.version)):
            self.version, self.event = version, sse("game", data, version).encode()
        for wake in self.streams:
            wake.set()


class LiveStreams:
    """This process's streams by session; ``hub`` changes reach them through the loop."""

    def __init__(self, loop: asyncio.AbstractEventLoop, executor: Executor) -> None:
        self.loop, self.executor = loop, executor
        self.channels: dict[int, Channel] = {}
        self.ending = False
        hub.subscribe(lambda pks: loop.call_soon_threadsafe(self._changed, pks))

    def _changed(self, pks: frozenset[int]) -> None:
        for pk in pks:
            channel = self.channels.get(pk)
            if channel is not None:
                self._read(pk, channel)

    def _read(self, pk: int, channel: Channel) -> None:
        """Read the session once for all its streams; a change heard meanwhile reads again."""
        if channel.reading is not None:
            channel.read_again = True
            return

        app = channel.app

        async def read() -> None:
            try:
                while True:
                    channel.read_again = False
                    try:
                        version, data = await self.loop.run_in_executor(
                            self.executor, current_event, app, channel.session_ref)
                    except SQLAlchemyError:
                        app.logger.warning("live streams of session %s: the database did not "
                                           "answer", channel.session_ref)
                        return
                    channel.take(version, data)
                    if not channel.read_again:
                        return
            finally:
                channel.reading = None
                self._forget_if_unwatched(pk, channel)

        channel.reading = self.loop.create_task(read())

    async def serve(self, start: StreamStart, status: int, headers: list[tuple[bytes, bytes]],
                    receive: Receive, send: Send) -> None:
        """Hold one stream until it ends, its phone goes away or the session is deleted."""
        app, pk = start.app, start.session_pk
        heartbeat = float(setting(app, "LIVE_HEARTBEAT_SECONDS"))
        ends_at = time.monotonic() + float(setting(app, "LIVE_STREAM_SECONDS"))
        channel = self.channels.get(pk)
        if channel is None:
            channel = self.channels[pk] = Channel(app, start.session_ref, None, b"")
        channel.take(start.version, start.data)
        if hub.generation(pk) != start.generation:  # a change between the read and now
            self._read(pk, channel)
        wake, gone = asyncio.Event(), False

        async def until_the_phone_goes_away() -> None:
            nonlocal gone
            while (await receive())["type"] != "http.disconnect":
                pass
            gone = True
            wake.set()

        channel.streams.add(wake)
        watcher = self.loop.create_task(until_the_phone_goes_away())
        try:
            with hub.watching(database_key(app), pk):
                start_listening(app)
                await send({"type": "http.response.start", "status": status,
                            "headers": [(name, value) for name, value in headers
                                        if name != b"content-length"]})
                await self._body(send, start.retry_line().encode())
                sent, last_write = start.since, time.monotonic()
                while not gone and not self.ending:
                    wake.clear()  # before looking: a change during a send wakes the wait
                    version = channel.version
                    if version != sent:
                        await self._body(send, channel.event)
                        if version is None:
                            break
                        sent, last_write = version, time.monotonic()
                    now = time.monotonic()
                    if now >= ends_at:
                        break
                    if now - last_write >= heartbeat:
                        await self._body(send, b": keepalive\n\n")
                        last_write = now
                    try:
                        await asyncio.wait_for(wake.wait(), min(heartbeat - (now - last_write),
                                                                ends_at - now))
                    except TimeoutError:
                        pass
            if not gone:
                await send({"type": "http.response.body", "body": b"", "more_body": False})
        finally:
            watcher.cancel()
            channel.streams.discard(wake)
            self._forget_if_unwatched(pk, channel)

    def end_all(self) -> None:
        """The server is stopping: every stream ends now, and any opened from here on at once
        (each phone reconnects to the next server), so the stop waits for no stream."""
        self.ending = True
        for channel in self.channels.values():
            for wake in channel.streams:
                wake.set()

    def _forget_if_unwatched(self, pk: int, channel: Channel) -> None:
        if not channel.streams and channel.reading is None and self.channels.get(pk) is channel:
            del self.channels[pk]

    @staticmethod
    async def _body(send: Send, data: bytes) -> None:
        await send({"type": "http.response.body", "body": data, "more_body": True})
