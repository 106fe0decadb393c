"""POST /api/v1/photo: read a photo of the table, the same reader as the page and the CLI.

The photo comes as the multipart file field ``photo`` (``curl -F photo=@table.jpg``), the rules
as an optional ``preset`` form field or query parameter. The answer is the reading's JSON; bad
input is a 400 (413 when too large) with ``{"error", "where"}``, and a photo the reader
refuses also has its stable ``code``. Nothing is stored.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app, jsonify, request
from werkzeug.datastructures import FileStorage
from werkzeug.exceptions import RequestEntityTooLarge

from companion.core.scoring import ScoringError, apply_rule_overrides
from companion.core.solver import arrangement_hint
from companion.web.api import ApiInputError, preset_field, refusal
from companion.web.photos.forms import size_words
from companion.web.photos.keeping import SamplesRefused, sample_place, samples_folder, samples_on
from companion.web.photos.limits import PhotosBusy, photo_slot

bp = Blueprint("photos_api", __name__)

PHOTO_FIELD = {"field": "photo"}


def too_large_message() -> str:
    limit = size_words(current_app.config["MAX_CONTENT_LENGTH"])
    return (f"the photo is too large: send at most {limit} "
            "(a lower resolution or a crop of the table)")


@bp.errorhandler(PhotosBusy)
def photos_busy(error: PhotosBusy) -> tuple[Any, int, dict[str, str]]:
    return (jsonify(error=str(error), where=PHOTO_FIELD, code=error.code), 503,
            {"Retry-After": str(error.retry_after)})


@bp.errorhandler(RequestEntityTooLarge)
def photo_too_large(_error: RequestEntityTooLarge) -> tuple[Any, int]:
    return refusal(ApiInputError(too_large_message(), PHOTO_FIELD, 413, {"code": "too_large"}))


def photo_refused(error: Exception) -> ApiInputError:
    """A photo the reader refused, with its stable ``code`` (``too_dark``, ``no_rack``, …):
    the message stays English, the pages' scripts say the code in the page's language."""
    return ApiInputError(str(error), PHOTO_FIELD, extra={"code": getattr(error, "code",
                                                                          "unreadable")})


def uploaded_file(what: str, example: str) -> FileStorage:
    """The multipart file field ``photo``, or a 400 saying how to send it (read its bytes
    only inside a ``photo_slot``)."""
    upload = request.files.get("photo")
    if upload is None:
        if "photo" in request.form:
            raise ApiInputError("send `photo` as a file in a multipart form "
                                f"(curl -F photo=@{example}), not as text", PHOTO_FIELD)
        raise ApiInputError(f"no photo: send {what} as the multipart file field `photo` "
                            f"(curl -F photo=@{example})", PHOTO_FIELD)
    return upload


@bp.post("/photo")
def read_photo() -> Any:
    upload = uploaded_file("the image", "table.jpg")
    preset = preset_field(request.form.get("preset", request.args.get("preset")))
    # The reader pulls in OpenCV and its model: loaded on the first photo, not with the app.
    from companion.vision import PhotoError
    from companion.vision import read_photo as read_table_photo

    with photo_slot():
        try:
            reading = read_table_photo(upload.read(), preset=preset)
        except PhotoError as error:
            raise photo_refused(error) from error
    hint = (arrangement_hint(reading.table, preset=preset) if reading.verdict is not None
            else None)
    return jsonify(reading.to_json() | {"arrangement": hint.to_json() if hint else None})


@bp.post("/rack")
def read_rack() -> Any:
    """The tiles on a rack photo and the rack's value under the preset's joker penalty.

    ``joker_penalty`` (optional, a whole number) is a session's own penalty when it overrides
    the preset's; the core checks its range.
    """
    upload = uploaded_file("the rack photo", "rack.jpg")
    preset = preset_field(request.form.get("preset", request.args.get("preset")))
    penalty = request.form.get("joker_penalty", request.args.get("joker_penalty"))
    if penalty not in (None, ""):
        where = {"field": "joker_penalty"}
        if not penalty.strip().isdigit():
            raise ApiInputError("`joker_penalty` must be a whole number", where)
        try:
            preset = apply_rule_overrides(preset, {"joker_penalty": int(penalty)})
        except ScoringError as error:
            raise ApiInputError(str(error), where) from error
    from companion.vision import PhotoError
    from companion.vision import read_rack as read_rack_photo

    with photo_slot():
        try:
            reading = read_rack_photo(upload.read(), preset=preset)
        except PhotoError as error:
            raise photo_refused(error) from error
    return jsonify(reading.to_json())


@bp.post("/rack/samples")
def keep_rack_sample() -> Any:
    """Keep a rack photo and its corrected tiles to train the reader: only when the user asks.

    Multipart ``session`` (the session's id), ``photo`` and ``tiles`` (the rack as corrected,
    one tile per tile read, in the reading's order), with the session's edit key in
    ``Authorization: Bearer``. The photo is read again for the outlines; nothing else is
    stored. Refused (403) on a server that keeps no samples, and (429) past a session's or the
    server's quota (``companion.web.photos.keeping``).
    """
    if not samples_on():
        raise ApiInputError("this server does not keep photos to train the reader", None, 403,
                            {"code": "samples_off"})
    session_id = sample_session()
    upload = request.files.get("photo")
    if upload is None:
        raise ApiInputError("no photo: send the rack photo as the multipart file field `photo`",
                            PHOTO_FIELD)
    from companion.core.tiles import NotationError, parse_rack
    from companion.vision import PhotoError
    from companion.vision import read_rack as read_rack_photo
    from companion.vision.samples import keep_photo_sample

    try:
        corrected = parse_rack(request.form.get("tiles", ""))
    except NotationError as error:
        raise ApiInputError(str(error), {"field": "tiles"}) from error
    with photo_slot():
        data = upload.read()
        try:
            reading = read_rack_photo(data)
        except PhotoError as error:
            raise photo_refused(error) from error
        if len(corrected) != len(reading.tiles):
            raise ApiInputError(f"the corrected rack has {len(corrected)} tiles and the photo "
                                f"{len(reading.tiles)}: a photo is kept only with one tile for "
                                "each tile found on it", {"field": "tiles"})
        labelled = [(tile, read.outline) for tile, read in zip(corrected, reading.tiles)]
        try:
            with sample_place(session_id) as prefix:
                kept = keep_photo_sample(samples_folder(), data, labelled, prefix=prefix)
        except SamplesRefused as error:
            raise ApiInputError(str(error), None, error.status, {"code": error.code}) from error
    if kept is None:
        raise ApiInputError("not kept: the reader does not learn Twist's special jokers",
                            {"field": "tiles"})
    return jsonify(kept=True), 201


def sample_session() -> str:
    """The session a sample is kept for, once the request's edit key opens it."""
    from companion.web.scores import service

    session_id = request.form.get("session", "")
    if not session_id:
        raise ApiInputError("say which session the rack is from: the multipart field "
                            "`session` (its id), with its edit key in Authorization: Bearer",
                            {"field": "session"})
    scheme, _, key = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not key.strip():
        raise ApiInputError("keeping a photo needs the session's edit key: Authorization: "
                            "Bearer <edit_key>", {"header": "Authorization"}, 401)
    session = service.read_session(session_id) if len(session_id) <= 32 else None
    if session is None:
        raise ApiInputError(f"there is no session {session_id[:32]}", {"field": "session"}, 404)
    if not service.key_opens(session, key.strip()):
        raise ApiInputError("that edit key does not open this session",
                            {"header": "Authorization"}, 403)
    return session.public_id
