"""Every page of the app, reached the way a phone reaches it: through the forms, CSRF token and
cookies included, so the same walk runs on the test client, on `companion serve` and on an
installed wheel.

The page list comes from the app's URL map, so a new page is walked (or the walk fails loudly
asking how to fill its URL) without anyone remembering to add it here.
"""

from __future__ import annotations

import http.cookiejar
import re
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any, Protocol

from flask import Flask

# Pages that answer something other than 200 on purpose when walked without extra input.
# A join link without its key is refused.
EXPECTED_STATUS = {"scores.join_session": 403, "groups.join_group": 403,
                   "nights.join_night": 403}
# The same page in its other states (a verdict, a chosen ending, a seating order).
EXTRA_PAGES = ("/check?table=R5+R6+J", "/turn?before=R5+R6+R7&after=R5+R6+R7+R8",
               "/timer?players=Ann,Bob")
NOT_FOUND_PAGE = "/no-such-page"
CSRF_PATTERN = re.compile(r'name="csrf_token"[^>]*value="([^"]+)"')
PLAYER_LINK = re.compile(r'href="/groups/[^/"]+/players/([^/"?]+)"')


@dataclass
class Answer:
    status: int
    headers: dict[str, str]  # lower-case names
    text: str  # a picture's bytes decoded with replacement characters
    url: str = ""


class Browser(Protocol):
    def get(self, path: str) -> Answer: ...
    def post(self, path: str, form: dict[str, str]) -> Answer: ...


class ClientBrowser:
    """The Flask test client, following redirects like a browser."""

    def __init__(self, client: Any) -> None:
        self.client = client

    def get(self, path: str) -> Answer:
        return self._answer(self.client.get(path, follow_redirects=True))

    def post(self, path: str, form: dict[str, str]) -> Answer:
        return self._answer(self.client.post(path, data=form, follow_redirects=True))

    @staticmethod
    def _answer(response: Any) -> Answer:
        return Answer(response.status_code, {k.lower(): v for k, v in response.headers.items()},
                      response.get_data().decode(errors="replace"), response.request.path)


class HttpBrowser:
    """A real HTTP client with a cookie jar, for a server in another process."""

    def __init__(self, base_url: str) -> None:
        self.base_url = base_url.rstrip("/")
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

    def get(self, path: str) -> Answer:
        return self._send(urllib.request.Request(self.base_url + path))

    def post(self, path: str, form: dict[str, str]) -> Answer:
        body = urllib.parse.urlencode(form).encode()
        return self._send(urllib.request.Request(self.base_url + path, data=body))

    def _send(self, request: urllib.request.Request) -> Answer:
        try:
            with self.opener.open(request, timeout=30) as response:
                return Answer(response.status, {k.lower(): v for k, v in response.headers.items()},
                              response.read().decode(errors="replace"),
                              urllib.parse.urlsplit(response.url).path)
        except urllib.error.HTTPError as error:
            return Answer(error.code, {k.lower(): v for k, v in error.headers.items()},
                          error.read().decode(errors="replace"),
                              urllib.parse.urlsplit(error.url).path)


def csrf_token(page: Answer) -> str:
    found = CSRF_PATTERN.search(page.text)
    return found.group(1) if found else ""


def start_session_with_one_game(browser: Browser) -> str:
    """Start a session through the form (this browser keeps its edit right) and record a game
    copied from paper; answers the sheet's path."""
    new = browser.get("/scores/new")
    sheet = browser.post("/scores/new", {
        "csrf_token": csrf_token(new), "player_1": "Ann", "player_2": "Bob", "rounds": "1",
        "preset": "pressman"})
    assert sheet.status == 200 and "Ann" in sheet.text, (sheet.status, sheet.text[:500])
    record = browser.get(f"{sheet.url}/games/new?ending=paper")
    recorded = browser.post(f"{sheet.url}/games/new", {
        "csrf_token": csrf_token(record), "ending": "paper",
        "lines-0-score": "+10", "lines-1-score": "-10"})
    assert recorded.status == 200 and "Game 1 recorded" in recorded.text, recorded.text[:500]
    return sheet.url


def start_group_with_one_session(browser: Browser) -> tuple[str, str]:
    """Start a group through its form (this browser keeps its edit key) and a session of two
    new players in it; answers the group's id and one player's id."""
    start = browser.get("/groups/")
    group = browser.post("/groups/", {"csrf_token": csrf_token(start), "name": "Club"})
    assert group.status == 200 and "Club" in group.text, (group.status, group.text[:500])
    group_id = group.url.rstrip("/").rsplit("/", 1)[1]
    new = browser.get(f"/groups/{group_id}/sessions/new")
    sheet = browser.post(f"/groups/{group_id}/sessions/new", {
        "csrf_token": csrf_token(new), "seat_1": "Ann", "seat_2": "Bob", "rounds": "1",
        "preset": "pressman"})
    assert sheet.status == 200 and "Ann" in sheet.text, (sheet.status, sheet.text[:500])
    player = PLAYER_LINK.search(browser.get(f"/groups/{group_id}/").text)
    assert player is not None, "the group page links to its players"
    return group_id, player.group(1)


def start_night(browser: Browser) -> str:
    """Start a club night of eight through its form (this browser hosts it); its id."""
    new = browser.get("/nights/new")
    host = browser.post("/nights/new", {
        "csrf_token": csrf_token(new), "names": "\n".join(f"Guest {n}" for n in range(1, 9)),
        "format": "reseat", "rounds": "2", "games_per_table": "2", "advance": "1",
        "preset": "pressman"})
    assert host.status == 200 and "Guest 8" in host.text, (host.status, host.text[:500])
    return host.url.rstrip("/").rsplit("/", 1)[1]


def page_paths(app: Flask, sheet_path: str, group_id: str = "",
               player_id: str = "", night_id: str = "") -> dict[str, str]:
    """Every GET page of the app (not the API, not static files): endpoint → path."""
    values = {"session_id": sheet_path.rstrip("/").rsplit("/", 1)[1], "game_number": "1",
              "group_id": group_id, "player_id": player_id, "night_id": night_id}
    paths = {}
    with app.test_request_context():
        for rule in app.url_map.iter_rules():
            if ("GET" not in (rule.methods or ()) or rule.endpoint == "static"
                    or rule.rule.startswith("/api/") or rule.endpoint == "hosting.health"
                    or rule.endpoint == "languages.switch_language"):  # a redirect, not a page
                continue
            unknown = rule.arguments - values.keys()
            assert not unknown, f"tests/every_page.py: how to fill {unknown} of {rule.rule}?"
            paths[rule.endpoint] = rule.build({k: values[k] for k in rule.arguments})[1]
    for number, extra in enumerate((*EXTRA_PAGES, f"{sheet_path}/games/new?ending=exhausted",
                                    NOT_FOUND_PAGE)):
        paths[f"extra {number}: {extra}"] = extra
    return paths


def visit_every_page(browser: Browser, app: Flask) -> dict[str, Answer]:
    """Walk every page; each answers its expected status. Answers keyed by path."""
    sheet_path = start_session_with_one_game(browser)
    group_id, player_id = start_group_with_one_session(browser)
    night_id = start_night(browser)
    answers = {}
    for endpoint, path in page_paths(app, sheet_path, group_id, player_id, night_id).items():
        answer = browser.get(path)
        expected = 404 if path == NOT_FOUND_PAGE else EXPECTED_STATUS.get(endpoint, 200)
        assert answer.status == expected, (path, answer.status, answer.text[:500])
        answers[path] = answer
    return answers


@dataclass
class InlineCode(HTMLParser):
    """Finds what a Content-Security-Policy without 'unsafe-inline' would block."""

    found: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        super().__init__()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = {name for name, _value in attrs}
        if tag == "script" and "src" not in names:
            self.found.append("an inline <script>")
        if tag == "style":
            self.found.append("a <style> element")
        for name, value in attrs:
            if name.startswith("on"):
                self.found.append(f"<{tag} {name}=...>")
            if name == "style":
                self.found.append(f"<{tag} style=...>")
            if name in ("href", "src", "action") and (value or "").lower().startswith(
                    "javascript:"):
                self.found.append(f"<{tag} {name}=javascript:...>")


def inline_code(html: str) -> list[str]:
    parser = InlineCode()
    parser.feed(html)
    parser.close()
    return parser.found
