"""The core's input errors, rules and penalties, and the photo reader's refusals, said in the
page's language (the referee and tool pages: check, turn, solve, photo, timer).

The core says each of them with a stable code and its parameters (``NotationError.code``,
``ImpossibleTilesError.code``, ``PhotoError.code``) and in English (``str(error)``, for the CLI
and the JSON API). A page says the code through the catalogues: a token the user typed is shown
in ``<code>`` (never between backticks), tiles stay in the notation (K R B O J) in every
language. English pages keep the core's own words where the catalogue has no better message.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping

from flask_babel import gettext, ngettext
from markupsafe import Markup, escape
from werkzeug.exceptions import HTTPException

from companion.core.reasons import (
    RULE_COLOUR_CHANGE,
    RULE_DOUBLE,
    RULE_GROUP,
    RULE_JOKER,
    RULE_MIRROR,
    RULE_RUN,
    RULE_SIZE,
)
from companion.core.referee import TurnInputError
from companion.core.tiles import ImpossibleTilesError, NotationError
from companion.core.turn_verdicts import Penalty, TurnVerdict
from companion.web.languages import DEFAULT_LANGUAGE, RIGHT_TO_LEFT, current_language
from companion.web.reason_text import tile_word


def _(message: str) -> str:
    """Marks a message for extraction; translated when a sentence is built."""
    return message


NOTATION_MESSAGES: dict[str, str] = {
    "empty_tile": _("an empty tile"),
    "run_together": _("did you mean %(spaced)s? Separate the tiles with spaces"),
    "zero_for_o": _("did you mean %(meant)s? Orange is the letter O, not the digit 0"),
    "number_first": _("did you mean %(meant)s? The colour comes first"),
    "colour_without_number": _("a colour needs a number, as in R7"),
    "not_colour_and_number": _("a tile is a colour letter (K, R, B, O) and a number "
                               "%(lowest)s–%(highest)s, as in R7"),
    "not_a_tile": _("not a tile: colours are K (black), R (red), B (blue), O (orange); jokers "
                    "J, D, M, C"),
    "joker_with_number": _("a joker has no number: did you mean %(letter)s?"),
    "not_a_colour": _("%(letter)s is not a colour: use K (black), R (red), B (blue) or O "
                      "(orange)"),
    "number_out_of_range": _("numbers run %(lowest)s–%(highest)s"),
    "text_too_long": _("the text is %(length)s characters long; a whole box of tiles is "
                       "written in far fewer (at most %(longest)s are read)"),
}
"""One message per ``NotationError.code`` (the catalogue test checks each is translated)."""

TOKEN_PARAMS = frozenset({"spaced", "meant", "letter"})
"""Parameters that are notation the user types: shown in ``<code>``."""

IMPOSSIBLE_MESSAGES: dict[str, str] = {
    "too_many_copies": _("%(tile)s (%(words)s) appears %(count)s times: the game has only "
                         "%(allowed)s of each tile"),
    "joker_not_in_edition": _("%(tile)s (%(words)s) is not in this edition: bonus jokers come "
                              "only with Twist"),
    "too_many_jokers": _("%(tile)s (%(words)s) appears %(count)s times: the game has only "
                         "%(allowed)s"),
}
"""One message per ``ImpossibleTilesError.code``."""

WHERE_MESSAGES: dict[str, str] = {
    "rack,tile": _("rack, tile %(tile)s"),
    "set,tile": _("set %(set)s, tile %(tile)s"),
    "set": _("set %(set)s"),
    "tile": _("tile %(tile)s"),
    "rack": _("rack"),
}
LOCATED = _("%(token)s at %(where)s: %(problem)s")
UNLOCATED = _("%(token)s: %(problem)s")

TURN_FIELDS: dict[str, str] = {
    "before": _("table before the turn"),
    "after": _("table after the turn"),
    "rack": _("rack"),
}
IN_FIELD = _("%(field)s: %(message)s")
WITH_TABLE_BEFORE = _("together with the table before the turn, %(message)s")

RULES: dict[str, str] = {
    RULE_GROUP: _("A group is 3 or 4 tiles of one number, every colour different."),
    RULE_RUN: _("A run is 3 or more consecutive numbers of one colour; 1 is always the lowest, "
                "so 13 cannot be followed by 1."),
    RULE_SIZE: _("Every set on the table has at least 3 tiles."),
    RULE_JOKER: _("A joker stands for any one tile that makes the set legal."),
    RULE_DOUBLE: _("A double joker stands for two tiles: two consecutive numbers in a run or two "
                   "colours in a group; never 0 or 14."),
    RULE_MIRROR: _("A mirror joker stands between two sides that mirror each other; it is worth "
                   "0 (this app: each side a run or group fragment of at least two tiles)."),
    RULE_COLOUR_CHANGE: _("A colour-change joker is used only in runs: the tiles before it are "
                          "one colour, the tiles after it another, and the numbers stay "
                          "consecutive."),
}
"""The core's rule sentences (``MeldVerdict.rule`` joins one or more of them), keyed by the
core's English: the test checks the keys are the core's constants and the copies match."""

PHOTO_MESSAGES: dict[str, str] = {
    "too_dark": _("The photo is too dark to read: more light, please (a lamp over the table, or "
                  "the flash), and take it again"),
    "too_blurred": _("The photo is too blurred to read: hold still (elbows on the table), let the "
                     "phone focus on the tiles, and take it again"),
    "no_tiles": _("No tiles found: photograph the tiles from above, the whole table in the "
                  "frame, in good light"),
    "too_small": _("The photo is too small to find tiles in: send it as the phone took it, not a "
                   "thumbnail or a preview"),
    "black_and_white": _("The photo is in black and white: the tiles' colours cannot be told "
                         "apart; take it again in colour"),
    "no_rack": _("No rack found: no row of upright tiles was seen. Photograph only the rack, "
                 "from the front or a little from above, the tiles large and upright"),
    "no_rack_tiles": _("No tiles found on a rack: photograph the rack from the front, close "
                       "enough that the tiles fill most of the photo's width, in good light"),
    "damaged": _("The file is damaged or cut short: send the photo again"),
    "not_an_image": _("Not an image: send a photo as JPEG, PNG, WebP or HEIC"),
    "too_large": _("The photo is too large: take it again at a lower resolution"),
    "unreadable": _("The photo cannot be read: take it again"),
    "busy": _("The server is busy reading other photos: try again in a moment"),
}
"""One message per ``PhotoError.code`` (English pages keep the reader's own, more detailed
sentence)."""

DOUBT_MESSAGES: dict[str, str] = {
    "six_or_nine_in_shade": _("a 6 or a 9 in a shadow, where which way up it lies is hard to "
                              "see"),
    "turned_from_its_neighbours": _("a small 6 or 9 read the other way up from the tiles "
                                    "beside it"),
    "washed_out": _("its face is washed out by glare"),
    "two_tiles_in_one_box": _("it may be two tiles side by side, read as one"),
    "other_design": _("read as a classic tile, though the tiles look like the current design"),
    "figure_reads_the_other": _("its figure reads as the other of 6 and 9"),
    "turned_from_the_rack": _("a 6 or a 9 the other way up from the rack's tiles"),
}
"""Why a tile is unsure though the reader was sure of it, one message per ``ReadTile.doubt``
said of the tile itself (``reading.DOUBTS``; the photo-wide ones are said once, by the
page)."""


def doubt_text(doubt: str) -> str | None:
    """A tile's own doubt in the page's language; None for none, or a photo-wide one."""
    return gettext(DOUBT_MESSAGES[doubt]) if doubt in DOUBT_MESSAGES else None


def _code(token: object) -> Markup:
    return Markup("<code>%s</code>") % (token,)


def _say(message: str, params: Mapping[str, object]) -> Markup:
    """A catalogue message with its parameters (already Markup, or escaped here)."""
    return Markup(escape(gettext(message))) % dict(params)


def _where(error: NotationError) -> Markup | None:
    if error.set_number is not None and error.tile_number is not None:
        key = "set,tile"
    elif error.place == "rack":
        key = "rack,tile" if error.tile_number is not None else "rack"
    elif error.set_number is not None:
        key = "set"
    elif error.tile_number is not None:
        key = "tile"
    else:
        return None
    return _say(WHERE_MESSAGES[key], {"set": error.set_number, "tile": error.tile_number})


def notation_error_html(error: NotationError) -> Markup:
    """``<code>R14</code> at set 2, tile 3: numbers run 1–13`` in the page's language."""
    params: dict[str, object] = {
        name: _code(value) if name in TOKEN_PARAMS else value
        for name, value in error.params.items()}
    if error.code == "text_too_long":
        params = {name: f"{value:,}" for name, value in error.params.items()}
    problem = _say(NOTATION_MESSAGES[error.code], params)
    where = _where(error)
    token = _code(error.shown_token)
    if where is None:
        return _say(UNLOCATED, {"token": token, "problem": problem})
    return _say(LOCATED, {"token": token, "where": where, "problem": problem})


def impossible_tiles_html(error: ImpossibleTilesError) -> Markup:
    """``R7 (red 7) appears 3 times: …`` in the page's language, the tile in ``<code>``."""
    return _say(IMPOSSIBLE_MESSAGES[error.code], {
        "tile": _code(error.tile), "words": tile_word(error.tile), "count": error.count,
        "allowed": error.allowed})


def input_error_html(error: NotationError | ImpossibleTilesError | TurnInputError) -> Markup:
    """Any input error of the core, for a form field's error on a page."""
    if isinstance(error, NotationError):
        return notation_error_html(error)
    if isinstance(error, ImpossibleTilesError):
        return impossible_tiles_html(error)
    cause = error.cause
    if cause is None:
        return Markup(escape(str(error)))
    said = input_error_html(cause)
    if isinstance(cause, NotationError) and cause.place == "rack":
        return said  # the parser already named the rack
    if isinstance(cause, ImpossibleTilesError) and error.field == "rack":
        said = _say(WITH_TABLE_BEFORE, {"message": said})
    return _say(IN_FIELD, {"field": gettext(TURN_FIELDS[error.field]), "message": said})


def bdi(text: object) -> Markup:
    """On a right-to-left page, text written left to right (a preset's name with its year in
    parentheses, tiles in a Hebrew sentence) kept apart in ``<bdi>``, so its own parentheses
    and numbers stay in place; other pages get the text as it is."""
    if current_language() not in RIGHT_TO_LEFT:
        return Markup(escape(text))
    return Markup("<bdi>%s</bdi>") % (text,)


def rule_text(rule: str) -> str:
    """A verdict's rule (one or more of the core's rule sentences) in the page's language."""
    for english, message in sorted(RULES.items(), key=lambda item: -len(item[0])):
        rule = rule.replace(english, gettext(message))
    return rule


def penalty_text(penalty: Penalty, *, draw: int, failed_draw: int) -> str:
    """A turn's penalty as the page says it (the core's ``penalty_words``)."""
    if penalty is Penalty.NONE:
        return gettext("None.")
    if penalty is Penalty.DRAW_ONE:
        return ngettext("Draw %(num)s tile from the pool; the turn is over.",
                        "Draw %(num)s tiles from the pool; the turn is over.", draw)
    return ngettext("Put the table back as it was, take back your tiles and draw %(num)s tile.",
                    "Put the table back as it was, take back your tiles and draw %(num)s tiles.",
                    failed_draw)


def photo_error_text(error: Exception) -> str:
    """A photo the reader refused: its own sentence on English pages, the code's message in
    the other languages."""
    code = getattr(error, "code", "unreadable")
    if current_language() == DEFAULT_LANGUAGE or code not in PHOTO_MESSAGES:
        english = str(error)
        return english[:1].upper() + english[1:]
    return gettext(PHOTO_MESSAGES[code])


PLURAL_SAMPLES = {"one": 1, "two": 2, "few": 3, "many": 1_000_000, "other": 5}
"""A number of each CLDR plural category (``Intl.PluralRules`` in the browser picks one) in the
pages' languages; "{n}" stands for the number in the forms handed to the scripts."""


def plural_forms(say: Callable[[int, str], str]) -> str:
    """JSON of a counted phrase's form for each plural category, for a script to pick from
    (``say(count, shown)`` calls ngettext with ``count=shown``)."""
    return json.dumps({category: say(count, "{n}") for category, count in PLURAL_SAMPLES.items()},
                      ensure_ascii=False)


def palette_text() -> dict[str, str]:
    """The palette's running rack value, as static/palette.js writes it."""
    return {
        "rack-value": gettext("Rack value %(value)s", value="{value}"),
        "tiles": plural_forms(lambda count, shown: ngettext("%(count)s tile", "%(count)s tiles",
                                                            count, count=shown)),
        "jokers": plural_forms(lambda count, shown: ngettext("%(count)s joker", "%(count)s jokers",
                                                             count, count=shown)),
        "rack-error": gettext("Not a rack yet: check %(token)s", token="{token}"),
    }


ERROR_NAMES: dict[int, str] = {
    400: _("Bad Request"), 403: _("Forbidden"), 404: _("Not Found"),
    405: _("Method Not Allowed"), 409: _("Conflict"), 410: _("Gone"),
    413: _("Request Entity Too Large"), 422: _("Unprocessable Entity"),
    429: _("Too Many Requests"), 500: _("Internal Server Error"),
    503: _("Service Unavailable"),
}
ERROR_DESCRIPTIONS: dict[int, str] = {
    400: _("The browser sent a request this server could not understand."),
    403: _("You don't have the permission to open this page."),
    404: _("There is no page at this address. If you typed it, check the spelling."),
    405: _("This page cannot be opened that way."),
    413: _("What was sent is too large."),
    429: _("Too many requests at once: wait a moment and try again."),
    500: _("Something went wrong on the server. Please try again."),
    503: _("The server is busy or down for maintenance. Please try again shortly."),
}


class ErrorText:
    """An error page's name and description in the page's language."""

    def __init__(self, name: str, description: str) -> None:
        self.name = name
        self.description = description


def error_text(error: HTTPException) -> ErrorText:
    """Werkzeug names every HTTP error in English; a page says it in its language. A
    description a view wrote itself (``abort(404, description=...)``) is kept; Werkzeug's
    default description is replaced by the catalogue's."""
    code = error.code or 500
    name = gettext(ERROR_NAMES[code]) if code in ERROR_NAMES else (error.name or "")
    description = error.description or ""
    default = type(error).description
    if (description == default or not description) and code in ERROR_DESCRIPTIONS:
        description = gettext(ERROR_DESCRIPTIONS[code])
    return ErrorText(name, description)


def verdict_penalty_text(verdict: TurnVerdict) -> str:
    """A turn verdict's penalty, for the turn page."""
    return penalty_text(verdict.penalty, draw=verdict.preset.over_time_draw,
                        failed_draw=verdict.preset.failed_turn_draw)
