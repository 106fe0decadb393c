"""`companion serve` on PostgreSQL through DATABASE_URL: migrated first, every page served."""

from __future__ import annotations

import sys
from pathlib import Path

from sqlalchemy import create_engine, text

from companion.web import create_app
from companion.web.extensions import db
from tests.every_page import HttpBrowser, visit_every_page
from tests.postgres.conftest import PostgresCluster
from tests.serving import server_environment, serving


def test_serve_migrates_an_empty_postgresql_database_and_serves_every_page(
        tmp_path: Path, postgres: PostgresCluster) -> None:
    url = postgres.url(postgres.create_database(), scheme="postgresql")  # as a host gives it
    environment = server_environment(DATABASE_URL=url, COMPANION_INSTANCE=str(tmp_path))
    url_map_app = create_app({"SECRET_KEY": "x", "SQLALCHEMY_DATABASE_URI": "sqlite://"})
    with serving([sys.executable, "-m", "companion", "serve", "--threads", "3"],
                 environment=environment, log=tmp_path / "server.log", cwd=tmp_path) as server:
        visit_every_page(HttpBrowser(server.url), url_map_app)
    assert not (tmp_path / "companion.sqlite").exists()
    engine = create_engine(url.replace("postgresql://", "postgresql+psycopg://", 1))
    with engine.connect() as connection:
        assert connection.execute(text("SELECT version_num FROM alembic_version")).scalar()
        tables = connection.execute(text(
            "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'"))
        assert tables.scalar() >= 3  # the walk's session was kept in PostgreSQL, not SQLite
    engine.dispose()


def test_the_postgresql_pool_holds_a_connection_per_thread_and_checks_it_before_use(
        postgres: PostgresCluster, migrated_template: str) -> None:
    app = create_app({"SECRET_KEY": "x", "DATABASE_POOL_SIZE": 6,
                      "SQLALCHEMY_DATABASE_URI": postgres.url(migrated_template)})
    with app.app_context():
        assert db.engine.pool.size() == 6
        assert db.engine.pool._pre_ping
        db.engine.dispose()
