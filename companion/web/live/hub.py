"""Wakes this process's streams at the moment this process commits a change to a session.

The database stays the source of truth: a woken stream still asks it for the session's
version, and streams still ask on their own every ``LIVE_POLL_SECONDS`` for the writes made by
other processes. This only saves the wait when the write and the stream share a process (the
embedded SQLite default, one server process), which is the common case at a kitchen table.
"""

from __future__ import annotations

import threading
from typing import Any

from sqlalchemy import event
from sqlalchemy.orm import Session

from companion.web.models import ScoreSession

_changed = threading.Condition()
_generations: dict[int, int] = {}
_TOUCHED = "live_touched_sessions"


def generation(session_pk: int) -> int:
    """How many commits of this process have touched the session so far."""
    with _changed:
        return _generations.get(session_pk, 0)


def wait_for_change(session_pk: int, seen: int, timeout: float) -> None:
    """Return when a commit touched the session after ``seen``, or after ``timeout`` seconds."""
    with _changed:
        _changed.wait_for(lambda: _generations.get(session_pk, 0) != seen, timeout)


@event.listens_for(Session, "after_flush")
def _note_touched_sessions(db_session: Session, _flush_context: Any) -> None:
    touched = db_session.info.setdefault(_TOUCHED, set())
    for row in (*db_session.new, *db_session.dirty, *db_session.deleted):
        session_pk = row.id if isinstance(row, ScoreSession) else getattr(row, "session_id", None)
        if isinstance(session_pk, int):
            touched.add(session_pk)


@event.listens_for(Session, "after_commit")
def _wake_streams(db_session: Session) -> None:
    touched = db_session.info.pop(_TOUCHED, set())
    if touched:
        with _changed:
            for session_pk in touched:
                _generations[session_pk] = _generations.get(session_pk, 0) + 1
            _changed.notify_all()


@event.listens_for(Session, "after_soft_rollback")
def _forget_touched_sessions(db_session: Session, _previous_transaction: Any) -> None:
    db_session.info.pop(_TOUCHED, None)
