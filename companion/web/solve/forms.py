"""The "What can I play?" form: its validators call the core parser, nothing else."""

from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import BooleanField, SelectField, TextAreaField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import ValidationError

from companion.core.tiles import NotationError, parse_rack, parse_table
from companion.web.forms import PRESET_CHOICES, TILE_FIELD


def table_notation(_form: FlaskForm, field: TextAreaField) -> None:
    try:
        parse_table(field.data or "")
    except NotationError as error:
        raise ValidationError(str(error)) from error


def rack_notation(form: FlaskForm, field: TextAreaField) -> None:
    try:
        rack = parse_rack(field.data or "")
    except NotationError as error:
        raise ValidationError(str(error)) from error
    if not rack and not (form.table.data or "").strip():
        raise ValidationError("Type your rack (or, to arrange a table, the table's tiles).")


class SolveForm(FlaskForm):
    table = TextAreaField(
        "Sets on the table", validators=[table_notation],
        render_kw=TILE_FIELD | {"rows": 4, "placeholder": "R5 R6 R7\nK9 B9 O9"})
    rack = TextAreaField(
        "Your rack", validators=[rack_notation],
        render_kw=TILE_FIELD | {"rows": 2, "placeholder": "R8 K1 O12 J"})
    opened = BooleanField("I have made the initial meld")
    goal = SelectField("Play", choices=[SelectChoice("tiles", "the most tiles"),
                                        SelectChoice("value", "the most value (a joker counts 30)")],
                       default="tiles")
    preset = SelectField("Rules", choices=PRESET_CHOICES, default="pressman",
                         render_kw={"data-preset-picker": ""})
