"""Forms of the group pages; names and numbers are checked by the core."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired
from wtforms import IntegerField, SelectField, SelectMultipleField, StringField, widgets
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


class Checkboxes(SelectMultipleField):
    widget = widgets.ListWidget(prefix_label=False)
    option_widget = widgets.CheckboxInput()


class GroupSessionForm(FlaskForm):
    """A session of the group: players ticked from the group, new names typed."""

    members = Checkboxes(_l("Players from the group"), choices=[], validate_choice=True)
    new_1 = StringField(_l("New player"))
    new_2 = StringField(_l("Another new player"))
    rounds = IntegerField(_l("Rounds"), default=1,
                          validators=[InputRequired(_l("How many rounds?")),
                                      NumberRange(1, MAX_ROUNDS)],
                          render_kw={"inputmode": "numeric", "min": 1, "max": MAX_ROUNDS})
    preset = SelectField(_l("Rules"), choices=PRESET_CHOICES, default="pressman")

    def new_fields(self) -> list[StringField]:
        return [self.new_1, self.new_2]

    def names(self) -> list[str]:
        """Ticked players in the group's order, then the new names (the core refuses more
        than a table holds, saying so)."""
        chosen = [name for name, _label in self.members.choices  # type: ignore[union-attr]
                  if name in (self.members.data or [])]
        return [*chosen, *(field.data or "" for field in self.new_fields())]
