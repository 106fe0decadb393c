"""The photo page: upload or take a photo, see it annotated, correct the reading, re-check.

Nothing is written to disk. The upload is read in memory and the annotated picture is sent
back inline; a small copy of the photo rides along in the re-check form (see ``carry``) so the
corrected labels can be drawn on it again. The verdict is an answer, not a record, so both
steps render in place (no redirect), and a rejected re-check keeps what the user typed.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from flask import Blueprint, current_app, render_template, request
from flask_babel import gettext
from flask_babel import lazy_gettext as _l
from werkzeug.exceptions import RequestEntityTooLarge

from companion.core.melds import TableVerdict, check_table
from companion.core.presets import Preset, UnknownPresetError, get_preset
from companion.core.solver import Solution, arrangement_hint
from companion.core.tiles import ImpossibleTilesError, Table, Tile, format_table, parse_table
from companion.web.photos.forms import STEP_RECHECK, PhotoUploadForm, RecheckForm, size_words
from companion.web.photos.keeping import SamplesRefused, sample_place, samples_folder
from companion.web.photos.limits import PhotosBusy, photo_slot
from companion.web.tool_text import doubt_text, impossible_tiles_html, photo_error_text

if TYPE_CHECKING:
    from companion.web.photos.carry import CarriedPhoto

bp = Blueprint("photos", __name__)

PICTURE_NOT_REDRAWN = _l("The picture shows the first reading: your sets no longer have the "
                         "photo's tile counts, so the corrected tiles are not drawn on it.")
PICTURE_LOST = _l("The photo cannot be drawn again: its copy did not come back with the form. "
                  "Read the photo again to see it.")


@dataclass(frozen=True, slots=True)
class UnsureTile:
    """A tile the reader is not sure of, where the user finds it in the typed table."""

    set_number: int
    tile_number: int
    tile: Tile
    confidence: float
    doubt: str | None  # why a rule holds it unsure, in the page's language (tool_text)


@bp.errorhandler(RequestEntityTooLarge)
def photo_too_large(_error: RequestEntityTooLarge) -> tuple[str, int]:
    """Werkzeug refuses the body before any view runs: answer with the form, not an error page."""
    upload_form = PhotoUploadForm(formdata=None)
    limit = size_words(current_app.config["MAX_CONTENT_LENGTH"])
    upload_form.photo.errors = [gettext(
        "The photo is too large: at most %(limit)s. Take it again at a lower resolution, or "
        "crop it to the table.", limit=limit)]
    return render_page(upload_form), 413


@bp.errorhandler(PhotosBusy)
def photos_busy(error: PhotosBusy) -> tuple[str, int, dict[str, str]]:
    """Every photo slot stayed taken: the form again, saying to try in a moment."""
    upload_form = PhotoUploadForm(formdata=None)
    upload_form.photo.errors = [photo_error_text(error)]
    return render_page(upload_form), 503, {"Retry-After": str(error.retry_after)}


@bp.route("/photo", methods=["GET", "POST"])
def read_photo() -> tuple[str, int] | str:
    if request.method == "POST" and request.form.get("step") == STEP_RECHECK:
        return recheck()
    upload_form = PhotoUploadForm()
    if request.method == "GET":
        return render_page(upload_form)
    if not upload_form.validate():
        return render_page(upload_form), 422

    # The reader pulls in OpenCV and its model: loaded on the first photo, not with the app.
    from companion.vision import PhotoError, annotate, decode_for_reading, read_decoded
    from companion.web.photos.carry import CarriedPhoto

    preset = get_preset(upload_form.preset.data)
    try:
        with photo_slot():
            # read_photo() in two steps: the decoded photo also makes the copy that is carried
            photo = decode_for_reading(upload_form.photo.data.read())
            reading = read_decoded(photo, preset=preset)
            carried = CarriedPhoto.of(photo.image, reading)
            del photo
    except PhotoError as error:
        upload_form.photo.errors = [photo_error_text(error)]
        return render_page(upload_form), 422

    reading_json, preview_base64 = carried.fields()
    table_text = "\n".join(format_table((meld,)) for meld in reading.table)
    recheck_form = RecheckForm(formdata=None, table=table_text, preset=preset.key,
                               reading=reading_json, preview=preview_base64)
    return render_page(
        PhotoUploadForm(formdata=None, preset=preset.key),
        recheck_form=recheck_form,
        picture=annotate(carried.preview, carried.reading),
        verdict=reading.verdict,
        reading_error=reading.error,
        reading_impossible=reading.judgement.impossible,
        unsure=unsure_tiles(carried),
        suggestions=reading.suggestions,
        checked_table=format_table(reading.table) if reading.verdict is not None else None,
        arrangement=arrangement_of(reading.verdict, reading.table, preset),
        preset_key=preset.key)


def recheck() -> tuple[str, int]:
    """Check the table as corrected, and draw it on the photo when every set kept its size."""
    from companion.vision import annotate
    from companion.web.photos.carry import CarriedPhoto

    form = RecheckForm()
    try:
        preset = get_preset(form.preset.data)
    except UnknownPresetError:
        preset = get_preset(None)
    carried = CarriedPhoto.from_fields(form.reading.data, form.preview.data, preset=preset)
    table: Table | None = None
    verdict: TableVerdict | None = None
    if form.validate():
        table = parse_table(form.table.data)
        try:
            verdict = check_table(table, preset=preset)
        except ImpossibleTilesError as error:
            form.table.errors = [impossible_tiles_html(error)]

    kept_note = None
    if form.keep.data and verdict is not None and table is not None:
        kept_note = keep_corrected(carried, table)

    picture_note = None
    picture = None
    if carried is None:
        picture_note = str(PICTURE_LOST)
    elif table is not None and verdict is not None and carried.fits(table):
        picture = annotate(carried.preview, carried.reading, table=table)
    else:
        picture = annotate(carried.preview, carried.reading)
        if verdict is not None:
            picture_note = str(PICTURE_NOT_REDRAWN)

    return render_page(
        PhotoUploadForm(formdata=None, preset=preset.key),
        recheck_form=form,
        picture=picture,
        picture_note=picture_note,
        kept_note=kept_note,
        verdict=verdict,
        unsure=unsure_tiles(carried) if carried is not None else [],
        checked_table=format_table(table) if verdict is not None and table else None,
        arrangement=arrangement_of(verdict, table, preset),
        preset_key=preset.key,
    ), 200 if verdict is not None else 422


def arrangement_of(verdict: TableVerdict | None, table: Table | None,
                   preset: Preset) -> Solution | None:
    """When the tiles read are an illegal table: could they be laid legally, and how?"""
    if verdict is None or verdict.legal or not table:
        return None
    return arrangement_hint(table, preset=preset)


def keep_corrected(carried: CarriedPhoto | None, table: Table) -> str:
    """Keep the photo's copy and the corrected tiles as a training sample, as the user asked."""
    from companion.vision.samples import keep_sample

    if carried is None or not carried.fits(table):
        return gettext("Not kept: the corrected sets no longer match the tiles found on the "
                       "photo, so the photo cannot be labelled.")
    reading = carried.reading
    labelled = [(tile, reading.tiles[index].outline)
                for meld, indexes in zip(table, reading.sets) for tile, index in zip(meld, indexes)]
    try:
        with sample_place(None) as prefix:
            kept = keep_sample(samples_folder(), carried.preview, labelled, prefix=prefix)
    except SamplesRefused as error:
        return (gettext("Not kept: this server does not keep photos to train the reader.")
                if error.code == "samples_off" else
                gettext("Not kept: this server keeps no more photos to train the reader."))
    if kept is None:
        return gettext("Not kept: the reader does not learn Twist's special jokers.")
    return gettext("Kept: this photo and your corrected reading will help train the reader. "
                   "Thank you.")


def unsure_tiles(carried: CarriedPhoto) -> list[UnsureTile]:
    """The low-confidence tiles, numbered as they stand in the typed table (from 1)."""
    reading = carried.reading
    return [UnsureTile(set_number, tile_number, reading.tiles[index].tile,
                       reading.tiles[index].confidence, doubt_text(reading.tiles[index].doubt))
            for set_number, indexes in enumerate(reading.sets, start=1)
            for tile_number, index in enumerate(indexes, start=1)
            if reading.tiles[index].low_confidence]


def render_page(upload_form: PhotoUploadForm, *, picture: bytes | None = None,
                **context: Any) -> str:
    return render_template(
        "photos/read.html", upload_form=upload_form,
        picture=base64.b64encode(picture).decode("ascii") if picture else None,
        max_upload_bytes=current_app.config["MAX_CONTENT_LENGTH"],
        **{"recheck_form": None, "verdict": None, "reading_error": None,
           "reading_impossible": None, "unsure": [],
           "picture_note": None, "kept_note": None, "checked_table": None, "arrangement": None,
           "preset_key": "pressman",
           "suggestions": ()} | context)
