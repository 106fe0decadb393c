"""The live stream of a session: ``GET /api/v1/sessions/<id>/events`` (Server-Sent Events).

Every change of the session's games sends ``event: game`` with the session's JSON as data and
its version as the event id. A stream first sends the current state unless the client already
has it (``Last-Event-ID``, which the browser sends by itself when it reconnects, or ``?since=``
with the version the page was rendered at): a phone that slept catches up on reconnecting.

A stream asks the database nothing while the session does not change: ``hub`` wakes it when a
write of any server process commits (this process's own at once; the others' by PostgreSQL's
NOTIFY, or on SQLite by one poll per process). Under ``companion serve`` the route only checks
the session and answers the headers; the stream itself is then held by the event loop
(``streams``), which costs no thread. Elsewhere (the test client, ``flask run``) the generator
below holds a thread. Streams last ``LIVE_STREAM_SECONDS`` at most; the browser's EventSource
reconnects by itself after ``retry`` milliseconds. A comment line every
``LIVE_HEARTBEAT_SECONDS`` keeps proxies from closing an idle stream and lets the server
notice a phone that went away.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from flask import Blueprint, Flask, Response, abort, current_app, request
from sqlalchemy.exc import SQLAlchemyError

from companion.web.live import hub
from companion.web.live.listen import database_key, start_listening
from companion.web.live.state import find_session, session_state
from companion.web.scores.sheets import SheetView

bp = Blueprint("live_api", __name__)

DEFAULTS = {"LIVE_POLL_SECONDS": 0.5, "LIVE_HEARTBEAT_SECONDS": 15.0,
            "LIVE_STREAM_SECONDS": 300.0, "LIVE_RETRY_MS": 1000}
# Where the route leaves a stream for ``companion serve``'s event loop to hold (front.py).
HAND_OVER = "companion.live_stream"


def setting(app: Flask, name: str) -> Any:
    return app.config.get(name, DEFAULTS[name])


def sse(event: str | None, data: str, event_id: str | None = None) -> str:
    """One Server-Sent Event; ``data`` is a single line (compact JSON has no newline)."""
    lines = []
    if event_id is not None:
        lines.append(f"id: {event_id}")
    if event is not None:
        lines.append(f"event: {event}")
    lines.append(f"data: {data}")
    return "\n".join(lines) + "\n\n"


def event_data(session: SheetView) -> str:
    """The session's JSON on one line, made once per version for every stream that sends it."""
    data = session.rendered.get("live_event")
    if data is None:
        data = session.rendered["live_event"] = json.dumps(session_state(session),
                                                           separators=(",", ":"))
    return str(data)


@dataclass(frozen=True, slots=True)
class StreamStart:
    """What a stream needs to begin: the session (its id and key), what the client has, and
    the state read when the request came with the hub's count of changes at that moment."""

    app: Flask
    session_ref: str
    session_pk: int
    since: str | None
    generation: int
    version: str | None
    data: str | None

    def retry_line(self) -> str:
        return f"retry: {int(setting(self.app, 'LIVE_RETRY_MS'))}\n\n"


def current_event(app: Flask, session_ref: str) -> tuple[str | None, str | None]:
    """The session's version and event data now; (None, None) once it was deleted. Each call
    opens its own app context, so no connection or transaction is held between calls (SQLite
    would otherwise keep showing an old snapshot)."""
    with app.app_context():
        session = find_session(session_ref)
        return (None, None) if session is None else (str(session.version), event_data(session))


GONE = sse("gone", json.dumps({"error": "this session was deleted"}))


def session_events(start: StreamStart) -> Iterator[str]:
    """The stream's body when a thread holds it: it sleeps until the hub hears of a change."""
    app, pk = start.app, start.session_pk
    heartbeat = setting(app, "LIVE_HEARTBEAT_SECONDS")
    ends_at = time.monotonic() + setting(app, "LIVE_STREAM_SECONDS")
    yield start.retry_line()
    with hub.watching(database_key(app), pk):
        start_listening(app)
        sent, last_write = start.since, time.monotonic()
        seen, (version, data) = start.generation, (start.version, start.data)
        while True:
            if version is None:
                yield GONE
                return
            if version != sent and data is not None:
                yield sse("game", data, version)
                sent, last_write = version, time.monotonic()
            now = time.monotonic()
            if now >= ends_at:
                return
            if now - last_write >= heartbeat:
                yield ": keepalive\n\n"
                last_write = now
            hub.wait_for_change(pk, seen, min(heartbeat - (now - last_write), ends_at - now))
            if hub.generation(pk) != seen:
                seen = hub.generation(pk)
                try:
                    version, data = current_event(app, start.session_ref)
                except SQLAlchemyError:
                    app.logger.warning("live stream of session %s: the database did not "
                                       "answer; the browser reconnects", start.session_ref)
                    return


@bp.get("/sessions/<session_id>/events")
def events(session_id: str) -> Response:
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    generation = None
    score_session = find_session(session_id)
    if score_session is not None:
        generation = hub.generation(score_session.id)
        score_session = find_session(session_id)  # read after counting: no change is missed
    if score_session is None or generation is None:
        abort(404, description=f"there is no session {session_id}")
    since = request.headers.get("Last-Event-ID") or request.args.get("since") or None
    start = StreamStart(app, session_id, score_session.id, since, generation,
                        str(score_session.version), event_data(score_session))
    headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
    if HAND_OVER in request.environ and request.method == "GET":  # serve's loop holds it
        request.environ[HAND_OVER] = start
        return Response(mimetype="text/event-stream", headers=headers)
    return Response(session_events(start), mimetype="text/event-stream", headers=headers)
