"""How the live features find a session, tell its version and turn it into JSON.

Each is one small function on purpose: sessions are addressed by their integer id today and
will be addressed by an unguessable public id, and edit rights move from the Flask session to
a cookie per session. Only this module changes then.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select

from companion.web.models import Game, GameChange, ScoreSession, db
from companion.web.scores import service


def find_session(session_ref: int) -> ScoreSession | None:
    """The session a URL names, or None. Whoever can name it may read it."""
    return db.session.get(ScoreSession, session_ref)


def session_ref_of(session: ScoreSession) -> int:
    """What URLs use to name this session."""
    return session.id


def session_state(session: ScoreSession) -> dict[str, Any]:
    """The session's JSON, the same document ``GET /api/v1/sessions/<id>`` answers."""
    return service.session_json(session)


def session_version(session_ref: int) -> str | None:
    """A short string that changes whenever a game is recorded, edited or undone; None when
    the session no longer exists.

    One query on indexed or tiny per-session rows: the session's ``updated_at``, its last
    history entry (every write appends one, including an undo, which does not touch the
    session row) and its number of games.
    """
    last_change = (select(func.max(GameChange.id)).where(GameChange.session_id == ScoreSession.id)
                   .scalar_subquery())
    games = (select(func.count(Game.id)).where(Game.session_id == ScoreSession.id)
             .scalar_subquery())
    row = db.session.execute(
        select(ScoreSession.updated_at, last_change, games).where(ScoreSession.id == session_ref)
    ).first()
    if row is None:
        return None
    updated_at, change, count = row
    return f"{change or 0}.{count}.{int(updated_at.timestamp() * 1000) if updated_at else 0}"


def edit_key_for_page(session: ScoreSession) -> str | None:
    """The edit key this browser holds for the session (None when it may only read).

    The offline queue needs it to send a game to the JSON API; the page that shows it is
    only rendered for a browser that already holds the key (it is in the share link too).
    """
    from companion.web.scores.views import browser_key

    key = browser_key(session.id)
    return key if key and service.key_opens(session, key) else None
