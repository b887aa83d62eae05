"""Benchmark: a club's page opened from kept results (scorekeeper.club, issue 48).

Run: .venv/bin/python bench/bench_club.py [--players 200] [--games 2000] [--companies 40]
     [--tournaments 30] [--runs 50] [--db PATH (one it built before: opened, not built)]

Builds, through the store and the club service, a club of --players players: --games random
real games of three of them (scorekeeper.sample), 25 to a company, 20 tables to a tournament,
the rest attached one by one, every company and tournament attached too, one season. Then
opens the club page (the read-only link) with Flask's test client: once cold (every game
replayed into its kept result), then --runs times with the kept results, then the director's
page (every attached thing listed) a fifth as often; prints p50 and p99 of the wall time and
of the CPU time per request (the machine is shared: CPU time is what others' load leaves
alone). Goal: the club page's p99 under
250 ms with kept results.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorekeeper import club as service  # noqa: E402
from scorekeeper.store import Store  # noqa: E402
from scorekeeper.store.clubs import Clubs  # noqa: E402
from scorekeeper.store.companies import Companies  # noqa: E402
from scorekeeper.store.tournaments import Tournaments  # noqa: E402
from scorekeeper.web import create_app  # noqa: E402
from tests.club_sample import stored_game  # noqa: E402

PER_COMPANY = 25
PER_TOURNAMENT = 20


def build(store: Store, args: argparse.Namespace) -> str:
    """The club; its read-only token."""
    rng = random.Random(48)
    names = [f"Игрок {n:03d}" for n in range(args.players)]
    club = service.new_club(store, "Bench")
    service.add_season(store, club.edit_token, "2026", "2026-01-01", "2026-12-31")
    for name in names[: args.players // 2]:
        service.add_player(store, club.edit_token, name)
    game_ids = [stored_game(store, rng, rng.sample(names, 3)).id for _ in range(args.games)]
    start = 0
    for c in range(args.companies):
        company = Companies(store).create(
            name=f"Company {c}", convention="sochi", options={}, roster=[]
        )
        with store.engine.writing():
            for k, game_id in enumerate(game_ids[start : start + PER_COMPANY]):
                store.engine.execute(
                    "INSERT INTO company_games (game_id, company_id, players, played_on,"
                    " attached_at) VALUES (?, ?, '{}', ?, ?)",
                    [game_id, company.id, f"2026-{1 + k % 11:02d}-{1 + c % 27:02d}", "x"],
                )
        service.attach_link(store, club.edit_token, company.edit_token)
        start += PER_COMPANY
    for t in range(args.tournaments):
        tables = [
            (1 + k // 5, 1 + k % 5, g)
            for k, g in enumerate(game_ids[start : start + PER_TOURNAMENT])
        ]
        tournament = Tournaments(store).create(
            name=f"Cup {t}",
            convention="sochi",
            options={},
            table_size=3,
            bands=[],
            roster=[],
            tables=tables,
        )
        service.attach_link(store, club.edit_token, tournament.edit_token)
        start += PER_TOURNAMENT
    for game_id in game_ids[start:]:
        Clubs(store).attach(club.edit_token, "game", game_id)
    return Clubs(store).get(club.edit_token).view_token  # (the bench opens the first club)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--companies", type=int, default=40)
    parser.add_argument("--tournaments", type=int, default=30)
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--db", default="")
    args = parser.parse_args()
    db = args.db or str(Path(tempfile.mkdtemp(prefix="bench-club-")) / "club.sqlite")
    began, again = time.perf_counter(), Path(db).exists()
    with Store(db) as store:
        if not again:
            build(store, args)
        row = store.engine.rows("SELECT view_token, edit_token FROM clubs ORDER BY id")[0]
    print(f"{'opened' if again else 'built'} in {time.perf_counter() - began:.1f} s: {db}")
    client = create_app({"DATABASE": db, "SECRET_KEY": "bench"}).test_client()
    pages = (
        ("club page, cold (every game replayed once)", f"/kv/{row['view_token']}", 1),
        ("club page, kept results", f"/kv/{row['view_token']}", args.runs),
        ("director's page, kept results", f"/k/{row['edit_token']}", max(1, args.runs // 5)),
    )
    for label, url, runs in pages:
        timed(client, label, url, runs)


def timed(client: Any, label: str, url: str, runs: int) -> None:
    """Open a page `runs` times; print p50 and p99 of the wall time and of the CPU time."""
    walls, cpus = [], []
    for _ in range(runs):
        wall, cpu = time.perf_counter(), time.process_time()
        response = client.get(url)
        assert response.status_code == 200, response.status_code
        walls.append((time.perf_counter() - wall) * 1000)
        cpus.append((time.process_time() - cpu) * 1000)
    print(
        f"{label}: p50 {statistics.median(walls):.0f} ms, p99 {percentile(walls, 0.99):.0f} ms"
        f" wall; p50 {statistics.median(cpus):.0f} ms, p99 {percentile(cpus, 0.99):.0f} ms CPU"
        f" ({runs} requests)"
    )


if __name__ == "__main__":
    main()
