"""Forms of the score keeper. Their validators call the core (tile parser, player checks)."""

from __future__ import annotations

import re
import secrets
from typing import Any

from flask_babel import gettext
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from flask_wtf.i18n import translations as wtforms_translations
from wtforms import (
    FieldList,
    Form,
    FormField,
    HiddenField,
    IntegerField,
    RadioField,
    SelectField,
    StringField,
    TextAreaField,
)
from wtforms.fields.choices import SelectChoice
from wtforms.validators import InputRequired, NumberRange, Optional, ValidationError

from companion.core.presets import ExhaustedPoolRule
from companion.core.scoring import MAX_ROUNDS, RULE_RANGES, Ending, Rack
from companion.core.tiles import NotationError, parse_rack
from companion.web.forms import PRESET_CHOICES, TILE_FIELD
from companion.web.tool_text import notation_error_html

EXHAUSTED_CHOICES = [
    SelectChoice("", _l("As the preset says (lowest rack value wins)")),
    SelectChoice(ExhaustedPoolRule.LOWEST_VALUE_RELATIVE.value,
                 _l("Lowest rack value wins, relative scoring")),
    SelectChoice(ExhaustedPoolRule.FEWEST_TILES.value,
                 _l("Fewest tiles wins, scored as a normal win")),
]


def _rule_number(key: str, label: object) -> IntegerField:
    low, high = RULE_RANGES[key]
    return IntegerField(label, validators=[Optional(), NumberRange(low, high)],
                        render_kw={"inputmode": "numeric", "placeholder": _l("preset")})


class NewSessionForm(FlaskForm):
    player_1 = StringField(_l("Player 1"),
                           validators=[InputRequired(_l("Name at least two players."))])
    player_2 = StringField(_l("Player 2"),
                           validators=[InputRequired(_l("Name at least two players."))])
    player_3 = StringField(_l("Player 3 (optional)"))
    player_4 = StringField(_l("Player 4 (optional)"))
    rounds = IntegerField(_l("Rounds"), default=1,
                          validators=[InputRequired(_l("How many rounds?")),
                                      NumberRange(1, MAX_ROUNDS)],
                          render_kw={"inputmode": "numeric", "min": 1, "max": MAX_ROUNDS})
    preset = SelectField(_l("Rules"), choices=PRESET_CHOICES, default="pressman")
    joker_penalty = _rule_number("joker_penalty", _l("Joker left on a rack costs"))
    exhausted_pool = SelectField(_l("When the pool runs out"), choices=EXHAUSTED_CHOICES,
                                 default="")
    initial_meld = _rule_number("initial_meld", _l("Initial meld at least"))
    turn_seconds = _rule_number("turn_seconds", _l("Seconds per turn"))

    def player_fields(self) -> list[StringField]:
        return [self.player_1, self.player_2, self.player_3, self.player_4]

    def validate(self, extra_validators: Any = None) -> bool:
        """The fields' own checks, then a gap in the seats (the names are the seating order),
        said once under the empty seat: a ``validate_player_4`` would also have put its own
        words under player 4."""
        fields_valid = super().validate(extra_validators)
        if self.player_1.errors and list(self.player_2.errors) == list(self.player_1.errors):
            self.player_2.errors = []  # "Name at least two players." once, under player 1
        return self._seats_have_no_gap() and fields_valid

    def _seats_have_no_gap(self) -> bool:
        seats = self.player_fields()
        named = [bool((seat.data or "").strip()) for seat in seats]
        for position, seat in enumerate(seats[:-1]):
            if not named[position] and any(named[position + 1:]):
                later = next(i for i in range(position + 1, len(seats)) if named[i])
                gap = gettext("Seat %(empty)s is empty but seat %(later)s is not: fill the "
                              "seats in seating order, with no gap.", empty=position + 1,
                              later=later + 1)
                seat.errors = [*seat.errors, gap]
                return False
        return True

    def overrides(self) -> dict[str, object]:
        chosen: dict[str, object] = {
            "joker_penalty": self.joker_penalty.data, "initial_meld": self.initial_meld.data,
            "turn_seconds": self.turn_seconds.data, "exhausted_pool": self.exhausted_pool.data}
        return {key: value for key, value in chosen.items() if value not in (None, "")}


def rack_notation(_form: Form, field: StringField) -> None:
    """A rack that does not parse is refused with the token and where it stands, in the page's
    language (the typed token in ``<code>``)."""
    try:
        parse_rack(field.data or "")
    except NotationError as error:
        raise ValidationError(notation_error_html(error)) from error


def read_signed(text: str | None) -> int | None:
    """A score as written on paper: ``+24``, ``-5``, ``−5`` (a real minus) or ``0``."""
    cleaned = (text or "").strip().replace("−", "-").replace("–", "-").replace(" ", "")
    if not cleaned:
        return None
    if not re.fullmatch(r"[+-]?\d+", cleaned):
        # Python's int() would also take "1_1" as 11: a paper score is only a sign and digits
        raise ValueError(f"not a score: {text!r}")
    return int(cleaned)


def signed_whole_number(_form: Form, field: StringField) -> None:
    try:
        read_signed(field.data)
    except ValueError as error:
        raise ValidationError(gettext("“%(typed)s” is not a score: write a whole number such "
                                      "as −5 or +24", typed=field.data.strip())) from error


class PlayerLineForm(Form):
    """One player's line in a game: the rack as tiles, or a total and jokers; or a score."""

    class Meta:
        """A plain form inside the game form: WTForms' own messages ("Not a valid integer
        value.") in the page's language, as a FlaskForm says them; no CSRF token of its own."""

        def get_translations(self, form: Form) -> object:
            return wtforms_translations

    # Two lines that wrap: a rack read from a photo (16 tiles and more) shows whole at 360 px.
    rack = TextAreaField(_l("Tiles left"), validators=[rack_notation],
                         render_kw={"placeholder": _l("e.g. K5 R13 J"), "data-rack-field": "",
                                    "rows": 2, **TILE_FIELD})
    total = IntegerField(_l("or points"), validators=[Optional(), NumberRange(min=0)],
                         render_kw={"inputmode": "numeric", "min": 0})
    jokers = IntegerField(_l("+ jokers"), validators=[Optional(), NumberRange(0, 8)],
                          render_kw={"inputmode": "numeric", "min": 0, "max": 8})
    score = StringField(_l("Score"), validators=[signed_whole_number],
                        render_kw={"autocomplete": "off", "placeholder": _l("−5 or +24")})

    def validate_total(self, field: IntegerField) -> None:
        """Tiles and points both typed: which one counts is the player's to say, not ours."""
        typed_points = field.data is not None or self.jokers.data is not None
        if (self.rack.data or "").strip() and typed_points:
            raise ValidationError(gettext("Type the tiles left or the points (and jokers), not "
                                          "both: clear one of them."))

    @property
    def score_value(self) -> int | None:
        return read_signed(self.score.data)

    def to_rack(self) -> Rack | None:
        if (self.rack.data or "").strip():
            return Rack.of_tiles(parse_rack(self.rack.data))
        if self.total.data is not None or self.jokers.data is not None:
            return Rack.of_total(self.total.data or 0, self.jokers.data or 0)
        return None


def new_idempotency_key() -> str:
    return secrets.token_urlsafe(16)


class GameForm(FlaskForm):
    """One game. ``idempotency_key`` is made once per page render: the same form posted twice
    (a double tap, a retry after a lost answer) records one game. ``number`` is the game the
    page was recording, so a game recorded meanwhile from another phone is not overwritten or
    repeated silently."""

    ending = HiddenField(default=Ending.WENT_OUT.value)
    idempotency_key = HiddenField(default=new_idempotency_key)
    number = HiddenField()
    winner = RadioField(_l("Who won"), choices=[], validate_choice=False)
    lines = FieldList(FormField(PlayerLineForm), min_entries=2, max_entries=4)

    def set_players(self, players: tuple[str, ...]) -> None:
        """Seat one line per player, whatever was posted."""
        while len(self.lines) < len(players):
            self.lines.append_entry()
        while len(self.lines) > len(players):
            self.lines.pop_entry()
        self.winner.choices = [(name, name) for name in players]

    def validate_ending(self, field: HiddenField) -> None:
        if field.data not in {ending.value for ending in Ending}:
            raise ValidationError(gettext("The form did not say how the game ended: choose one "
                                          "of the tabs above and type the game again."))

    def validate_number(self, field: HiddenField) -> None:
        if (field.data or "").strip() and self.expected_number() is None:
            raise ValidationError(gettext("The form's game number was changed: reload the "
                                          "page."))

    def expected_number(self) -> int | None:
        text = (self.number.data or "").strip()
        return int(text) if re.fullmatch(r"[0-9]{1,5}", text) else None

    def validate_lines(self, field: FieldList) -> None:
        if self.ending.data == Ending.PAPER.value:
            for line in field:
                if not line.score.errors and line.form.score_value is None:
                    line.score.errors = [*line.score.errors, gettext("type this player's score")]
                    raise ValidationError("every player needs a score")


class ConfirmForm(FlaskForm):
    """An empty form: its CSRF token guards a button that deletes something."""

