"""One listener per server process for the writes made by the other processes (``hub``).

PostgreSQL: one connection of its own (out of the pool, autocommit) runs
``LISTEN companion_session`` and hands every notification to the hub. When the connection
breaks it comes back after a pause, and every watched session is then treated as changed,
since a notification sent in between was lost.

SQLite: one thread asks every ``LIVE_POLL_SECONDS`` for the versions of the sessions that
have a stream open in this process (one query, whatever the number of streams), and tells the
hub of those that moved. Either stops when no stream has been open for ``IDLE_SECONDS``, and
starts again with the next one.
"""

from __future__ import annotations

import threading
import time
from typing import Any

from flask import Flask
from sqlalchemy import bindparam, select
from sqlalchemy.exc import SQLAlchemyError

from companion.web.extensions import db
from companion.web.live import hub
from companion.web.models import ScoreSession

RECONNECT_SECONDS = 1.0
IDLE_SECONDS = 30.0  # a listener with no stream to serve for this long stops
_listeners: dict[str, threading.Thread] = {}
_guard = threading.Lock()


def database_key(app: Flask) -> str:
    return str(app.config["SQLALCHEMY_DATABASE_URI"])


def start_listening(app: Flask) -> None:
    """Make sure this process hears the other processes' writes to the app's database."""
    key = database_key(app)
    with _guard:
        running = _listeners.get(key)
        if running is not None and running.is_alive():
            return
        target = _listen_postgresql if key.startswith("postgresql") else _poll_sqlite
        thread = threading.Thread(target=target, args=(app,), name=f"live-listen {key[:40]}",
                                  daemon=True)
        _listeners[key] = thread
        thread.start()


def _listen_postgresql(app: Flask) -> None:
    import psycopg

    key = database_key(app)
    while True:
        try:
            with app.app_context():
                conninfo = db.engine.url.set(drivername="postgresql").render_as_string(
                    hide_password=False)
            with psycopg.connect(conninfo, autocommit=True) as connection:
                connection.execute(f"LISTEN {hub.CHANNEL}")
                hub.changed(hub.watched(key))  # whatever was missed while not listening
                idle_since = time.monotonic()
                while True:
                    for notification in connection.notifies(timeout=1.0):
                        if notification.payload.isdigit():
                            hub.changed({int(notification.payload)})
                    if hub.watched(key):
                        idle_since = time.monotonic()
                    elif _stop_when_idle(key, idle_since):
                        return
        except (psycopg.Error, OSError, SQLAlchemyError) as error:
            app.logger.warning("live updates: listening to the database failed (%s); "
                               "again in %.0f s", error, RECONNECT_SECONDS)
        time.sleep(RECONNECT_SECONDS)


def _stop_when_idle(key: str, idle_since: float) -> bool:
    """Whether a listener with no stream to serve for long enough has been taken off."""
    if time.monotonic() - idle_since < IDLE_SECONDS:
        return False
    with _guard:
        if hub.watched(key):  # a stream opened meanwhile keeps it running
            return False
        _listeners.pop(key, None)
        return True


def _poll_sqlite(app: Flask) -> None:
    from companion.web.live.events import setting

    key = database_key(app)
    known: dict[int, int] = {}
    idle_since = time.monotonic()
    while True:
        time.sleep(float(setting(app, "LIVE_POLL_SECONDS")))
        pks = hub.watched(key)
        if not pks:
            known.clear()
            if _stop_when_idle(key, idle_since):
                return
            continue
        idle_since = time.monotonic()
        try:
            versions = _versions(app, pks)
        except SQLAlchemyError as error:
            app.logger.warning("live updates: reading the versions failed (%s)", error)
            continue
        current = {pk: versions.get(pk, -1) for pk in pks}  # -1: deleted
        hub.changed({pk for pk in pks if pk in known and current[pk] != known[pk]})
        known = current


def _versions(app: Flask, pks: frozenset[int]) -> dict[int, Any]:
    with app.app_context():
        query = select(ScoreSession.id, ScoreSession.version).where(
            ScoreSession.id.in_(bindparam("pks", expanding=True)))
        try:
            return {row.id: row.version for row in db.session.execute(query, {"pks": list(pks)})}
        finally:
            db.session.rollback()
