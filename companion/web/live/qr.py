"""QR codes of the share links, drawn on the server as inline SVG (segno): no script, no
request of their own, so they show offline too and pass a strict Content-Security-Policy.

A link's code never changes, and drawing one costs more than rendering the rest of the sheet:
each is drawn once per process and kept (``QR_CODES_KEPT``, the most recently used), so an
editing phone's sheet no longer draws two codes on every request.
"""

from __future__ import annotations

from functools import lru_cache

import segno
from markupsafe import Markup

QR_CODES_KEPT = 1024  # two links a session: the sessions of a few club evenings, ~5 KB each


@lru_cache(maxsize=QR_CODES_KEPT)
def qr_svg(url: str, *, label: str) -> Markup:
    """An inline SVG QR code of ``url``, titled with ``label`` for screen readers."""
    code = segno.make(url, error="m", micro=False)
    svg = code.svg_inline(scale=4, border=2, dark="#000", light="#fff", title=label,
                          svgclass="qr", lineclass=None, omitsize=True)
    return Markup(svg)
