"""Forms of the table check: their validators call the core parser, nothing else."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import SelectField, TextAreaField
from wtforms.validators import InputRequired, ValidationError

from companion.core.tiles import NotationError, parse_table
from companion.web.forms import PRESET_CHOICES, TILE_FIELD
from companion.web.tool_text import notation_error_html


def table_notation(_form: FlaskForm, field: TextAreaField) -> None:
    """A table that does not parse is refused with the token and where it stands."""
    try:
        table = parse_table(field.data or "")
    except NotationError as error:
        raise ValidationError(notation_error_html(error)) from error
    if not table:
        raise ValidationError(_l("Type at least one set, e.g. R5 R6 R7."))


class CheckTableForm(FlaskForm):
    table = TextAreaField(
        _l("Sets on the table"),
        validators=[InputRequired(_l("Type at least one set.")), table_notation],
        render_kw={"rows": 5, "placeholder": "R5 R6 R7\nK9 B9 O9 J", **TILE_FIELD})
    preset = SelectField(_l("Rules"), choices=PRESET_CHOICES, default="pressman",
                         render_kw={"data-preset-picker": ""})
