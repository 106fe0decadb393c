"""Hypercorn's logs without keys: ``companion serve`` sets ``RedactingLogger`` as Hypercorn's
``logger_class`` (one line in ``server.py``).

Share-to-edit links carry their key in the query string (``/scores/<id>/join?key=...``), and a
server's error log may name the request it failed on; its access log, when one is turned on,
writes every request's address. Every record of Hypercorn's error and access logs goes through
``companion.web.guards.redact`` first. (The app's own request log writes the path only.)
"""

from __future__ import annotations

import logging

from hypercorn.config import Config
from hypercorn.logging import Logger

from companion.web.guards import redact


class RedactingFilter(logging.Filter):
    """Rewrites each record's message (with its arguments filled in) through ``redact``."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        cleaned = redact(message)
        if cleaned != message:
            record.msg, record.args = cleaned, None
        return True


class RedactingLogger(Logger):
    """Hypercorn's logger with ``RedactingFilter`` on its error and access logs.

    Their own handlers write them; they do not also go up to the root logger, which Alembic's
    logging set-up gives a handler of its own when ``serve`` has migrated in the same process
    (each line came twice)."""

    def __init__(self, config: Config) -> None:
        super().__init__(config)
        for log in (self.error_logger, self.access_logger):
            if log is not None:
                log.propagate = False
                if not any(isinstance(f, RedactingFilter) for f in log.filters):
                    log.addFilter(RedactingFilter())
