"""The app as ``companion serve`` runs it: an ASGI app for Hypercorn around the Flask app.

A phone on a slow network, or one that stops halfway through a request, must never hold what
the other phones need. So:

- Hypercorn reads each request's head in its event loop, and closes a connection whose head is
  not complete within ``REQUEST_HEAD_SECONDS`` (its keep-alive timer runs until then);
- the body is read here, in the loop, before any thread sees the request: a pause of
  ``BODY_STALL_SECONDS`` or a body still coming after ``BODY_SECONDS`` ends it with a 408;
- the Flask app runs in a pool of ``threads`` threads, and makes its whole answer there, which
  the loop then sends: no thread waits on a phone, to read or to write;
- a live stream is checked by the Flask route (``live.events``), then held by the loop
  (``live.streams``): a thousand open streams cost no thread.
"""

from __future__ import annotations

import asyncio
import io
import os
import signal
from concurrent.futures import ThreadPoolExecutor
from importlib import import_module
from typing import Any

from a2wsgi.wsgi import build_environ
from flask import Flask

from companion.web.hosting import REQUEST_LOG
from companion.web.live.events import HAND_OVER, StreamStart
from companion.web.live.streams import LiveStreams

REQUEST_HEAD_SECONDS = 10.0
BODY_STALL_SECONDS = 10.0
BODY_SECONDS = 120.0  # a 40 MB photo over a slow uplink still fits
THREADS_VARIABLE = "COMPANION_THREADS"
# The WSGI app each worker serves, as "module:expression" (a benchmark adds a bare route).
APP_VARIABLE = "COMPANION_WSGI_APP"
Headers = list[tuple[bytes, bytes]]


class BodyNotSent(Exception):
    """The client stalled or stopped while sending the body."""


class Front:
    """ASGI app: bodies read in the loop, the Flask app in a thread pool, streams in the loop."""

    def __init__(self, app: Flask, *, threads: int) -> None:
        self.app = app
        self.executor = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="companion")
        self.streams: LiveStreams | None = None

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            await self._lifespan(receive, send)
        elif scope["type"] == "http":
            await self._http(scope, receive, send)
        # anything else (a websocket) is refused by not accepting it

    async def _lifespan(self, receive: Any, send: Any) -> None:
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                self._live_streams()
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                self.executor.shutdown(wait=False, cancel_futures=True)
                await send({"type": "lifespan.shutdown.complete"})
                return

    async def until_stopped(self) -> None:
        """Hypercorn's shutdown trigger when it serves in this process (``server.serve``): on
        SIGINT (Ctrl-C) or SIGTERM the live streams end first, so the stop waits only for the
        requests being answered, not ``graceful_timeout`` for streams that never end."""
        loop = asyncio.get_running_loop()
        stop = asyncio.Event()
        for signal_number in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(signal_number, stop.set)
        await stop.wait()
        self._live_streams().end_all()

    def _live_streams(self) -> LiveStreams:
        if self.streams is None:
            self.streams = LiveStreams(asyncio.get_running_loop(), self.executor)
        return self.streams

    async def _http(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        limit = int(self.app.config["MAX_CONTENT_LENGTH"])
        try:
            body, size = await read_body(scope, receive, limit)
        except BodyNotSent:
            REQUEST_LOG.info("request_id=- %s %s 408 (the body was not sent in time)",
                             scope["method"], scope["path"])
            await answer(send, 408, b"The request was not sent in time.\n")
            return
        environ = build_environ(scope, io.BytesIO(body))  # type: ignore[arg-type]
        if size > limit:  # Flask refuses it by its length, with its own words (413)
            environ["CONTENT_LENGTH"] = str(size)
        environ[HAND_OVER] = None
        loop = asyncio.get_running_loop()
        status, headers, content, stream = await loop.run_in_executor(
            self.executor, self._run, environ)
        if stream is not None:
            await self._live_streams().serve(stream, status, headers, receive, send)
            return
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": content, "more_body": False})

    def _run(self, environ: dict[str, Any]) -> tuple[int, Headers, bytes, StreamStart | None]:
        """In a pool thread: the Flask app's whole answer (or the stream it handed over)."""
        started: dict[str, Any] = {}
        chunks: list[bytes] = []

        def start_response(status: str, headers: list[tuple[str, str]],
                           _exc_info: Any = None) -> Any:
            started["status"] = int(status.split(" ", 1)[0])
            started["headers"] = [(name.lower().encode("latin-1"), value.encode("latin-1"))
                                  for name, value in headers]
            return chunks.append

        try:
            iterable = self.app(environ, start_response)
            try:
                stream = environ.get(HAND_OVER)
                if not isinstance(stream, StreamStart):
                    stream = None
                    chunks.extend(iterable)
            finally:
                getattr(iterable, "close", lambda: None)()
        except Exception:  # the app's own 500 handler failed: say no more
            self.app.logger.exception("the app failed outside its error handlers")
            return 500, [(b"content-type", b"text/plain")], b"Server error.\n", None
        return started["status"], started["headers"], b"".join(chunks), stream


async def read_body(scope: dict[str, Any], receive: Any, limit: int) -> tuple[bytes, int]:
    """The whole body (and its size), read before any thread sees the request. One larger than
    ``limit`` is not kept: its size alone is returned, for the app's 413."""
    declared = dict(scope["headers"]).get(b"content-length", b"")
    if declared.isdigit() and int(declared) > limit:
        return b"", int(declared)
    body = bytearray()
    try:
        async with asyncio.timeout(BODY_SECONDS):
            while True:
                message = await asyncio.wait_for(receive(), BODY_STALL_SECONDS)
                if message["type"] == "http.disconnect":
                    raise BodyNotSent
                body += message.get("body", b"")
                if len(body) > limit:
                    return b"", len(body)
                if not message.get("more_body"):
                    return bytes(body), len(body)
    except TimeoutError as stalled:
        raise BodyNotSent from stalled


async def answer(send: Any, status: int, text: bytes) -> None:
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"text/plain; charset=utf-8"),
                            (b"content-length", str(len(text)).encode()),
                            (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": text, "more_body": False})


def serving_app() -> Front:
    """What each ``companion serve`` worker process runs (Hypercorn loads it by name)."""
    named = os.environ.get(APP_VARIABLE, "companion.web:create_app()")
    module, _, expression = named.partition(":")
    app = eval(expression, vars(import_module(module)))  # set by whoever runs it, never a client
    return Front(app, threads=int(os.environ.get(THREADS_VARIABLE, "16")))
