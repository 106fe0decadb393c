"""What serving the pages to a club needs around them: security headers, body limits, a log
line per request, a health check, links from the configured address, a reverse proxy.

Each piece is a request hook or a WSGI wrapper, so the blueprints know nothing of it.
"""

from __future__ import annotations

import logging
import re
import sys
import time
from secrets import token_hex
from typing import Any
from urllib.parse import urlsplit

from flask import Blueprint, Flask, current_app, g, jsonify, render_template, request
from flask.sessions import SecureCookieSessionInterface
from flask.wrappers import Request
from jinja2 import TemplateError
from sqlalchemy import text
from sqlalchemy.exc import SQLAlchemyError
from werkzeug.exceptions import InternalServerError, RequestEntityTooLarge
from werkzeug.middleware.proxy_fix import ProxyFix
from werkzeug.wrappers import Response

from companion.web.extensions import db

# Photos keep MAX_CONTENT_LENGTH (40 MB); every other form and API reads at most this much.
MAX_BODY_BYTES = 64 * 1024
LARGE_UPLOAD_BLUEPRINTS = frozenset({"photos", "photos_api"})

# No 'unsafe-inline' anywhere: scripts and styles come only from static/. The photo page shows
# the annotated picture as a data: URL.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; "
    "img-src 'self' data:; "
    "object-src 'none'; "
    "base-uri 'none'; "
    "form-action 'self'; "
    "frame-ancestors 'none'"
)
SECURITY_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
    "Cross-Origin-Opener-Policy": "same-origin",
}
# A request id handed in by a reverse proxy is kept when it looks like one.
REQUEST_ID_PATTERN = re.compile(r"[A-Za-z0-9._-]{1,64}")
REQUEST_LOG = logging.getLogger("companion.requests")

bp = Blueprint("hosting", __name__)


class SizedRequest(Request):
    """A request whose body limit depends on where it goes: large for photos, small elsewhere.

    Decided before any ``before_request`` hook reads the form (CSRF protection does), because the
    URL is matched when the request context is pushed.
    """

    @property
    def max_content_length(self) -> int | None:
        if self._max_content_length is not None:
            return self._max_content_length
        if not current_app:
            return super().max_content_length
        if self.blueprint in LARGE_UPLOAD_BLUEPRINTS:
            return current_app.config["MAX_CONTENT_LENGTH"]  # type: ignore[no-any-return]
        return current_app.config["MAX_BODY_BYTES"]  # type: ignore[no-any-return]

    @max_content_length.setter
    def max_content_length(self, value: int | None) -> None:
        self._max_content_length = value


class SessionInterface(SecureCookieSessionInterface):
    """The session cookie is marked Secure whenever the page was reached over HTTPS."""

    def get_cookie_secure(self, app: Flask) -> bool:
        return super().get_cookie_secure(app) or request.is_secure


class ConfiguredBaseUrl:
    """WSGI wrapper: every request is seen at the configured address, whatever Host it sent.

    Links (``url_for(..., _external=True)``), redirects and the Secure cookie flag then follow
    ``COMPANION_BASE_URL`` instead of a header the client chose.
    """

    def __init__(self, wsgi_app: Any, base_url: str) -> None:
        parts = urlsplit(base_url)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise ValueError(f"COMPANION_BASE_URL must look like https://scores.example.org, "
                             f"not {base_url!r}")
        self.wsgi_app = wsgi_app
        self.scheme, self.host, self.prefix = parts.scheme, parts.netloc, parts.path.rstrip("/")

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
        environ["wsgi.url_scheme"] = self.scheme
        environ["HTTP_HOST"] = self.host
        if self.prefix:
            environ["SCRIPT_NAME"] = self.prefix
            path = environ.get("PATH_INFO", "")
            if path.startswith(self.prefix + "/") or path == self.prefix:
                environ["PATH_INFO"] = path[len(self.prefix):]
        return self.wsgi_app(environ, start_response)


def init_app(app: Flask) -> None:
    app.config.setdefault("MAX_BODY_BYTES", MAX_BODY_BYTES)
    if app.config.get("SESSION_COOKIE_SAMESITE") is None:  # Flask's default sends no SameSite
        app.config["SESSION_COOKIE_SAMESITE"] = "Lax"
    app.config["SESSION_COOKIE_HTTPONLY"] = True
    app.request_class = SizedRequest
    app.session_interface = SessionInterface()
    if base_url := app.config.get("COMPANION_BASE_URL"):
        app.wsgi_app = ConfiguredBaseUrl(app.wsgi_app, base_url)  # type: ignore[method-assign]
    # Opt-in: only behind a reverse proxy that sets X-Forwarded-*, else a client could forge them.
    if proxies := int(app.config.get("PROXY_FIX") or 0):
        app.wsgi_app = ProxyFix(  # type: ignore[method-assign]
            app.wsgi_app, x_for=proxies, x_proto=proxies, x_host=proxies, x_prefix=proxies)
    _configure_request_log()
    # First of all hooks: CSRF protection reads the body, which may already be refused (413).
    app.before_request_funcs.setdefault(None, []).insert(0, _start_request)
    app.after_request(_finish_request)
    app.register_error_handler(RequestEntityTooLarge, _too_large)
    app.register_error_handler(InternalServerError, _server_error)
    app.register_blueprint(bp)


@bp.get("/healthz")
def health() -> tuple[Any, int]:
    """200 when the database answers, 503 when it does not (never the error's text)."""
    try:
        db.session.execute(text("SELECT 1"))
    except SQLAlchemyError:
        db.session.rollback()
        return jsonify(status="unavailable", database="unreachable"), 503
    return jsonify(status="ok", database="reachable"), 200


def _configure_request_log() -> None:
    if not REQUEST_LOG.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("%(asctime)s %(message)s"))
        REQUEST_LOG.addHandler(handler)
        REQUEST_LOG.setLevel(logging.INFO)
        REQUEST_LOG.propagate = False


def _start_request() -> None:
    given = request.headers.get("X-Request-Id", "")
    g.request_id = given if REQUEST_ID_PATTERN.fullmatch(given) else token_hex(8)
    g.request_started = time.perf_counter()


def _finish_request(response: Response) -> Response:
    for header, value in SECURITY_HEADERS.items():
        response.headers.setdefault(header, value)
    if request.is_secure:
        response.headers.setdefault("Strict-Transport-Security", "max-age=31536000")
    request_id = g.get("request_id") or token_hex(8)
    response.headers["X-Request-Id"] = request_id
    elapsed_ms = (time.perf_counter() - g.get("request_started", time.perf_counter())) * 1000
    # The path only: a query string may carry a share key, and logs outlive links.
    REQUEST_LOG.info("request_id=%s %s %s %d %.1fms", request_id, request.method,
                     request.path, response.status_code, elapsed_ms)
    return response


def _wants_json() -> bool:
    return request.path.startswith("/api/") or request.path == "/healthz"


def _size_words(size: int) -> str:
    return f"{size // (1024 * 1024)} MB" if size >= 1024 * 1024 else f"{size // 1024} KB"


def _too_large(error: RequestEntityTooLarge) -> tuple[Any, int]:
    limit = request.max_content_length or MAX_BODY_BYTES
    error.description = (f"What was sent is too large: at most {_size_words(limit)} here "
                         "(only photos may be larger).")
    if _wants_json():
        return jsonify(error=error.description), 413
    return render_template("error.html", error=error), 413


def _server_error(error: InternalServerError) -> tuple[Any, int]:
    """A plain answer: never the exception, its traceback or the configuration."""
    error.description = ("Something went wrong on the server; nothing more is shown here. "
                         f"Try again, and if it keeps happening quote request "
                         f"{g.get('request_id', 'unknown')} to whoever runs this server.")
    if _wants_json():
        return jsonify(error=error.description), 500
    try:
        return render_template("error.html", error=error), 500
    except (TemplateError, SQLAlchemyError, LookupError):  # the page itself may be what fails
        return error.description, 500
