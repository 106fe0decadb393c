"""The referee and tool pages (check, turn, solve, photo, timer, error) in the players' language
(issue 13): no English left on a German, Dutch, French, Spanish or Hebrew page; the core's
notation errors said through the catalogues with the token in <code>; the CLI and the JSON API
still English, with the same shape and a stable code."""

from __future__ import annotations

import html
import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po
from flask.testing import FlaskClient

from companion.core import reasons
from companion.core.tiles import (
    IMPOSSIBLE_TILES,
    NOTATION_PROBLEMS,
    NotationError,
    Tile,
    parse_rack,
    parse_table,
)
from companion.vision.reading import DOUBTS, WHOLE_PHOTO_DOUBTS
from companion.web import tool_text
from companion.web.languages import LANGUAGES, TRANSLATIONS
from tests.fixtures import SAMPLE_PHOTO
from tests.web.i18n_text import english_left_over, visible_texts

TRANSLATED = sorted(set(LANGUAGES) - {"en"})
ROOT = Path(__file__).resolve().parents[2]

# Words that are the same in every language, and why.
ALLOWED = frozenset({
    "Companion",  # the app's name
    *LANGUAGES.values(),  # the language switch names each language in its own words
    "Pressman (2018)", "Sabra Way", "Twist",  # the rule sets' own names (the preset picker)
    "Ann", "Bob", "Cy", "Ann, \"Bob, Jr\", Cy",  # player names typed in the tests
    "Ann, Bob, Cy",  # the example names of the players field
})
# Words each language writes as English does (checked by a speaker, not a loophole: a node
# made only of these words is that language's own text).
SAME_WORDS: dict[str, frozenset[str]] = {
    "de": frozenset({"orange", "Pause"}),
    "nl": frozenset({"joker", "jokers", "Scores", "Timer"}),
    "fr": frozenset({"orange", "joker", "jokers", "double", "Pause", "Photo", "Scores"}),
    "es": frozenset(),
    "he": frozenset(),
}

TABLE_WITH_EVERYTHING = "R12 R13 J\nJ K5 J\nK7 K7 B7\nK1 R9 B13\nR3 R4 R5 M R5 R4 R3"
# (method, path, form): each page in the states a player sees.
PAGES: list[tuple[str, str, dict[str, str] | None]] = [
    ("GET", "/", None),
    ("GET", "/check", None),
    ("POST", "/check", {"table": TABLE_WITH_EVERYTHING, "preset": "twist"}),
    ("POST", "/check", {"table": "R5 R6 R7 | K9 B9 R14", "preset": "pressman"}),
    ("POST", "/check", {"table": "R7 R7 R7", "preset": "pressman"}),
    ("POST", "/check", {"table": "K1 K2 K3 K4 | R12 R13 R1", "preset": "pressman"}),
    ("GET", "/turn", None),
    ("POST", "/turn", {"before": "R5 R6 R7", "after": "R5 R6", "rack": "", "opened": "y",
                       "preset": "pressman"}),
    ("POST", "/turn", {"before": "R5 R6 R7", "after": "R5 R6 R7 R8", "rack": "R8 K1",
                       "opened": "y", "preset": "pressman"}),
    ("POST", "/turn", {"before": "R5 R6 R7", "after": "R5 R6 R7", "rack": "K1",
                       "opened": "y", "preset": "pressman"}),
    ("POST", "/turn", {"before": "K1 K1 K2", "after": "K1 K1 K2 | R1 R2 R3", "rack": "",
                       "preset": "pressman"}),
    ("POST", "/turn", {"before": "R5 R6 R7", "after": "R5 R6 R14", "rack": "R1 R1 R1",
                       "preset": "pressman"}),
    ("POST", "/turn", {"before": "R5 R6 R7 | R5", "after": "R5 R6 R7", "rack": "R5 R5",
                       "preset": "pressman"}),
    ("GET", "/solve", None),
    ("POST", "/solve", {"table": "R5 R6 R7", "rack": "R8 K1 J", "opened": "y",
                        "goal": "tiles", "preset": "pressman"}),
    ("POST", "/solve", {"table": "K7 R9 B1", "rack": "", "goal": "tiles",
                        "preset": "pressman"}),
    ("POST", "/solve", {"table": "R5 R6 R7", "rack": "K1", "goal": "value",
                        "preset": "pressman"}),
    ("POST", "/solve", {"table": "R5 R6 R7", "rack": "R8 R8 R8", "goal": "tiles",
                        "preset": "pressman"}),
    ("GET", "/photo", None),
    ("POST", "/photo", {"step": "recheck", "table": "R5 R6 R7\nK7 K7 B7", "preset": "pressman",
                        "reading": "", "preview": "", "keep": "y"}),
    ("POST", "/photo", {"step": "recheck", "table": "R5 R5 R5", "preset": "pressman"}),
    ("GET", "/timer", None),
    ("GET", "/timer?players=Ann,Bob&first=Zoe&seconds=0", None),
    ("GET", "/timer?players=Ann,Bob,Cy", None),
    ("GET", "/no-such-page", None),
]


def render(client: FlaskClient, language: str, method: str, path: str,
           form: dict[str, str] | None) -> str:
    headers = {"Accept-Language": language}
    if method == "GET":
        response = client.get(path, headers=headers)
    else:
        response = client.post(path, data=form, headers=headers)
    assert response.status_code < 500
    return response.get_data(as_text=True)


@pytest.mark.parametrize(("method", "path", "form"), PAGES,
                         ids=[f"{method} {path} {index}" for index, (method, path, _f)
                              in enumerate(PAGES)])
def test_a_tool_page_in_another_language_keeps_no_english_text(
        client: FlaskClient, method: str, path: str, form: dict[str, str] | None) -> None:
    english = render(client, "en", method, path, form)
    for language in TRANSLATED:
        translated = render(client, language, method, path, form)
        left = english_left_over(english, translated, ALLOWED, SAME_WORDS[language])
        assert not left, f"{language} {method} {path}: English left: {left}"


def test_the_photo_page_with_a_real_reading_keeps_no_english_text(client: FlaskClient) -> None:
    """The annotated photo, the tiles the reader is unsure of and its suggestions."""
    pages = {}
    for language in ("en", *TRANSLATED):
        response = client.post("/photo", data={
            "step": "read", "preset": "pressman",
            "photo": (io.BytesIO(SAMPLE_PHOTO.read_bytes()), "table.jpg")},
            headers={"Accept-Language": language}, content_type="multipart/form-data")
        assert response.status_code == 200
        pages[language] = response.get_data(as_text=True)
    assert "annotated-photo" in pages["en"]
    for language in TRANSLATED:
        left = english_left_over(pages["en"], pages[language], ALLOWED, SAME_WORDS[language])
        assert not left, f"{language}: English left: {left}"


def test_the_helper_finds_english_left_on_a_page() -> None:
    english = '<p title="Tap here">Check the table</p><p>R5 R6</p><code>Ann</code>'
    translated = '<p title="Tap here">Tisch prüfen</p><p>R5 R6</p><code>Ann</code>'
    assert visible_texts(english) == ["Tap here", "Check the table", "R5 R6"]
    assert english_left_over(english, translated) == ["Tap here"]


def field_errors(page: str) -> list[str]:
    """The fields' errors as markup (a token in <code>), character references resolved."""
    return [html.unescape(error) for error in re.findall(r'<p class="field-error">(.*?)</p>',
                                                         page)]


@pytest.mark.parametrize(("language", "expected"), [
    ("de", "<code>R14</code> (Kombination 2, Stein 3): Zahlen gehen von 1 bis 13"),
    ("nl", "<code>R14</code> (combinatie 2, steen 3): getallen lopen van 1 tot 13"),
    ("fr", "<code>R14</code> (combinaison 2, tuile 3) : les nombres vont de 1 à 13"),
    ("es", "<code>R14</code> (combinación 2, ficha 3): los números van del 1 al 13"),
    ("he", "<code>R14</code> (צירוף 2, אבן 3): המספרים הם 1–13"),
    ("en", "<code>R14</code> at set 2, tile 3: numbers run 1–13"),
])
def test_a_notation_error_on_the_check_page_names_the_tile_and_place_in_the_pages_language(
        client: FlaskClient, language: str, expected: str) -> None:
    response = client.post("/check", data={"table": "R5 R6 R7 | K9 B9 R14"},
                           headers={"Accept-Language": language})
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert field_errors(page) == [expected]
    assert "`" not in page


def test_a_german_hint_shows_what_was_probably_meant_as_notation(client: FlaskClient) -> None:
    page = client.post("/check", data={"table": "R5R6R7"},
                       headers={"Accept-Language": "de"}).get_data(as_text=True)
    assert field_errors(page) == [
        ("<code>R5R6R7</code> (Kombination 1, Stein 1): meintest du <code>R5 R6 R7</code>? "
        "Trenne die Steine mit Leerzeichen")]


def test_a_rack_error_and_a_third_copy_on_the_turn_page_in_french(client: FlaskClient) -> None:
    page = client.post("/turn", data={"before": "", "after": "R5 R6 R7", "rack": "R5 X9"},
                       headers={"Accept-Language": "fr"}).get_data(as_text=True)
    assert field_errors(page) == [
        ("<code>X9</code> (chevalet, tuile 2) : <code>X</code> n'est pas une couleur : K (noir), "
        "R (rouge), B (bleu) ou O (orange)")]
    page = client.post("/turn", data={"before": "R5 R6 R7", "after": "R5 R6 R7 | R5 R5 R5"},
                       headers={"Accept-Language": "fr"}).get_data(as_text=True)
    assert field_errors(page) == [
        ("table après le tour : <code>R5</code> (rouge 5) apparaît 4 fois : le jeu n’a que 2 "
        "exemplaires de chaque tuile")]


def test_a_solver_reason_is_said_in_the_pages_language(client: FlaskClient) -> None:
    page = client.post("/check", data={"table": "K7 R9 B1"},
                       headers={"Accept-Language": "es"}).get_data(as_text=True)
    assert "Estas fichas no se pueden colocar todas" in page
    assert "K7, R9, B1 no caben en ninguna escalera ni grupo." in page
    assert "Regla: Un grupo son 3 o 4 fichas" in page


def test_the_api_and_the_cli_still_answer_english_with_a_stable_code(
        client: FlaskClient) -> None:
    client.get("/language/de")
    answer = client.post("/api/v1/check", json={"table": "R5 R6 R7 | K9 B9 R14"},
                         headers={"Accept-Language": "de"})
    assert answer.status_code == 400
    assert answer.get_json() == {
        "error": "`R14` at set 2, tile 3: numbers run 1–13", "code": "number_out_of_range",
        "where": {"token": "R14", "set": 2, "tile": 3}}
    impossible = client.post("/api/v1/check", json={"table": "R7 R7 R7"},
                             headers={"Accept-Language": "he"}).get_json()
    assert impossible == {"error": "R7 (red 7) appears 3 times: the game has only 2 of each tile",
                          "code": "too_many_copies",
                          "where": {"tile": "R7", "count": 3, "allowed": 2}}
    turn = client.post("/api/v1/turn", json={"after": "R5 R6 R7", "rack": "R5 Q9"},
                       headers={"Accept-Language": "fr"}).get_json()
    assert turn["code"] == "not_a_colour" and turn["error"].startswith("`Q9` at rack, tile 2")
    solve = client.post("/api/v1/solve", json={"table": "K7 R9 B1"}).get_json()
    assert solve["reason"] == "K7, R9, B1 fit in no run or group"
    assert solve["reason_code"] == "solver_tiles_fit_nowhere"
    assert solve["reason_params"] == {"tiles": ["K7", "R9", "B1"]}

    cli = subprocess.run([sys.executable, "-m", "companion", "check", "R5 R6 R7 | K9 B9 R14"],
                         capture_output=True, text=True, env={"LANG": "de_DE.UTF-8"},
                         check=False)
    assert cli.returncode == 2
    assert "`R14` at set 2, tile 3: numbers run 1–13" in cli.stderr


BAD_TOKENS = {
    "": "empty_tile", "R5R6": "run_together", "09": "zero_for_o", "7R": "number_first",
    "R": "colour_without_number", "R5X": "not_colour_and_number", "X": "not_a_tile",
    "J1": "joker_with_number", "X9": "not_a_colour", "R14": "number_out_of_range",
}


def test_every_notation_code_is_raised_and_said_in_english_and_in_every_catalogue() -> None:
    raised = set()
    for token, code in BAD_TOKENS.items():
        with pytest.raises(NotationError) as error:
            Tile.parse(token)
        assert error.value.code == code
        raised.add(code)
    with pytest.raises(NotationError) as too_long:
        parse_table("R5 " * 3000)
    raised.add(too_long.value.code)
    assert raised == set(NOTATION_PROBLEMS) == set(tool_text.NOTATION_MESSAGES)
    assert set(IMPOSSIBLE_TILES) == set(tool_text.IMPOSSIBLE_MESSAGES)
    for language in TRANSLATED:
        translations = catalogue(language)
        for message in (*tool_text.NOTATION_MESSAGES.values(),
                        *tool_text.IMPOSSIBLE_MESSAGES.values()):
            assert_translated(translations, language, message)


def test_each_tile_doubt_has_the_readers_words_in_every_language() -> None:
    """The reasons a tile is unsure though read surely (``reading.DOUBTS``): those said of the
    tile itself are on the pages word for word, translated; the photo-wide ones are said once,
    by the page's own sentence."""
    own = {code: words for code, words in DOUBTS.items() if code not in WHOLE_PHOTO_DOUBTS}
    assert tool_text.DOUBT_MESSAGES == own
    on_the_rack_control = "Tile {position}, {reason}: tap to select it in the rack field"
    for language in TRANSLATED:
        translations = catalogue(language)
        for message in (*own.values(), on_the_rack_control):
            assert_translated(translations, language, message)


def test_every_photo_reader_code_has_a_message() -> None:
    raised = set()
    for source in (ROOT / "companion" / "vision").glob("*.py"):
        text = source.read_text()
        raised |= set(re.findall(r'PhotoError\((?:[^()]|\([^()]*\))*?,\s*"(\w+)"\)', text))
    assert raised and raised <= set(tool_text.PHOTO_MESSAGES)


def test_the_rules_on_the_pages_are_the_cores_rules_word_for_word() -> None:
    core = {value for name, value in vars(reasons).items() if name.startswith("RULE_")}
    assert set(tool_text.RULES) == core
    assert all(english == message for english, message in tool_text.RULES.items())


def test_the_english_of_the_notation_error_is_the_cores_without_backticks() -> None:
    with pytest.raises(NotationError) as error:
        parse_rack("R5 X9")
    assert str(error.value) == ("`X9` at rack, tile 2: `X` is not a colour: use K (black), "
                                "R (red), B (blue) or O (orange)")
    assert (error.value.code, error.value.params) == ("not_a_colour", {"letter": "X"})


def catalogue(language: str) -> Catalog:
    with open(TRANSLATIONS / language / "LC_MESSAGES" / "messages.po", "rb") as po:
        return read_po(po)


def assert_translated(translations: Catalog, language: str, message: str | tuple[str, ...]
                      ) -> None:
    entry = translations.get(message if isinstance(message, str) else message[0])
    assert entry is not None and entry.string, f"{language}: “{message}” untranslated"
    strings = entry.string if isinstance(entry.string, tuple) else (entry.string,)
    assert all(strings), f"{language}: “{message}” has an empty plural form"
    assert not entry.fuzzy, f"{language}: “{message}” is fuzzy"


def tool_messages() -> list[str | tuple[str, ...]]:
    """Every message the referee and tool pages' templates and Python mark for translation."""
    files = [path for folder in ("check", "solve", "turns", "photos")
             for path in sorted((ROOT / "templates" / folder).glob("*.html"))]
    files += [ROOT / "templates" / "_palette.html", ROOT / "templates" / "error.html"]
    python = [path for folder in ("check", "solve", "turns", "photos")
              for path in sorted((ROOT / "companion" / "web" / folder).glob("*.py"))]
    python += [ROOT / "companion" / "web" / "tool_text.py"]
    messages: list[str | tuple[str, ...]] = []
    for path in files:
        messages += [message for _line, message, _c, _ctx in extract_from_file(
            "jinja2", str(path), keywords={"_": None, "gettext": None, "ngettext": (1, 2)})]
    for path in python:
        messages += [message for _line, message, _c, _ctx in extract_from_file(
            "python", str(path), keywords={"_": None, "_l": None, "gettext": None,
                                           "ngettext": (1, 2)})]
    return messages


def test_every_message_of_the_tool_pages_is_translated_in_every_language() -> None:
    messages = tool_messages()
    assert len(messages) > 150
    for language in TRANSLATED:
        translations = catalogue(language)
        for message in messages:
            assert_translated(translations, language, message)


def test_the_scripts_write_no_english_of_their_own() -> None:
    """The palette, timer and photo scripts take every word from the page (data-text-*)."""
    for script in ("palette.js", "timer.js", "photos.js", "turns.js", "solve.js"):
        code = (ROOT / "static" / script).read_text()
        code = re.sub(r"//.*", "", code)
        strings = re.findall(r'"((?:[^"\\]|\\.)*)"', code)
        words = [s for s in strings if re.search(r"[A-Z][a-z]+ [a-z]+", s)]
        assert not words, f"{script} writes English: {words}"


def test_the_timer_page_hands_its_script_the_words_in_hebrew(client: FlaskClient) -> None:
    page = client.get("/timer?players=Ann,Bob", headers={"Accept-Language": "he"}).get_data(
        as_text=True)
    assert 'data-text-alarm="הזמן נגמר! {player} מושך אבן אחת"' in page
    assert 'data-text-next="הבא בתור: {player}"' in page
    assert json.loads(re.search(r'data-text-tiles="([^"]+)"', client.get(
        "/solve", headers={"Accept-Language": "de"}).get_data(as_text=True)).group(1).replace(
            "&#34;", '"'))["other"] == "{n} Steine"
