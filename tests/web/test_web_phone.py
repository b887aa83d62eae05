"""A phone app in all but name: installable, and readable in sunlight and in the dark.

The manifest and its icons as a browser checks them before offering "Add to home screen";
the stylesheet's colour pairs at WCAG AA in both themes (the browser tier measures the
rendered pages too). The screen wake lock and the live view are tested in the browser tier.
"""

from __future__ import annotations

import json
import re
import struct
import xml.etree.ElementTree as ET

import pytest

from ..harness import ROOT, Web

CSS = (ROOT / "static" / "app.css").read_text()


def test_the_manifest_is_linked_and_installable(web: Web) -> None:
    page = web.get("/")
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page.html
    assert '<meta name="theme-color" content="#1d5c3a">' in page.html
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in page.html
    response = web.client.get("/manifest.webmanifest")
    assert response.mimetype == "application/manifest+json"
    manifest = json.loads(response.get_data())
    assert manifest["name"] and manifest["short_name"]
    assert manifest["display"] == "standalone"
    assert manifest["start_url"] == "/"
    sizes = {}
    for icon in manifest["icons"]:
        image = web.client.get(icon["src"])
        assert image.status_code == 200, icon
        assert image.mimetype == icon["type"]
        data = image.get_data()
        if icon["type"] == "image/png":
            assert data[:8] == b"\x89PNG\r\n\x1a\n"
            width, height = struct.unpack(">II", data[16:24])
            assert icon["sizes"] == f"{width}x{height}"
            sizes[width] = icon
        else:
            assert ET.fromstring(data).tag == "{http://www.w3.org/2000/svg}svg"
        image.close()
    assert {192, 512} <= set(sizes)  # what Chrome asks for before it offers to install
    touch = re.search(r'<link rel="apple-touch-icon" href="([^"]+)">', page.html)
    assert touch
    with web.client.get(touch.group(1)) as image:
        assert image.status_code == 200 and image.mimetype == "image/png"


def test_the_manifest_speaks_the_language(web: Web) -> None:
    web.get("/?lang=ru")
    manifest = json.loads(web.client.get("/manifest.webmanifest").get_data())
    assert manifest["short_name"] == "Пулька"


# -- colours ------------------------------------------------------------------------------------


def palette(dark: bool) -> dict[str, str]:
    """The custom properties of :root, light or inside the dark media query."""
    light = dict(re.findall(r"--([\w-]+):\s*(#[0-9a-fA-F]{6})", CSS.split("@media")[0]))
    if not dark:
        return light
    block = CSS[CSS.index("@media (prefers-color-scheme: dark)") :]
    block = block[: block.index("\n}\n")]
    return {**light, **dict(re.findall(r"--([\w-]+):\s*(#[0-9a-fA-F]{6})", block))}


def luminance(colour: str) -> float:
    def channel(v: int) -> float:
        c = v / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def contrast(a: str, b: str) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


#: Text colour, background, the least contrast it needs (4.5 text, 3 a focus ring or border).
PAIRS = [
    ("fg", "bg", 4.5),
    ("fg", "card", 4.5),
    ("muted", "bg", 4.5),
    ("muted", "card", 4.5),
    ("accent", "bg", 4.5),  # links
    ("accent", "card", 4.5),
    ("accent-fg", "accent", 4.5),  # primary buttons, chosen taps
    ("bad", "bg", 4.5),
    ("bad", "card", 4.5),
    ("bad", "bad-soft", 4.5),  # errors in a problem card
    ("bad-fg", "bad", 4.5),  # the danger button
    ("good", "card", 4.5),
    ("fg", "accent-soft", 4.5),  # flash messages, the live banner
    ("accent", "accent-soft", 4.5),
    ("bar-fg", "bar", 4.5),  # the header
    ("focus", "bg", 3),
    ("focus", "card", 3),
]


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
@pytest.mark.parametrize(("fg", "bg", "least"), PAIRS, ids=[f"{f}-on-{b}" for f, b, _ in PAIRS])
def test_colour_pairs_meet_wcag_aa(dark: bool, fg: str, bg: str, least: float) -> None:
    colours = palette(dark)
    assert contrast(colours[fg], colours[bg]) >= least, (colours[fg], colours[bg])


def test_both_themes_define_every_colour() -> None:
    assert set(palette(False)) == set(palette(True))
    assert (
        'content="light dark"' in (ROOT / "templates" / "_top.html").read_text()
    )  # the head of every page
