"""What a person sees (or hears from a screen reader) on a page, as text nodes: for the tests
that a page in another language shows no English left over from its English rendering.

``visible_texts(html)`` returns each text node of the body (and the title) with its whitespace
collapsed, plus the text a screen reader says instead of or beside it (``aria-label``, ``alt``,
``title``, ``placeholder``, a confirm dialog's or a share sheet's words, and the ``data-text-*`` words the scripts write into the page).
``<script>``, ``<style>`` and ``<template>`` hold no visible text; ``<code>`` holds what the user
typed (notation), so it is left out too. A ``data-text-*`` attribute holding a JSON object (the
forms of a counted phrase, keyed by plural category) counts with its values only.
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser

SPOKEN_ATTRIBUTES = ("aria-label", "alt", "title", "placeholder",
                     "data-confirm", "data-share-title")  # the last two: a dialog's words
SILENT_ELEMENTS = frozenset({"script", "style", "template", "code"})
VOID_ELEMENTS = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link",
                           "meta", "source", "track", "wbr"})
ENGLISH_WORD = re.compile(r"[A-Za-z]{3,}")


class _TextNodes(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.texts: list[str] = []
        self.silent_depth = 0
        self.open: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_startendtag(tag, attrs)
        if tag in VOID_ELEMENTS:
            return
        self.open.append(tag)
        if tag in SILENT_ELEMENTS:
            self.silent_depth += 1

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if not value:
                continue
            if name.startswith("data-text-") and value.startswith("{"):
                for form in json.loads(value).values():
                    self._add(form)
            elif name in SPOKEN_ATTRIBUTES or name.startswith("data-text-"):
                self._add(value)

    def handle_endtag(self, tag: str) -> None:
        if tag not in self.open:
            return
        while self.open:
            closed = self.open.pop()
            if closed in SILENT_ELEMENTS:
                self.silent_depth -= 1
            if closed == tag:
                break

    def handle_data(self, data: str) -> None:
        if not self.silent_depth:
            self._add(data)

    def _add(self, text: str) -> None:
        collapsed = " ".join(text.split())
        if collapsed:
            self.texts.append(collapsed)


def visible_texts(html: str) -> list[str]:
    """Each text node and spoken attribute of the page, whitespace collapsed, in page order."""
    parser = _TextNodes()
    parser.feed(html)
    parser.close()
    return parser.texts


def has_english_words(text: str) -> bool:
    """Three Latin letters in a row: more than tile notation (``R13``, ``J``) or a number."""
    return ENGLISH_WORD.search(text) is not None


def english_left_over(english_page: str, translated_page: str,
                      allowed: frozenset[str] = frozenset(),
                      same_words: frozenset[str] = frozenset()) -> list[str]:
    """The text nodes of ``translated_page`` that are word for word nodes of ``english_page``
    and hold a word of three or more letters, except the ``allowed`` nodes (names, brands) and
    nodes whose every such word is one of ``same_words`` (the language's word is the English
    one: French "joker", German "Pause")."""
    english = {text for text in visible_texts(english_page) if has_english_words(text)}
    return sorted({text for text in visible_texts(translated_page)
                   if text in english and text not in allowed
                   and not set(ENGLISH_WORD.findall(text)) <= same_words})
