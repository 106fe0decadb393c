"""The room's live view: the one place where a night meets the live feature.

A night changes when the host seats a round or takes an arrival (``Night.version``) and when
any of its tables records, edits or undoes a game (each table's ``ScoreSession.version``).
``GET /api/v1/nights/<id>/events`` answers the version of both, read in one query, as one
Server-Sent Event with a short ``retry``, and ends; the TV page's EventSource (``static/nights.js``)
asks again after it and fetches the page when the version moved. It uses the live feature's
event format (``companion.web.live.events.sse``).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from flask import Blueprint, Response, abort, url_for
from sqlalchemy import func, select

from companion.web.live.events import sse
from companion.web.models import ScoreSession, db
from companion.web.nights.models import Night, NightRound, NightTable

bp = Blueprint("nights_live", __name__)


def version_of(night_ref: str) -> str | None:
    """The night's own version and its tables' versions, as one text; None when it is gone."""
    night = db.session.execute(select(Night.id, Night.version)
                               .where(Night.public_id == night_ref)).first()
    if night is None:
        return None
    tables = db.session.execute(
        select(func.count(ScoreSession.id), func.coalesce(func.sum(ScoreSession.version), 0))
        .select_from(NightTable).join(NightRound, NightRound.id == NightTable.round_id)
        .join(ScoreSession, ScoreSession.id == NightTable.session_id)
        .where(NightRound.night_id == night.id)).one()
    db.session.rollback()
    return f"{night.version}-{tables[0]}-{tables[1]}"


def stream_of(night: Night) -> dict[str, Any]:
    """What the TV page listens to, and the version it shows."""
    return {"url": url_for("nights_live.events", night_id=night.public_id),
            "version": version_of(night.public_id)}


# How soon the TV's browser asks again. A night changes a few times a minute at most (a game
# at some table), and a TV is one screen per room: an answer every 2 s is live enough.
NIGHT_RETRY_MS = 2000


def night_events(night_ref: str) -> Iterator[str]:
    """One answer per request: the retry delay and the night's version, then the end.

    ``companion serve`` runs the app in a small pool of threads and sends each answer whole, so
    a stream that slept in its thread would hold that thread for its whole life and send
    nothing until it ended. A short answer holds none: the browser's EventSource asks again
    after ``NIGHT_RETRY_MS`` by itself, and the page fetches itself when the version moved.
    """
    yield f"retry: {NIGHT_RETRY_MS}\n\n"
    version = version_of(night_ref)
    if version is None:
        yield sse("gone", json.dumps({"error": "this night was deleted"}))
        return
    yield sse("night", json.dumps({"version": version}), version)


@bp.get("/nights/<night_id>/events")
def events(night_id: str) -> Response:
    if version_of(night_id) is None:
        abort(404, description=f"there is no night {night_id}")
    return Response(list(night_events(night_id)), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
