"""Company file import: the server opens every company file it exports, in time that grows
in step with the file.

Builds a company of N finished evenings of D deals each in a temp database, exports it with
the server's own "Company file" download, then opens that file as a new company through the
import form (the Flask test client on a real SQLite file) and prints the sizes and times.

Run: .venv/bin/python bench/bench_company_import.py [--evenings 100 400 2000] [--deals 10]
"""

from __future__ import annotations

import argparse
import datetime
import io
import random
import tempfile
import time
from pathlib import Path

from scorekeeper import gamefile
from scorekeeper.company import file as company_file
from scorekeeper.sample import random_game
from scorekeeper.store import Store
from scorekeeper.web import create_app


def company_data(evenings: int, deals: int) -> dict:
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
    day = datetime.date(2020, 1, 1)
    for i in range(evenings):
        game = random_game(
            rng, deals, convention="sochi", players=rng.choice((3, 4)), options={"pool_target": 500}
        )
        game["finished"] = True
        ids = rng.sample(range(1, 7), len(game["players"]))
        data["games"].append(
            {
                "played_on": (day + datetime.timedelta(days=i)).isoformat(),
                "players": dict(zip(game["players"], ids, strict=True)),
                "game": gamefile.dump(gamefile.load(game)),
            }
        )
        data["payments"].append(
            {"payer": ids[0], "payee": ids[1], "amount": "1.00", "paid_on": "2020-01-02", "game": i}
        )
    return data


def run(evenings: int, deals: int) -> None:
    with tempfile.TemporaryDirectory() as where:
        db = Path(where) / "bench.sqlite"
        with Store(db) as store:
            token = company_file.create(
                store, company_file.load_file(company_data(evenings, deals))
            ).edit_token
        app = create_app({"DATABASE": str(db), "SECRET_KEY": "bench", "WTF_CSRF_ENABLED": False})
        client = app.test_client()
        exported = client.get(f"/c/{token}/company.json")
        assert exported.status_code == 200, exported.status_code
        body = exported.data
        start = time.perf_counter()
        reply = client.post(
            "/company/import",
            data={"file": (io.BytesIO(body), "company.json")},
            content_type="multipart/form-data",
        )
        took = time.perf_counter() - start
        assert reply.status_code == 302, (reply.status_code, reply.get_data(as_text=True)[:2000])
        print(
            f"{evenings:5d} evenings x {deals:3d} deals  file {len(body) / 1e6:6.2f} MB"
            f"  import {took:7.2f} s  ({took / evenings * 1000:6.1f} ms an evening)",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--evenings", type=int, nargs="+", default=[100, 400, 2000])
    parser.add_argument("--deals", type=int, default=10)
    args = parser.parse_args()
    for evenings in args.evenings:
        run(evenings, args.deals)


if __name__ == "__main__":
    main()
