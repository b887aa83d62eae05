"""One host on SQLite against two hosts on one PostgreSQL, side by side in one run.

Setup A is the club's laptop: the deploy's gunicorn (2 processes of 8 threads) on an SQLite
file. Setup B is the hosted deploy (deploy/compose.hosted.yaml without Docker): two such
hosts on one PostgreSQL started here from Debian's package (or SCOREKEEPER_TEST_PG), the
tables shared between the hosts and each table's followers polling the *other* host. Both
run bench_load's tables (a deal every --interval seconds, plain form posts) for --duration.
Printed for each: p50/p99 of Save, page and poll; errors, lost and doubled deals; the hosts'
CPU and memory (and the database server's CPU on PostgreSQL).

Then the database time of one Save (Store.add_deal with a request key) and of one
follower poll (confirmations.version_seen), measured in-process on each engine.

Run: .venv/bin/python bench/bench_hosts.py [--tables 50] [--duration 60] [--interval 2]
     [--followers 1] [--poll 2]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

import bench_load as load  # noqa: E402

from scorekeeper import confirmations  # noqa: E402
from scorekeeper.store import Store  # noqa: E402
from scorekeeper.store.engine import close_pools  # noqa: E402
from tests.pg import Server as PgServer  # noqa: E402


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--duration", type=float, default=60.0)
    parser.add_argument("--interval", type=float, default=2.0)
    parser.add_argument("--followers", type=int, default=1, help="read-only phones per table")
    parser.add_argument("--poll", type=float, default=2.0, help="followers' polling period")
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--workers", type=int, default=2, help="processes per host")
    parser.add_argument("--samples", type=int, default=300, help="database-time samples")
    return parser.parse_args()


def play(args: argparse.Namespace, ports: list[int]) -> tuple[load.Stats, list[load.Table]]:
    """Every table on host n % hosts, its followers on the next host."""
    stats = load.Stats()
    tables = [load.Table(n) for n in range(args.tables)]
    deadline = time.monotonic() + args.duration
    threads = [
        threading.Thread(
            target=load.run_table,
            args=(ports[t.number % len(ports)], t, deadline, args.interval, stats, False),
        )
        for t in tables
    ]
    threads += [
        threading.Thread(
            target=load.run_follower,
            args=(ports[(t.number + 1) % len(ports)], t, deadline, args.poll, stats),
        )
        for t in tables
        for _ in range(args.followers)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return stats, tables


def postgres_cpu(pg: PgServer) -> float:
    """CPU seconds of the PostgreSQL server's processes (postmaster and its backends)."""
    pid_file = Path(pg._data) / "postmaster.pid"
    try:
        pid = int(pid_file.read_text().split()[0])
    except (OSError, AttributeError, ValueError):
        return 0.0
    return load.cpu_seconds(pid)


def setup(args: argparse.Namespace, folder: Path, db: str, hosts: int, pg: Any) -> dict[str, Any]:
    servers, ports = [], []
    for n in range(hosts):
        port = load.free_port()
        servers.append(
            load.start_server(
                db,
                port,
                args.threads,
                folder / f"host-{n}.log",
                args.workers,  # type: ignore[arg-type]
            )
        )
        ports.append(port)
    time.sleep(2)  # gunicorn answers before its second worker is forked
    try:
        cpu_before = sum(load.cpu_seconds(s.pid) for s in servers)
        pg_before = postgres_cpu(pg) if pg else 0.0
        start = time.monotonic()
        stats, tables = play(args, ports)
        elapsed = time.monotonic() - start
        cpu = sum(load.cpu_seconds(s.pid) for s in servers) - cpu_before
        pg_cpu = postgres_cpu(pg) - pg_before if pg else 0.0
        memory = sum(load.rss_mb(s.pid) for s in servers)
        lost, doubled = load.verify(ports[-1], tables)
    finally:
        for server in servers:
            server.terminate()
            server.wait(timeout=30)
    return {
        "stats": stats,
        "elapsed": elapsed,
        "cpu": cpu,
        "pg_cpu": pg_cpu,
        "memory": memory,
        "lost": lost,
        "doubled": doubled,
        "deals": sum(len(t.acked) for t in tables),
    }


def _ms(values: list[float], p: float) -> str:
    if not values:
        return "-"
    return f"{load.percentile([v * 1000 for v in values], p):.1f}"


def side_by_side(results: dict[str, dict[str, Any]]) -> None:
    names = list(results)
    print(f"{'':24}" + "".join(f"{n:>26}" for n in names))
    for kind in ("save", "page", "poll"):
        for p in (50, 99):
            cells = [_ms(r["stats"].latencies.get(kind, []), p) for r in results.values()]
            print(f"{f'{kind} p{p} ms':24}" + "".join(f"{c:>26}" for c in cells))
    rows = [
        ("deals saved", lambda r: str(r["deals"])),
        ("errors", lambda r: str(len(r["stats"].errors))),
        ("lost / doubled", lambda r: f"{r['lost']} / {r['doubled']}"),
        ("hosts' CPU (% of a core)", lambda r: f"{100 * r['cpu'] / r['elapsed']:.0f}%"),
        ("PostgreSQL CPU", lambda r: f"{100 * r['pg_cpu'] / r['elapsed']:.0f}%"),
        ("hosts' memory MB", lambda r: f"{r['memory']:.0f}"),
    ]
    for label, cell in rows:
        print(f"{label:24}" + "".join(f"{cell(r):>26}" for r in results.values()))
    for name, r in results.items():
        for message in r["stats"].errors[:5]:
            print(f"  {name}: {message}")


def database_time(location: str, samples: int) -> tuple[list[float], list[float]]:
    """Seconds per Save (add_deal with a request key) and per follower poll."""
    saves, polls = [], []
    with Store(location) as store:
        game = store.create_game(
            name="bench",
            convention="sochi",
            options={},
            players=["A", "B", "C"],
            first_dealer="A",
        )
        deal = {
            "type": "correction",
            "reason": "x",
            "entries": [{"player": "A", "column": "hill", "amount": "1"}],
        }
        version = game.version
        for n in range(samples):
            start = time.perf_counter()
            record, _, _ = store.add_deal(
                game.edit_token, deal, base_version=version, request_key=f"k{n}"
            )
            saves.append(time.perf_counter() - start)
            version = record.version
        for _ in range(samples * 3):
            start = time.perf_counter()
            confirmations.version_seen(store, game.view_token)
            polls.append(time.perf_counter() - start)
    close_pools()
    return saves, polls


def main() -> int:
    args = arguments()
    pg = PgServer()
    try:
        with tempfile.TemporaryDirectory(prefix="bench-hosts-") as name:
            folder = Path(name)
            results = {
                "1 host, SQLite": setup(args, folder, str(folder / "games.sqlite"), 1, None),
                "2 hosts, PostgreSQL": setup(args, folder, pg.new_database(), 2, pg),
            }
            print(
                f"{args.tables} tables, a deal every ~{args.interval:g} s, {args.followers} "
                f"follower(s) per table polling every {args.poll:g} s, {args.duration:g} s; "
                f"gunicorn {args.workers} × {args.threads} per host"
            )
            side_by_side(results)
            print("\ndatabase time in-process (ms): p50 / p99")
            for label, location in (
                ("SQLite", str(folder / "micro.sqlite")),
                ("PostgreSQL", pg.new_database()),
            ):
                saves, polls = database_time(location, args.samples)
                print(
                    f"  {label:11} Save {_ms(saves, 50)} / {_ms(saves, 99)}"
                    f"   poll {_ms(polls, 50)} / {_ms(polls, 99)}"
                    f"   (median Save {statistics.median(saves) * 1000:.2f})"
                )
    finally:
        close_pools()
        pg.close()
    bad = any(r["stats"].errors or r["lost"] or r["doubled"] for r in results.values())
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
