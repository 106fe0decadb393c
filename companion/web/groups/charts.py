"""Charts drawn on the server as SVG by pygal, shown with ``<img>``: no chart script at all.

pygal writes a ``<script>`` with its tooltip configuration into every chart even when told
to load no script (``js=[]``); it is removed here, so the SVG holds only shapes, text and
pygal's ``<style>``. An SVG shown through ``<img>`` never runs scripts and is its own
document: the page's Content-Security-Policy does not reach inside it.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from xml.etree import ElementTree

import pygal
from flask_babel import format_date, gettext
from pygal.style import Style

SVG_NAMESPACE = "http://www.w3.org/2000/svg"
CHART_HEADERS = {
    # The chart is its own document: it may use its own <style> (pygal's colours), and
    # nothing else — no script, no fetch, no font or image from anywhere.
    "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; "
                               "frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "private, max-age=0, must-revalidate",
}
CHART_STYLE = Style(
    background="white", plot_background="white", foreground="#222", foreground_strong="#111",
    foreground_subtle="#ccc", opacity="1", opacity_hover="1",
    colors=("#1f5f4a", "#c0392b", "#2c6fbb", "#d68910"),
    font_family="DejaVu Sans, sans-serif", label_font_size=13, major_label_font_size=13,
    legend_font_size=14, title_font_size=16)


def _common(**options: object) -> dict[str, object]:
    return {"style": CHART_STYLE, "js": [], "width": 720, "height": 320,
            "disable_xml_declaration": False, "explicit_size": False,
            "tooltip_border_radius": 0, "print_values": False,
            "stroke_style": {"width": 2.5}, **options}


def without_scripts(svg: bytes) -> bytes:
    """The chart with every ``<script>`` element removed."""
    ElementTree.register_namespace("", SVG_NAMESPACE)
    ElementTree.register_namespace("xlink", "http://www.w3.org/1999/xlink")
    root = ElementTree.fromstring(svg)
    for parent in list(root.iter()):
        for child in list(parent):
            if child.tag in (f"{{{SVG_NAMESPACE}}}script", "script"):
                parent.remove(child)
    return ElementTree.tostring(root, encoding="utf-8", xml_declaration=True)


def running_totals_chart(players: Sequence[str],
                         lines: Sequence[Sequence[int]]) -> bytes:
    """Each player's running total across the games of a sheet (game 0 is the start)."""
    games = len(lines[0]) if lines else 0
    chart = pygal.Line(**_common(title=gettext("Running total"), show_dots=games <= 40,
                                 x_title=gettext("game"), legend_at_bottom=True,
                                 show_minor_x_labels=games <= 20,
                                 x_labels_major_every=max(1, games // 10)))
    chart.x_labels = [str(number) for number in range(games + 1)]
    for name, line in zip(players, lines, strict=True):
        chart.add(name, [0, *line])
    if not games:
        chart.no_data_text = gettext("No games yet")
    return without_scripts(chart.render())


def session_totals_chart(name: str, points: Sequence[tuple[datetime, int]]) -> bytes:
    """A player's score in each session, over time."""
    chart = pygal.DateLine(**_common(
        title=gettext("%(name)s: score per session", name=name), show_legend=False,
        show_dots=len(points) <= 60, x_label_rotation=0,
        x_value_formatter=lambda moment: format_date(moment, "MMM y"),
        no_data_text=gettext("No sessions in this period")))
    chart.add(name, [(moment, total) for moment, total in points])
    return without_scripts(chart.render())
