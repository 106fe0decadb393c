"""``companion serve``: bring the database up to date, then serve with Hypercorn.

Hypercorn's asyncio worker holds every connection in an event loop: a request still being sent
and an open live stream cost no thread. The Flask app runs in a pool of ``--threads`` threads
per worker process (``front``), and only once its request has fully arrived: pages and the API
are short and mostly wait on the database, which threads do well in Python, and the photo
reader's number crunching does not stop the loop. Why this and not gunicorn's gevent worker,
with the figures: docs/hosting.md ("Run it for a club").
"""

from __future__ import annotations

import asyncio
import errno
import os
import resource
import socket
import sys

from flask import Flask

LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1"})
# Connections waiting to be accepted: a club's phones all reconnect at once after a restart.
BACKLOG = 2048


class CannotServe(Exception):
    """A setting or the database stops the server before it starts: said in one sentence."""


def migrate_database(app: Flask) -> None:
    """The same as ``flask db upgrade``; the master's connections are closed before forking."""
    from flask_migrate import upgrade
    from sqlalchemy.exc import SQLAlchemyError

    from companion.web.extensions import db

    with app.app_context():
        try:
            upgrade()
        except SQLAlchemyError as error:
            where = db.engine.url.render_as_string(hide_password=True)
            raise CannotServe(f"cannot prepare the database {where}: "
                              f"{getattr(error, 'orig', None) or error}") from error
        finally:
            db.engine.dispose()


def check_can_listen(host: str, port: int) -> None:
    """Refuse, in one sentence, an address this machine cannot listen on (a port another
    server holds, a host name that does not resolve, a port below 1024 without the right to
    it) before anything else is done. Gunicorn would retry for five seconds, print a log line
    each time and exit 1 with "Can't connect"."""
    try:
        family, kind, protocol, _name, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM)[0]
        with socket.socket(family, kind, protocol) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as gunicorn binds
            probe.bind(address)
    except OSError as error:  # socket.gaierror is an OSError too
        in_use = (f" (is another server running there? choose another port: --port {port + 1},"
                  f" or make run PORT={port + 1})") if error.errno == errno.EADDRINUSE else ""
        raise CannotServe(f"cannot listen on {host}:{port}: "
                          f"{error.strerror or error}{in_use}") from error


def prepare_database(app: Flask) -> None:
    """Make the database ready for a command that reads or writes it (``export``, ``import``),
    as ``serve`` does first: a new database gets every table, an older one is upgraded.

    A database whose tables ``db.create_all()`` made (no migration history: tests, a shell)
    is used as it is: upgrading it would try to create its tables a second time.
    """
    from sqlalchemy import inspect
    from sqlalchemy.exc import SQLAlchemyError

    from companion.web.extensions import db

    with app.app_context():
        try:
            tables = set(inspect(db.engine).get_table_names())
            up_to_date = "alembic_version" in tables and _at_the_newest_revision(app)
        except SQLAlchemyError as error:
            where = db.engine.url.render_as_string(hide_password=True)
            raise CannotServe(f"cannot open the database {where}: "
                              f"{getattr(error, 'orig', None) or error}") from error
    if (tables and "alembic_version" not in tables) or up_to_date:
        return  # an up-to-date database: no migration, and none of Alembic's log lines
    migrate_database(app)


def _at_the_newest_revision(app: Flask) -> bool:
    """Whether the database already carries every migration (read without running Alembic's
    env.py, whose logging would print its lines before every ``export``)."""
    from alembic.runtime.migration import MigrationContext
    from alembic.script import ScriptDirectory

    from companion.web.extensions import db

    newest = set(ScriptDirectory(app.extensions["migrate"].directory).get_heads())
    with db.engine.connect() as connection:
        return set(MigrationContext.configure(connection).get_current_heads()) == newest


def serve(*, host: str, port: int, threads: int, workers: int) -> None:
    from companion.web import create_app

    # Every worker reads its pool size from the environment it inherits: a connection a thread.
    os.environ.setdefault("FLASK_DATABASE_POOL_SIZE", str(threads))
    try:
        app = create_app()
    except ValueError as error:  # a setting that cannot work, such as COMPANION_BASE_URL
        raise CannotServe(str(error)) from error
    if workers > 1 and app.config.get("SECRET_KEY_GENERATED"):
        raise CannotServe(
            f"--workers {workers} needs SECRET_KEY in the environment: every worker process "
            "must sign the session cookies with the same key. For example: "
            "SECRET_KEY=$(python3 -c 'import secrets; print(secrets.token_hex(32))')")
    if not app.config.get("COMPANION_BASE_URL") and host not in LOOPBACK:
        print("companion serve: COMPANION_BASE_URL is not set, so share links are built from "
              "the Host header each phone sends; set it to the address phones use.",
              file=sys.stderr)
    check_can_listen(host, port)
    migrate_database(app)
    raise_open_files_limit()
    from hypercorn.config import Config
    from hypercorn.run import run

    from companion.web.front import REQUEST_HEAD_SECONDS, THREADS_VARIABLE
    from companion.web.serverlog import RedactingLogger

    os.environ[THREADS_VARIABLE] = str(threads)
    config = Config.from_mapping({
        "bind": [f"{host}:{port}"],
        "workers": workers,
        "application_path": "companion.web.front:serving_app()",
        "backlog": BACKLOG,
        "keep_alive_timeout": REQUEST_HEAD_SECONDS,  # also the deadline of a request's head
        "graceful_timeout": 5,
        "accesslog": None,  # the app logs one line per request, with its request id
        "errorlog": "-",
    })
    config.logger_class = RedactingLogger  # no key in a log line
    if workers == 1:  # served in this process: no worker to spawn, and a stop that ends the
        # live streams first (Hypercorn's own workers wait graceful_timeout for them)
        from hypercorn.asyncio import serve as serve_here

        from companion.web.front import serving_app

        front = serving_app()
        asyncio.run(serve_here(front, config,  # type: ignore[arg-type]
                               shutdown_trigger=front.until_stopped))
        return
    sys.exit(run(config))


def raise_open_files_limit() -> None:
    """Every open stream is a connection, and a connection a file descriptor: the soft limit
    (often 1,024) is raised to the hard one, so a club's thousand phones fit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        except (ValueError, OSError):
            pass  # kept as it is: the server still runs, with fewer streams
