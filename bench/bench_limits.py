"""Measure every page and the PDF of a game at the deal limit (docs/limits.md).

Run: .venv/bin/python bench/bench_limits.py [DEALS ...]   (default: the limit, MAX_DEALS)
Targets: every page < 200 ms of server time, the PDF < 3 s, at MAX_DEALS deals.
Each page is timed cold (the game just changed: nothing cached) and warm; the worst of
three cold runs is printed.
"""

from __future__ import annotations

import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from scorekeeper import gamefile, games
from scorekeeper.games import create_from_game
from scorekeeper.sample import random_game
from scorekeeper.store import Store
from scorekeeper.web import create_app

PAGES = ["", "/log", "/settlement", "/history", ".json", "/game.json", "/deal/new"]


def game(deals: int) -> dict[str, Any]:
    options = {"pool_target": 1000, "stake": "0.10", "currency": "EUR"}
    data = random_game(random.Random(deals), deals, convention="sochi", players=3, options=options)
    data["name"] = "At the limit"
    return data


def _clear() -> None:
    games._KEPT.clear()


def measure(deals: int) -> tuple[dict[str, float], float, int]:
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.sqlite"
        data = game(deals)
        with Store(db) as store:
            token = create_from_game(store, gamefile.load(data)).edit_token
        app = create_app({"DATABASE": str(db), "SECRET_KEY": "bench", "WTF_CSRF_ENABLED": False})
        client = app.test_client()
        client.get(f"/g/{token}")  # warm up imports and templates
        times: dict[str, float] = {}
        for page in PAGES:
            worst = 0.0
            for _ in range(3):
                _clear()
                start = time.perf_counter()
                response = client.get(f"/g/{token}{page}")
                response.get_data()
                worst = max(worst, time.perf_counter() - start)
                assert response.status_code == 200, (page, response.status_code)
            times[page or "/"] = worst * 1000
        weight = len(client.get(f"/g/{token}/log").get_data())
        client.get(f"/g/{token}/pulka.pdf")  # WeasyPrint imported
        _clear()
        start = time.perf_counter()
        pdf = client.get(f"/g/{token}/pulka.pdf")
        pdf_s = time.perf_counter() - start
        assert pdf.status_code == 200
    return times, pdf_s, weight


def main() -> None:
    counts = [int(a) for a in sys.argv[1:]] or [gamefile.MAX_DEALS]
    for deals in counts:
        times, pdf_s, weight = measure(deals)
        pages = ", ".join(f"{k} {v:.0f}" for k, v in times.items())
        print(f"{deals} deals: pages (worst cold, ms): {pages}")
        print(
            f"{deals} deals: slowest page {max(times.values()):.0f} ms (target < 200 ms); "
            f"PDF {pdf_s:.2f} s (target < 3 s); log page {weight / 1024:.0f} KB"
        )


if __name__ == "__main__":
    main()
