"""The live stream of a session: ``GET /api/v1/sessions/<id>/events`` (Server-Sent Events).

Every change of the session's games sends ``event: game`` with the session's JSON as data and
its version as the event id. A stream first sends the current state unless the client already
has it (``Last-Event-ID``, which the browser sends by itself when it reconnects, or ``?since=``
with the version the page was rendered at): a phone that slept catches up on reconnecting.

Why polling rather than a pub/sub in memory: several server processes (gunicorn workers, or
several machines on one PostgreSQL) each see only their own writes in memory. Asking the
database for the session's version is one small query every ``LIVE_POLL_SECONDS`` per stream,
and it sees every write, from any process; a write made by the stream's own process wakes it
at once (``hub``). Streams last ``LIVE_STREAM_SECONDS`` at most, so a
server thread is never held forever; the browser's EventSource reconnects by itself after
``retry`` milliseconds. A comment line every ``LIVE_HEARTBEAT_SECONDS`` keeps proxies from
closing an idle stream and lets the server notice a phone that went away.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

from flask import Blueprint, Flask, Response, abort, current_app, request
from sqlalchemy.exc import SQLAlchemyError

from companion.web.live import hub
from companion.web.live.state import find_session, session_state, session_version
from companion.web.scores.sheets import SheetView

bp = Blueprint("live_api", __name__)

DEFAULTS = {"LIVE_POLL_SECONDS": 0.5, "LIVE_HEARTBEAT_SECONDS": 15.0,
            "LIVE_STREAM_SECONDS": 120.0, "LIVE_RETRY_MS": 1000}


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


def session_events(app: Flask, session_ref: str, session_pk: int,
                   since: str | None) -> Iterator[str]:
    """The stream's body. Each poll opens its own app context, so no database connection or
    transaction is held between polls (SQLite would otherwise keep showing an old snapshot).
    Between polls it sleeps, unless this process commits a change to the session (``hub``)."""
    poll, heartbeat = setting(app, "LIVE_POLL_SECONDS"), setting(app, "LIVE_HEARTBEAT_SECONDS")
    ends_at = time.monotonic() + setting(app, "LIVE_STREAM_SECONDS")
    yield f"retry: {int(setting(app, 'LIVE_RETRY_MS'))}\n\n"
    sent, last_write = since, time.monotonic()
    while True:
        seen = hub.generation(session_pk)
        try:
            with app.app_context():
                version = session_version(session_ref)
                session = find_session(session_ref) if version not in (None, sent) else None
                if session is not None:  # it may be a write newer than the version asked for
                    version = str(session.version)
                data = None if session is None or version == sent else event_data(session)
        except SQLAlchemyError:
            app.logger.warning("live stream of session %s: the database did not answer; "
                               "the browser reconnects", session_ref)
            return
        if version is None:
            yield sse("gone", json.dumps({"error": "this session was deleted"}))
            return
        if data is not None:
            yield sse("game", data, version)
            sent, last_write = version, time.monotonic()
        now = time.monotonic()
        if now >= ends_at:
            return
        if now - last_write >= heartbeat:
            yield ": keepalive\n\n"
            last_write = now
        hub.wait_for_change(session_pk, seen, min(poll, max(0.0, ends_at - now)))


@bp.get("/sessions/<session_id>/events")
def events(session_id: str) -> Response:
    score_session = find_session(session_id)
    if score_session is None:
        abort(404, description=f"there is no session {session_id}")
    since = request.headers.get("Last-Event-ID") or request.args.get("since") or None
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    return Response(session_events(app, session_id, score_session.id, since),
                    mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
