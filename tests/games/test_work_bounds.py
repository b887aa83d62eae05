"""Bounds on work: a game holds at most MAX_DEALS deals; two PDFs are drawn at a time."""

from __future__ import annotations

import json
import random
import subprocess
import threading
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from scorekeeper import gamefile
from scorekeeper.games import create_from_game
from scorekeeper.rules import InvalidGame
from scorekeeper.sample import random_game
from scorekeeper.store import Store
from scorekeeper.web.games import routes as game_routes

from ..harness import CLI, Web
from ..helpers import newest_game


def long_file(deals: int) -> dict[str, Any]:
    """A valid game of `deals` deals: a few real ones, then hill corrections (never ends)."""
    options = {"pool_target": 100000}
    data = random_game(random.Random(7), 20, convention="sochi", players=3, options=options)
    name = data["players"][0]
    fill = {"type": "correction", "reason": "x", "entries": [{"player": name, "hill": 1}]}
    data["deals"] = (data["deals"] + [fill] * deals)[:deals]
    return data


def test_the_limit_is_lower_than_the_format_allowed() -> None:
    assert gamefile.MAX_DEALS == 300 < gamefile.FORMAT_MAX_DEALS


def test_a_game_file_over_the_limit_is_refused_clearly() -> None:
    with pytest.raises(InvalidGame, match=r"too many deals: 301 \(a game holds at most 300\)"):
        gamefile.loads(json.dumps(long_file(301)))
    assert len(gamefile.loads(json.dumps(long_file(300))).deals) == 300


def test_the_web_import_refuses_it(web: Web, store: Store) -> None:
    from ..flows import upload

    page = upload(web, json.dumps(long_file(301)).encode())
    assert page.status == 400
    assert "too many deals: 301" in page.text()
    assert newest_game(store) is None


def test_the_cli_import_refuses_it_and_score_still_reads_it(tmp_path: Path) -> None:
    path = tmp_path / "long.json"
    path.write_text(json.dumps(long_file(301)))
    db = tmp_path / "db.sqlite"
    imported = subprocess.run(
        [CLI, "import", str(path), "--db", str(db)], capture_output=True, text=True, timeout=60
    )
    assert imported.returncode == 2
    assert "too many deals: 301 (a game holds at most 300)" in imported.stderr
    assert not db.exists()
    scored = subprocess.run([CLI, "score", str(path)], capture_output=True, text=True, timeout=60)
    assert scored.returncode == 0, scored.stderr
    assert "the server imports games of at most 300" in scored.stderr
    assert json.loads(scored.stdout)["players"]


def test_no_deal_is_added_past_the_limit(web: Web, store: Store) -> None:
    record = create_from_game(store, gamefile.load(long_file(300)))
    page = web.get(f"/g/{record.edit_token}/deal/new", status=302)
    assert page.response.headers["Location"].endswith(f"/g/{record.edit_token}")
    shown = web.get(f"/g/{record.edit_token}").text()
    assert "This game has 300 deals, the most one game holds" in shown
    assert len(store.get_game(record.edit_token).deals) == 300


def test_only_two_pdfs_are_drawn_at_once(
    app: Flask, web: Web, monkeypatch: pytest.MonkeyPatch
) -> None:
    import scorekeeper.render.pdf as pdf_module

    app.config["PDF_WAIT_SECONDS"] = 0.2
    token = web.new_game(["Anna", "Boris", "Vera"])
    release = threading.Event()
    drawing = threading.Semaphore(0)

    def slow_pdf(*args: Any, **kw: Any) -> bytes:
        drawing.release()
        assert release.wait(10)
        return b"%PDF-1.7 test"

    monkeypatch.setattr(pdf_module, "sheet_pdf", slow_pdf)
    results: list[int] = []

    def fetch() -> None:
        with app.test_client() as client:
            results.append(client.get(f"/v/{token}/pulka.pdf").status_code)

    busy = [threading.Thread(target=fetch) for _ in range(game_routes.PDF_SLOTS)]
    for thread in busy:
        thread.start()
    for _ in busy:
        assert drawing.acquire(timeout=10)
    third = web.client.get(f"/g/{token}/pulka.pdf")
    assert third.status_code == 503
    assert third.headers["Retry-After"] == "5"
    assert "Try again in a few seconds" in third.get_data(as_text=True)
    assert web.client.get(f"/g/{token}").status_code == 200  # pages are not held up
    release.set()
    for thread in busy:
        thread.join(10)
    assert results == [200] * game_routes.PDF_SLOTS
    assert web.client.get(f"/g/{token}/pulka.pdf").status_code == 200
