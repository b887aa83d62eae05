"""Benchmark: read, score and settle long games, side by side with a plain replay of docs/rules.md.

Run: .venv/bin/python bench/bench_score.py

Prints, for a 300-deal and a 1,000-deal Sochi evening (and a five-player one with penalties):
- engine: `gamefile.load` + `score` + `settle` (what `scorekeeper score` and a page need);
- oracle: the independent ~450-line scorer in tests/oracle (a plain replay, no checks, no
  entries) on the same file, measured in the same run, interleaved;
- the ratio engine / oracle, and how the engine grows from 300 to 1,000 deals;
- a save: one deal put on top of the 300-deal sheet (`Sheet.plus`) against a full replay.
Bars (issue 15): engine ≤ 1.0 × oracle; 1,000 deals ≤ 3.5 × 300 deals.

Times are the fastest of many runs of CPU time (`time.process_time`), so that other work on a
busy machine does not blur the comparison.
"""

from __future__ import annotations

import dataclasses
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorekeeper import gamefile  # noqa: E402
from scorekeeper.rules import parse_deal, replay, score, settle  # noqa: E402
from scorekeeper.sample import random_game  # noqa: E402
from tests.oracle.independent import score_file  # noqa: E402

REPEAT = 40


def long_game(deals: int, seed: int, **kw: Any) -> dict[str, Any]:
    """A valid game of exactly `deals` deals (a pool target nobody reaches)."""
    options = {"pool_target": 100000, "overflow": "help", **kw.pop("options", {})}
    return random_game(random.Random(seed), deals, options=options, **kw)


def fastest(*jobs: Callable[[], object], repeat: int = REPEAT) -> list[float]:
    """The fastest CPU time of each job in ms, the jobs run in turn (interleaved)."""
    best = [float("inf")] * len(jobs)
    for _ in range(repeat):
        for i, job in enumerate(jobs):
            start = time.process_time()
            job()
            best[i] = min(best[i], time.process_time() - start)
    return [b * 1000 for b in best]


def engine(data: dict[str, Any]) -> object:
    # A game file may hold up to FORMAT_MAX_DEALS deals (`scorekeeper score` reads them all);
    # only the server caps a game at MAX_DEALS.
    return settle(score(gamefile.load(data, max_deals=gamefile.FORMAT_MAX_DEALS)))


def main() -> None:
    games = {
        "sochi 300": long_game(300, 300, convention="sochi"),
        "sochi 1000": long_game(1000, 1000, convention="sochi"),
        "five players 300": long_game(
            300, 5, convention="leningrad", players=5, penalties=True, options={"money_unit": "1"}
        ),
    }
    engine_ms = {}
    for name, data in games.items():
        ours, oracle = fastest(lambda d=data: engine(d), lambda d=data: score_file(d))
        engine_ms[name] = ours
        print(
            f"{name:>17} ({len(data['deals'])} deals): load+score+settle {ours:6.2f} ms, "
            f"plain replay (oracle) {oracle:6.2f} ms, ratio {ours / oracle:.2f}"
        )
    growth = engine_ms["sochi 1000"] / engine_ms["sochi 300"]
    print(f"growth 300 -> 1000 deals: {growth:.2f}x (linear would be 3.33x)")

    data = games["sochi 300"]
    game = gamefile.load(data)
    sheet = score(game.with_deals(game.deals[:-1]))
    last, _ = parse_deal(data["deals"][-1], game.players)
    assert last is not None
    one, full = fastest(
        lambda: sheet.plus(last),
        lambda: replay(dataclasses.replace(game)),  # a fresh game object: no kept replay
    )
    print(f"save of deal 300: one deal on the sheet {one:.3f} ms, full replay {full:.2f} ms")


if __name__ == "__main__":
    main()
