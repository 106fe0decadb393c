"""The score keeper, the groups and the live pages in the players' language (issue 13).

Every page is rendered in English and in each other language from the same database; the
visible text of the translated page (text nodes, titles, labels, placeholders, alt texts)
must share no sentence with the English page, apart from names, tiles, numbers and the few
words that are spelled the same in both languages (``SAME_IN_BOTH``).
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from flask import Flask
from flask.testing import FlaskClient

from companion.core.presets import PRESETS, get_preset
from companion.core.racks import Rack
from companion.core.scoring import (
    ScoringError,
    check_paper_scores,
    check_players,
    check_rounds,
    score_exhausted,
    score_went_out,
)
from companion.core.tiles import parse_rack
from companion.web import create_app
from companion.web.extensions import db
from companion.web.languages import LANGUAGES, TRANSLATIONS
from companion.web.scores.words import SENTENCES, refusal
from tests.web import i18n_text

TRANSLATED = sorted(set(LANGUAGES) - {"en"})
PLAYERS = ("Alexandrina", "Bartholomew", "Christabella", "Maximiliano")
GROUP_PLAYERS = ("Dov", "Eli")
# Words each language writes as English does: the brand, the rule sets' names (the core's
# presets), file formats, and words that are the same in that language (German and Dutch say
# "Offline" and "Links", Dutch and French "Score", French and Spanish "Total", French "Place",
# German and French "orange" for the tile colour in the palette, French and Dutch "joker", French
# "double").
SAME_IN_BOTH = {"Companion", "CSV", "JSON", "PNG", "Thursday club",
                *(preset.name for preset in PRESETS.values())}
SAME_IN_LANGUAGE = {
    "de": {"Offline", "Links", "orange"},
    "nl": {"Offline", "Links", "Score", "Scores", "Timer", "joker", "jokers"},
    "fr": {"Score", "Scores", "Total", "Place", "Photo", "joker", "jokers", "double", "orange"},
    "es": {"Total", "Liga"},
    "he": set(),
}


def visible_texts(page: str) -> set[str]:
    return set(i18n_text.visible_texts(page))


def words_in(text: str, names: tuple[str, ...]) -> str:
    """What is left of a text once names, ids, tiles, numbers and signs are taken out."""
    for name in sorted(names, key=len, reverse=True):
        text = text.replace(name, " ")
    text = re.sub(r"https?://\S+", " ", text)
    text = re.sub(r"[\w-]{16,}", " ", text)  # a session's or group's public id
    text = re.sub(r"\b[KRBOJDMC]\d{0,2}\b", " ", text)  # tile notation
    return " ".join(re.findall(r"[^\W\d_]{3,}", text))


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Flask, dict[str, str]]]:
    """One database holding every state the pages show: a session in progress with four long
    names and an edited game, a finished session in a group, a group with its player."""
    folder: Path = tmp_path_factory.mktemp("languages")
    app = create_app({"TESTING": True, "SECRET_KEY": "test", "WTF_CSRF_ENABLED": False,
                      "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / 'companion.sqlite'}"})
    with app.app_context():
        db.create_all()
    client = app.test_client()
    started = client.post("/scores/new", data={
        **{f"player_{i}": name for i, name in enumerate(PLAYERS, start=1)},
        "rounds": 1, "preset": "pressman", "joker_penalty": 50})
    session_id = started.location.rstrip("/").rsplit("/", 1)[1]
    games = [
        {"ending": "out", "winner": PLAYERS[0], "lines-1-rack": "R5 J", "lines-2-total": "4",
         "lines-3-rack": "K13 B12"},
        {"ending": "exhausted", "lines-0-rack": "K1", "lines-1-rack": "R9",
         "lines-2-rack": "O7 O8", "lines-3-rack": "B2"},
        {"ending": "paper", "lines-0-score": "-10", "lines-1-score": "+30",
         "lines-2-score": "-15", "lines-3-score": "-5"},
    ]
    for game in games:
        answer = client.post(f"/scores/{session_id}/games/new", data=game)
        assert answer.status_code == 302, answer.text
    edited = client.post(f"/scores/{session_id}/games/3/edit", data={
        "ending": "paper", "lines-0-score": "-12", "lines-1-score": "+32",
        "lines-2-score": "-15", "lines-3-score": "-5"})
    assert edited.status_code == 302, edited.text

    made = client.post("/groups/", data={"name": "Thursday club"})
    group_id = made.location.rstrip("/").split("/")[-1]
    grouped = client.post(f"/groups/{group_id}/sessions/new", data={
        "seat_1": GROUP_PLAYERS[0], "seat_2": GROUP_PLAYERS[1], "rounds": 1,
        "preset": "pressman"})
    group_session = grouped.location.rstrip("/").rsplit("/", 1)[1]
    for winner, rack in ((0, "lines-1-rack"), (1, "lines-0-rack")):
        answer = client.post(f"/scores/{group_session}/games/new", data={
            "ending": "out", "winner": GROUP_PLAYERS[winner], rack: "K5 K6"})
        assert answer.status_code == 302, answer.text
    group_page = client.get(f"/groups/{group_id}/").text
    player = re.search(rf'href="(/groups/{group_id}/players/[^"?]+)"', group_page)
    assert player is not None
    cookies = {cookie.key: cookie.value for cookie in client._cookies.values()}
    pages = {
        "session list": "/scores/", "new session": "/scores/new",
        "sheet": f"/scores/{session_id}", "read-only view": f"/scores/{session_id}/view",
        "history": f"/scores/{session_id}/history",
        "record, went out": f"/scores/{session_id}/games/new?ending=out",
        "record, pool ran out": f"/scores/{session_id}/games/new?ending=exhausted",
        "record, from paper": f"/scores/{session_id}/games/new?ending=paper",
        "edit a game": f"/scores/{session_id}/games/1/edit",
        "delete": f"/scores/{session_id}/delete", "tv": f"/scores/{session_id}/tv",
        "finished sheet": f"/scores/{group_session}",
        "finished tv": f"/scores/{group_session}/tv",
        "groups": "/groups/", "group": f"/groups/{group_id}/",
        "group session": f"/groups/{group_id}/sessions/new", "player": player.group(1),
        "offline": "/offline",
    }
    app.config["TEST_COOKIES"] = cookies
    yield app, pages


def page_in(app: Flask, path: str, language: str) -> str:
    client = app.test_client()
    for key, value in app.config["TEST_COOKIES"].items():
        client.set_cookie(key, value)
    client.set_cookie("language", language)
    answer = client.get(path)
    assert answer.status_code == 200, (path, language, answer.status_code)
    return answer.text


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_score_group_and_live_page_is_in_the_pages_language(
        site: tuple[Flask, dict[str, str]], language: str) -> None:
    app, pages = site
    allowed = SAME_IN_BOTH | SAME_IN_LANGUAGE[language]
    names = PLAYERS + GROUP_PLAYERS + tuple(LANGUAGES.values()) + tuple(allowed)
    untranslated: dict[str, set[str]] = {}
    for title, path in pages.items():
        english = visible_texts(page_in(app, path, "en"))
        translated_page = page_in(app, path, language)
        assert f'<html lang="{language}"' in translated_page
        shared = {text for text in english & visible_texts(translated_page)
                  if words_in(text, names)}
        if shared:
            untranslated[title] = shared
    assert not untranslated, f"{language}: English left on the pages: {untranslated}"


def test_the_hebrew_sheet_runs_right_to_left_in_hebrew_words(
        site: tuple[Flask, dict[str, str]]) -> None:
    app, pages = site
    sheet = page_in(app, pages["sheet"], "he")
    assert '<html lang="he" dir="rtl">' in sheet
    assert "סבב 1" in sheet and "טבלה" in sheet
    assert "Alexandrina" in sheet and "K13" not in sheet  # names kept, racks not on the sheet


def test_the_english_sheet_is_unchanged_after_a_german_reader(
        site: tuple[Flask, dict[str, str]]) -> None:
    """The sheet's rendered pieces are kept per session version: per language too."""
    app, pages = site
    assert "Runde 1" in page_in(app, pages["read-only view"], "de")
    english = page_in(app, pages["read-only view"], "en")
    assert "Round 1" in english and "Runde 1" not in english


def german(client: FlaskClient) -> FlaskClient:
    client.set_cookie("language", "de")
    return client


def test_a_flash_and_a_refusal_are_said_in_german(client: FlaskClient) -> None:
    german(client)
    started = client.post("/scores/new", data={"player_1": "Ann", "player_2": "Bob",
                                               "rounds": 1, "preset": "pressman"})
    sheet = client.get(started.location).text
    assert "Sitzung gestartet. Trage das erste Spiel ein, wenn es vorbei ist." in sheet
    session_id = started.location.rstrip("/").rsplit("/", 1)[1]
    unbalanced = client.post(f"/scores/{session_id}/games/new", data={
        "ending": "paper", "lines-0-score": "+12", "lines-1-score": "-10"})
    assert unbalanced.status_code == 422
    assert ("Die Punkte gehen nicht auf: Differenz +2. Die anderen haben zusammen −10, also "
            "sollte Ann als Gewinner +10 haben, nicht +12") in unbalanced.text
    assert 'value="+12"' in unbalanced.text  # what was typed stays


def test_a_form_error_is_said_in_hebrew_and_the_api_stays_english(client: FlaskClient) -> None:
    client.set_cookie("language", "he")
    refused = client.post("/scores/new", data={"player_1": "", "player_2": "",
                                               "rounds": 1, "preset": "pressman"})
    assert refused.status_code == 422
    assert "כתבו לפחות שני שחקנים." in refused.text
    assert "Name at least two players." not in refused.text
    api = client.post("/api/v1/sessions", json={"players": ["Ann"], "rounds": 1},
                      headers={"Accept-Language": "he"})
    assert api.status_code in (400, 422) and "a session has 2 to 4 players" in api.json["error"]


def test_a_rack_typed_wrong_is_refused_in_german_naming_the_tile_and_its_place(
        client: FlaskClient) -> None:
    client.set_cookie("language", "de")
    started = client.post("/scores/new", data={"player_1": "Ann", "player_2": "Bob",
                                               "rounds": 1, "preset": "pressman"})
    session_id = started.location.rstrip("/").rsplit("/", 1)[1]
    refused = client.post(f"/scores/{session_id}/games/new",
                          data={"ending": "out", "winner": "Ann", "lines-1-rack": "R5 R14"})
    assert refused.status_code == 422
    assert "<code>R14</code> (Bank, Stein 2): Zahlen gehen von 1 bis 13" in refused.text
    assert 'R5 R14</textarea>' in refused.text  # what was typed is kept


def test_another_phone_first_is_said_in_french(client: FlaskClient) -> None:
    client.set_cookie("language", "fr")
    started = client.post("/scores/new", data={"player_1": "Ann", "player_2": "Bob",
                                               "rounds": 2, "preset": "pressman"})
    session_id = started.location.rstrip("/").rsplit("/", 1)[1]
    first = {"ending": "paper", "number": "1", "lines-0-score": "+5", "lines-1-score": "-5"}
    assert client.post(f"/scores/{session_id}/games/new", data=first).status_code == 302
    late = client.post(f"/scores/{session_id}/games/new", data={**first,
                                                                "lines-0-score": "-7",
                                                                "lines-1-score": "+7"})
    assert late.status_code == 409
    assert ("La partie 1 a déjà été notée depuis un autre téléphone (Ann a gagné) : la "
            "suivante est la 2") in late.text
    assert "Noté là-bas : partie 1 : Ann a gagné (Ann +5, Bob −5)." in late.text


def rows_of(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


def test_the_csv_headers_are_in_the_pages_language_and_english_stays_as_it_was(
        client: FlaskClient) -> None:
    started = client.post("/scores/new", data={"player_1": "Ann", "player_2": "Bob",
                                               "rounds": 1, "preset": "pressman"})
    session_id = started.location.rstrip("/").rsplit("/", 1)[1]
    client.post(f"/scores/{session_id}/games/new", data={
        "ending": "out", "winner": "Ann", "lines-1-rack": "R5"})
    english = rows_of(client.get(f"/scores/{session_id}/sheet.csv").text)
    assert english[0] == ["round", "game", "ending", "winner", "Ann", "Bob", "balanced"]
    assert english[1] == ["1", "1", "out", "Ann", "5", "-5", "True"]
    spanish = rows_of(client.get(f"/scores/{session_id}/sheet.csv",
                                 headers={"Accept-Language": "es"}).text)
    assert spanish[0] == ["ronda", "partida", "final", "ganador", "Ann", "Bob", "cuadra"]
    assert spanish[1] == ["1", "1", "cerró", "Ann", "5", "-5", "sí"]
    assert [row[1] for row in spanish[2:]] == ["total de la ronda", "total",
                                               "partidas ganadas", "puesto"]


def import_file(client: FlaskClient, data: bytes) -> str:
    return client.post("/groups/import", data={"file": (io.BytesIO(data), "export.json")},
                       content_type="multipart/form-data", follow_redirects=True).text


def test_a_group_exported_from_a_german_page_imports_unchanged(client: FlaskClient,
                                                               tmp_path: Path) -> None:
    """The export file's keys are data, not words: they stay English in every language; a
    second import is refused in German."""
    german(client)
    made = client.post("/groups/", data={"name": "Donnerstag"})
    group_id = made.location.rstrip("/").split("/")[-1]
    exported = client.get(f"/groups/{group_id}/export.json")
    assert exported.status_code == 200 and '"sessions"' in exported.text
    other = create_app({"TESTING": True, "SECRET_KEY": "test", "WTF_CSRF_ENABLED": False,
                        "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'other.sqlite'}"})
    with other.app_context():
        db.create_all()
    fresh = german(other.test_client())
    assert "1 Gruppe und 0 Sitzungen importiert, mit neuen Links." in import_file(
        fresh, exported.data)
    again = import_file(fresh, exported.data)
    assert ("Nichts wurde importiert. Gruppe 1 (Donnerstag): diese Gruppe ist schon da"
            in again)


def test_every_new_message_is_translated_in_every_language() -> None:
    """Every message of the catalogue (the score pages' among them) has a translation in each
    language, keeps its placeholders, and is not fuzzy."""
    for language in TRANSLATED:
        with open(TRANSLATIONS / language / "LC_MESSAGES" / "messages.po", "rb") as po:
            catalogue = read_po(po)
        for message in catalogue:
            if not message.id:
                continue
            ids = message.id if isinstance(message.id, tuple) else (message.id,)
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            assert all(strings), f"{language}: “{ids[0]}” untranslated"
            assert not message.fuzzy, f"{language}: “{ids[0]}” is fuzzy"
            wanted = sorted(set(re.findall(r"%\(\w+\)s|\{\w+\}", ids[-1])) - {"%(num)s"})
            for string in strings:
                found = sorted(set(re.findall(r"%\(\w+\)s|\{\w+\}", string)) - {"%(num)s"})
                assert found == wanted, f"{language}: “{string}” changes the placeholders"


def test_wtforms_own_messages_in_a_game_line_are_in_the_pages_language(
        client: FlaskClient) -> None:
    german(client)
    started = client.post("/scores/new", data={"player_1": "Ann", "player_2": "Bob",
                                               "rounds": 1, "preset": "pressman"})
    session_id = started.location.rstrip("/").rsplit("/", 1)[1]
    refused = client.post(f"/scores/{session_id}/games/new", data={
        "ending": "out", "winner": "Ann", "lines-1-total": "zwölf", "lines-1-jokers": "9"})
    assert refused.status_code == 422
    assert "Keine gültige, ganze Zahl." in refused.text
    assert "Zahl muss zwischen 0 und 8 liegen." in refused.text
    assert 'value="zwölf"' in refused.text


def test_every_refusal_code_of_the_score_keeper_has_its_sentence() -> None:
    """A code raised by the core's scoring or the service without a sentence would fall back
    to English on every page: each one is listed in words.SENTENCES."""
    root = Path(__file__).resolve().parents[2] / "companion"
    sources = [root / "core" / "scoring.py", root / "web" / "scores" / "service.py"]
    raised = {code for source in sources
              for code in re.findall(r'code="(\w+)"', source.read_text(encoding="utf-8"))}
    raised |= {"tie", "unbalanced", "no_plus_score", "several_plus"}  # set by the classes
    assert raised and raised <= set(SENTENCES), raised - set(SENTENCES)


def rack(text: str) -> Rack:
    return Rack.of_tiles(parse_rack(text))


PRESSMAN = get_preset("pressman")
REFUSALS: list[tuple[str, Callable[[], object]]] = [
    ("winner_rack_not_empty", lambda: score_went_out(
        ["Ann", "Bob"], "Ann", {"Ann": rack("K5"), "Bob": rack("R1")}, preset=PRESSMAN)),
    ("rack_missing", lambda: score_went_out(["Ann", "Bob"], "Ann", {}, preset=PRESSMAN)),
    ("rack_empty", lambda: score_went_out(["Ann", "Bob"], "Ann", {"Bob": rack("")},
                                          preset=PRESSMAN)),
    ("not_a_player", lambda: score_went_out(["Ann", "Bob"], "Cyd", {}, preset=PRESSMAN)),
    ("impossible_tiles", lambda: score_went_out(
        ["Ann", "Bob", "Cyd"], "Ann", {"Bob": rack("K5 K5"), "Cyd": rack("K5")},
        preset=PRESSMAN)),
    ("too_many_jokers", lambda: score_went_out(
        ["Ann", "Bob", "Cyd"], "Ann", {"Bob": Rack.of_total(10, 2), "Cyd": Rack.of_total(5, 1)},
        preset=PRESSMAN)),
    ("negative_total", lambda: score_went_out(["Ann", "Bob"], "Ann",
                                              {"Bob": Rack.of_total(-3, 0)}, preset=PRESSMAN)),
    ("tie", lambda: score_exhausted(["Ann", "Bob"], {"Ann": rack("K5"), "Bob": rack("R2 R3")},
                                    preset=PRESSMAN)),
    ("cannot_win", lambda: score_exhausted(["Ann", "Bob"], {"Ann": rack("K5"), "Bob": rack("R9")},
                                           preset=PRESSMAN, winner="Bob")),
    ("unbalanced", lambda: check_paper_scores(["Ann", "Bob"], {"Ann": 12, "Bob": -10})),
    ("no_plus_score", lambda: check_paper_scores(["Ann", "Bob"], {"Ann": -2, "Bob": -10})),
    ("several_plus", lambda: check_paper_scores(["Ann", "Bob", "Cyd"],
                                                {"Ann": 2, "Bob": 10, "Cyd": -12})),
    ("not_the_winner", lambda: check_paper_scores(["Ann", "Bob"], {"Ann": 5, "Bob": -5},
                                                  winner="Bob")),
    ("score_missing", lambda: check_paper_scores(["Ann", "Bob"], {"Ann": 5})),
    ("zero_needs_winner", lambda: check_paper_scores(["Ann", "Bob"], {"Ann": 0, "Bob": 0})),
    ("name_twice", lambda: check_players(["Ann", "ann"])),
    ("player_count", lambda: check_players(["Ann"])),
    ("name_too_long", lambda: check_players(["A" * 40, "Bob"])),
    ("rounds_range", lambda: check_rounds(0)),
]


@pytest.mark.parametrize(("code", "refuse"), REFUSALS, ids=[code for code, _ in REFUSALS])
def test_each_refusal_is_said_in_german_with_its_numbers_and_names(
        app: Flask, code: str, refuse: Callable[[], object]) -> None:
    with pytest.raises(ScoringError) as refused:
        refuse()
    assert refused.value.code == code
    with app.test_request_context(headers={"Accept-Language": "de"}):
        german_text = refusal(refused.value)
    with app.test_request_context():
        english = str(refused.value)  # English: the core's own words, as a sentence
        assert refusal(refused.value) == english[:1].upper() + english[1:]
    assert german_text != str(refused.value)
    for number in re.findall(r"\d+", str(refused.value)):
        assert number in german_text, (number, german_text)
