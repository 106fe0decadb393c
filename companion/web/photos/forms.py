"""Forms of the photo page: the upload, and the re-check of a corrected reading.

Both post to the same page; the hidden ``step`` field says which one came back.
"""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired
from wtforms import BooleanField, HiddenField, SelectField, TextAreaField
from wtforms.validators import InputRequired

from companion.web.check.forms import table_notation
from companion.web.forms import PRESET_CHOICES, TILE_FIELD

STEP_READ, STEP_RECHECK = "read", "recheck"


def size_words(limit_bytes: int) -> str:
    """An upload limit as a player reads it: "20 MB", "64 kB"."""
    megabytes = limit_bytes / (1024 * 1024)
    return f"{megabytes:g} MB" if megabytes >= 1 else f"{limit_bytes // 1024} kB"


class PhotoUploadForm(FlaskForm):
    """The page renders ``photo`` twice (camera and library); Flask-WTF keeps the one filled."""

    step = HiddenField(default=STEP_READ)
    photo = FileField(_l("Photo of the table"),
                      validators=[FileRequired(_l("Choose or take a photo of the table first."))],
                      render_kw={"accept": "image/*"})
    preset = SelectField(_l("Rules"), choices=PRESET_CHOICES, default="pressman")


class RecheckForm(FlaskForm):
    """The reading as the user corrected it, with what is needed to draw it on the photo again.

    ``reading`` (outlines as JSON) and ``preview`` (a small JPEG, base64) only serve the
    picture: when they are missing or damaged the verdict is still given, without the picture.
    """

    step = HiddenField(default=STEP_RECHECK)
    table = TextAreaField(
        _l("Sets read from the photo, one set per line"),
        validators=[InputRequired(_l("Type at least one set.")), table_notation],
        render_kw={"rows": 6, **TILE_FIELD})
    preset = SelectField(_l("Rules"), choices=PRESET_CHOICES, default="pressman",
                         render_kw={"data-preset-picker": ""})
    reading = HiddenField()
    preview = HiddenField()
    keep = BooleanField(_l("Keep this photo and the corrected reading to improve the reader"),
                        default=False)
