"""The room's live view: the one place where a night meets the live feature.

A night changes when the host seats a round or takes an arrival (``Night.version``) and when
any of its tables records, edits or undoes a game (each table's ``ScoreSession.version``). The
stream ``GET /api/v1/nights/<id>/events`` asks the database for both in one query every
``LIVE_POLL_SECONDS`` and sends ``event: night`` when they change; the TV page
(``static/nights.js``) then fetches itself again. The event format, the poll interval and the
stream's lifetime are the live feature's (``companion.web.live.events``), so when the way
streams are served changes, this module is what follows it.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

from flask import Blueprint, Flask, Response, abort, current_app, url_for
from sqlalchemy import func, select
from sqlalchemy.exc import SQLAlchemyError

from companion.web.live.events import setting, sse
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


def night_events(app: Flask, night_ref: str) -> Iterator[str]:
    poll, heartbeat = setting(app, "LIVE_POLL_SECONDS"), setting(app, "LIVE_HEARTBEAT_SECONDS")
    ends_at = time.monotonic() + setting(app, "LIVE_STREAM_SECONDS")
    yield f"retry: {int(setting(app, 'LIVE_RETRY_MS'))}\n\n"
    sent: str | None = None
    last_write = time.monotonic()
    while True:
        try:
            with app.app_context():
                version = version_of(night_ref)
        except SQLAlchemyError:
            return
        if version is None:
            yield sse("gone", json.dumps({"error": "this night was deleted"}))
            return
        if version != sent:
            yield sse("night", json.dumps({"version": version}), version)
            sent, last_write = version, time.monotonic()
        now = time.monotonic()
        if now >= ends_at:
            return
        if now - last_write >= heartbeat:
            yield ": keepalive\n\n"
            last_write = now
        time.sleep(min(poll, max(0.0, ends_at - now)))


@bp.get("/nights/<night_id>/events")
def events(night_id: str) -> Response:
    if version_of(night_id) is None:
        abort(404, description=f"there is no night {night_id}")
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    return Response(night_events(app, night_id), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
