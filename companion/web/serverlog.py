"""Gunicorn's logs without keys: ``companion serve`` names ``RedactingLogger`` as gunicorn's
``logger_class`` (one line in ``server.py``).

Gunicorn writes a request's whole URI when a request fails ("Error handling request
/scores/<id>/join?key=...") and, when an access log is on, on every line; share-to-edit links
carry their key in the query string. Every record of gunicorn's error and access logs goes
through ``companion.web.guards.redact`` first.
"""

from __future__ import annotations

import logging
from typing import Any

from gunicorn.glogging import Logger

from companion.web.guards import redact


class RedactingFilter(logging.Filter):
    """Rewrites each record's message (with its arguments filled in) through ``redact``."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        cleaned = redact(message)
        if cleaned != message:
            record.msg, record.args = cleaned, None
        return True


class RedactingLogger(Logger):  # type: ignore[misc]
    """Gunicorn's logger with ``RedactingFilter`` on its error and access logs: gunicorn
    writes a request's whole URI when a request fails ("Error handling request /...?key=")
    and, when an access log is on, on every line."""

    def setup(self, cfg: Any) -> None:
        super().setup(cfg)
        for log in (self.error_log, self.access_log):
            if not any(isinstance(f, RedactingFilter) for f in log.filters):
                log.addFilter(RedactingFilter())

    def access(self, resp: Any, req: Any, environ: dict[str, Any], request_time: Any) -> None:
        environ = {**environ, "QUERY_STRING": redact("?" + environ.get("QUERY_STRING", ""))[1:],
                   "RAW_URI": redact(environ.get("RAW_URI", ""))}
        super().access(resp, req, environ, request_time)
