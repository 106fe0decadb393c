"""Tells this process's live streams that a session changed, wherever it was written.

- A commit of this process that touched a session wakes its streams at once (SQLAlchemy's
  ``after_commit``).
- On PostgreSQL every write also sends ``NOTIFY companion_session, '<session id>'`` inside its
  own transaction, so only a committed write is heard, and by every server process or machine
  on the database: each process has one listening connection (``listen``), not one per stream.
- On SQLite the other processes on the same file (``--workers 2``) are heard by one query per
  process every ``LIVE_POLL_SECONDS`` for the versions of the sessions with open streams.

The database stays the source of truth: a woken stream reads the session (from the sheet cache,
one single-row query for its version) and sends it only if its version is not the one it sent.
A spurious wake costs that query and nothing else.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import event
from sqlalchemy.orm import Session

from companion.web.models import ScoreSession

CHANNEL = "companion_session"
_changed = threading.Condition()
_generations: dict[int, int] = {}
_watched: dict[str, Counter[int]] = {}
_subscribers: list[Callable[[frozenset[int]], None]] = []
_TOUCHED = "live_touched_sessions"
_NOTIFIED = "live_notified_sessions"


def generation(session_pk: int) -> int:
    """How many changes of the session this process has heard of so far."""
    with _changed:
        return _generations.get(session_pk, 0)


def wait_for_change(session_pk: int, seen: int, timeout: float) -> None:
    """Return when a change of the session was heard after ``seen``, or after ``timeout`` s."""
    with _changed:
        _changed.wait_for(lambda: _generations.get(session_pk, 0) != seen, timeout)


def changed(session_pks: Iterable[int]) -> None:
    """These sessions changed (called from any thread): wake the streams that show them."""
    touched = frozenset(session_pks)
    if not touched:
        return
    with _changed:
        for session_pk in touched:
            _generations[session_pk] = _generations.get(session_pk, 0) + 1
        _changed.notify_all()
        subscribers = list(_subscribers)
    for subscriber in subscribers:
        subscriber(touched)


def subscribe(callback: Callable[[frozenset[int]], None]) -> None:
    """Call ``callback`` (from the thread that heard it) with every set of changed sessions."""
    with _changed:
        _subscribers.append(callback)


@contextmanager
def watching(database: str, session_pk: int) -> Iterator[None]:
    """Count a stream of the session open while the block runs (the SQLite poll asks only for
    sessions someone watches)."""
    with _changed:
        _watched.setdefault(database, Counter())[session_pk] += 1
    try:
        yield
    finally:
        with _changed:
            counts = _watched[database]
            counts[session_pk] -= 1
            if counts[session_pk] <= 0:
                del counts[session_pk]


def watched(database: str) -> frozenset[int]:
    with _changed:
        return frozenset(_watched.get(database, ()))


@event.listens_for(Session, "after_flush")
def _note_touched_sessions(db_session: Session, _flush_context: Any) -> None:
    touched = db_session.info.setdefault(_TOUCHED, set())
    for row in (*db_session.new, *db_session.dirty, *db_session.deleted):
        session_pk = row.id if isinstance(row, ScoreSession) else getattr(row, "session_id", None)
        if isinstance(session_pk, int):
            touched.add(session_pk)
    connection = db_session.connection()
    if connection.dialect.name == "postgresql":
        notified = db_session.info.setdefault(_NOTIFIED, set())
        for session_pk in touched - notified:
            # Delivered by PostgreSQL at commit only, and dropped with a rollback.
            connection.exec_driver_sql("SELECT pg_notify(%s, %s)", (CHANNEL, str(session_pk)))
            notified.add(session_pk)


@event.listens_for(Session, "after_commit")
def _wake_streams(db_session: Session) -> None:
    db_session.info.pop(_NOTIFIED, None)
    changed(db_session.info.pop(_TOUCHED, set()))


@event.listens_for(Session, "after_soft_rollback")
def _forget_touched_sessions(db_session: Session, _previous_transaction: Any) -> None:
    db_session.info.pop(_TOUCHED, None)
    db_session.info.pop(_NOTIFIED, None)
