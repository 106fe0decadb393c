"""QR codes of the share links, drawn on the server as inline SVG (segno): no script, no
request of their own, so they show offline too and pass a strict Content-Security-Policy."""

from __future__ import annotations

import segno
from markupsafe import Markup


def qr_svg(url: str, *, label: str) -> Markup:
    """An inline SVG QR code of ``url``, titled with ``label`` for screen readers."""
    code = segno.make(url, error="m", micro=False)
    svg = code.svg_inline(scale=4, border=2, dark="#000", light="#fff", title=label,
                          svgclass="qr", lineclass=None, omitsize=True)
    return Markup(svg)
