"""The web layer: an app factory, one blueprint package per feature.

``companion serve`` serves it (``flask --app companion.web run`` for development).
Configuration comes from the defaults below, then ``instance/config.py``, then ``FLASK_*``
environment variables; ``DATABASE_URL`` points the database at PostgreSQL, ``SECRET_KEY`` and
``COMPANION_BASE_URL`` are read from the environment too.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any

from flask import Flask, get_flashed_messages, jsonify, render_template, request
from flask_wtf.csrf import CSRFError, generate_csrf
from sqlalchemy import event
from sqlalchemy.engine import Engine
from werkzeug.exceptions import HTTPException

from companion.web import guards, hosting
from companion.web.api import register_api_errors
from companion.web.extensions import csrf, db, migrate

PACKAGE_ROOT = Path(__file__).resolve().parents[1]
PROJECT_ROOT = PACKAGE_ROOT.parent
MAX_UPLOAD_BYTES = 40 * 1024 * 1024  # vision.MAX_BYTES: a 50 MP phone photo
# A checkout keeps templates/, static/ and migrations/ at its top; a wheel ships them inside the
# package (companion/templates, ...), see setup.py.
FROM_CHECKOUT = not (PACKAGE_ROOT / "templates").is_dir()


def shipped_folder(name: str) -> Path:
    """templates, static or migrations: at the top of a checkout, in the installed package."""
    return PROJECT_ROOT / name if FROM_CHECKOUT else PACKAGE_ROOT / name


def _default_instance_path() -> str | None:
    """``COMPANION_INSTANCE``, else instance/ of the checkout, else Flask's choice for an
    installed package (``<venv>/var/companion.web-instance``)."""
    if configured := os.environ.get("COMPANION_INSTANCE"):
        return configured
    return str(PROJECT_ROOT / "instance") if FROM_CHECKOUT else None


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    app = Flask(
        __name__,
        instance_path=_default_instance_path(),
        instance_relative_config=True,
        template_folder=str(shipped_folder("templates")),
        static_folder=str(shipped_folder("static")),
    )
    Path(app.instance_path).mkdir(parents=True, exist_ok=True)
    app.config.from_mapping(
        SQLALCHEMY_DATABASE_URI=_database_url(app.instance_path),
        MAX_CONTENT_LENGTH=MAX_UPLOAD_BYTES,
        WTF_CSRF_TIME_LIMIT=None,
        SECRET_KEY=os.environ.get("SECRET_KEY"),
        COMPANION_BASE_URL=os.environ.get("COMPANION_BASE_URL"),
    )
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
        app.config.from_prefixed_env()
    else:
        app.config.from_mapping(test_config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _instance_secret_key(Path(app.instance_path))
        app.config["SECRET_KEY_GENERATED"] = True
    _size_the_pool(app)

    db.init_app(app)
    migrate.init_app(app, db, directory=str(shipped_folder("migrations")))
    csrf.init_app(app)
    guards.init_app(app)  # inside hosting's wrappers: checks the Host the app will see
    hosting.init_app(app)

    from companion.web import models, openapi  # noqa: F401  (models registers the tables)
    from companion.web.check import api as check_api
    from companion.web.check import views as check_views
    from companion.web.photos import api as photos_api
    from companion.web.photos import views as photos_views
    from companion.web.scores import api as scores_api
    from companion.web.scores import views as scores_views
    from companion.web.solve import api as solve_api
    from companion.web.solve import views as solve_views
    from companion.web.turns import api as turns_api
    from companion.web.turns import views as turns_views

    for page_blueprint in (check_views.bp, scores_views.bp, turns_views.bp, photos_views.bp,
                           solve_views.bp):
        app.register_blueprint(page_blueprint)
    for api_blueprint in (check_api.bp, scores_api.bp, turns_api.bp, photos_api.bp,
                          solve_api.bp, openapi.bp):
        csrf.exempt(api_blueprint)
        app.register_blueprint(api_blueprint, url_prefix="/api/v1")
    _register_live(app)

    from companion.web.groups import api as groups_api
    from companion.web.groups import views as groups_views

    app.register_blueprint(groups_views.bp)
    csrf.exempt(groups_api.bp)
    app.register_blueprint(groups_api.bp, url_prefix="/api/v1")

    _register_nights(app)

    from companion.web.languages import init_languages

    init_languages(app)

    _register_error_pages(app)
    _start_sessions_on_the_first_page(app)
    _show_messages_only_on_pages_opened(app)
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


def _register_nights(app: Flask) -> None:
    """Club nights: many tables, one standings (companion/web/nights)."""
    from companion.web.nights import api as nights_api
    from companion.web.nights import live as nights_live
    from companion.web.nights import ratings as nights_ratings
    from companion.web.nights import views as nights_views

    app.register_blueprint(nights_views.bp)
    app.register_blueprint(nights_ratings.bp)
    for api_blueprint in (nights_api.bp, nights_live.bp):
        csrf.exempt(api_blueprint)
        app.register_blueprint(api_blueprint, url_prefix="/api/v1")


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


def _size_the_pool(app: Flask) -> None:
    """One database connection per server thread (``DATABASE_POOL_SIZE``, set by ``serve``)."""
    pool_size = app.config.get("DATABASE_POOL_SIZE")
    url = str(app.config["SQLALCHEMY_DATABASE_URI"])
    if pool_size and ":memory:" not in url:
        options = {"pool_size": int(pool_size), "max_overflow": 4, "pool_timeout": 30}
        if not url.startswith("sqlite"):
            options["pool_pre_ping"] = True
        app.config["SQLALCHEMY_ENGINE_OPTIONS"] = options | app.config.get(
            "SQLALCHEMY_ENGINE_OPTIONS", {})


def _instance_secret_key(instance: Path) -> str:
    """Generate a secret key into the instance folder on first run, never a fixed one."""
    key_file = instance / "secret_key"
    if not key_file.exists():
        key_file.write_text(secrets.token_hex(32))
        key_file.chmod(0o600)
    return key_file.read_text().strip()


SQLITE_BUSY_TIMEOUT_MS = 10_000


@event.listens_for(Engine, "connect")
def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    """Foreign keys on; WAL so readers never wait for a writer; a writer waits its turn
    (up to the busy timeout) instead of failing with "database is locked"."""
    if type(dbapi_connection).__module__.startswith("sqlite3"):
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.close()


def _register_error_pages(app: Flask) -> None:
    """API paths answer errors in JSON; pages answer with the base layout."""

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> Any:
        if request.path.startswith("/api/"):
            return jsonify(error=error.description, where=None), error.code
        return render_template("error.html", error=error), error.code

    @app.errorhandler(CSRFError)
    def form_expired(error: CSRFError) -> Any:
        """A form sent with a token this browser's session no longer holds (the browser
        dropped its cookies while the page stayed open): say so, and offer the form again."""
        from companion.web.languages import referrer_path

        return render_template("error.html", error=error, form_expired=True,
                               back=referrer_path()), error.code


def _start_sessions_on_the_first_page(app: Flask) -> None:
    """The first page a browser opens starts its session, with the token its forms carry.

    Without it, on a first visit the pages that the service worker and the offline prefetch
    fetch in the background would each start a session of their own, racing the page on
    screen: the last cookie stored would not match the form shown, and the first form sent
    would be refused (seen in the end-to-end tests under load)."""

    @app.before_request
    def start_session() -> None:
        if request.method == "GET" and not request.path.startswith(("/api/", "/static/")):
            generate_csrf()


def _show_messages_only_on_pages_opened(app: Flask) -> None:
    """A one-time message ("Session started") is taken by the page the browser opens, not by a
    page fetched in the background.

    The service worker and the offline prefetch fetch pages with ``fetch()`` while the player
    moves on; one landing between a form's redirect and the page it leads to took the message,
    and the page shown had none (seen in the end-to-end tests). Browsers mark what they open
    with ``Sec-Fetch-Mode: navigate``; clients that send no such header are served as before."""

    @app.context_processor
    def page_messages() -> dict[str, object]:
        def messages() -> list[tuple[str, str]]:
            if request.headers.get("Sec-Fetch-Mode", "navigate") != "navigate":
                return []
            return get_flashed_messages(with_categories=True)

        return {"page_messages": messages}
