"""Fixtures for the PostgreSQL tests: a throwaway cluster of Debian's own server, per test run.

The cluster lives in a temp folder, listens only on a unix socket in that folder (no TCP port to
clash with anything), trusts local connections and skips fsync, so it starts in about a second.
PostgreSQL refuses to run as root, so under root (CI) the server runs as ``nobody``, who owns the
folder. Each test gets its own database cloned from a migrated template, which is faster than
migrating again and keeps the tests independent of each other.
"""

from __future__ import annotations

import glob
import itertools
import os
import pwd
import shlex
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import URL

from companion.web import create_app
from companion.web.extensions import db

SUPERUSER = "companion"
UNPRIVILEGED_USER = "nobody"
TEMPLATE_DATABASE = "companion_migrated"


def postgres_bin_dir() -> Path | None:
    """Where ``initdb`` and ``pg_ctl`` are: on PATH, else Debian's newest /usr/lib/postgresql/N."""
    on_path = shutil.which("initdb")
    if on_path and shutil.which("pg_ctl"):
        return Path(on_path).parent
    debian = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                    key=lambda path: int(Path(path).parts[-3]), reverse=True)
    for initdb in debian:
        if (Path(initdb).parent / "pg_ctl").exists():
            return Path(initdb).parent
    return None


@dataclass
class PostgresCluster:
    """A running throwaway cluster: hands out SQLAlchemy URLs and fresh databases."""

    bin_dir: Path
    folder: Path
    run_as: list[str]
    _numbers: Iterator[int] = field(default_factory=itertools.count)

    def url(self, database: str, scheme: str = "postgresql+psycopg") -> str:
        return URL.create(scheme, username=SUPERUSER, database=database,
                          query={"host": str(self.folder)}).render_as_string()

    def create_database(self, template: str | None = None) -> str:
        """A new empty database (or a copy of ``template``); returns its name."""
        import psycopg

        name = f"companion_test_{next(self._numbers)}"
        clause = f" TEMPLATE {template}" if template else ""
        with psycopg.connect(host=str(self.folder), user=SUPERUSER, dbname="postgres",
                             autocommit=True) as connection:
            connection.execute(f"CREATE DATABASE {name}{clause}")
        return name

    def pg_ctl(self, *arguments: str) -> None:
        run([*self.run_as, str(self.bin_dir / "pg_ctl"), "-D", str(self.folder / "data"),
             *arguments])


def run(command: list[str]) -> None:
    """Run a server command; on failure show its output, which says why (permissions, locale)."""
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{shlex.join(command)} failed ({done.returncode}):\n"
                           f"{done.stdout}\n{done.stderr}")


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresCluster]:
    bin_dir = postgres_bin_dir()
    if bin_dir is None:
        if os.environ.get("CI"):
            pytest.fail("PostgreSQL's initdb/pg_ctl are missing: `make test` installs Debian's "
                        "postgresql package")
        pytest.skip("PostgreSQL's initdb/pg_ctl are missing: run `make postgres`")
    folder = Path(tempfile.mkdtemp(prefix="companion-pg-"))
    run_as: list[str] = []
    if os.geteuid() == 0:
        user = pwd.getpwnam(UNPRIVILEGED_USER)
        os.chown(folder, user.pw_uid, user.pw_gid)
        run_as = ["runuser", "-u", UNPRIVILEGED_USER, "--"]
    cluster = PostgresCluster(bin_dir, folder, run_as)
    try:
        run([*run_as, str(bin_dir / "initdb"), "-D", str(folder / "data"), "-U", SUPERUSER,
             "--auth=trust", "--encoding=UTF8", "--locale=C", "--no-sync", "--no-instructions"])
        server_options = f"-k {shlex.quote(str(folder))} -c listen_addresses='' -F"
        log = folder / "server.log"
        try:
            cluster.pg_ctl("-l", str(log), "-o", server_options, "-w", "-t", "30", "start")
        except RuntimeError as failure:
            server_said = log.read_text() if log.exists() else "(no log written)"
            raise RuntimeError(f"{failure}\nserver log:\n{server_said}") from None
        try:
            yield cluster
        finally:
            cluster.pg_ctl("-m", "fast", "-w", "stop")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def postgres_app(url: str) -> Flask:
    return create_app({"TESTING": True, "SECRET_KEY": "test", "WTF_CSRF_ENABLED": False,
                       "SQLALCHEMY_DATABASE_URI": url})


def dispose(app: Flask) -> None:
    """Close the app's pooled connections, so the database can be cloned or the server stopped."""
    with app.app_context():
        db.engine.dispose()


@pytest.fixture(scope="session")
def migrated_template(postgres: PostgresCluster) -> str:
    """A database migrated once with the real migrations; tests get copies of it."""
    from flask_migrate import upgrade

    name = postgres.create_database()
    app = postgres_app(postgres.url(name))
    with app.app_context():
        upgrade()
    dispose(app)
    return name


@pytest.fixture
def app(postgres: PostgresCluster, migrated_template: str) -> Iterator[Flask]:
    """The real app on its own freshly migrated PostgreSQL database, CSRF off."""
    app = postgres_app(postgres.url(postgres.create_database(template=migrated_template)))
    yield app
    dispose(app)


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()
