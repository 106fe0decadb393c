"""Forms of the turns feature: their validators call the core parser, nothing else."""

from __future__ import annotations

import csv
from collections.abc import Callable, Iterable
from typing import Any

from flask_babel import gettext, ngettext
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import BooleanField, Field, IntegerField, SelectField, StringField, TextAreaField
from wtforms.validators import InputRequired, NumberRange, Optional, ValidationError

from companion.core.presets import (
    LONGEST_TURN_SECONDS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    SHORTEST_TURN_SECONDS,
)
from companion.core.scoring import ScoringError, check_players
from companion.core.tiles import NotationError, parse_rack, parse_table
from companion.web.forms import PRESET_CHOICES, TILE_FIELD
from companion.web.scores.words import refusal
from companion.web.tool_text import notation_error_html


def notation(parse: Callable[[str], Any], *,
             when_empty: Any = None) -> Callable[[FlaskForm, Field], None]:
    """A field that does not parse is refused with the token and where it stands; with
    ``when_empty``, a field holding no tile is refused with that message."""

    def validate(_form: FlaskForm, field: Field) -> None:
        try:
            parsed = parse(field.data or "")
        except NotationError as error:
            raise ValidationError(notation_error_html(error)) from error
        if when_empty is not None and not parsed:
            raise ValidationError(when_empty)

    return validate


class RefereeTurnForm(FlaskForm):
    before = TextAreaField(
        _l("Table before the turn"), validators=[notation(parse_table)],
        render_kw=TILE_FIELD | {"rows": 4, "placeholder": "R5 R6 R7\nK9 B9 O9 J"})
    after = TextAreaField(
        _l("Table after the turn"),
        validators=[notation(parse_table, when_empty=_l("Type the table after the turn, "
                                                        "e.g. R5 R6 R7 R8."))],
        render_kw=TILE_FIELD | {"rows": 4, "placeholder": "R5 R6 R7 R8\nK9 B9 O9 J"})
    rack = TextAreaField(
        _l("Rack before the turn (optional)"), validators=[notation(parse_rack)],
        render_kw=TILE_FIELD | {"rows": 2, "placeholder": "R8 K1 O12"})
    opened = BooleanField(_l("The player had already made the initial meld"))
    over_time = BooleanField(_l("The player ran over the turn time"))
    tournament_joker_rule = BooleanField(
        _l("Tournament rule: a joker taken from a group of three needs both missing tiles"))
    preset = SelectField(_l("Rules"), choices=PRESET_CHOICES, default="pressman",
                         render_kw={"data-preset-picker": ""})


MOST_PLAYERS = MAX_PLAYERS  # the core's "For 2 to 4 players" (seed 000)
LONGEST_NAME = 40


def player_names(text: str | None) -> list[str]:
    """Names separated by commas, in seating order; blanks between commas are skipped.

    A name holding a comma is written in double quotes, as in a CSV line
    (``Ann, "Bob, Jr", Cy``); :func:`join_player_names` writes names back that way.
    """
    line = (text or "").replace("\r", " ").replace("\n", " ")
    fields = next(csv.reader([line], skipinitialspace=True), [])
    return [name.strip() for name in fields if name.strip()]


def join_player_names(names: Iterable[str]) -> str:
    """The text :func:`player_names` reads back as exactly these names."""
    def written(name: str) -> str:
        if "," not in name and '"' not in name:
            return name
        return '"' + name.replace('"', '""') + '"'

    return ", ".join(written(name) for name in names)


def seating(_form: FlaskForm, field: Field) -> None:
    names = player_names(field.data)
    if len(names) < MIN_PLAYERS:
        raise ValidationError(gettext("Name at least %(least)s players, e.g. Ann, Bob, Cy.",
                                      least=MIN_PLAYERS))
    if len(names) > MOST_PLAYERS:
        raise ValidationError(ngettext(
            "At most %(most)s players: %(num)s name was given.",
            "At most %(most)s players: %(num)s names were given.", len(names), most=MOST_PLAYERS))
    for name in names:
        if len(name) > LONGEST_NAME:
            raise ValidationError(gettext(
                "“%(name)s…” is longer than %(longest)s characters.", name=name[:20],
                longest=LONGEST_NAME))
    try:  # the rest as a session's players are checked ("Anna, Anna" is one player twice)
        check_players(names)
    except ScoringError as error:
        raise ValidationError(refusal(error)) from error


class TimerForm(FlaskForm):
    """The players of the timer, typed at the table (the score sheet links with them)."""

    players = StringField(
        _l("Players, in seating order"),
        validators=[InputRequired(_l("Name at least %(least)s players.", least=MIN_PLAYERS)),
                    seating],
        render_kw={"placeholder": "Ann, Bob, Cy", "autocomplete": "off"})
    preset = SelectField(_l("Rules"), choices=PRESET_CHOICES, default="pressman")
    first = StringField(_l("Who plays first (empty: the first name)"), validators=[Optional()],
                        render_kw={"autocomplete": "off"})
    seconds = IntegerField(
        _l("Seconds per turn (empty: the rules' time)"),
        validators=[Optional(), NumberRange(
            SHORTEST_TURN_SECONDS, LONGEST_TURN_SECONDS,
            _l("A turn lasts %(shortest)s to %(longest)s seconds.",
               shortest=SHORTEST_TURN_SECONDS, longest=LONGEST_TURN_SECONDS))])

    def validate_first(self, field: Field) -> None:
        names = player_names(self.players.data)
        if field.data and names and field.data.strip().casefold() not in (
                name.casefold() for name in names):
            raise ValidationError(gettext("“%(name)s” is not one of the players: %(players)s.",
                                          name=field.data.strip(), players=", ".join(names)))

    def seating_order(self) -> list[str]:
        """The players in seating order, turned so that the first player comes first."""
        names = player_names(self.players.data)
        first = (self.first.data or "").strip().casefold()
        start = next((i for i, name in enumerate(names) if name.casefold() == first), 0)
        return names[start:] + names[:start]
