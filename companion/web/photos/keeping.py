"""Keeping photos to train the reader: only when a club server allows it, and within quotas.

``RACK_SAMPLES`` (default on) turns keeping off for a server whose owner does not want photos
on its disk. A rack photo is kept only for a session, with the session's edit key (the game
page sends it), at most ``SAMPLES_PER_SESSION`` per session and ``SAMPLES_PER_SERVER`` in the
folder in all (the photo page's "keep" box counts towards the server's quota). The count and
the write happen under a lock file in the folder, so two requests (or two worker processes)
cannot both take the last place.
"""

from __future__ import annotations

import fcntl
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from flask import current_app

SAMPLES_PER_SESSION = 40
"""A session's racks: four players' racks in every game of a long evening, and a few retakes."""
SAMPLES_PER_SERVER = 5000
"""About 1 GB of kept photos (each shrunk to 1600 pixels, about 200 KB)."""


class SamplesRefused(Exception):
    """The photo is not kept: keeping is off, or a quota is full (``status`` says which)."""

    def __init__(self, message: str, status: int, code: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code


def samples_folder() -> Path:
    return Path(current_app.config.get("SAMPLES_FOLDER")
                or Path(current_app.instance_path) / "samples")


def samples_on() -> bool:
    return bool(current_app.config.get("RACK_SAMPLES", True))


def sample_prefix(session_id: str | None) -> str:
    """The start of a kept file's name: the session's public id, so a session's count is the
    files that start with it."""
    if session_id is None:
        return "sample"
    return "sample-" + re.sub(r"[^A-Za-z0-9_-]", "", session_id)


@contextmanager
def sample_place(session_id: str | None) -> Iterator[str]:
    """Hold the folder's lock while a sample is counted and written; the file prefix to use.
    SamplesRefused when keeping is off or a quota is full."""
    if not samples_on():
        raise SamplesRefused("this server does not keep photos to train the reader", 403,
                             "samples_off")
    config = current_app.config
    per_session = int(config.get("SAMPLES_PER_SESSION", SAMPLES_PER_SESSION))
    per_server = int(config.get("SAMPLES_PER_SERVER", SAMPLES_PER_SERVER))
    folder = samples_folder()
    (folder / "labels").mkdir(parents=True, exist_ok=True)
    prefix = sample_prefix(session_id)
    with open(folder / ".lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            labels = [path.name for path in (folder / "labels").iterdir()]
            if len(labels) >= per_server:
                raise SamplesRefused(f"not kept: this server keeps at most {per_server} photos "
                                     "to train the reader, and has them", 429, "server_full")
            if session_id is not None and sum(
                    name.startswith(prefix + "-") for name in labels) >= per_session:
                raise SamplesRefused(f"not kept: a session keeps at most {per_session} photos "
                                     "to train the reader, and this one has them", 429,
                                     "session_full")
            yield prefix
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
