"""Benchmark: replay and settle long games; prints deals per second and ms per evening.

Run: .venv/bin/python bench/bench_score.py
Target (issue #2): a 300-deal evening scored and settled in under 20 ms.
"""

from __future__ import annotations

import random
import statistics
import time

from scorekeeper import gamefile
from scorekeeper.rules import score, settle
from scorekeeper.sample import random_game


def long_game(deals: int, seed: int) -> dict:
    """A valid game of exactly `deals` deals (no end rule: keep overflow, never auto-finish)."""
    options = {"pool_target": 100000, "overflow": "help"}
    return random_game(random.Random(seed), deals, convention="sochi", options=options)


def time_it(data: dict, repeat: int = 20) -> float:
    game = gamefile.load(data)
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        settle(score(game))
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    for deals in (300, 1000):
        data = long_game(deals, seed=deals)
        n = len(data["deals"])
        t = time_it(data)
        load_start = time.perf_counter()
        settle(score(gamefile.load(data)))
        with_load = time.perf_counter() - load_start
        print(f"{n} deals: score+settle {t * 1000:.2f} ms (median of 20), "
              f"{n / t:,.0f} deals/s; with parsing and checking the file {with_load * 1000:.2f} ms")


if __name__ == "__main__":
    main()
