"""Forms of the group pages; names and numbers are checked by the core."""

from __future__ import annotations

from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired
from wtforms import IntegerField, SelectField, SelectMultipleField, StringField, widgets
from wtforms.validators import InputRequired, NumberRange

from companion.core.scoring import MAX_ROUNDS
from companion.web.forms import PRESET_CHOICES


class NewGroupForm(FlaskForm):
    name = StringField("Name of the group", validators=[InputRequired("Give the group a name.")],
                       render_kw={"placeholder": "Thursday club", "autocomplete": "off"})


class ImportForm(FlaskForm):
    file = FileField("Export file (JSON)", validators=[FileRequired("Choose an export file.")])


class Checkboxes(SelectMultipleField):
    widget = widgets.ListWidget(prefix_label=False)
    option_widget = widgets.CheckboxInput()


class GroupSessionForm(FlaskForm):
    """A session of the group: players ticked from the group, new names typed."""

    members = Checkboxes("Players from the group", choices=[], validate_choice=True)
    new_1 = StringField("New player")
    new_2 = StringField("Another new player")
    rounds = IntegerField("Rounds", default=1,
                          validators=[InputRequired("How many rounds?"),
                                      NumberRange(1, MAX_ROUNDS)],
                          render_kw={"inputmode": "numeric", "min": 1, "max": MAX_ROUNDS})
    preset = SelectField("Rules", choices=PRESET_CHOICES, default="pressman")

    def new_fields(self) -> list[StringField]:
        return [self.new_1, self.new_2]

    def names(self) -> list[str]:
        """Ticked players in the group's order, then the new names (the core refuses more
        than a table holds, saying so)."""
        chosen = [name for name, _label in self.members.choices  # type: ignore[union-attr]
                  if name in (self.members.data or [])]
        return [*chosen, *(field.data or "" for field in self.new_fields())]
