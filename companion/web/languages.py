"""The pages' language: English, German, Dutch, French, Spanish or Hebrew (right to left).

The browser's ``Accept-Language`` picks it; the switch in every page's footer
(``/language/<code>``) sets a long-lived cookie that wins over the browser from then on.
The JSON API (``/api/``) and the CLI stay English: their messages are a contract.
Catalogues live in ``companion/translations`` (``make translations`` extracts, updates and
compiles them; the compiled ``.mo`` files are committed so the wheel ships them).
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

from flask import Blueprint, Flask, abort, redirect, request
from flask_babel import Babel, get_locale
from werkzeug.wrappers import Response

# Each language named in its own words, as the switch shows it.
LANGUAGES: dict[str, str] = {
    "en": "English",
    "de": "Deutsch",
    "nl": "Nederlands",
    "fr": "Français",
    "es": "Español",
    "he": "עברית",
}
RIGHT_TO_LEFT = frozenset({"he"})
DEFAULT_LANGUAGE = "en"
LANGUAGE_COOKIE = "language"
COOKIE_MAX_AGE = 2 * 365 * 24 * 60 * 60  # two years: remembered, not forever
TRANSLATIONS = Path(__file__).resolve().parents[1] / "translations"

bp = Blueprint("languages", __name__)


def select_language() -> str:
    """The cookie, else the best match of ``Accept-Language``, else English; English for the
    API."""
    if request.path.startswith("/api/"):
        return DEFAULT_LANGUAGE
    chosen = request.cookies.get(LANGUAGE_COOKIE)
    if chosen in LANGUAGES:
        return chosen
    return request.accept_languages.best_match(list(LANGUAGES)) or DEFAULT_LANGUAGE


def current_language() -> str:
    locale = get_locale()
    return DEFAULT_LANGUAGE if locale is None else locale.language


def _same_site_target(target: str | None) -> str:
    """Where to go back to after switching: a path on this site only, never another host."""
    if not target:
        return "/"
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not target.startswith("/") or target.startswith("//") \
            or "\\" in target:
        return "/"
    return target


@bp.route("/language/<code>", methods=["GET", "POST"])
def switch_language(code: str) -> Response:
    """Remember the chosen language in a cookie and go back to the page it was chosen on."""
    if code not in LANGUAGES:
        abort(404, description=f"No language “{code}”: choose one of {', '.join(LANGUAGES)}.")
    target = request.values.get("next") or referrer_path()
    response = redirect(_same_site_target(target))
    response.set_cookie(LANGUAGE_COOKIE, code, max_age=COOKIE_MAX_AGE, samesite="Lax",
                        httponly=True)
    return response


def referrer_path() -> str | None:
    """The page the switch was used on, when the referrer is this very site."""
    referrer = request.referrer
    if not referrer:
        return None
    parts = urlsplit(referrer)
    if parts.netloc != request.host:
        return None
    return parts.path + (f"?{parts.query}" if parts.query else "")


def init_languages(app: Flask) -> None:
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", str(TRANSLATIONS))
    app.config.setdefault("BABEL_DEFAULT_LOCALE", DEFAULT_LANGUAGE)
    Babel(app, locale_selector=select_language)
    app.register_blueprint(bp)

    from companion.web.reason_text import reason_sentence

    app.add_template_filter(reason_sentence, "reason")

    @app.context_processor
    def language_context() -> dict[str, object]:
        language = current_language()
        return {
            "current_language": language,
            "text_direction": "rtl" if language in RIGHT_TO_LEFT else "ltr",
            "languages": LANGUAGES,
        }
