"""Every page (tests/every_page.py walks the app's URL map) on a 360-px phone in headless
chromium, in the light and the dark colour scheme, and in Hebrew (right to left) in the light
scheme: axe-core finds no serious or critical violation, and every tap target is at least
44×44 px (checked in English and in Hebrew: the longer words and the mirrored layout).

axe-core comes from the npm registry through package.json/package-lock.json (`make test` runs
`npm ci`); it is injected by the test, never served by the app. The context bypasses the
Content-Security-Policy only so that the test can inject it.
"""

from __future__ import annotations

import os
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.web import create_app
from tests.every_page import Answer, page_paths, start_night, start_session_with_one_game

pytestmark = pytest.mark.e2e

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
PHONE = {"width": 360, "height": 740}
SCHEMES = ("light", "dark")
LANGUAGE_PASSES = (("en", SCHEMES), ("he", ("light",)))
"""English in both colour schemes, Hebrew in one: the colours are the same in every language,
the Hebrew pass checks the mirrored layout, the longer words and the labels; each pass walks
every page once more (about 35 s) in the same browser tab."""
SMALLEST_TARGET = 44  # px, WCAG 2.5.5 (AAA) and the platforms' own guidelines

# Taps in the page: buttons, links, fields, and the labels that wrap a radio or a checkbox (the
# label is what the thumb taps). Left out: links laid out inline inside running text (a
# sentence in a paragraph, a list item or a table cell), which WCAG 2.5.8 exempts.
TAP_TARGETS = """() => {
    const small = [];
    const seen = new Set();
    const inline = el => el.tagName === 'A' && getComputedStyle(el).display === 'inline'
        && el.closest('p, li, dd, td, figcaption');
    document.querySelectorAll('button, a[href], input, select, textarea, summary')
        .forEach(el => {
            if (el.type === 'hidden' || inline(el)) return;
            let target = el;
            if ((el.type === 'radio' || el.type === 'checkbox') && el.closest('label')) {
                target = el.closest('label');
            }
            if (seen.has(target)) return;
            seen.add(target);
            const box = target.getBoundingClientRect();
            const style = getComputedStyle(target);
            if (!box.width || !box.height || style.visibility === 'hidden') return;
            if (box.width < 43.5 || box.height < 43.5) {
                small.push(`${target.outerHTML.slice(0, 90)}: ${Math.round(box.width)}×${Math.round(box.height)}`);
            }
        });
    return small;
}"""


class PlaywrightBrowser:
    """every_page's Browser on the page's own request context: the cookies (the session's edit
    right) are the browser tab's."""

    def __init__(self, page: Any) -> None:
        self.request = page.context.request

    def get(self, path: str) -> Answer:
        return self._answer(self.request.get(path))

    def post(self, path: str, form: dict[str, str]) -> Answer:
        return self._answer(self.request.post(path, form=form))

    @staticmethod
    def _answer(response: Any) -> Answer:
        return Answer(response.status, dict(response.headers), response.text(),
                      urllib.parse.urlsplit(response.url).path)


@pytest.fixture
def phone_without_policy(browser: Any, live_server: str) -> Iterator[Any]:
    context = browser.new_context(viewport=PHONE, base_url=live_server, bypass_csp=True)
    page = context.new_page()
    yield page
    context.close()


def serious_violations(page: Any) -> list[str]:
    page.add_script_tag(path=str(AXE))
    result = page.evaluate("""async () => {
        const found = await axe.run(document, {resultTypes: ['violations']});
        return found.violations.filter(v => v.impact === 'serious' || v.impact === 'critical')
            .map(v => `${v.id} (${v.impact}): ` + v.nodes.slice(0, 3)
                 .map(n => n.target.join(' ') + ' ' + (n.failureSummary || '').split('\\n')[1])
                 .join('; '));
    }""")
    return list(result)


def test_every_page_in_both_schemes_passes_axe_and_has_thumb_sized_targets(
        phone_without_policy: Any, tmp_path: Path) -> None:
    if not AXE.exists():
        pytest.fail(f"{AXE} is missing: `make test` installs axe-core (npm ci)")
    page = phone_without_policy
    sheet_path = start_session_with_one_game(PlaywrightBrowser(page))  # the CSV is no page
    walker = PlaywrightBrowser(page)
    night_id = start_night(walker)  # its host, so the table cards are a page too
    paths = [path for path in page_paths(create_app({"SECRET_KEY": "walk"}), sheet_path,
                                         night_id=night_id).values()
             if walker.get(path).headers.get("content-type", "").startswith("text/html")]
    shots = os.environ.get("COMPANION_SCREENSHOTS")
    problems = []
    for language, schemes in LANGUAGE_PASSES:
        walker.get(f"/language/{language}")  # the cookie every later page is served by
        for scheme in schemes:
            page.emulate_media(color_scheme=scheme)
            for path in paths:
                page.goto(path)
                where = f"{language} {scheme} {path}"
                problems += [f"{where}: {v}" for v in serious_violations(page)]
                if scheme == "light":
                    problems += [f"{where}: tap target {t}" for t in page.evaluate(TAP_TARGETS)]
                if shots:
                    name = path.strip("/").replace("/", "_").replace("?", "_") or "home"
                    page.screenshot(path=f"{shots}/{language}-{scheme}-{name[:80]}.png",
                                    full_page=True)
    assert not problems, "\n".join(problems)
