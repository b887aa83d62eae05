"""Regenerate the README's pictures: the phone game page, the deal form, the PDF's first page.

Run: .venv/bin/python scripts/screenshots.py      (needs chromium and poppler-utils:
bash scripts/setup.sh --test installs both)

A sample evening is put into a fresh database, the real `scorekeeper serve` serves it, and
headless Chromium at phone size (the browser tier's harness, tests/browser.py) takes the
pictures; `pdftoppm` draws the PDF's first page. They are written to docs/img/.
"""

from __future__ import annotations

import random
import subprocess
import sys
import tempfile
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scorekeeper import gamefile, sample  # noqa: E402
from scorekeeper.games import create_from_game  # noqa: E402
from scorekeeper.store import Store  # noqa: E402
from tests.browser import SMALL_PHONE, RealServer, launch  # noqa: E402

OUT = ROOT / "docs" / "img"


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    folder = Path(tempfile.mkdtemp())
    data = sample.random_game(
        random.Random(11), 14, convention="sochi", players=3, options={"pool_target": 20}
    )
    data["name"] = "Friday at Boris's"
    server = RealServer(folder / "games.sqlite", folder / "serve.log")
    try:
        server.wait_ready()
        with Store(server.db) as store:
            record = create_from_game(store, gamefile.load(data))
        from playwright.sync_api import sync_playwright

        with sync_playwright() as playwright:
            browser = launch(playwright)
            page = browser.new_page(viewport=SMALL_PHONE, device_scale_factor=1)
            page.goto(f"{server.url}/g/{record.edit_token}?lang=en")
            page.screenshot(path=str(OUT / "game-page.png"))
            page.goto(f"{server.url}/g/{record.edit_token}/deal/new")
            page.screenshot(path=str(OUT / "deal-form.png"))
            browser.close()
        pdf = folder / "pulka.pdf"
        with urllib.request.urlopen(f"{server.url}/g/{record.edit_token}/pulka.pdf") as reply:
            pdf.write_bytes(reply.read())
        subprocess.run(
            ["pdftoppm", "-png", "-r", "60", "-f", "1", "-l", "1", "-singlefile", str(pdf)]
            + [str(OUT / "pdf-sheet")],
            check=True,
        )
    finally:
        server.stop()
    for name in ("game-page.png", "deal-form.png", "pdf-sheet.png"):
        print(f"docs/img/{name}: {(OUT / name).stat().st_size // 1024} KB")


if __name__ == "__main__":
    main()
