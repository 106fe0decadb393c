"""What serving the pages needs around them: headers, limits, logs, health, links, errors."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import text

from companion.web import PROJECT_ROOT, create_app
from companion.web.extensions import db
from companion.web.hosting import REQUEST_LOG
from tests.every_page import ClientBrowser, inline_code, visit_every_page
from tests.fixtures import SAMPLE_PHOTO

SECURITY_HEADERS = ("content-security-policy", "x-content-type-options", "referrer-policy")


def make_app(tmp_path: Path, **config: Any) -> Flask:
    app = create_app({"TESTING": True, "SECRET_KEY": "s3cr3t-not-for-pages",
                      "WTF_CSRF_ENABLED": False,
                      "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'companion.sqlite'}",
                      **config})
    with app.app_context():
        db.create_all()
    return app


def check_security_headers(path: str, headers: dict[str, str]) -> None:
    policy = headers.get("content-security-policy", "")
    if headers.get("content-type", "").startswith("image/svg+xml"):
        # A chart is its own document with its own narrower policy: its <style>, nothing else.
        assert policy.startswith("default-src 'none'"), path
        assert "script" not in policy and "frame-ancestors 'none'" in policy, path
        assert headers.get("x-content-type-options") == "nosniff", path
        return
    assert "frame-ancestors 'none'" in policy, path
    assert "default-src 'self'" in policy, path
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy, path
    assert headers.get("x-content-type-options") == "nosniff", path
    assert headers.get("referrer-policy") in ("same-origin", "no-referrer"), path
    assert headers.get("x-request-id"), path


def test_every_page_has_the_security_headers_and_no_inline_script_handler_or_style(
        app: Flask, client: FlaskClient) -> None:
    answers = visit_every_page(ClientBrowser(client), app)
    assert len(answers) >= 15
    for path, answer in answers.items():
        check_security_headers(path, answer.headers)
        if answer.headers["content-type"].startswith("text/html"):
            assert answer.text.lstrip().lower().startswith("<!doctype html>"), path
            assert inline_code(answer.text) == [], path


def test_the_read_photo_page_has_no_inline_code_either(client: FlaskClient) -> None:
    answer = client.post("/photo", data={"photo": (io.BytesIO(SAMPLE_PHOTO.read_bytes()),
                                                   "table.jpg")},
                         content_type="multipart/form-data")
    assert answer.status_code == 200 and 'src="data:image/png;base64,' in answer.text
    check_security_headers("/photo", {k.lower(): v for k, v in answer.headers})
    assert inline_code(answer.text) == []


def test_the_inline_code_finder_finds_what_the_policy_would_block() -> None:
    page = ('<p style="color:red" onclick="go()">x</p><script>alert(1)</script>'
            '<script src="/static/a.js"></script><style>p{}</style>'
            '<a href="javascript:go()">y</a>')
    assert inline_code(page) == ["<p style=...>", "<p onclick=...>", "an inline <script>",
                                 "a <style> element", "<a href=javascript:...>"]


def test_static_files_json_and_errors_carry_the_headers_too(client: FlaskClient) -> None:
    for answer in (client.get("/static/style.css"), client.post("/api/v1/check", json={}),
                   client.get("/healthz"), client.get("/scores/0")):
        check_security_headers(answer.request.path, {k.lower(): v for k, v in answer.headers})


def test_a_view_that_raises_answers_a_plain_500_page_or_json_error(tmp_path: Path) -> None:
    app = make_app(tmp_path, PROPAGATE_EXCEPTIONS=False)

    def explode() -> str:
        raise RuntimeError("boom: the database password is hunter2")

    app.add_url_rule("/explode", "explode", explode)
    app.add_url_rule("/api/v1/explode", "api_explode", explode)
    page = app.test_client().get("/explode")
    assert page.status_code == 500
    assert page.content_type.startswith("text/html")
    assert "Something went wrong on the server" in page.text
    assert page.headers["X-Request-Id"] in page.text  # to quote to whoever runs the server
    answer = app.test_client().get("/api/v1/explode")
    assert answer.status_code == 500
    assert set(answer.json) == {"error"}
    for body in (page.text, answer.text):
        for secret in ("hunter2", "boom", "Traceback", "RuntimeError", "s3cr3t",
                       str(tmp_path), "SQLALCHEMY"):
            assert secret not in body


def test_bodies_are_small_except_photos_and_too_large_is_a_clear_413(
        client: FlaskClient) -> None:
    big_table = "R5 R6 R7 | " * 10_000  # about 110 KB
    page = client.post("/check", data={"table": big_table})
    assert page.status_code == 413
    assert "too large: at most 64 KB" in page.text
    answer = client.post("/api/v1/check", json={"table": big_table})
    assert answer.status_code == 413
    assert "at most 64 KB" in answer.json["error"]
    session = client.post("/api/v1/sessions", data=json.dumps({"players": ["A" * 70_000, "B"]}),
                          content_type="application/json")
    assert session.status_code == 413
    # A photo of 1 MB is read (and refused only because it is not a picture).
    photo = client.post("/api/v1/photo", data={"photo": (_bytes(1024 * 1024), "table.jpg")},
                        content_type="multipart/form-data")
    assert photo.status_code == 400, photo.text
    # A small body still goes through.
    assert client.post("/api/v1/check", json={"table": "R5 R6 R7"}).status_code == 200


def _bytes(size: int) -> Any:
    return io.BytesIO(b"\x00" * size)


def test_links_come_from_the_configured_address_not_the_host_header(tmp_path: Path) -> None:
    app = make_app(tmp_path, COMPANION_BASE_URL="https://scores.example.org")
    client = app.test_client()
    spoofed = {"Host": "evil.example", "X-Forwarded-Host": "evil.example"}
    created = client.post("/api/v1/sessions", json={"players": ["Ann", "Bob"]},
                          headers=spoofed)
    assert created.status_code == 201
    links = created.json["links"]
    assert links and all(link.startswith("https://scores.example.org/")
                         for link in links.values()), links
    started = client.post("/scores/new", data={"player_1": "Ann", "player_2": "Bob",
                                               "rounds": 1, "preset": "pressman"},
                          headers=spoofed)
    assert started.status_code == 302
    assert "evil" not in started.location
    sheet = client.get(started.location, headers=spoofed)
    assert "evil.example" not in sheet.text
    assert "https://scores.example.org/scores/" in sheet.text  # the share links


def test_without_a_configured_address_a_forwarded_host_is_ignored_unless_proxy_fix_is_on(
        tmp_path: Path) -> None:
    forwarded = {"X-Forwarded-Host": "club.example", "X-Forwarded-Proto": "https"}
    plain = make_app(tmp_path).test_client().post(
        "/api/v1/sessions", json={"players": ["Ann", "Bob"]}, headers=forwarded)
    assert plain.json["links"]["view"].startswith("http://localhost/")
    proxied = make_app(tmp_path, PROXY_FIX=1).test_client().post(
        "/api/v1/sessions", json={"players": ["Ann", "Bob"]}, headers=forwarded)
    assert proxied.json["links"]["view"].startswith("https://club.example/")


def session_cookie(answer: Any) -> str:
    cookies = [value for value in answer.headers.getlist("Set-Cookie")
               if value.startswith("session=")]
    assert cookies, answer.headers
    return cookies[0]


def start_session(client: FlaskClient, **headers: str) -> Any:
    return client.post("/scores/new", data={"player_1": "Ann", "player_2": "Bob",
                                            "rounds": 1, "preset": "pressman"},
                       headers=headers)


def test_the_session_cookie_is_httponly_samesite_lax_and_secure_behind_https(
        tmp_path: Path) -> None:
    plain = session_cookie(start_session(make_app(tmp_path).test_client()))
    assert "HttpOnly" in plain and "SameSite=Lax" in plain
    assert "Secure" not in plain  # a family laptop on http://192.168.… keeps working
    https = make_app(tmp_path, COMPANION_BASE_URL="https://scores.example.org").test_client()
    assert "Secure" in session_cookie(start_session(https))
    proxied = make_app(tmp_path, PROXY_FIX=1).test_client()
    answer = start_session(proxied, **{"X-Forwarded-Proto": "https"})
    assert "Secure" in session_cookie(answer)
    assert answer.headers["Strict-Transport-Security"].startswith("max-age=")


@pytest.fixture
def request_log() -> Iterator[list[str]]:
    lines: list[str] = []

    class Collect(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            lines.append(record.getMessage())

    handler = Collect()
    REQUEST_LOG.addHandler(handler)
    yield lines
    REQUEST_LOG.removeHandler(handler)


def test_one_log_line_per_request_with_its_id_status_and_time(
        client: FlaskClient, request_log: list[str]) -> None:
    answer = client.get("/check?table=R5+R6+R7&key=not-in-the-log")
    request_id = answer.headers["X-Request-Id"]
    assert len(request_id) >= 16
    assert len(request_log) == 1
    line = request_log[0]
    assert f"request_id={request_id} GET /check 200 " in line and line.endswith("ms")
    assert "not-in-the-log" not in line  # query strings may carry share keys
    given = client.get("/nowhere", headers={"X-Request-Id": "proxy-1234"})
    assert given.headers["X-Request-Id"] == "proxy-1234"
    assert "request_id=proxy-1234 GET /nowhere 404" in request_log[1]
    forged = client.get("/", headers={"X-Request-Id": "bad id; rm -rf /"})
    assert forged.headers["X-Request-Id"] != "bad id; rm -rf /"
    assert "bad id" not in request_log[2]


def test_healthz_answers_200_with_the_database_and_503_without(tmp_path: Path) -> None:
    healthy = make_app(tmp_path).test_client().get("/healthz")
    assert healthy.status_code == 200 and healthy.json["status"] == "ok"
    missing = tmp_path / "no" / "such" / "folder" / "companion.sqlite"
    down = create_app({"TESTING": True, "SECRET_KEY": "x",
                       "SQLALCHEMY_DATABASE_URI": f"sqlite:///{missing}"})
    answer = down.test_client().get("/healthz")
    assert answer.status_code == 503
    assert answer.json == {"status": "unavailable", "database": "unreachable"}
    assert str(missing) not in answer.text


def test_healthz_answers_503_when_postgresql_refuses(tmp_path: Path) -> None:
    pytest.importorskip("psycopg")
    down = create_app({"TESTING": True, "SECRET_KEY": "x",
                       "SQLALCHEMY_DATABASE_URI":
                           "postgresql+psycopg://nobody:pw@127.0.0.1:1/companion"})
    answer = down.test_client().get("/healthz")
    assert answer.status_code == 503
    assert "pw" not in answer.text and "nobody" not in answer.text


def test_sqlite_runs_in_wal_mode_with_a_busy_timeout_and_foreign_keys(app: Flask) -> None:
    with app.app_context():
        pragma = {name: db.session.execute(text(f"PRAGMA {name}")).scalar()
                  for name in ("journal_mode", "busy_timeout", "foreign_keys")}
    assert pragma == {"journal_mode": "wal", "busy_timeout": 10_000, "foreign_keys": 1}


def test_the_connection_pool_is_sized_to_the_server_threads(tmp_path: Path) -> None:
    app = make_app(tmp_path, DATABASE_POOL_SIZE=12)
    with app.app_context():
        assert db.engine.pool.size() == 12


def test_from_a_checkout_the_pages_come_from_the_top_level_folders(app: Flask) -> None:
    assert Path(app.template_folder) == PROJECT_ROOT / "templates"
    assert Path(app.static_folder or "") == PROJECT_ROOT / "static"
    assert Path(app.extensions["migrate"].directory) == PROJECT_ROOT / "migrations"


def test_a_body_refused_by_the_csrf_check_is_still_logged_with_its_request_id(
        tmp_path: Path, request_log: list[str]) -> None:
    client = make_app(tmp_path, WTF_CSRF_ENABLED=True).test_client()
    refused = client.post("/check", data={"table": "R5 R6 R7 | " * 10_000},
                          headers={"X-Request-Id": "too-big-1"})
    assert refused.status_code == 413 and "at most 64 KB" in refused.text
    assert refused.headers["X-Request-Id"] == "too-big-1"
    assert request_log[-1].startswith("request_id=too-big-1 POST /check 413 ")
    unsigned = client.post("/check", data={"table": "R5 R6 R7"})
    assert unsigned.status_code == 400  # the CSRF check still runs after the size check


def test_no_page_greets_a_first_visit_with_an_error(app: Flask, client: FlaskClient) -> None:
    """An empty form is not yet a mistake: no page shows a field's error before anything was
    typed (the "What can I play?" page once did)."""
    answers = visit_every_page(ClientBrowser(client), app)
    scolding = [path for path, answer in answers.items()
                if answer.headers["content-type"].startswith("text/html")
                and 'class="field-error"' in answer.text]
    assert scolding == []
