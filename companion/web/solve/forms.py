"""The "What can I play?" form: its validators call the core parser, nothing else."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import BooleanField, SelectField, TextAreaField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import ValidationError

from companion.core.tiles import NotationError, parse_rack, parse_table
from companion.web.forms import PRESET_CHOICES, TILE_FIELD
from companion.web.tool_text import notation_error_html


def table_notation(_form: FlaskForm, field: TextAreaField) -> None:
    try:
        parse_table(field.data or "")
    except NotationError as error:
        raise ValidationError(notation_error_html(error)) from error


def rack_notation(form: FlaskForm, field: TextAreaField) -> None:
    try:
        rack = parse_rack(field.data or "")
    except NotationError as error:
        raise ValidationError(notation_error_html(error)) from error
    if not rack and not (form.table.data or "").strip():
        raise ValidationError(_l("Type your rack (or, to arrange a table, the table's tiles)."))


class SolveForm(FlaskForm):
    table = TextAreaField(
        _l("Sets on the table"), validators=[table_notation],
        render_kw=TILE_FIELD | {"rows": 4, "placeholder": "R5 R6 R7\nK9 B9 O9"})
    rack = TextAreaField(
        _l("Your rack"), validators=[rack_notation],
        render_kw=TILE_FIELD | {"rows": 2, "placeholder": "R8 K1 O12 J"})
    opened = BooleanField(_l("I have made the initial meld"))
    goal = SelectField(_l("Play"), choices=[
        SelectChoice("tiles", _l("the most tiles")),
        SelectChoice("value", _l("the most value (a joker counts 30)"))], default="tiles")
    preset = SelectField(_l("Rules"), choices=PRESET_CHOICES, default="pressman",
                         render_kw={"data-preset-picker": ""})
    tournament_joker_rule = BooleanField(
        _l("Tournament rule: a joker taken from a group of three needs both missing tiles"))
    any_table = BooleanField(_l("Any legal table after the turn (even one the referee "
                                "refuses: a freed joker left in an old set)"))
