"""Benchmark: a club's season computed from kept results (scorekeeper.season).

Run: .venv/bin/python bench/bench_season.py [--players 200] [--games 2000] [--tournaments 30]
     [--companies 40] [--runs 5]

Builds a club of random real games (scorekeeper.sample.random_game, 3 to 5 of the club's
players each, in 40 companies) and random valid tournaments of 9 of them, reads each once
into its `TableResult` (what a club page keeps per game version), then times, in CPU
seconds (the machine is shared): the results read from the sheets once, `compute` (seats
resolved, every rating applied), the club's statistics, and the whole report (every
company's statistics and head-to-head too). Medians of --runs.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from datetime import date, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorekeeper import gamefile  # noqa: E402
from scorekeeper.rules import score  # noqa: E402
from scorekeeper.sample import random_game  # noqa: E402
from scorekeeper.season import compute as sc  # noqa: E402
from scorekeeper.season.players import Directory  # noqa: E402
from scorekeeper.season.results import from_sheet  # noqa: E402
from scorekeeper.tournament import file as tf  # noqa: E402
from scorekeeper.tournament.sample import random_tournament  # noqa: E402

FIRST = date(2026, 9, 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--tournaments", type=int, default=30)
    parser.add_argument("--companies", type=int, default=40)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    rng = random.Random(1)
    club = [f"Player {i:03d}" for i in range(args.players)]
    directory = Directory({i: n for i, n in enumerate(club, start=1)})
    sheets = []
    for _ in range(args.games):
        game = random_game(
            rng, rng.randint(10, 40), convention="sochi", players=rng.choice([3, 4, 5])
        )
        chosen = rng.sample(club, len(game["players"]))
        rename = dict(zip(game["players"], chosen, strict=True))
        text = gamefile.dumps(gamefile.load(game, check=False))
        for old, new in rename.items():
            text = text.replace(f'"{old}"', f'"{new}"')
        sheets.append(score(gamefile.loads(text)))
    cups = [
        tf.parse_tournament(random_tournament(rng, players=9, tours=3))
        for _ in range(args.tournaments)
    ]
    start = time.process_time()
    results = [from_sheet(sheet) for sheet in sheets]
    cup_tables = [
        tuple(
            sc.Placed(k, j, from_sheet(table.sheet))
            for k, tour in enumerate(t.tours, start=1)
            for j, table in enumerate(tour, start=1)
        )
        for t in cups
    ]
    kept = time.process_time() - start

    def day() -> date:
        return FIRST + timedelta(days=rng.randint(0, 270))

    company = [f"Company {rng.randint(1, args.companies)}" for _ in results]
    events = [
        sc.Event(day(), (sc.Placed(None, None, r),), company=c)
        for r, c in zip(results, company, strict=True)
    ]
    report = {"standings": [], "tours": []}
    events += [sc.Event(day(), tables, tournament=report) for tables in cup_tables]
    season = sc.Season(FIRST, date(2027, 5, 31), date(2027, 5, 31), directory, events=tuple(events))
    times: dict[str, list[float]] = {"compute": [], "club statistics": [], "whole report": []}
    for _ in range(args.runs):
        t0 = time.process_time()
        done = sc.compute(season)
        t1 = time.process_time()
        sc.scope_statistics(done)
        t2 = time.process_time()
        sc.report(season, done)
        t3 = time.process_time()
        times["compute"].append(t1 - t0)
        times["club statistics"].append(t2 - t1)
        times["whole report"].append(t3 - t2 + t1 - t0)
    tables = len(results) + sum(len(t) for t in cup_tables)
    print(f"{tables} tables ({args.games} games, {args.tournaments} tournaments), ", end="")
    print(f"{args.players} players")
    print(f"results read once from the sheets: {kept * 1000:.0f} ms CPU")
    for what, spent in times.items():
        print(f"{what}: {statistics.median(spent) * 1000:.0f} ms CPU (median of {args.runs})")


if __name__ == "__main__":
    main()
