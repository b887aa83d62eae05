"""Benchmark: read, score and settle long games, side by side with a plain replay of docs/rules.md.

Run: .venv/bin/python bench/bench_score.py

Prints, in one run:
- five runs of the 300-deal Sochi evening read from its file's bytes: the engine
  (`gamefile_balkan.loads_any` + `score` + `settle`, what `scorekeeper score --settle` does
  before printing) and the oracle (`json.loads` + the independent ~450-line scorer in
  tests/oracle: a plain replay, no checks, no entries) on the same bytes, interleaved, and
  their ratio; the file as `scorekeeper export` writes it (Cyrillic names, UTF-8), and
  once more with its names written as \\u escapes (a file made elsewhere: its texts are
  walked through, to read them in NFC);
- the same for a 1,000-deal evening and a five-player one with penalties, and how the engine
  grows from 300 to 1,000 deals;
- a save: one deal put on top of the 300-deal sheet (`Sheet.plus`) against a full replay.
Bars (issues 15 and 52): engine ≤ 1.0 × oracle, reading included; 1,000 deals ≤ 3.5 × 300.

Times are the fastest of many runs of CPU time (`time.process_time`), so that other work on a
busy machine does not blur the comparison.
"""

from __future__ import annotations

import dataclasses
import json
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorekeeper import gamefile, gamefile_balkan  # noqa: E402
from scorekeeper.rules import parse_deal, replay, score, settle  # noqa: E402
from scorekeeper.sample import random_game  # noqa: E402
from tests.oracle.independent import score_file  # noqa: E402

REPEAT = 40
RUNS = 5
NAMES = {"Anna": "Анна", "Boris": "Борис", "Vera": "Вера", "Gleb": "Глеб", "Dasha": "Даша"}


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


def engine(text: bytes) -> object:
    # A game file may hold up to FORMAT_MAX_DEALS deals (`scorekeeper score` reads them all);
    # only the server caps a game at MAX_DEALS.
    game = gamefile_balkan.loads_any(text, max_deals=gamefile.FORMAT_MAX_DEALS)
    assert not isinstance(game, gamefile_balkan.BalkanGame)
    return settle(score(game))


def oracle(text: bytes) -> object:
    return score_file(json.loads(text))


def file_of(data: dict[str, Any], *, escaped: bool = False) -> bytes:
    """The game's file with the players' names in Cyrillic (a Russian table's), as
    `scorekeeper export` writes it (UTF-8, the names as typed), or with them written as
    \\u escapes (json.dumps's default: a file made elsewhere)."""
    text = json.dumps(data)
    for latin, cyrillic in NAMES.items():
        text = text.replace(f'"{latin}"', json.dumps(cyrillic))
    if escaped:
        return text.encode()
    game = gamefile.loads(text, max_deals=gamefile.FORMAT_MAX_DEALS)
    return gamefile.dumps(game).encode()


def side_by_side(name: str, text: bytes, runs: int = 1) -> float:
    """Print the engine's and the oracle's time on the file, and their ratio, `runs` times;
    the engine's fastest time."""
    deals = len(json.loads(text)["deals"])
    best = float("inf")
    for run in range(1, runs + 1):
        ours, plain = fastest(lambda: engine(text), lambda: oracle(text))
        best = min(best, ours)
        print(
            f"{name:>20} ({deals} deals) run {run}: engine {ours:6.2f} ms, "
            f"plain replay {plain:6.2f} ms, ratio {ours / plain:.2f}",
            flush=True,
        )
    return best


def main() -> None:
    sochi = long_game(300, 300, convention="sochi")
    side_by_side("sochi 300", file_of(sochi), RUNS)
    side_by_side("sochi 300 escaped", file_of(sochi, escaped=True), RUNS)
    longer = side_by_side("sochi 1000", file_of(long_game(1000, 1000, convention="sochi")))
    five = long_game(
        300, 5, convention="leningrad", players=5, penalties=True, options={"money_unit": "1"}
    )
    side_by_side("five players 300", file_of(five))
    shorter = side_by_side("sochi 300 (again)", file_of(sochi))
    print(f"growth 300 -> 1000 deals: {longer / shorter:.2f}x (linear would be 3.33x)")

    game = gamefile.load(sochi)
    sheet = score(game.with_deals(game.deals[:-1]))
    last, _ = parse_deal(sochi["deals"][-1], game.players)
    assert last is not None
    one, full = fastest(
        lambda: sheet.plus(last),
        lambda: replay(dataclasses.replace(game)),  # a fresh game object: no kept replay
    )
    print(f"save of deal 300: one deal on the sheet {one:.3f} ms, full replay {full:.2f} ms")


if __name__ == "__main__":
    main()
