"""Company benchmark: how long the company page takes as evenings pile up.

Builds a company of N random finished evenings (each up to D deals) in a temp database,
then times, warm and cold (the replay cache emptied), the company page through the test
client and the pure overview (standings, figures, balance) alone.

Run: .venv/bin/python bench/bench_company.py [--evenings 20 50 100] [--deals 40]
"""

from __future__ import annotations

import argparse
import datetime
import random
import statistics
import tempfile
import time
from pathlib import Path

from scorekeeper import gamefile, games
from scorekeeper.company import file as company_file
from scorekeeper.company import table
from scorekeeper.company.table import overview
from scorekeeper.sample import random_game
from scorekeeper.store import Store
from scorekeeper.web import create_app


def build(path: Path, evenings: int, deals: int) -> str:
    rng = random.Random(evenings)
    roster = ["Anna", "Boris", "Vera", "Gleb", "Dima", "Egor"]
    data: dict = {
        "format": company_file.FORMAT,
        "name": "Bench",
        "convention": "sochi",
        "options": {},
        "players": [{"id": i + 1, "name": n} for i, n in enumerate(roster)],
        "games": [],
        "payments": [],
    }
    day = datetime.date(2026, 1, 1)
    for i in range(evenings):
        game = random_game(
            rng, deals, convention="sochi", players=rng.choice((3, 4)), options={"pool_target": 500}
        )
        game["finished"] = True
        ids = rng.sample(range(1, 7), len(game["players"]))
        data["games"].append(
            {
                "played_on": (day + datetime.timedelta(days=3 * i)).isoformat(),
                "players": dict(zip(game["players"], ids, strict=True)),
                "game": gamefile.dump(gamefile.load(game)),
            }
        )
    with Store(path) as store:
        return company_file.create(store, company_file.load_file(data)).edit_token


def timed(run, repeat: int = 5) -> tuple[float, float]:
    warm, cold = [], []
    for _ in range(repeat):
        games._KEPT.clear()
        table._FACTS.clear()
        start = time.perf_counter()
        run()
        cold.append(time.perf_counter() - start)
        start = time.perf_counter()
        run()
        warm.append(time.perf_counter() - start)
    return statistics.median(cold) * 1000, statistics.median(warm) * 1000


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--evenings", type=int, nargs="+", default=[20, 50, 100])
    parser.add_argument("--deals", type=int, default=40)
    args = parser.parse_args()
    print(f"{'evenings':>8} {'page cold ms':>13} {'page warm ms':>13} {'overview warm ms':>17}")
    for evenings in args.evenings:
        with tempfile.TemporaryDirectory() as where:
            path = Path(where) / "bench.sqlite"
            token = build(path, evenings, args.deals)
            app = create_app({"TESTING": True, "DATABASE": str(path), "SECRET_KEY": "b"})
            client = app.test_client()

            def page(client=client, token=token) -> None:  # type: ignore[no-untyped-def]
                assert client.get(f"/c/{token}").status_code == 200

            cold, warm = timed(page)
            with Store(path) as store:
                from scorekeeper.store.companies import Companies

                company = Companies(store).get(token)
                _, pure = timed(
                    lambda company=company: overview(company, "all", datetime.date(2026, 12, 31))
                )
            print(f"{evenings:>8} {cold:>13.0f} {warm:>13.0f} {pure:>17.0f}")


if __name__ == "__main__":
    main()
