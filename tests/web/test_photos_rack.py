"""The rack reader's two doors: POST /api/v1/rack and `companion read-rack`, on a real render.

Both answer the same JSON; bad photos get a clear message (a 400 naming the field, exit 2),
never a 500 or a traceback."""

from __future__ import annotations

import html
import io
import json
import re
from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import pytest
from click.testing import CliRunner
from flask.testing import FlaskClient

from companion.cli import main
from tests.vision.conftest import jpeg_bytes
from tests.web.test_photos import BAD_PHOTOS
from training.synthetic_rack import RenderedRack, random_rack, render_rack


@pytest.fixture(scope="module")
def rack() -> RenderedRack:
    seed = 103  # two rows, a joker, one tile on the table beside the rack
    return render_rack(random_rack(np.random.default_rng(seed), most=8), seed=seed,
                       size=(960, 720))


@pytest.fixture(scope="module")
def rack_photo(rack: RenderedRack) -> bytes:
    return jpeg_bytes(rack.image)


def post_rack(client: FlaskClient, data: bytes, **fields: str) -> tuple[int, dict[str, object]]:
    response = client.post("/api/v1/rack", data={**fields, "photo": (io.BytesIO(data), "r.jpg")},
                           content_type="multipart/form-data")
    return response.status_code, response.get_json()


def test_the_api_reads_the_rack_and_its_value(client: FlaskClient, rack: RenderedRack,
                                              rack_photo: bytes) -> None:
    status, answer = post_rack(client, rack_photo)
    assert status == 200
    assert Counter(tile["tile"] for tile in answer["tiles"]) == Counter(
        str(tile) for tile in rack.rack_tiles)
    jokers = sum(tile.is_joker for tile in rack.rack_tiles)
    assert answer["jokers"] == jokers
    assert answer["value"] == sum(tile.number or 0 for tile in rack.rack_tiles) + 30 * jokers
    assert len(answer["ignored"]) == len(rack.stray)


def test_the_api_values_a_joker_by_the_preset(client: FlaskClient, rack_photo: bytes) -> None:
    _, pressman = post_rack(client, rack_photo)
    status, sabra = post_rack(client, rack_photo, preset="sabra")
    assert status == 200 and sabra["preset"] == "sabra"
    assert sabra["tiles"] == pressman["tiles"]


def test_the_api_refuses_an_unknown_preset(client: FlaskClient, rack_photo: bytes) -> None:
    status, answer = post_rack(client, rack_photo, preset="poker")
    assert status == 400 and answer["where"] == {"field": "preset"}


def test_the_api_asks_for_the_photo_as_a_file(client: FlaskClient) -> None:
    response = client.post("/api/v1/rack", data={"photo": "rack.jpg"})
    assert response.status_code == 400
    assert "as a file" in response.get_json()["error"]
    response = client.post("/api/v1/rack", data={})
    assert response.status_code == 400 and "no photo" in response.get_json()["error"]


@pytest.mark.parametrize("case", BAD_PHOTOS)
def test_the_api_answers_a_bad_photo_with_a_400(client: FlaskClient, case: str) -> None:
    data, _, words = BAD_PHOTOS[case]
    status, answer = post_rack(client, data)
    assert status == 400
    assert words in str(answer["error"]).lower()
    assert answer["where"] == {"field": "photo"}


def test_the_cli_prints_the_same_json_and_draws_the_rack(tmp_path: Path, client: FlaskClient,
                                                         rack_photo: bytes) -> None:
    photo = tmp_path / "rack.jpg"
    photo.write_bytes(rack_photo)
    picture = tmp_path / "out.png"
    result = CliRunner().invoke(main, ["read-rack", str(photo), "--json",
                                       "--annotate", str(picture)])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == post_rack(client, rack_photo)[1]
    assert picture.read_bytes().startswith(b"\x89PNG")


def test_an_iphones_heic_rack_photo_is_read_by_the_api_and_the_cli_as_its_jpeg(
        tmp_path: Path, client: FlaskClient, rack: RenderedRack, rack_photo: bytes) -> None:
    from tests.vision.test_photo_formats import saved_as

    heic = saved_as(rack.image, "HEIF")
    assert heic[4:12] == b"ftypheic"
    status, answer = post_rack(client, heic)
    assert status == 200
    assert answer["value"] == post_rack(client, rack_photo)[1]["value"]
    assert Counter(tile["tile"] for tile in answer["tiles"]) == Counter(
        str(tile) for tile in rack.rack_tiles)
    photo = tmp_path / "IMG_0001.HEIC"
    photo.write_bytes(heic)
    result = CliRunner().invoke(main, ["read-rack", str(photo), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == answer


def test_the_cli_says_what_it_read(tmp_path: Path, rack_photo: bytes) -> None:
    photo = tmp_path / "rack.jpg"
    photo.write_bytes(rack_photo)
    result = CliRunner().invoke(main, ["read-rack", str(photo), "--preset", "sabra"])
    assert result.exit_code == 0
    assert "on the rack (2 rows)" in result.output and "Value: " in result.output
    # every count agrees with its noun ("1 tile off the rack", never "1 tiles")
    assert not re.search(r"\b1 (tiles|rows|jokers)\b", result.output)
    assert not re.search(r"\b(0|[2-9]|\d\d+) (tile|row|joker)\b", result.output)


def test_the_cli_explains_a_photo_without_a_rack(tmp_path: Path) -> None:
    photo = tmp_path / "table.jpg"
    photo.write_bytes(BAD_PHOTOS["no tiles on it"][0])
    result = CliRunner().invoke(main, ["read-rack", str(photo)])
    assert result.exit_code == 2
    assert "no tiles found on a rack" in result.output
    missing = CliRunner().invoke(main, ["read-rack", str(tmp_path / "nothing.jpg")])
    assert missing.exit_code == 2 and "cannot read the image" in missing.output


def test_a_thumbnail_of_a_rack_is_refused_as_too_small_by_the_api_and_the_cli(
        tmp_path: Path, client: FlaskClient, rack: RenderedRack) -> None:
    thumbnail = jpeg_bytes(cv2.resize(rack.image, (80, 60), interpolation=cv2.INTER_AREA))
    status, refused = post_rack(client, thumbnail)
    assert status == 400 and refused["code"] == "too_small"
    assert "this small (80×60 pixels)" in str(refused["error"])
    photo = tmp_path / "thumbnail.jpg"
    photo.write_bytes(thumbnail)
    result = CliRunner().invoke(main, ["read-rack", str(photo)])
    assert result.exit_code == 2
    assert "this small (80×60 pixels)" in result.output
    assert "no tiles found on a rack" not in result.output


def test_the_record_game_page_offers_a_photo_of_each_rack(client: FlaskClient) -> None:
    answer = client.post("/scores/new", data={"player_1": "Ann", "player_2": "Bob",
                                              "rounds": 1, "preset": "sabra"})
    session_id = answer.location.rstrip("/").rsplit("/", 1)[1]
    for ending in ("out", "exhausted"):
        page = client.get(f"/scores/{session_id}/games/new?ending={ending}").get_data(
            as_text=True)
        assert page.count('class="rack-photo"') == 2
        assert page.count('capture="environment"') == 2
        assert 'data-rack-photo-for="lines-1-rack"' in page
        assert 'data-preset="sabra"' in page and 'src="/static/rack_photo.js"' in page
        assert " on" not in "".join(re.findall(r"<input[^>]*rack-photo-input[^>]*>", page))


def test_the_api_takes_a_sessions_own_joker_penalty(client: FlaskClient, rack: RenderedRack,
                                                    rack_photo: bytes) -> None:
    jokers = sum(tile.is_joker for tile in rack.rack_tiles)
    _, default = post_rack(client, rack_photo)
    status, answer = post_rack(client, rack_photo, joker_penalty="50")
    assert status == 200 and answer["value"] == default["value"] + 20 * jokers
    status, answer = post_rack(client, rack_photo, joker_penalty="lots")
    assert status == 400 and answer["where"] == {"field": "joker_penalty"}


def test_a_rack_photo_is_kept_for_training_only_when_asked_with_one_tile_per_tile(
        tmp_path: Path, rack: RenderedRack, rack_photo: bytes) -> None:
    from companion.web import create_app
    from companion.web.extensions import db
    from training.dataset import load_folder

    samples = tmp_path / "samples"
    app = create_app({"TESTING": True, "SECRET_KEY": "t", "SAMPLES_FOLDER": str(samples),
                      "SAMPLES_PER_SESSION": 1,
                      "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'c.sqlite'}"})
    with app.app_context():
        db.create_all()
    client = app.test_client()
    status, answer = post_rack(client, rack_photo)
    assert status == 200 and not samples.exists()  # reading keeps nothing
    read = [tile["tile"] for tile in answer["tiles"]]
    created = client.post("/api/v1/sessions", json={"players": ["Ann", "Bob"]}).get_json()

    def keep(tiles: str, key: str | None = created["edit_key"],
             session: str = created["id"]) -> tuple[int, dict[str, object]]:
        response = client.post("/api/v1/rack/samples", content_type="multipart/form-data",
                               headers={"Authorization": f"Bearer {key}"} if key else {},
                               data={"tiles": tiles, "session": session,
                                     "photo": (io.BytesIO(rack_photo), "r.jpg")})
        return response.status_code, response.get_json()

    # anyone wrote to the server's disk: 61 files in 4 seconds, with no key and no quota
    assert keep(" ".join(read), key=None)[0] == 401
    assert keep(" ".join(read), key="wrong")[0] == 403
    assert keep(" ".join(read), session="nosuchsession")[0] == 404
    status, refused = keep(" ".join(read[:-1]))
    assert status == 400 and "one tile for each tile found" in str(refused["error"])
    assert not (samples / "images").exists()
    status, kept = keep(" ".join(read))
    assert status == 201 and kept == {"kept": True}
    [photo] = load_folder(samples)
    assert [str(t.tile) for t in photo.tiles] == read
    status, full = keep(" ".join(read))  # the session's quota (1 here) is full
    assert status == 429 and full["code"] == "session_full"
    app.config["RACK_SAMPLES"] = False  # a club server turns keeping off
    status, off = keep(" ".join(read))
    assert status == 403 and off["code"] == "samples_off"
    assert len(load_folder(samples)) == 1


def test_a_refused_rack_photo_has_a_code_the_page_says_in_its_language(
        client: FlaskClient) -> None:
    status, refused = post_rack(client, BAD_PHOTOS["no tiles on it"][0])
    assert status == 400 and refused["code"] == "no_rack_tiles"
    assert str(refused["error"]).startswith("no tiles found on a rack")  # the API stays English
    answer = client.post("/scores/new", data={"player_1": "Ann", "player_2": "Bob",
                                              "rounds": 1, "preset": "pressman"})
    session_id = answer.location.rstrip("/").rsplit("/", 1)[1]
    game_page = f"/scores/{session_id}/games/new?ending=out"

    def sentences(language: str) -> dict[str, str]:
        client.set_cookie("language", language)
        page = client.get(game_page).get_data(as_text=True)
        block = re.search(r'id="companion-text" hidden data-text="([^"]*)"', page)
        assert block is not None
        return dict(json.loads(html.unescape(block.group(1))))

    german = sentences("de")
    assert german["photo_error_no_rack_tiles"].startswith("Keine Steine auf einer Bank gefunden")
    assert "photo_error_no_rack_tiles" not in sentences("en")  # English keeps the API's sentence
    # a rack read in part ("seen_whole": false) is said on the page in the player's language
    assert sentences("en")["photo_not_whole"].startswith("Not sure the whole rack was read")
    assert german["photo_not_whole"].startswith("Nicht sicher, ob die ganze Bank gelesen wurde")


def test_a_rack_read_in_part_says_so_through_the_api_and_the_cli(client: FlaskClient,
                                                                 tmp_path: Path) -> None:
    """rummy3-10 cut through its right end tile: the upper tier's bar no longer shows, and
    its tiles are added to the reading beside the lower tier's, every tile unsure; the API
    answers "seen_whole": false and the CLI says to check the tiles or retake the photo."""
    from tests.vision.conftest import labelled_photo

    data, labels = labelled_photo("rummy3-10_")
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    cut = round(max(float(outline[:, 0].mean()) for _, outline in labels))
    photo = jpeg_bytes(image[:, :cut])
    status, answer = post_rack(client, photo)
    assert status == 200
    assert answer["seen_whole"] is False and answer["value"] == 21
    assert all(tile["low_confidence"] for tile in answer["tiles"])  # type: ignore[union-attr]
    path = tmp_path / "rack.jpg"
    path.write_bytes(photo)
    result = CliRunner().invoke(main, ["read-rack", str(path)])
    assert result.exit_code == 0
    assert "Not sure the whole rack was read" in result.output
