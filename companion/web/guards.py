"""Guards at the door, before Flask sees a request: a ``Host`` that is not a host name is a
400 with the security headers, and no log line holds a key.

A ``Host`` with a label over 63 characters (or a name over 253, a space, a character outside
ASCII) cannot be turned into a URL: Flask then has no URL adapter and every ``url_for`` of the
error page failed, a 500 answered by gunicorn's bare page. Checked as a WSGI wrapper inside
``ConfiguredBaseUrl`` and ``ProxyFix``, so the host checked is the one the app will use.

Share-to-edit links carry their key in the query string (``/scores/<id>/join?key=...``):
``redact`` takes the key out of any text, and ``companion.web.serverlog.RedactingLogger``
(gunicorn's ``logger_class`` in ``companion serve``) runs every line of gunicorn's logs
through it.
"""

from __future__ import annotations

import json
import re
from typing import Any

from companion.web.hosting import SECURITY_HEADERS

MAX_HOST_NAME = 253  # RFC 1035: a name of at most 253 characters, each label at most 63
_LABEL = r"(?!-)[A-Za-z0-9_-]{1,63}(?<!-)"
HOST_PATTERN = re.compile(
    rf"(?:(?P<name>{_LABEL}(?:\.{_LABEL})*\.?)|\[(?P<ipv6>[0-9A-Fa-f:.]{{2,45}})\])"
    r"(?::(?P<port>[0-9]{1,5}))?")


def host_is_valid(host: str) -> bool:
    """A host name (or IPv4 address) or a bracketed IPv6 address, with an optional port."""
    found = HOST_PATTERN.fullmatch(host)
    if found is None:
        return False
    name, port = found.group("name"), found.group("port")
    if name is not None and len(name.rstrip(".")) > MAX_HOST_NAME:
        return False
    return port is None or 0 < int(port) <= 65535


class HostCheck:
    """WSGI wrapper: a request whose ``Host`` is not a host name is answered 400 here."""

    def __init__(self, wsgi_app: Any) -> None:
        self.wsgi_app = wsgi_app

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
        host = environ.get("HTTP_HOST")
        if host is None or host_is_valid(host):
            return self.wsgi_app(environ, start_response)
        message = ("The Host header is not a host name: a name such as scores.example.org "
                   "(labels of at most 63 letters, digits or '-'), an address, and a port.")
        if environ.get("PATH_INFO", "").startswith("/api/"):
            body = json.dumps({"error": message, "where": {"header": "Host"}}).encode()
            kind = "application/json"
        else:
            body = (f"<!doctype html><html lang=\"en\"><meta charset=\"utf-8\"><title>Bad "
                    f"request</title><h1>Bad request</h1><p>{message}</p></html>").encode()
            kind = "text/html; charset=utf-8"
        start_response("400 Bad Request", [("Content-Type", kind),
                                           ("Content-Length", str(len(body))),
                                           *SECURITY_HEADERS.items()])
        return [body]


# Logs ---------------------------------------------------------------------------------------

_KEY_IN_QUERY = re.compile(r"(?i)([?&;](?:[a-z_]*key|token|secret|password)=)[^&;#\s\"']*")
_KEY_IN_HEADER = re.compile(r"(?i)(\b(?:bearer|basic)\s+)[A-Za-z0-9._~+/=-]+")
REDACTED = "[redacted]"


def redact(text: str) -> str:
    """The text with every key in a query string and every Authorization token replaced."""
    return _KEY_IN_HEADER.sub(r"\1" + REDACTED, _KEY_IN_QUERY.sub(r"\1" + REDACTED, text))


def init_app(app: Any) -> None:
    """Check the Host before anything else in the app runs (called before ``hosting``, whose
    wrappers go outside this one)."""
    app.wsgi_app = HostCheck(app.wsgi_app)
