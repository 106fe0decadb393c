"""Standings as a PNG picture to share in a chat, drawn with Pillow.

The text uses DejaVu Sans where the system has it (Debian's fonts-dejavu-core, which the
browser tests install too) and otherwise Pillow's own scalable font, so a picture is always
drawn, names in any Latin script included.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

FONT_FILES = (Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"),
              Path("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"))
WIDTH, ROW, MARGIN = 900, 56, 36
GREEN, INK, PALE = (31, 95, 74), (30, 30, 30), (236, 244, 240)


@lru_cache(maxsize=16)
def _font(size: int, *, bold: bool = False) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    path = FONT_FILES[1 if bold else 0]
    if path.exists():
        return ImageFont.truetype(str(path), size)
    return ImageFont.load_default(size)


def standings_png(title: str, subtitle: str, headings: Sequence[str],
                  rows: Sequence[Sequence[str]]) -> bytes:
    """A table picture: a title, a subtitle, a heading row and one row per place."""
    height = MARGIN * 2 + 110 + ROW * (len(rows) + 1)
    image = Image.new("RGB", (WIDTH, height), "white")
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, WIDTH, 12), fill=GREEN)
    draw.text((MARGIN, MARGIN), title, font=_font(40, bold=True), fill=GREEN)
    draw.text((MARGIN, MARGIN + 54), subtitle, font=_font(22), fill=INK)
    columns = _columns(len(headings))
    top = MARGIN + 110
    for x, heading in zip(columns, headings, strict=True):
        draw.text((x, top + 14), heading, font=_font(22, bold=True), fill=INK)
    for index, row in enumerate(rows):
        y = top + ROW * (index + 1)
        if index % 2 == 0:
            draw.rectangle((MARGIN // 2, y, WIDTH - MARGIN // 2, y + ROW), fill=PALE)
        for x, cell in zip(columns, row, strict=True):
            draw.text((x, y + 12), cell, font=_font(26, bold=x == columns[1]), fill=INK)
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def _columns(count: int) -> list[int]:
    """Place, then the name (wide), then the numbers evenly across the rest."""
    if count <= 2:
        return [MARGIN, MARGIN + 90][:count]
    numbers = count - 2
    start, step = 420, (WIDTH - 420 - MARGIN) // numbers
    return [MARGIN, MARGIN + 90, *(start + step * i for i in range(numbers))]
