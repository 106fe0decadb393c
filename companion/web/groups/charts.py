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


PHONE_SIZE, SCREEN_SIZE = (360, 300), (720, 320)
"""A chart drawn 360 wide for a phone's screen (``?size=phone``, chosen by the page's
``<picture>``): drawn 720 wide and shrunk to a phone, its 13 px labels were about 6 px tall."""


def _common(*, narrow: bool = False, **options: object) -> dict[str, object]:
    width, height = PHONE_SIZE if narrow else SCREEN_SIZE
    return {"style": CHART_STYLE, "js": [], "width": width, "height": height,
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
                         lines: Sequence[Sequence[int]], *, narrow: bool = False) -> bytes:
    """Each player's running total across the games of a sheet (game 0 is the start)."""
    games = len(lines[0]) if lines else 0
    most_labels = 6 if narrow else 10
    chart = pygal.Line(**_common(narrow=narrow, title=gettext("Running total"),
                                 show_dots=games <= 40, x_title=gettext("game"),
                                 legend_at_bottom=True,
                                 show_minor_x_labels=games <= 2 * most_labels,
                                 x_labels_major_every=max(1, games // most_labels)))
    chart.x_labels = [str(number) for number in range(games + 1)]
    for name, line in zip(players, lines, strict=True):
        chart.add(name, [0, *line])
    if not games:
        chart.no_data_text = gettext("No games yet")
    return without_scripts(chart.render())


def date_labels(moments: Sequence[datetime], most: int) -> tuple[list[datetime], str]:
    """At most ``most`` x-axis dates, each written differently: the days of the sessions
    ("8 Jan") when they fit in a few months, else the first of each month ("Jan 2026"). Two
    sessions on one day, or ten in one month, gave ten labels reading the same date."""
    days = sorted({moment.replace(hour=0, minute=0, second=0, microsecond=0)
                   for moment in moments})
    if days and (days[-1] - days[0]).days <= 92:
        labels, pattern = days, "d MMM"
    else:
        labels = sorted({day.replace(day=1) for day in days})
        pattern = "MMM y"
    step = max(1, -(-len(labels) // most))  # every step-th, so that at most `most` remain
    return labels[::step], pattern


def session_totals_chart(name: str, points: Sequence[tuple[datetime, int]], *,
                         narrow: bool = False) -> bytes:
    """A player's score in each session, over time."""
    labels, pattern = date_labels([moment for moment, _total in points], 4 if narrow else 8)
    chart = pygal.DateLine(**_common(
        narrow=narrow, title=gettext("%(name)s: score per session", name=name),
        show_legend=False, show_dots=len(points) <= 60, x_label_rotation=0,
        x_value_formatter=lambda moment: format_date(moment, pattern),
        no_data_text=gettext("No sessions in this period")))
    chart.x_labels = labels
    chart.add(name, [(moment, total) for moment, total in points])
    return without_scripts(chart.render())
