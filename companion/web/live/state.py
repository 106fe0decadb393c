"""How the live features find a session, tell its version and turn it into JSON.

Sessions are addressed by their unguessable public id; every write adds one to the session's
``version`` column, which is what a stream compares and sends as its event id. A browser's
edit right is its device cookie (``scores.device``); the offline queue sends the session's
shareable edit key to the JSON API.
"""

from __future__ import annotations

from typing import Any

from companion.web.models import ScoreSession
from companion.web.scores import service
from companion.web.scores.device import device_hash
from companion.web.scores.sheets import SheetView, current_version, sheet_view


def find_session(session_ref: str) -> SheetView | None:
    """The session a URL names (its sheet at the current version), or None. Whoever can name
    it may read it."""
    return sheet_view(session_ref)


def session_ref_of(session: ScoreSession | SheetView) -> str:
    """What URLs use to name this session."""
    return session.public_id


def session_state(session: SheetView) -> dict[str, Any]:
    """The session's JSON, the document ``GET /api/v1/sessions/<id>`` answers (its links
    aside): the sheet view's, made once per version."""
    return {**session.json, "redo": session.redo}


def session_version(session_ref: str) -> str | None:
    """The session's version as text (it changes with every record, edit, undo, redo); None
    when the session no longer exists. One indexed single-row query."""
    version = current_version(session_ref)
    return None if version is None else str(version)


def edit_key_for_page(session: ScoreSession | SheetView) -> str | None:
    """The edit key for this browser's offline queue (None when it may only read).

    The queue sends games to the JSON API, which takes the session's shareable key; the page
    that carries it is only rendered for a browser whose device cookie may change the session,
    and the sheet already shows that browser the same key in its share link.
    """
    if not service.has_access(session, device_hash()):
        return None
    return service.shareable_key(session)
