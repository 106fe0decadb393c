"""The web layer: an app factory, one blueprint package per feature.

``flask --app companion.web run`` serves it. Configuration comes from the defaults below,
then ``instance/config.py``, then ``FLASK_*`` environment variables; ``DATABASE_URL`` points
the database at PostgreSQL.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any

from flask import Flask, jsonify, render_template, request
from sqlalchemy import event
from sqlalchemy.engine import Engine
from werkzeug.exceptions import HTTPException

from companion.web.api import register_api_errors
from companion.web.extensions import csrf, db, migrate

PROJECT_ROOT = Path(__file__).resolve().parents[2]
MAX_UPLOAD_BYTES = 20 * 1024 * 1024


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    app = Flask(
        __name__,
        instance_path=os.environ.get("COMPANION_INSTANCE", str(PROJECT_ROOT / "instance")),
        instance_relative_config=True,
        template_folder=str(PROJECT_ROOT / "templates"),
        static_folder=str(PROJECT_ROOT / "static"),
    )
    Path(app.instance_path).mkdir(parents=True, exist_ok=True)
    app.config.from_mapping(
        SQLALCHEMY_DATABASE_URI=_database_url(app.instance_path),
        MAX_CONTENT_LENGTH=MAX_UPLOAD_BYTES,
        WTF_CSRF_TIME_LIMIT=None,
    )
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
        app.config.from_prefixed_env()
    else:
        app.config.from_mapping(test_config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _instance_secret_key(Path(app.instance_path))

    db.init_app(app)
    migrate.init_app(app, db, directory=str(PROJECT_ROOT / "migrations"))
    csrf.init_app(app)

    from companion.web import models  # noqa: F401  (registers the tables)
    from companion.web.check import api as check_api
    from companion.web.check import views as check_views
    from companion.web.photos import api as photos_api
    from companion.web.photos import views as photos_views
    from companion.web.scores import api as scores_api
    from companion.web.scores import views as scores_views
    from companion.web.turns import api as turns_api
    from companion.web.turns import views as turns_views

    for page_blueprint in (check_views.bp, scores_views.bp, turns_views.bp, photos_views.bp):
        app.register_blueprint(page_blueprint)
    for api_blueprint in (check_api.bp, scores_api.bp, turns_api.bp, photos_api.bp):
        csrf.exempt(api_blueprint)
        app.register_blueprint(api_blueprint, url_prefix="/api/v1")
    _register_live(app)

    _register_error_pages(app)
    register_api_errors(app)
    app.context_processor(lambda: {"url_names": frozenset(app.view_functions)})
    return app


def _register_live(app: Flask) -> None:
    """Live updates, the TV view, the manifest and the service worker (companion/web/live)."""
    from companion.web.live import events as live_events
    from companion.web.live import views as live_views

    app.register_blueprint(live_views.bp)
    csrf.exempt(live_events.bp)
    app.register_blueprint(live_events.bp, url_prefix="/api/v1")


def _database_url(instance_path: str) -> str:
    url = os.environ.get("DATABASE_URL")
    if url:
        # Hosting platforms still hand out the old scheme name, and a bare scheme would pick
        # psycopg2 on older SQLAlchemy: name the driver the project installs (psycopg 3).
        for scheme in ("postgres://", "postgresql://"):
            if url.startswith(scheme):
                return "postgresql+psycopg://" + url[len(scheme):]
        return url
    return "sqlite:///" + str(Path(instance_path) / "companion.sqlite")


def _instance_secret_key(instance: Path) -> str:
    """Generate a secret key into the instance folder on first run, never a fixed one."""
    key_file = instance / "secret_key"
    if not key_file.exists():
        key_file.write_text(secrets.token_hex(32))
        key_file.chmod(0o600)
    return key_file.read_text().strip()


@event.listens_for(Engine, "connect")
def _sqlite_foreign_keys(dbapi_connection: Any, _record: Any) -> None:
    if type(dbapi_connection).__module__.startswith("sqlite3"):
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()


def _register_error_pages(app: Flask) -> None:
    """API paths answer errors in JSON; pages answer with the base layout."""

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> Any:
        if request.path.startswith("/api/"):
            return jsonify(error=error.description), error.code
        return render_template("error.html", error=error), error.code
