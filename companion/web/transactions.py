"""One transaction per request, with the lock a write needs taken at its very start.

SQLite: the standard library driver opens a transaction only before the first write and runs
every read on its own, so two queries of one page can see two states of the database (a game
undone between them), and two writers that both read before they write fail with "database is
locked" instead of waiting. Here SQLAlchemy opens every transaction itself: ``BEGIN`` for a
read (one snapshot for all its queries), ``BEGIN IMMEDIATE`` for a write, which takes the write
lock at once, so concurrent writers queue on the busy timeout instead of failing halfway.

PostgreSQL: a read runs at REPEATABLE READ (one snapshot for all its queries); a write runs at
the default READ COMMITTED and locks the row of the session it changes (``SELECT ... FOR
UPDATE``, see ``companion.web.scores.service.lock_session``), so writes to one session happen
one after the other while other sessions are written in parallel.
"""

from __future__ import annotations

import threading
from typing import Any

from flask import g
from sqlalchemy import event
from sqlalchemy.engine import Connection, Engine

from companion.web.extensions import db

WRITE_OPTION = "companion_write"
"""Execution option that marks a transaction as a write (SQLite: BEGIN IMMEDIATE)."""


WRITE_QUEUE_WAIT_SECONDS = 60.0
_write_queues: dict[str, threading.Lock] = {}
_write_queues_guard = threading.Lock()


def begin_write() -> None:
    """Start this request's transaction as a write. Call before its first query.

    On SQLite the threads of one process first queue on a lock of their own: SQLite's busy
    handler polls with growing sleeps, so under load a waiting writer can lose the race again
    and again until its timeout ("database is locked"); a queue in the process lets each wait
    its turn, and only writers of other processes meet the busy handler. The turn ends when
    the request does (``end_write``).
    """
    _start_fresh()
    if db.engine.dialect.name == "sqlite" and "companion_write_queue" not in g:
        queue = _write_queue(str(db.engine.url))
        if queue.acquire(timeout=WRITE_QUEUE_WAIT_SECONDS):
            g.companion_write_queue = queue
    db.session.connection(execution_options={WRITE_OPTION: True})


def end_write(_error: BaseException | None = None) -> None:
    """Give the write turn to the next thread (at the end of every request)."""
    queue = g.pop("companion_write_queue", None)
    if queue is not None:
        queue.release()


def _write_queue(database: str) -> threading.Lock:
    with _write_queues_guard:
        return _write_queues.setdefault(database, threading.Lock())


def begin_read() -> None:
    """Start this request's transaction as a read that sees one consistent state."""
    _start_fresh()
    if db.session.get_bind().dialect.name == "postgresql":
        db.session.connection(execution_options={"isolation_level": "REPEATABLE READ"})


def _start_fresh() -> None:
    """A transaction already open (an earlier query of the same request) ends first: its
    isolation and locks are fixed once it has begun."""
    if db.session().in_transaction():
        if db.session.new or db.session.dirty or db.session.deleted:
            raise RuntimeError("a write transaction must start before anything is changed")
        db.session.rollback()


@event.listens_for(Engine, "connect")
def _sqlite_transactions_by_sqlalchemy(dbapi_connection: Any, _record: Any) -> None:
    # The driver's own transaction handling off: the "begin" listener below opens them.
    if type(dbapi_connection).__module__.startswith("sqlite3"):
        dbapi_connection.isolation_level = None


@event.listens_for(Engine, "begin")
def _sqlite_begin(connection: Connection) -> None:
    if connection.dialect.name == "sqlite":
        immediate = connection.get_execution_options().get(WRITE_OPTION)
        connection.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")
