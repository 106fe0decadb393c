"""The score sheet of a session, computed once per version and served again until it changes.

Every write adds one to the session's ``version`` (``service._changed``), so what the sheet
shows at a version never changes: the pages and the JSON read it from memory after one
single-row query for the version, whatever the number of games. Each process keeps its own
views; a view is only used for the version the database reports, so several processes (or a
session changed by another one) never serve a stale sheet.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from companion.core.presets import Preset
from companion.core.scoring import ScoreSheet, apply_rule_overrides
from companion.web.models import db
from companion.web.scores.service import (
    read_session_in_this_transaction,
    redo_offer,
    session_json,
    sheet_of,
)
from companion.web.transactions import begin_read

RENDERED_KEPT = 24
"""The most rendered pieces one view keeps (kinds of viewer × languages × hosts), the least
recently used dropped first."""
HOSTS_CACHED = 4
"""The most distinct hosts whose pages are kept: a page holds links built from the ``Host``
the phone sent, so each host has its own copy. A server reached by a name or two (and its
address) has its pages kept; 20,000 made-up ``Host`` headers are rendered each time instead
of filling the memory (379 MB before this bound)."""


class RenderedPieces(OrderedDict[Any, Any]):
    """A view's rendered pieces, at most ``RENDERED_KEPT`` of them."""

    def get(self, key: Any, default: Any = None) -> Any:
        with _sheet_views_lock:
            found = super().get(key, default)
            if key in self:
                self.move_to_end(key)
            return found

    def __setitem__(self, key: Any, value: Any) -> None:
        with _sheet_views_lock:
            super().__setitem__(key, value)
            while len(self) > RENDERED_KEPT:
                self.popitem(last=False)


_hosts_cached: set[str] = set()


def host_cache_key(host_url: str) -> str | None:
    """The host part of a cache key, or None when the pages of this host are not kept (the
    first ``HOSTS_CACHED`` hosts seen by this process are)."""
    if host_url in _hosts_cached:
        return host_url
    with _sheet_views_lock:
        if len(_hosts_cached) < HOSTS_CACHED:
            _hosts_cached.add(host_url)
            return host_url
    return None


@dataclass
class SheetView:
    """What the score sheet shows of a session at one version, computed once and served again
    until the session changes: the pages and the JSON read it without loading a single game.

    Its fields are named as on ``ScoreSession`` so the templates take either. ``rendered``
    keeps rendered pieces (the sheet table per kind of viewer, the JSON body per host).
    """

    id: int
    public_id: str
    version: int
    edit_key_hash: str
    player_names: tuple[str, ...]
    base_preset: Any
    rule_overrides: dict[str, Any]
    rounds: int
    sheet: ScoreSheet
    last_game: int | None
    redo: int | None
    json: dict[str, Any]
    created_at: datetime
    rendered: RenderedPieces = field(default_factory=RenderedPieces)

    @property
    def preset_key(self) -> str:
        return str(self.base_preset.key)

    @property
    def rules(self) -> Preset:
        return apply_rule_overrides(self.base_preset, self.rule_overrides)


SHEET_VIEWS_KEPT = 512
_sheet_views: OrderedDict[tuple[str, int], SheetView] = OrderedDict()
_sheet_views_lock = threading.RLock()


def sheet_view(public_id: str) -> SheetView | None:
    """The session's sheet at its current version. When that version was computed before, one
    indexed single-row query is all a read costs; else the session is loaded whole in one
    transaction (so the version and the games agree) and kept for the next reader."""
    version = current_version(public_id)
    if version is None:
        return None
    with _sheet_views_lock:
        view = _sheet_views.get((public_id, version))
        if view is not None:
            _sheet_views.move_to_end((public_id, version))
            return view
    begin_read()
    session = read_session_in_this_transaction(public_id)
    if session is None:
        return None
    view = SheetView(session.id, session.public_id, session.version, session.edit_key_hash,
                     session.player_names, session.base_preset,
                     dict(session.rule_overrides or {}), session.rounds, sheet_of(session),
                     session.games[-1].number if session.games else None,
                     redo_offer(session), session_json(session), session.created_at)
    with _sheet_views_lock:
        _sheet_views[(public_id, view.version)] = view
        while len(_sheet_views) > SHEET_VIEWS_KEPT:
            _sheet_views.popitem(last=False)
    return view


def current_version(public_id: str) -> int | None:
    """The session's version, asked on a bare driver connection: the ORM's machinery costs
    ten times the query itself, and this is the whole cost of a read served from memory."""
    engine = db.engine
    placeholder = "?" if engine.dialect.paramstyle == "qmark" else "%s"
    connection = engine.raw_connection()
    try:
        cursor = connection.cursor()
        cursor.execute(f"SELECT version FROM score_session WHERE public_id = {placeholder}",
                       (public_id,))
        row = cursor.fetchone()
        cursor.close()
    finally:
        connection.close()
    return None if row is None else int(row[0])
