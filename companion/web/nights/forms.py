"""Forms of the night pages; names and numbers are checked by the core."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import (
    BooleanField,
    IntegerField,
    SelectField,
    SelectMultipleField,
    StringField,
    TextAreaField,
    widgets,
)
from wtforms.fields.choices import SelectChoice
from wtforms.validators import InputRequired, NumberRange

from companion.core.nights import MAX_GAMES_PER_TABLE, MAX_NIGHT_ROUNDS
from companion.web.forms import PRESET_CHOICES

FORMAT_CHOICES = [SelectChoice("reseat", _l("Re-seat by standings after each round (Swiss)")),
                  SelectChoice("fixed", _l("Fixed tables all night")),
                  SelectChoice("advance", _l("Winners advance, down to a final table"))]


class Checkboxes(SelectMultipleField):  # type: ignore[misc]
    """Several choices ticked, each a checkbox (the group's members who came)."""

    widget = widgets.ListWidget(prefix_label=False)
    option_widget = widgets.CheckboxInput()


class NewNightForm(FlaskForm):
    members = Checkboxes(_l("Players from the group"), choices=[], validate_choice=True)
    names = TextAreaField(_l("Players (one name a line)"),
                          render_kw={"rows": 10, "autocomplete": "off"})
    format = SelectField(_l("Format"), choices=FORMAT_CHOICES, default="reseat")
    rounds = IntegerField(_l("Rounds"), default=3,
                          validators=[InputRequired(_l("How many rounds?")),
                                      NumberRange(1, MAX_NIGHT_ROUNDS)],
                          render_kw={"inputmode": "numeric", "min": 1,
                                     "max": MAX_NIGHT_ROUNDS})
    games_per_table = IntegerField(_l("Games at each table per round"), default=4,
                                   validators=[InputRequired(_l("How many games?")),
                                               NumberRange(1, MAX_GAMES_PER_TABLE)],
                                   render_kw={"inputmode": "numeric", "min": 1,
                                              "max": MAX_GAMES_PER_TABLE})
    advance = SelectField(_l("Who goes on (winners advance)"), default="1",
                          choices=[SelectChoice("1", _l("The first of each table")),
                                   SelectChoice("2", _l("The first two of each table"))])
    pairs = BooleanField(_l("Two-player matches (tables of 2)"))
    preset = SelectField(_l("Rules"), choices=PRESET_CHOICES, default="pressman")

    def player_names(self) -> list[str]:
        chosen = [name for name, _label in self.members.choices  # type: ignore[union-attr]
                  if name in (self.members.data or [])]
        typed = [line.strip() for line in (self.names.data or "").splitlines() if line.strip()]
        return [*chosen, *typed]


class ArrivalForm(FlaskForm):
    name = StringField(_l("Late arrival"), validators=[InputRequired(_l("Say the name."))],
                       render_kw={"autocomplete": "off"})


class LeaveForm(FlaskForm):
    name = SelectField(_l("Leaves after this round"), choices=[])


class SeatForm(FlaskForm):
    """Only the CSRF token: seating the next round takes no input."""
