"""The three ways into the photo reader: the page, POST /api/v1/photo and `companion read-photo`.

The same bad photos are answered by each with a clear message (a form, a 400, exit 2); a real
photo is read, annotated and, on the page, re-checked as the user corrects it. Nothing is kept
on the server."""

from __future__ import annotations

import base64
import html
import io
import json
import re
import struct
import zlib
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np
import pytest
from click.testing import CliRunner, Result
from flask import Flask
from flask.testing import FlaskClient

from companion.cli import main
from companion.core.melds import check_table
from companion.core.tiles import ImpossibleTilesError, parse_table
from companion.web import create_app
from companion.web.extensions import db
from tests.fixtures import SAMPLE_PHOTO


def png_chunk(kind: bytes, body: bytes) -> bytes:
    return (struct.pack(">I", len(body)) + kind + body
            + struct.pack(">I", zlib.crc32(kind + body)))


def png_claiming(width: int, height: int) -> bytes:
    """A tiny PNG whose header claims a huge picture: it must be refused before decoding."""
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", header)
            + png_chunk(b"IDAT", zlib.compress(b"\0" * 64)) + png_chunk(b"IEND", b""))


def plain_table_photo() -> bytes:
    """A photo of an empty green table: a real image with no tiles on it."""
    table = np.zeros((480, 640, 3), np.uint8)
    table[:] = (60, 120, 40)
    return cv2.imencode(".jpg", table)[1].tobytes()


def truncated_photo() -> bytes:
    gradient = np.tile(np.arange(640, dtype=np.uint8) // 3, (480, 1))
    whole = cv2.imencode(".jpg", cv2.merge([gradient, gradient, gradient]))[1].tobytes()
    return whole[: len(whole) // 2]


BAD_PHOTOS = {
    "not an image": (b"Shopping list: milk, eggs, tiles\n", "notes.jpg", "not an image"),
    "an empty file": (b"", "empty.jpg", "not an image"),
    "a truncated photo": (truncated_photo(), "cut.jpg", "truncated"),
    "too many pixels": (png_claiming(12_000, 12_000), "huge.png", "too large"),
    "no tiles on it": (plain_table_photo(), "table.jpg", "no tiles"),
}


def upload(client: FlaskClient, data: bytes, filename: str = "table.jpg",
           preset: str = "pressman") -> tuple[int, str]:
    response = client.post("/photo", data={"step": "read", "preset": preset,
                                           "photo": (io.BytesIO(data), filename)},
                           content_type="multipart/form-data")
    return response.status_code, response.get_data(as_text=True)


def field_errors(page: str) -> list[str]:
    """Each field error's text (a typed token shown in <code> kept as markup)."""
    return [html.unescape(error) for error in re.findall(
        r'class="field-error"[^>]*>((?:[^<]|</?code>)*)<', page)]


def test_the_page_offers_to_take_a_photo_or_choose_one(client: FlaskClient) -> None:
    response = client.get("/photo")
    page = response.get_data(as_text=True)
    assert response.status_code == 200
    assert 'enctype="multipart/form-data"' in page
    camera = re.search(r"<input[^>]*id=\"photo-camera\"[^>]*>", page)
    library = re.search(r"<input[^>]*id=\"photo-library\"[^>]*>", page)
    assert camera and 'capture="environment"' in camera.group(0)
    assert library and "capture" not in library.group(0)
    assert 'accept="image/*"' in library.group(0)
    assert 'href="/photo"' in client.get("/").get_data(as_text=True)


def test_sending_the_form_without_a_photo_asks_for_one(client: FlaskClient) -> None:
    response = client.post("/photo", data={"step": "read", "preset": "pressman"},
                           content_type="multipart/form-data")
    assert response.status_code == 422
    assert field_errors(response.get_data(as_text=True)) == [
        "Choose or take a photo of the table first."]


@pytest.mark.parametrize("case", BAD_PHOTOS)
def test_a_bad_photo_gets_the_form_back_with_what_is_wrong(client: FlaskClient,
                                                          case: str) -> None:
    data, filename, words = BAD_PHOTOS[case]
    status, page = upload(client, data, filename)
    assert status == 422
    [message] = field_errors(page)
    assert words in message.lower()
    assert 'id="photo-library"' in page
    assert "annotated-photo" not in page


def test_a_photo_over_the_upload_limit_gets_the_form_back_with_413(app: Flask,
                                                                   client: FlaskClient) -> None:
    app.config["MAX_CONTENT_LENGTH"] = 64 * 1024
    status, page = upload(client, b"\xff\xd8\xff" + bytes(100 * 1024))
    assert status == 413
    assert field_errors(page) == [("The photo is too large: at most 64 kB. Take it again at a "
                                  "lower resolution, or crop it to the table.")]
    assert 'id="photo-library"' in page


def test_the_upload_limit_is_the_readers_own() -> None:
    """The app keeps its own copy of the limit (importing the reader would load OpenCV with
    the app): a photo the page accepts is one the reader takes, and the other way round."""
    from companion.vision import MAX_BYTES
    from companion.web import MAX_UPLOAD_BYTES

    assert MAX_UPLOAD_BYTES == MAX_BYTES


def test_the_real_limit_is_named_in_megabytes(client: FlaskClient) -> None:
    status, page = upload(client, b"\xff\xd8\xff" + bytes(41 * 1024 * 1024))
    assert status == 413
    assert field_errors(page) == [("The photo is too large: at most 40 MB. Take it again at a "
                                  "lower resolution, or crop it to the table.")]


# A real photo: read once per module, the reader and its model are not cheap.

@pytest.fixture(scope="module")
def photo_client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[FlaskClient]:
    database = tmp_path_factory.mktemp("photos") / "companion.sqlite"
    app = create_app({"TESTING": True, "SECRET_KEY": "test", "WTF_CSRF_ENABLED": False,
                      "SQLALCHEMY_DATABASE_URI": f"sqlite:///{database}"})
    with app.app_context():
        db.create_all()
    yield app.test_client()


@pytest.fixture(scope="module")
def first_reading(photo_client: FlaskClient) -> dict[str, str]:
    status, page = upload(photo_client, SAMPLE_PHOTO.read_bytes())
    assert status == 200, field_errors(page)
    return {"page": page, "status": str(status), **carried_fields(page)}


def test_an_iphones_heic_photo_reads_on_the_page_as_its_jpeg(photo_client: FlaskClient,
                                                            first_reading: dict[str, str]) -> None:
    from tests.vision.test_photo_formats import saved_as

    image = cv2.imread(str(SAMPLE_PHOTO))
    status, page = upload(photo_client, saved_as(image, "HEIF"), filename="IMG_0042.HEIC")
    assert status == 200, field_errors(page)
    assert typed_table(page) == first_reading["table"]
    assert picture(page)


def carried_fields(page: str) -> dict[str, str]:
    def hidden(name: str) -> str:
        found = re.search(rf'name="{name}" type="hidden" value="([^"]*)"', page)
        assert found, f"no hidden {name} field"
        return html.unescape(found.group(1))

    return {"reading": hidden("reading"), "preview": hidden("preview"),
            "table": typed_table(page), "picture": picture(page) or ""}


def typed_table(page: str) -> str:
    found = re.search(r'<textarea[^>]*id="table"[^>]*>([^<]*)</textarea>', page)
    assert found, "no table to correct"
    return html.unescape(found.group(1)).lstrip("\r\n")


def picture(page: str) -> str | None:
    found = re.search(r'id="annotated-photo" src="data:image/png;base64,([^"]+)"', page)
    return found.group(1) if found else None


def recheck(client: FlaskClient, first: dict[str, str], table: str,
            **changes: str) -> tuple[int, str]:
    form = {"step": "recheck", "preset": "pressman", "table": table,
            "reading": first["reading"], "preview": first["preview"]} | changes
    response = client.post("/photo", data=form)
    return response.status_code, response.get_data(as_text=True)


def test_a_real_photo_comes_back_annotated_with_its_reading_to_correct(
        first_reading: dict[str, str]) -> None:
    page = first_reading["page"]
    assert base64.b64decode(first_reading["picture"]).startswith(b"\x89PNG")
    reading = json.loads(first_reading["reading"])
    table = parse_table(first_reading["table"])
    # one line per set, as many tiles as outlines, in the reader's laid order
    assert [len(meld) for meld in table] == [len(indexes) for indexes in reading["sets"]]
    assert [str(tile) for meld in table for tile in meld] == [
        reading["tiles"][index]["tile"] for indexes in reading["sets"] for index in indexes]
    unsure = [tile for tile in reading["tiles"] if tile["unsure"]]
    assert page.count("% sure)") == len(unsure)
    try:
        verdict = check_table(table)
    except ImpossibleTilesError:
        # e.g. a third red 7 read: said plainly, and the table is there to correct
        assert 'class="summary summary-illegal" role="alert"' in page
        assert 'class="verdict verdict-' not in page
        assert "/check?" not in page  # nothing to take to the check page until corrected
    else:
        assert ("Every set is legal." in page) == verdict.legal
        assert page.count('class="verdict verdict-') == len(table)
        assert "/check?" in page


def corrected_table(set_sizes: list[int]) -> str:
    """Any reading corrected into distinct tiles, set by set (in threes they make groups)."""
    tiles = [f"{colour}{number}" for number in range(1, 14) for colour in "KRBO"] * 2
    lines = []
    for size in set_sizes:
        lines.append(" ".join(tiles[:size]))
        tiles = tiles[size:]
    return "\n".join(lines)


def set_sizes(first: dict[str, str]) -> list[int]:
    return [len(line.split()) for line in first["table"].split("\n")]


def test_correcting_the_tiles_redraws_the_photo_and_checks_the_corrected_table(
        photo_client: FlaskClient, first_reading: dict[str, str]) -> None:
    corrected = corrected_table(set_sizes(first_reading))
    status, page = recheck(photo_client, first_reading, corrected)
    assert status == 200
    assert typed_table(page) == corrected
    redrawn = picture(page)
    assert redrawn and redrawn != first_reading["picture"]
    assert "first reading" not in page
    verdict = check_table(parse_table(corrected))
    assert page.count('class="verdict verdict-illegal"') == sum(
        not meld.legal for meld in verdict.sets)
    assert page.count('class="verdict verdict-legal"') == sum(meld.legal for meld in verdict.sets)


def test_adding_a_missed_tile_checks_the_table_and_keeps_the_first_picture(
        photo_client: FlaskClient, first_reading: dict[str, str]) -> None:
    sizes = set_sizes(first_reading)
    sizes[-1] += 1
    corrected = corrected_table(sizes)
    status, page = recheck(photo_client, first_reading, corrected)
    assert status == 200
    assert picture(page) == first_reading["picture"]
    assert "no longer have the photo&#39;s tile counts" in page
    assert page.count('class="verdict verdict-') == len(sizes)
    assert typed_table(page) == corrected


def test_a_typo_in_the_correction_keeps_what_was_typed_and_the_picture(
        photo_client: FlaskClient, first_reading: dict[str, str]) -> None:
    typed = first_reading["table"] + "\nR5 R6 R14"
    status, page = recheck(photo_client, first_reading, typed)
    assert status == 422
    assert typed_table(page) == typed
    assert any("<code>R14</code> at set" in error and "numbers run 1–13" in error
               for error in field_errors(page))
    assert "`" not in page
    assert picture(page) == first_reading["picture"]
    assert 'class="verdict ' not in page


def test_a_third_copy_of_a_tile_in_the_correction_is_an_input_error(
        photo_client: FlaskClient, first_reading: dict[str, str]) -> None:
    status, page = recheck(photo_client, first_reading, "R7 R7 R7")
    assert status == 422
    assert any("appears 3 times" in error for error in field_errors(page))
    assert typed_table(page) == "R7 R7 R7"


def test_without_the_carried_photo_the_verdict_is_still_given(
        photo_client: FlaskClient, first_reading: dict[str, str]) -> None:
    status, page = recheck(photo_client, first_reading, "R5 R6 R7\nK9 B9 O9",
                           reading="{damaged")
    assert status == 200
    assert picture(page) is None
    assert "its copy did not come back with the form" in page
    assert "Every set is legal." in page


def test_the_result_can_be_taken_to_the_check_page(
        photo_client: FlaskClient, first_reading: dict[str, str]) -> None:
    status, page = recheck(photo_client, first_reading, "R5 R6 R7\nK9 B9 O9", preset="sabra")
    assert status == 200
    link = re.search(r'href="(/check\?[^"]+)"', page)
    assert link
    before = re.search(r'href="(/turn[^"]*\?before=[^"]+)"', page)
    assert before and "R5+R6+R7+%7C+K9+B9+O9" in before.group(1)
    response = photo_client.get(html.unescape(link.group(1)))
    assert response.status_code == 200
    check_page = response.get_data(as_text=True)
    assert "Every set is legal." in check_page
    assert '<option selected value="sabra">' in check_page


def test_nothing_of_the_upload_is_kept_on_the_server(app: Flask, client: FlaskClient,
                                                     tmp_path: Path) -> None:

    def files() -> set[tuple[Path, int]]:
        """Every file of the instance folder and the database's folder, with its size."""
        return {(path, path.stat().st_size) for folder in (Path(app.instance_path), tmp_path)
                for path in folder.rglob("*") if path.is_file()}

    before = files()
    status, _page = upload(client, SAMPLE_PHOTO.read_bytes())
    assert status == 200
    assert files() == before

# POST /api/v1/photo

def post_photo(client: FlaskClient, data: bytes, **fields: str) -> tuple[int, dict]:
    response = client.post("/api/v1/photo", data={"photo": (io.BytesIO(data), "table.jpg"),
                                                  **fields},
                           content_type="multipart/form-data")
    return response.status_code, response.get_json()


@pytest.mark.parametrize("case", BAD_PHOTOS)
def test_a_bad_photo_is_a_400_naming_the_photo_field(client: FlaskClient, case: str) -> None:
    data, _filename, words = BAD_PHOTOS[case]
    status, answer = post_photo(client, data)
    assert status == 400
    assert words in answer["error"].lower()
    assert answer["where"] == {"field": "photo"}


def test_a_request_without_a_photo_says_how_to_send_one(client: FlaskClient) -> None:
    response = client.post("/api/v1/photo", data={"preset": "pressman"},
                           content_type="multipart/form-data")
    assert response.status_code == 400
    assert response.get_json() == {
        "error": "no photo: send the image as the multipart file field `photo` "
                 "(curl -F photo=@table.jpg)",
        "where": {"field": "photo"}}


def test_a_photo_sent_as_text_is_refused(client: FlaskClient) -> None:
    response = client.post("/api/v1/photo", data={"photo": "R5 R6 R7"},
                           content_type="multipart/form-data")
    assert response.status_code == 400
    assert "not as text" in response.get_json()["error"]


def test_an_unknown_preset_names_the_preset_field(client: FlaskClient) -> None:
    status, answer = post_photo(client, b"\xff\xd8\xff", preset="chess")
    assert status == 400
    assert answer["where"] == {"field": "preset"}
    assert "unknown preset `chess`" in answer["error"]


def test_a_photo_over_the_upload_limit_is_a_413_in_json(app: Flask, client: FlaskClient) -> None:
    app.config["MAX_CONTENT_LENGTH"] = 64 * 1024
    status, answer = post_photo(client, bytes(100 * 1024))
    assert status == 413
    assert answer == {"error": "the photo is too large: send at most 64 kB (a lower resolution "
                               "or a crop of the table)", "where": {"field": "photo"},
                      "code": "too_large"}


def test_a_real_photo_is_read_into_the_documented_json(client: FlaskClient) -> None:
    status, answer = post_photo(client, SAMPLE_PHOTO.read_bytes(), preset="sabra")
    assert status == 200
    assert (answer["width"], answer["height"]) == (640, 640)
    assert answer["tiles"], "the sample photo has tiles on it"
    for tile in answer["tiles"]:
        assert isinstance(tile["tile"], str) and 0 <= tile["confidence"] <= 1
        assert len(tile["outline"]) >= 3
        assert all(isinstance(x, int) and isinstance(y, int) for x, y in tile["outline"])
        assert 0 <= tile["set"] < len(answer["sets"])
    for number, meld in enumerate(answer["sets"]):
        in_set = [tile["tile"] for tile in answer["tiles"] if tile["set"] == number]
        assert sorted(meld["tiles"]) == sorted(in_set)
    if "error" in answer:  # the tiles read cannot all be right (a third red 7)
        assert answer["legal"] is False
    for meld in answer["sets"]:
        assert isinstance(meld["legal"], bool)
        assert (meld["reason"] is None) == meld["legal"]
        assert answer["legal"] == all(meld["legal"] for meld in answer["sets"])


# companion read-photo

@pytest.fixture(scope="module")
def sample_photo() -> Path:
    return SAMPLE_PHOTO


def run_read_photo(*args: str, stdin: bytes | None = None) -> Result:
    return CliRunner().invoke(main, ["read-photo", *args], input=stdin)


def test_a_real_photo_gives_the_documented_json_and_the_exit_code_of_its_verdict(
        sample_photo: Path, tmp_path: Path) -> None:
    picture = tmp_path / "table.png"
    result = run_read_photo("--json", "--annotate", str(picture), str(sample_photo))
    assert result.exit_code in (0, 1), result.output
    answer = json.loads(result.stdout)
    assert set(answer) >= {"width", "height", "tiles", "sets", "legal"}
    assert result.exit_code == (0 if answer["legal"] is True else 1)
    assert [meld["tiles"] for meld in answer["sets"]] == [
        [answer["tiles"][index]["tile"] for index in meld["tile_indexes"]]
        for meld in answer["sets"]]
    assert picture.read_bytes().startswith(b"\x89PNG")


def test_the_report_names_every_set_and_reads_the_same_from_stdin(sample_photo: Path) -> None:
    from_file = run_read_photo(str(sample_photo))
    from_stdin = run_read_photo("-", stdin=sample_photo.read_bytes())
    assert from_file.exit_code == from_stdin.exit_code
    assert from_stdin.stdout == from_file.stdout.replace(str(sample_photo), "-")
    first_line = from_file.stdout.splitlines()[0]
    assert first_line.startswith("Read ") and "(640×640 pixels)" in first_line
    as_json = json.loads(run_read_photo("--json", str(sample_photo)).stdout)
    for number in range(1, len(as_json["sets"]) + 1):
        assert f"Set {number}: " in from_file.stdout


@pytest.mark.parametrize("case", BAD_PHOTOS)
def test_a_bad_photo_exits_two_naming_the_file_and_what_is_wrong(case: str,
                                                                tmp_path: Path) -> None:
    data, filename, words = BAD_PHOTOS[case]
    path = tmp_path / filename
    path.write_bytes(data)
    result = run_read_photo(str(path))
    assert result.exit_code == 2
    assert result.stdout == ""
    assert str(path) in result.stderr and words in result.stderr.lower()


def test_a_missing_file_exits_two_naming_it(tmp_path: Path) -> None:
    missing = tmp_path / "no-such-photo.jpg"
    result = run_read_photo(str(missing))
    assert result.exit_code == 2
    assert f"cannot read the image {missing}: No such file or directory" in result.stderr


def test_a_folder_is_not_an_image(tmp_path: Path) -> None:
    result = run_read_photo(str(tmp_path))
    assert result.exit_code == 2
    assert f"cannot read the image {tmp_path}" in result.stderr


def test_an_unwritable_annotation_path_is_bad_input_not_a_traceback(
        sample_photo: Path, tmp_path: Path) -> None:
    target = tmp_path / "missing-folder" / "table.png"
    result = run_read_photo("--annotate", str(target), str(sample_photo))
    assert result.exit_code == 2
    assert f"cannot write the picture to {target}" in result.stderr


def test_the_rules_hint_is_offered_as_a_button_never_applied(app: Flask) -> None:
    from companion.core.tiles import Tile
    from companion.vision.reading import Suggestion
    from companion.web.photos.forms import PhotoUploadForm, RecheckForm
    from companion.web.photos.views import render_page

    hint = Suggestion(set_index=1, position=2, tile_index=5, read=Tile.parse("O7"),
                      suggested=Tile.parse("R7"))
    with app.test_request_context("/photo"):
        page = render_page(PhotoUploadForm(formdata=None),
                           recheck_form=RecheckForm(formdata=None, table="K1 K2 K3\nR5 R6 O7"),
                           suggestions=(hint,))
    assert "Set 2 is not legal as read" in page
    assert 'data-suggest-set="1"' in page and 'data-suggest-tile="R7"' in page
    assert "R5 R6 O7</textarea>" in page


def test_a_corrected_reading_is_kept_for_training_only_when_ticked(
        tmp_path: Path, first_reading: dict[str, str]) -> None:
    from training.dataset import load_folder

    samples = tmp_path / "samples"
    app = create_app({"TESTING": True, "SECRET_KEY": "test", "WTF_CSRF_ENABLED": False,
                      "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'c.sqlite'}",
                      "SAMPLES_FOLDER": str(samples)})
    client = app.test_client()
    corrected = corrected_table(set_sizes(first_reading))
    status, page = recheck(client, first_reading, corrected)
    assert status == 200 and not samples.exists()  # off by default: nothing kept
    assert 'id="keep-sample"' in page and "checked" not in re.search(
        r'<input[^>]*id="keep-sample"[^>]*>', page).group(0)

    status, page = recheck(client, first_reading, corrected, keep="y")
    assert status == 200 and "Kept: this photo" in page
    [photo] = load_folder(samples)  # the training scripts' own loader reads it back
    assert [str(t.tile) for t in photo.tiles] == corrected.split()
    reading = json.loads(first_reading["reading"])
    first_outline = reading["tiles"][reading["sets"][0][0]]["outline"]
    assert np.allclose(photo.tiles[0].polygon, first_outline, atol=1)


def test_a_corrected_reading_laid_wrongly_shows_how_its_tiles_could_be_laid(
        photo_client: FlaskClient, first_reading: dict[str, str]) -> None:
    status, page = recheck(photo_client, first_reading, "R5 R6\nR7 K9 B9 O9")
    assert status == 200
    assert "These tiles can be laid as:" in page
    status, page = recheck(photo_client, first_reading, "R5 R6 R7\nK9 B9 O9")
    assert "These tiles can be laid as:" not in page and "cannot all be laid" not in page


@pytest.mark.parametrize(("language", "reason"), [
    ("en", "its face is washed out by glare"),
    ("de", "seine Vorderseite ist vom Glanz überstrahlt")])
def test_a_tile_a_rule_holds_unsure_says_why_in_the_pages_language(app: Flask, language: str,
                                                                     reason: str) -> None:
    """A tile read surely but washed out by glare (``doubts.washed_out_doubted``) is shown at
    the rule's cap, 89%: the page says the rule's reason instead of that percentage. A tile
    the reader itself was unsure of keeps its percentage."""
    import numpy as np

    from companion.core.presets import PRESSMAN
    from companion.core.tiles import Tile
    from companion.vision import PhotoReading, ReadTile
    from companion.web.photos.carry import CarriedPhoto
    from companion.web.photos.forms import PhotoUploadForm, RecheckForm
    from companion.web.photos.views import render_page, unsure_tiles

    box = ((10, 10), (60, 10), (60, 90), (10, 90))
    tiles = (ReadTile(Tile.parse("K10"), 0.89, box, 0, True, doubt="washed_out"),
             ReadTile(Tile.parse("K11"), 0.52, box, 0, True),
             ReadTile(Tile.parse("K12"), 0.99, box, 0, False))
    reading = PhotoReading(640, 480, tiles, ((0, 1, 2),), preset=PRESSMAN)
    carried = CarriedPhoto.of(np.full((480, 640, 3), 180, np.uint8), reading)
    with app.test_request_context("/photo", headers={"Accept-Language": language}):
        page = render_page(PhotoUploadForm(formdata=None),
                           recheck_form=RecheckForm(formdata=None, table="K10 K11 K12"),
                           unsure=unsure_tiles(carried))
    listed = page[page.index('id="unsure-tiles"'):]
    listed = listed[:listed.index("</ul>")]
    assert reason in listed and "89" not in listed
    assert "52" in listed and "K12" not in listed


def test_a_reason_every_unsure_tile_shares_is_said_once(app: Flask) -> None:
    """The classic pass's reading of current tiles holds every tile at 89% for one reason:
    the list says it once, above the tiles, not beside each of them."""
    import numpy as np

    from companion.core.presets import PRESSMAN
    from companion.core.tiles import Tile
    from companion.vision import PhotoReading, ReadTile
    from companion.web.photos.carry import CarriedPhoto
    from companion.web.photos.forms import PhotoUploadForm, RecheckForm
    from companion.web.photos.views import render_page, unsure_tiles

    box = ((10, 10), (60, 10), (60, 90), (10, 90))
    tiles = tuple(ReadTile(Tile.parse(label), 0.89, box, 0, True, doubt="other_design")
                  for label in ("R5", "R6", "R7"))
    reading = PhotoReading(640, 480, tiles, ((0, 1, 2),), preset=PRESSMAN)
    carried = CarriedPhoto.of(np.full((480, 640, 3), 180, np.uint8), reading)
    with app.test_request_context("/photo"):
        page = render_page(PhotoUploadForm(formdata=None),
                           recheck_form=RecheckForm(formdata=None, table="R5 R6 R7"),
                           unsure=unsure_tiles(carried))
    listed = page[page.index('id="unsure-tiles"'):]
    listed = listed[:listed.index("</ul>")]
    assert listed.count("look like the current design") == 1 and "89" not in listed
    assert all(label in listed for label in ("R5", "R6", "R7"))
