"""Benchmark: the web pulka's server time and page weight on a long evening.

Run: .venv/bin/python bench/bench_web.py
Targets (issue #3): the game page of a 300-deal game in under 50 ms of server time; posting
a deal and following the redirect under 100 ms; the game page's HTML + CSS + JS under 60 KB.
"""

from __future__ import annotations

import random
import re
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from scorekeeper import gamefile, games
from scorekeeper.games import create_from_game
from scorekeeper.sample import random_game
from scorekeeper.store import Store
from scorekeeper.web import create_app

REPEAT = 20
# As long as a game may grow: the saves measured take it up to the limit (300 deals).
DEALS = gamefile.MAX_DEALS - REPEAT - 2


def long_game(deals: int) -> dict[str, Any]:
    """A valid Sochi game of `deals` deals that never ends by itself."""
    options = {"pool_target": 100000, "stake": "0.10", "currency": "EUR"}
    data = random_game(random.Random(deals), deals, convention="sochi", players=3, options=options)
    data["name"] = "A long evening"
    return data


def median_ms(run: Any, repeat: int = REPEAT) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.sqlite"
        data = long_game(DEALS)
        with Store(db) as store:
            token = create_from_game(store, gamefile.load(data)).edit_token
        app = create_app({"DATABASE": str(db), "SECRET_KEY": "bench", "WTF_CSRF_ENABLED": False})
        client = app.test_client()
        deals = len(data["deals"])

        def game_page() -> None:
            response = client.get(f"/g/{token}")
            assert response.status_code == 200
            response.get_data()

        game_page()  # warm up: templates compiled, imports done
        page_ms = median_ms(game_page)

        def fresh_game_page() -> None:
            # As right after a change: the sheet is kept (the save computed it), the pulka,
            # the chart and the settlement are computed anew.
            for state in games._KEPT.values():
                state._memo.clear()
            game_page()

        fresh_ms = median_ms(fresh_game_page)

        def post_deal() -> None:
            form = client.get(f"/g/{token}/deal/new").get_data(as_text=True)
            version = re.search(r'name="base_version" value="(\d+)"', form)
            key = re.search(r'name="request_key"[^>]*value="([0-9a-f]+)"', form)
            assert version and key
            deal = {
                "request_key": key.group(1),
                "base_version": version.group(1),
                "kind": "allpass",
                "tricks_0": "3",
                "tricks_1": "3",
                "tricks_2": "4",
                "action": "check",
            }
            checked = client.post(f"/g/{token}/deal/new", data=deal).get_data(as_text=True)
            fingerprint = re.search(r'name="checked"[^>]*value="([0-9a-f]+)"', checked)
            assert fingerprint, "the deal did not check"
            deal.update(action="save", checked=fingerprint.group(1))
            start = time.perf_counter()
            saved = client.post(f"/g/{token}/deal/new", data=deal, follow_redirects=True)
            timings.append(time.perf_counter() - start)
            assert saved.status_code == 200 and "saved" in saved.get_data(as_text=True)

        timings: list[float] = []
        for _ in range(REPEAT):
            post_deal()
        post_ms = statistics.median(timings) * 1000

        html = client.get(f"/g/{token}").get_data()
        assets = [m for m in re.findall(rb'(?:href|src)="(/static/[^"]+\.(?:css|js))"', html)]
        weight = len(html)
        for asset in assets:
            with client.get(asset.decode()) as response:
                weight += len(response.get_data())

    print(
        f"game page, {deals} deals: {page_ms:.1f} ms server time (median of {REPEAT}; "
        f"target < 50 ms); {fresh_ms:.1f} ms when the pulka must be drawn anew"
    )
    print(
        f"post a deal + follow the redirect at {deals}+ deals: {post_ms:.1f} ms "
        f"(median of {REPEAT}; target < 100 ms)"
    )
    print(
        f"game page weight: HTML {len(html) / 1024:.1f} KB + CSS/JS "
        f"{(weight - len(html)) / 1024:.1f} KB = {weight / 1024:.1f} KB (target < 60 KB)"
    )


if __name__ == "__main__":
    main()
