"""The pages in the players' language (issue 13): chosen, switched, remembered, right to left;
every reason code translated; the JSON API stays English."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import read_mo, write_mo
from babel.messages.pofile import read_po
from flask import Flask
from flask.testing import FlaskClient

from companion.core import english
from companion.web import create_app
from companion.web.languages import LANGUAGE_COOKIE, LANGUAGES, TRANSLATIONS
from companion.web.reason_text import MESSAGES, WORDS

TRANSLATED = sorted(set(LANGUAGES) - {"en"})
ILLEGAL_TABLE = {"table": "R5 R6 J\nK7 K7 B7", "preset": "pressman"}


def html_tag(page: str) -> str:
    match = re.search(r"<html[^>]*>", page)
    assert match, page[:200]
    return match.group(0)


def catalogue(language: str) -> Catalog:
    with open(TRANSLATIONS / language / "LC_MESSAGES" / "messages.po", "rb") as po:
        return read_po(po)


@pytest.mark.parametrize(("header", "language", "title"), [
    ("de-DE,de;q=0.9,en;q=0.5", "de", "Tisch prüfen"),
    ("nl", "nl", "Tafel controleren"),
    ("fr-CA,fr;q=0.8", "fr", "Vérifier la table"),
    ("es-AR;q=0.9, pt;q=0.95", "es", "Comprobar la mesa"),
    ("he-IL", "he", "בדיקת השולחן"),
])
def test_accept_language_picks_the_pages_language(client: FlaskClient, header: str,
                                                  language: str, title: str) -> None:
    page = client.get("/check", headers={"Accept-Language": header}).get_data(as_text=True)
    assert f'lang="{language}"' in html_tag(page)
    assert f"<h1>{title}</h1>" in page


def test_an_unknown_language_falls_back_to_english(client: FlaskClient) -> None:
    page = client.get("/check", headers={"Accept-Language": "ja, pt-BR;q=0.8"}).get_data(
        as_text=True)
    assert html_tag(page) == '<html lang="en" dir="ltr">'
    assert "<h1>Check the table</h1>" in page
    assert "K black, R red, B blue," in page


def test_hebrew_pages_run_right_to_left_and_the_others_left_to_right(
        client: FlaskClient) -> None:
    for language in LANGUAGES:
        page = client.get("/", headers={"Accept-Language": language}).get_data(as_text=True)
        direction = "rtl" if language == "he" else "ltr"
        assert html_tag(page) == f'<html lang="{language}" dir="{direction}">'


def test_the_switch_sets_the_language_and_it_is_remembered(client: FlaskClient) -> None:
    german_browser = {"Accept-Language": "de"}
    page = client.get("/check", headers=german_browser).get_data(as_text=True)
    assert 'href="/language/nl?next=/check"' in page  # the switch is on the page itself

    switched = client.get("/language/nl?next=/check", headers=german_browser)
    assert switched.status_code == 302 and switched.headers["Location"] == "/check"
    cookie = client.get_cookie(LANGUAGE_COOKIE)
    assert cookie is not None and cookie.value == "nl"
    assert cookie.expires is not None  # lives beyond the browser session

    for path in ("/", "/check"):  # later pages, a browser that still asks for German
        page = client.get(path, headers=german_browser).get_data(as_text=True)
        assert 'lang="nl"' in html_tag(page)
    assert "Tafel controleren" in client.get("/", headers=german_browser).get_data(as_text=True)


def test_the_switch_goes_back_to_the_page_it_was_used_on(client: FlaskClient) -> None:
    by_form = client.post("/language/fr", data={"next": "/check?x=1"})
    assert by_form.headers["Location"] == "/check?x=1"
    by_referrer = client.get("/language/es", headers={"Referer": "http://localhost/check"})
    assert by_referrer.headers["Location"] == "/check"


@pytest.mark.parametrize("target", [
    "https://evil.example/", "//evil.example/", "/\\evil.example", "javascript:alert(1)",
    "evil.example", "",
])
def test_the_switch_never_redirects_off_the_site(client: FlaskClient, target: str) -> None:
    response = client.get("/language/de", query_string={"next": target})
    assert response.status_code == 302 and response.headers["Location"] == "/"


def test_an_off_site_referrer_is_not_followed(client: FlaskClient) -> None:
    response = client.get("/language/de", headers={"Referer": "https://evil.example/check"})
    assert response.headers["Location"] == "/"


def test_an_unknown_language_code_is_a_clear_404(client: FlaskClient) -> None:
    response = client.get("/language/xx")
    assert response.status_code == 404
    assert "No language “xx”" in response.get_data(as_text=True)
    assert client.get_cookie(LANGUAGE_COOKIE) is None


def test_a_german_check_of_an_illegal_set_gives_the_german_reason(client: FlaskClient) -> None:
    page = client.post("/check", data=ILLEGAL_TABLE, headers={"Accept-Language": "de"})
    text = page.get_data(as_text=True)
    assert "Eine Gruppe darf schwarz 7 nicht zweimal enthalten." in text
    assert "1 von 2 Kombinationen nicht regelgerecht." in text
    assert "hold two black" not in text


def test_english_pages_keep_the_cores_own_sentence(client: FlaskClient) -> None:
    text = client.post("/check", data=ILLEGAL_TABLE).get_data(as_text=True)
    assert "A group can&#39;t hold two black 7s." in text


def test_a_turns_violations_are_said_in_the_pages_language(client: FlaskClient) -> None:
    page = client.post("/turn", data={"before": "R5 R6 R7", "after": "R5 R6", "rack": "",
                                      "opened": "y", "preset": "pressman"},
                       headers={"Accept-Language": "fr"}).get_data(as_text=True)
    assert 'data-code="tile_removed"' in page
    assert "R7 (rouge 7) : sur la table avant le tour et disparu maintenant" in page


def test_the_json_api_stays_english_whatever_the_language(client: FlaskClient) -> None:
    client.get("/language/he")
    response = client.post("/api/v1/check", json={"table": "K7 K7 B7"},
                           headers={"Accept-Language": "de"})
    body = response.get_json()
    assert response.status_code == 200
    assert body["sets"][0]["reason"] == "a group can't hold two black 7s"
    missing = client.get("/api/v1/no-such-thing", headers={"Accept-Language": "de"})
    assert missing.status_code == 404 and missing.get_json()["error"].startswith("The requested")


def test_every_reason_code_has_a_message_translated_in_every_language() -> None:
    assert set(MESSAGES) == set(english.known_codes())
    wanted = [message for variants in MESSAGES.values() for message in variants.values()]
    wanted += list(WORDS.values())
    for language in TRANSLATED:
        translations = catalogue(language)
        for message in wanted:
            entry = translations.get(message)
            assert entry is not None and entry.string, f"{language}: “{message}” untranslated"
            assert not entry.fuzzy, f"{language}: “{message}” is fuzzy"
            placeholders = sorted(re.findall(r"%\(\w+\)s", message))
            assert sorted(re.findall(r"%\(\w+\)s", entry.string)) == placeholders, (
                f"{language}: “{entry.string}” changes the placeholders of “{message}”")


def _key(text: str | tuple[str, ...] | list[str]) -> str | tuple[str, ...]:
    return text if isinstance(text, str) else tuple(text)


def test_the_compiled_catalogues_match_their_sources() -> None:
    """The .mo files are committed (the wheel ships them): they must not lag their .po."""
    for language in TRANSLATED:
        source = {_key(m.id): _key(m.string) for m in catalogue(language) if m.id}
        with open(TRANSLATIONS / language / "LC_MESSAGES" / "messages.mo", "rb") as mo:
            compiled = {_key(m.id): _key(m.string) for m in read_mo(mo) if m.id}
        assert compiled == source, f"run `make translations`: {language} .mo is stale"


def test_the_colour_help_names_the_colours_in_each_language(client: FlaskClient) -> None:
    expected = {"de": "K schwarz, R rot, B blau,", "nl": "K zwart, R rood, B blauw,",
                "fr": "K noir, R rouge, B bleu,", "es": "K negro, R rojo, B azul,",
                "he": "K שחור, R אדום, B כחול,"}
    for language, help_text in expected.items():
        page = client.get("/check", headers={"Accept-Language": language}).get_data(
            as_text=True)
        assert help_text in page


def test_a_language_lacking_a_message_falls_back_to_the_cores_english(tmp_path: Path) -> None:
    """A German catalogue with its page words but without the group reason."""
    thin = Catalog(locale="de")
    thin.add("Check the table", "Tisch prüfen")
    folder = tmp_path / "translations" / "de" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    with open(folder / "messages.mo", "wb") as mo:
        write_mo(mo, thin)
    app: Flask = create_app({
        "TESTING": True, "SECRET_KEY": "test", "WTF_CSRF_ENABLED": False,
        "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'companion.sqlite'}",
        "BABEL_TRANSLATION_DIRECTORIES": str(tmp_path / "translations"),
    })
    page = app.test_client().post("/check", data=ILLEGAL_TABLE,
                                  headers={"Accept-Language": "de"}).get_data(as_text=True)
    assert "<h1>Tisch prüfen</h1>" in page
    assert "A group can&#39;t hold two black 7s." in page
