"""Draw the app's PNG icons from ``static/icons/icon.svg`` with Debian's headless chromium.

Run ``python -m companion.web.live.make_icons`` after changing the SVG; the PNGs are committed
(the server never draws them). The maskable icon fills the whole square with the background
and keeps the tile inside the central 80% safe zone, as the manifest's "maskable" asks.
"""

from __future__ import annotations

from pathlib import Path

ICONS = Path(__file__).resolve().parents[3] / "static" / "icons"
CHROMIUM = "/usr/bin/chromium"
SIZES = {"icon-192.png": (192, False), "icon-512.png": (512, False),
         "icon-maskable-512.png": (512, True)}


def page_html(svg: str, size: int, maskable: bool) -> str:
    inner = size * 0.8 if maskable else size
    offset = (size - inner) / 2
    background = "#1f5f4a" if maskable else "transparent"
    scaled = svg.replace("<svg ", '<svg width="100%" height="100%" ')
    return (f"<html><body style='margin:0;background:{background}'>"
            f"<div style='position:absolute;left:{offset}px;top:{offset}px;width:{inner}px;"
            f"height:{inner}px'>{scaled}</div></body></html>")


def main() -> None:
    from playwright.sync_api import sync_playwright

    svg = (ICONS / "icon.svg").read_text()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                             args=["--no-sandbox"])
        for name, (size, maskable) in SIZES.items():
            page = browser.new_page(viewport={"width": size, "height": size})
            page.set_content(page_html(svg, size, maskable))
            page.screenshot(path=str(ICONS / name), omit_background=not maskable)
            page.close()
        browser.close()
    print("wrote", ", ".join(SIZES))


if __name__ == "__main__":
    main()
