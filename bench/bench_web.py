"""Benchmark: the web pulka's server time and page weight on a long evening.

Run: .venv/bin/python bench/bench_web.py
Bars (issue 15), on a game at the 300-deal limit: save (the POST of the Save tap, its redirect
and the page it leads to) ≤ 25 ms; the page right after a change ≤ 15 ms; the game page ≤ 4×
a minimal Flask page reading one row of a SQLite file, measured in the same run. Also the
page weight (HTML + CSS + JS under 60 KB).
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


def cpu_ms(run: Any) -> float:
    """CPU time of one run in ms (other work on a shared machine does not count)."""
    start = time.process_time()
    run()
    return (time.process_time() - start) * 1000


def floor_app(db: Path) -> Any:
    """The floor: a minimal Flask page that reads one row of a real SQLite file."""
    import sqlite3

    from flask import Flask

    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE IF NOT EXISTS floor (id INTEGER PRIMARY KEY, name TEXT)")
        conn.execute("INSERT OR REPLACE INTO floor VALUES (1, 'A long evening')")
    app = Flask("floor")

    @app.get("/")
    def page() -> str:
        with sqlite3.connect(db) as conn:
            (name,) = conn.execute("SELECT name FROM floor WHERE id = 1").fetchone()
        return f"<!doctype html><title>{name}</title><h1>{name}</h1>"

    return app.test_client()


class Table:
    """One phone at a 300-deal table, driving the app the way the deal form does."""

    def __init__(self, client: Any, token: str) -> None:
        self.client, self.token = client, token

    def page(self) -> None:
        response = self.client.get(f"/g/{self.token}")
        assert response.status_code == 200
        response.get_data()

    def checked_deal(self) -> dict[str, str]:
        """An all-pass deal filled in and checked, ready to save (as after the Check tap)."""
        form = self.client.get(f"/g/{self.token}/deal/new").get_data(as_text=True)
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
        url = f"/g/{self.token}/deal/new"
        checked = self.client.post(url, data=deal).get_data(as_text=True)
        fingerprint = re.search(r'name="checked"[^>]*value="([0-9a-f]+)"', checked)
        assert fingerprint, "the deal did not check"
        deal.update(action="save", checked=fingerprint.group(1))
        return deal

    def save(self, deal: dict[str, str]) -> str:
        """The Save tap without the page it leads to: the POST; returns where it redirects."""
        saved = self.client.post(f"/g/{self.token}/deal/new", data=deal)
        assert saved.status_code in (302, 303), saved.status_code
        return str(saved.headers["Location"])

    def follow(self, location: str) -> None:
        page = self.client.get(location)
        assert page.status_code == 200 and "saved" in page.get_data(as_text=True)


def saves(table: Table) -> dict[str, list[float]]:
    """REPEAT saves, each timed as the Save tap (POST), the page it leads to, and both."""
    times: dict[str, list[float]] = {"save": [], "post": [], "after": [], "cpu": []}
    for _ in range(REPEAT):
        deal = table.checked_deal()
        cpu_start, start = time.process_time(), time.perf_counter()
        location = table.save(deal)
        posted = time.perf_counter()
        table.follow(location)
        end = time.perf_counter()
        times["cpu"].append((time.process_time() - cpu_start) * 1000)
        times["save"].append((end - start) * 1000)
        times["post"].append((posted - start) * 1000)
        times["after"].append((end - posted) * 1000)
    return times


def page_weight(client: Any, token: str) -> tuple[int, int]:
    """The game page's HTML and the files it links, in bytes, on a phone's first visit (the
    stylesheet comes inside the page then)."""
    html = client.get(f"/g/{token}").get_data()
    assets = re.findall(rb'(?:href|src)="(/static/[^"?]+\.(?:css|js)(?:\?[^"]*)?)"', html)
    linked = 0
    for asset in assets:
        with client.get(asset.decode()) as response:
            linked += len(response.get_data())
    return len(html), linked


def follower(client: Any, token: str) -> Any:
    """A phone following the game by its read-only link: its reload after a change."""
    view = re.search(r"/v/([A-Za-z0-9_-]+)", client.get(f"/g/{token}").get_data(True))
    assert view is not None

    def page() -> None:
        response = client.get(f"/v/{view.group(1)}", headers={"X-Follow": "1"})
        assert response.status_code == 200
        response.get_data()

    return page


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.sqlite"
        data = long_game(DEALS)
        with Store(db) as store:
            token = create_from_game(store, gamefile.load(data)).edit_token
        app = create_app({"DATABASE": str(db), "SECRET_KEY": "bench", "WTF_CSRF_ENABLED": False})
        table = Table(app.test_client(), token)
        floor = floor_app(Path(tmp) / "floor.sqlite")

        def floor_page() -> None:
            assert floor.get("/").status_code == 200

        follower_page = follower(table.client, token)
        table.page()  # warm up: templates compiled, imports done
        floor_page()
        follower_page()
        page_ms, floor_ms = median_ms(table.page), median_ms(floor_page)
        follower_ms = median_ms(follower_page)
        page_cpu = min(cpu_ms(table.page) for _ in range(REPEAT))
        floor_cpu = min(cpu_ms(floor_page) for _ in range(REPEAT))
        follower_cpu = min(cpu_ms(follower_page) for _ in range(REPEAT))

        def fresh_game_page() -> None:
            # As after a restart: nothing of this state computed yet (the sheet is kept).
            for state in games._KEPT.values():
                state._memo.clear()
            table.page()

        fresh_ms = median_ms(fresh_game_page)
        timed = saves(table)
        html, linked = page_weight(app.test_client(), token)

    med = statistics.median
    deals = len(data["deals"])
    print(f"{deals}–{deals + REPEAT} deals; wall times are medians of {REPEAT}, CPU the fastest")
    print(f"minimal Flask + SQLite page: {floor_ms:.2f} ms (CPU {floor_cpu:.2f})")
    print(
        f"game page, the scorer's: {page_ms:.2f} ms (CPU {page_cpu:.2f}): "
        f"{page_ms / floor_ms:.1f}× the floor (CPU {page_cpu / floor_cpu:.1f}×; bar ≤ 4×)"
    )
    print(
        f"game page, a follower's: {follower_ms:.2f} ms (CPU {follower_cpu:.2f}): "
        f"{follower_ms / floor_ms:.1f}× the floor (CPU {follower_cpu / floor_cpu:.1f}×; bar ≤ 4×)"
    )
    print(
        f"save (POST + redirect + page): {med(timed['save']):.1f} ms (CPU fastest "
        f"{min(timed['cpu']):.1f}, median {med(timed['cpu']):.1f}; bar ≤ 25 ms): the POST "
        f"{med(timed['post']):.1f} ms, the page after the change {med(timed['after']):.1f} ms "
        "(bar ≤ 15 ms)"
    )
    print(f"game page after a restart (pulka, chart, settlement drawn anew): {fresh_ms:.1f} ms")
    print(
        f"game page weight, a first visit: HTML {html / 1024:.1f} KB (the stylesheet inside) "
        f"+ JS {linked / 1024:.1f} KB "
        f"= {(html + linked) / 1024:.1f} KB (target < 60 KB)"
    )


if __name__ == "__main__":
    main()
