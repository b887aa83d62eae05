"""A table's Saves while company files are imported (issue 32, item 13).

Starts `scorekeeper serve --workers 2` on a fresh database, creates a game, then runs
`--imports` company imports at once (`scorekeeper import FILE` processes, each a company of
`--evenings` finished evenings) while one phone saves a deal every 0.2 s through the form.
Prints how long each Save took while an import ran (median, p99, max), the Saves that failed
(503 and the like), and how long the imports took.

Run: .venv/bin/python bench/bench_import_yield.py [--imports 2] [--evenings 600] [--deals 10]
Target: no Save waits more than 1 s behind an import; none fails. Loopback only.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_company_import import company_data  # noqa: E402
from bench_load import (  # noqa: E402
    Failed,
    Phone,
    Stats,
    Table,
    enter_deal,
    free_port,
    new_game,
    percentile,
    start_server,
)

CLI = str(Path(sys.executable).with_name("scorekeeper"))


def run(args: argparse.Namespace) -> int:
    folder = Path(tempfile.mkdtemp(prefix="bench-import-"))
    db = folder / "games.sqlite"
    port = free_port()
    server = start_server(db, port, 8, folder / "server.log", 2, "serve")
    try:
        files = []
        for n in range(args.imports):
            data = company_data(args.evenings, args.deals)
            data["name"] = f"Import {n}"
            path = folder / f"company-{n}.json"
            path.write_text(json.dumps(data))
            files.append(path)
        stats = Stats()
        phone = Phone(port, stats)
        table = Table(1)
        table.token, table.view = new_game(phone, 1)
        started = time.perf_counter()
        imports = [
            subprocess.Popen(
                [CLI, "import", str(path), "--db", str(db)],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
            )
            for path in files
        ]
        running = threading.Event()
        running.set()
        saver = threading.Thread(target=_save, args=(phone, table, running, stats))
        saver.start()
        outcomes = [
            (p.wait(timeout=600), p.stderr.read().decode() if p.stderr else "") for p in imports
        ]
        took = time.perf_counter() - started
        running.clear()
        saver.join(60)
    finally:
        server.terminate()
        server.wait(timeout=40)
    saves = stats.latencies.get("save", [])
    print(
        f"{args.imports} imports of {args.evenings} evenings × {args.deals} deals at once: "
        f"{took:.1f} s, exit statuses {[status for status, _ in outcomes]}"
    )
    for status, err in outcomes:
        if status != 0:
            print(f"  an import failed: {err.strip()[:300]}")
    if saves:
        print(
            f"  Saves meanwhile: {len(saves)}, median {percentile(saves, 50) * 1000:.0f} ms, "
            f"p99 {percentile(saves, 99) * 1000:.0f} ms, max {max(saves) * 1000:.0f} ms, "
            f"{sum(1 for s in saves if s > 1.0)} over 1 s"
        )
    print(
        f"  failed Saves: {len(stats.errors)}" + (f" ({stats.errors[0]})" if stats.errors else "")
    )
    shutil.rmtree(folder, ignore_errors=True)
    return 0


def _save(phone: Phone, table: Table, running: threading.Event, stats: Stats) -> None:
    n = 0
    while running.is_set():
        try:
            enter_deal(phone, table, n)
        except Failed as error:
            stats.error(str(error))
        n += 1
        time.sleep(0.2)


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--imports", type=int, default=2)
    parser.add_argument("--evenings", type=int, default=600)
    parser.add_argument("--deals", type=int, default=10)
    return parser.parse_args()


if __name__ == "__main__":
    sys.exit(run(arguments()))
