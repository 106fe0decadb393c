"""Pages and files of the live feature: the TV view, the manifest, the service worker, the
offline page; and the template helpers the score pages call to join in."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from flask import (
    Blueprint,
    Flask,
    Response,
    abort,
    current_app,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext
from markupsafe import Markup

from companion.web.languages import DEFAULT_LANGUAGE, RIGHT_TO_LEFT, current_language
from companion.web.live import qr
from companion.web.live.state import (
    edit_key_for_page,
    find_session,
    session_ref_of,
)
from companion.web.models import ScoreSession
from companion.web.scores.sheets import SheetView
from companion.web.scores.words import ending_words
from companion.web.tool_text import DOUBT_MESSAGES, PHOTO_MESSAGES

bp = Blueprint("live", __name__)

APP_NAME = "Companion"
THEME_COLOUR = "#1f5f4a"
BACKGROUND_COLOUR = "#f6f4ee"
# Pages the service worker saves when it is installed, so they open offline even before a
# first visit (the timer above all). Other pages are saved as they are visited.
OFFLINE_PAGES = ("check.home", "check.check_table", "turns.referee", "turns.timer",
                 "scores.session_list", "photos.read_photo", "live.offline")


# The TV view ---------------------------------------------------------------------------------

@bp.get("/scores/<session_id>/tv")
def tv(session_id: str) -> str:
    """The standings for a shared screen: big, dark, no buttons; updates itself live."""
    score_session = find_session(session_id)
    if score_session is None:
        abort(404, description=gettext("There is no score session %(id)s.", id=session_id))
    view_link = url_for("scores.view_sheet", session_id=session_id, _external=True)
    games = score_session.json["games"]
    return render_template("live/tv.html", score_session=score_session,
                           sheet=score_session.sheet, view_link=view_link,
                           ending_words={ending.value: words
                                         for ending, words in ending_words().items()},
                           last_game=games[-1] if games else None)


# Installable and offline ---------------------------------------------------------------------

@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    def icon(name: str, size: str, purpose: str = "any") -> dict[str, str]:
        kind = "image/svg+xml" if name.endswith(".svg") else "image/png"
        return {"src": url_for("static", filename=f"icons/{name}"), "sizes": size,
                "type": kind, "purpose": purpose}

    body = {
        "name": gettext("%(app)s: Rummikub score keeper and referee", app=APP_NAME),
        "short_name": APP_NAME,
        "description": gettext("Keep the score of an evening, check the sets, referee a turn, "
                               "time the turns: on every phone at the table, online or not."),
        "lang": current_language(),
        "dir": "rtl" if current_language() in RIGHT_TO_LEFT else "ltr",
        "id": "/",
        "start_url": url_for("check.home"),
        "scope": f"{request.script_root}/",
        "display": "standalone",
        "orientation": "any",
        "theme_color": THEME_COLOUR,
        "background_color": BACKGROUND_COLOUR,
        "icons": [icon("icon-192.png", "192x192"), icon("icon-512.png", "512x512"),
                  icon("icon-maskable-512.png", "512x512", "maskable"),
                  icon("icon.svg", "any")],
        "shortcuts": [{"name": gettext("Scores"), "url": url_for("scores.session_list")},
                      {"name": gettext("Turn timer"), "url": url_for("turns.timer")}],
    }
    return Response(json.dumps(body, indent=1, ensure_ascii=False),
                    mimetype="application/manifest+json",
                    headers={"Vary": "Cookie, Accept-Language"})


@bp.get("/sw.js")
def service_worker() -> Response:
    """The service worker, served from the site root so that its scope is every page.

    The version of the static files is put in front of it: the browser installs a new worker
    (which saves the new files) whenever any byte of this answer changes. Behind a path prefix
    (``COMPANION_BASE_URL=https://example.org/club``) the root is the prefix.
    """
    script = Path(current_app.static_folder or "", "sw.js").read_text(encoding="utf-8")
    body = f"const STATIC_VERSION = {json.dumps(static_version(current_app))};\n{script}"
    return Response(body, mimetype="text/javascript",
                    headers={"Cache-Control": "no-cache",
                             "Service-Worker-Allowed": f"{request.script_root}/"})


@bp.get("/offline/precache.json")
def precache() -> Response:
    """What the service worker saves when it is installed: the main pages and every static
    file (the service worker itself and the icon script's sources excepted)."""
    pages = [url_for(name) for name in OFFLINE_PAGES if name in current_app.view_functions]
    files = [url_for("static", filename=name) for name in static_files(current_app)
             if name != "sw.js"]
    return Response(json.dumps({"version": static_version(current_app), "pages": pages,
                                "files": files}),
                    mimetype="application/json", headers={"Cache-Control": "no-cache"})


@bp.get("/offline")
def offline() -> str:
    """Shown by the service worker for a page this phone has never opened, when offline."""
    return render_template("live/offline.html")


def static_files(app: Flask) -> list[str]:
    root = Path(app.static_folder or "")
    return sorted(path.relative_to(root).as_posix() for path in root.rglob("*")
                  if path.is_file() and not path.name.startswith(".")
                  and path.suffix not in {".py", ".pyc"})


def static_version(app: Flask) -> str:
    """A digest of the static files' names and contents, computed once per process."""
    cached = app.extensions.get("live_static_version")
    if cached is None:
        digest = hashlib.sha256()
        root = Path(app.static_folder or "")
        for name in static_files(app):
            digest.update(name.encode())
            digest.update((root / name).read_bytes())
        cached = app.extensions["live_static_version"] = digest.hexdigest()[:16]
    return str(cached)


# Template helpers for the score pages ---------------------------------------------------------

@bp.app_template_global()
def live_stream(score_session: ScoreSession | SheetView) -> dict[str, Any]:
    """Where a page showing this session listens for changes, and the version it shows."""
    ref = session_ref_of(score_session)
    return {"session": ref, "version": str(score_session.version),
            "url": url_for("live_api.events", session_id=ref)}


@bp.app_template_global()
def qr_code(url: str, label: str) -> Markup:
    return qr.qr_svg(url, label=label)


@bp.app_template_global()
def offline_queue(score_session: ScoreSession | SheetView, number: int) -> str:
    """What ``static/offline.js`` needs to keep a game typed offline and send it later: the
    JSON API's address, the edit key, the game's number, the players in seating order."""
    ref = session_ref_of(score_session)
    return json.dumps({
        "session": ref,
        "number": number,
        "players": list(score_session.player_names),
        "api": url_for("scores_api.record_game", session_id=ref),
        "session_api": url_for("scores_api.get_session", session_id=ref),
        "sheet": url_for("scores.score_sheet", session_id=ref),
        "key": edit_key_for_page(score_session),
        "endings": {ending.value: words for ending, words in ending_words().items()},
    })


@bp.app_template_global()
def script_texts() -> dict[str, str]:
    """The sentences the score pages' scripts show (offline.js, live.js, rack_photo.js), in the
    page's language: base.html puts them in a JSON data block (no inline script), the scripts
    fill in the ``{placeholders}``. Kept here so the scripts hold no sentence of their own."""
    return {
        # live.js
        "edit_older": gettext("Game {number} is not the last game (game {last} is). Edit game "
                              "{number} anyway?"),
        # offline.js
        "saved_at": gettext(" (saved {when})"),
        "banner_copy": gettext("Offline: this page as this phone last showed it{saved}. Games "
                               "you record are kept here and sent when the connection returns."),
        "banner": gettext("Offline: games you record are kept on this phone and sent when the "
                          "connection returns."),
        "keep_failed": gettext("This phone could not keep the game ({error}): it stays in the "
                               "form."),
        "offline_post": gettext("Offline: this can be sent when the connection returns. What "
                                "you typed stays here."),
        "points": gettext("{points} points"),
        "plus_jokers": gettext("+ {jokers} jokers"),
        "won": gettext("{name} won"),
        "not_known": gettext("not known on this phone"),
        "waiting": gettext("Game {number}: waiting to be sent (pending)"),
        "conflict": gettext("Game {number}: recorded on two phones: which is right?"),
        "refused": gettext("Game {number}: not recorded: {message}"),
        "mine": gettext("This phone (typed offline): {line}"),
        "theirs": gettext("The other phone: {line}"),
        "keep_theirs": gettext("Keep the other phone's game {number}"),
        "use_mine": gettext("Use this phone's for game {number}"),
        "add_next": gettext("Both were played: add this one as the next game"),
        "correct": gettext("Correct it in the form"),
        "discard": gettext("Discard it"),
        "pending_title": gettext("Recorded on this phone, not on the sheet yet"),
        "drop_confirm": gettext("Drop what this phone typed for game {number}?"),
        "failed": gettext("That did not work ({error}): nothing was dropped."),
        "server_refused": gettext("the server refused it ({status})"),
        "same_as_kept": gettext("Game {kept}, kept on this phone, has exactly the same racks. "
                                "Record them again as game {number}?"),
        # rack_photo.js
        "photo_read": gettext("Tiles read: {count} · rack value {value}"),
        "photo_jokers": gettext("jokers included: {count}"),
        "photo_ignored": gettext("tiles off the rack left out: {count}"),
        "photo_check": gettext("Check the tiles, then record the game."),
        "photo_not_whole": gettext("Not sure the whole rack was read: check every tile against "
                                   "the rack, or retake the photo from the front with the whole "
                                   "rack upright in the frame."),
        "photo_unsure": gettext("Not sure of:"),
        "photo_unsure_tile": gettext("Tile {position}, {percent} sure: tap to select it in the "
                                     "rack field"),
        "photo_doubted_tile": gettext("Tile {position}, {reason}: tap to select it in the rack "
                                      "field"),
        **{f"photo_doubt_{code}": gettext(message) for code, message in DOUBT_MESSAGES.items()},
        "photo_reading": gettext("Reading the photo…"),
        "photo_not_read": gettext("Photo not read: {error}"),
        "photo_unreadable": gettext("the photo could not be read ({status})"),
        "photo_kept": gettext("Kept: this photo and your corrected tiles will help train the "
                              "reader. Thank you."),
        "photo_not_kept": gettext("Not kept: {error}"),
        "photo_not_kept_reason": gettext("not kept"),
        # a photo the reader refused (the API's stable code): English pages keep the API's own,
        # more detailed sentence
        **({} if current_language() == DEFAULT_LANGUAGE else
           {f"photo_error_{code}": gettext(message) for code, message in PHOTO_MESSAGES.items()}),
    }
