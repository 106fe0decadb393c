"""``companion serve``: bring the database up to date, then serve with gunicorn.

Gunicorn's ``gthread`` worker: each worker process answers with a pool of threads, so a request
that stays open (live updates by Server-Sent Events) holds one thread, not a whole process, and
the other threads keep answering. Pages and the API are short and mostly wait on the database,
which threads do well in Python. See "Run it for a club" in the README.
"""

from __future__ import annotations

import errno
import os
import socket
import sys
from typing import Any

from flask import Flask
from gunicorn.app.base import BaseApplication

LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1"})


class CannotServe(Exception):
    """A setting or the database stops the server before it starts: said in one sentence."""


class CompanionServer(BaseApplication):  # type: ignore[misc]
    """Gunicorn run from Python: every worker process builds its own app after the fork."""

    def __init__(self, options: dict[str, Any]) -> None:
        self.options = options
        super().__init__()

    def load_config(self) -> None:
        for name, value in self.options.items():
            self.cfg.set(name, value)
        # Gunicorn 25+ opens a control socket at one fixed path per user: two servers on one
        # machine would fight over it, and nothing here uses it.
        if "control_socket_disable" in self.cfg.settings:
            self.cfg.set("control_socket_disable", True)

    def load(self) -> Flask:
        from companion.web import create_app

        return create_app()


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
    CompanionServer({
        "bind": f"{host}:{port}",
        "workers": workers,
        "threads": threads,
        "worker_class": "gthread",
        # A live stream never ends by itself: on Ctrl-C or SIGTERM a worker would wait for it
        # gunicorn's default 30 s. A page or API answer takes well under a second.
        "graceful_timeout": 3,
        "proc_name": "companion",
        "accesslog": None,  # the app logs one line per request, with its request id
        "errorlog": "-",
        "logger_class": "companion.web.serverlog.RedactingLogger",  # no key in a log line
    }).run()
