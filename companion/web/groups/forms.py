"""Forms of the group pages; names and numbers are checked by the core."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired
from wtforms import IntegerField, SelectField, StringField
from wtforms.validators import InputRequired, NumberRange

from companion.core.scoring import MAX_ROUNDS
from companion.web.forms import PRESET_CHOICES


class NewGroupForm(FlaskForm):
    name = StringField(_l("Name of the group"),
                       validators=[InputRequired(_l("Give the group a name."))],
                       render_kw={"placeholder": _l("Thursday club"), "autocomplete": "off"})


class ImportForm(FlaskForm):
    file = FileField(_l("Export file (JSON)"),
                     validators=[FileRequired(_l("Choose an export file."))],
                     render_kw={"accept": ".json,application/json"})  # the picker offers exports


class GroupSessionForm(FlaskForm):
    """A session of the group: a name for each seat, in seating order (seat 1 plays first).
    The page offers the group's members to tap into the next free seat and to pick from as
    each seat is typed; a name the group does not have joins it."""

    seat_1 = StringField(_l("Seat 1 (plays first)"))
    seat_2 = StringField(_l("Seat 2"))
    seat_3 = StringField(_l("Seat 3 (optional)"))
    seat_4 = StringField(_l("Seat 4 (optional)"))
    rounds = IntegerField(_l("Rounds"), default=1,
                          validators=[InputRequired(_l("How many rounds?")),
                                      NumberRange(1, MAX_ROUNDS)],
                          render_kw={"inputmode": "numeric", "min": 1, "max": MAX_ROUNDS})
    preset = SelectField(_l("Rules"), choices=PRESET_CHOICES, default="pressman")

    def seat_fields(self) -> list[StringField]:
        return [self.seat_1, self.seat_2, self.seat_3, self.seat_4]

    def names(self) -> list[str]:
        """The named seats in order (an empty seat between two is skipped: the order of the
        others stays); the core refuses fewer than two players or a name twice, saying so."""
        return [name for field in self.seat_fields() if (name := (field.data or "").strip())]
