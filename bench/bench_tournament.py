"""Tournament benchmark: a club tournament's tour at its busiest, against one real
`scorekeeper serve`.

Starts the server on a loopback port with a fresh database file; the director creates a
tournament of 3 × tables players through the form and seats tour 1; then every table's
scorer enters a deal about every 2 s through the plain form (deal form, Check, Save, the
sheet), the board polls the tournament's state each second and loads itself when it moved,
the director's page does the same, and the followers (three phones per table by default)
poll their table's version each second and reload its read-only sheet when it changed.

At the end it prints latency percentiles by kind of request, the errors, and checks every
table's game file against what the server acknowledged: no deal lost, none doubled.

Run: .venv/bin/python bench/bench_tournament.py [--tables 20] [--duration 60] [--interval 2]
     [--followers 60] [--workers N]
Targets: p99 < 250 ms, zero errors, zero lost (2-core machine). Loopback only.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_load import (  # noqa: E402
    Failed,
    Phone,
    Stats,
    Table,
    cpu_seconds,
    enter_deal,
    expect,
    free_port,
    hidden_fields,
    pause,
    percentile,
    rss_mb,
    start_server,
    verify,
)

from scorekeeper.web.options import preset_values  # noqa: E402

LINK = re.compile(r'<a href="[^"]*/g/([A-Za-z0-9_-]+)" class="scorer-link[^"]*" data-table="(\d+)"')
VIEW = re.compile(r"/tv/([A-Za-z0-9_-]+)")
SHEET = re.compile(r'href="/v/([A-Za-z0-9_-]+)"')


def create_tournament(phone: Phone, players: int, rounds: int) -> tuple[str, str]:
    """The director's form: (edit token, view token)."""
    status, _, html = phone.request("page", "GET", "/tournament/new")
    expect(status, 200, "new tournament form", html)
    body = [("csrf_token", hidden_fields(html)["csrf_token"])]
    for name, value in preset_values("sochi").items():
        if name == "opt_round_limit":
            continue
        if isinstance(value, bool):
            body += [(name, "y")] if value else []
        elif isinstance(value, list | tuple):
            body += [(name, str(v)) for v in value]
        else:
            body.append((name, str(value)))
    roster = "\n".join(f"Player {n + 1:02d}" for n in range(players))
    body += [("name", "Bench cup"), ("convention", "sochi"), ("rendered_preset", "sochi")]
    body += [("roster", roster), ("rounds", str(rounds)), ("table_size", "3")]
    body += [("bands_preset", "cup")]
    status, location, html = phone.request("new", "POST", "/tournament/new", body)
    expect(status, 302, "new tournament", html)
    token = location.rsplit("/", 1)[-1]
    status, _, html = phone.request("page", "GET", f"/t/{token}")
    expect(status, 200, "director's page", html)
    view = VIEW.search(html)
    if view is None:
        raise Failed("the director's page has no read-only link")
    status, _, _ = phone.request("new", "POST", f"/t/{token}/seat", {**hidden_fields(html)})
    expect(status, 302, "seat tour 1", "")
    return token, view.group(1)


def scorer_links(phone: Phone, token: str) -> list[str]:
    """The tables' scorer tokens as the director's page shows them, in table order."""
    status, _, html = phone.request("page", "GET", f"/t/{token}")
    expect(status, 200, "director's page", html)
    found = sorted((int(n), t) for t, n in LINK.findall(html))
    return [t for _, t in found]


def follow(
    port: int, kind: str, watch: str, page: str, deadline: float, period: float, stats: Stats
) -> None:
    """A screen that asks for a state every `period` seconds and loads `page` when it moved."""
    phone = Phone(port, stats)
    seen = None
    try:
        while time.monotonic() < deadline:
            try:
                status, _, body = phone.request(kind + "-poll", "GET", watch)
                expect(status, 200, f"{kind} state", body)
                state = json.loads(body)["version"]
                if state != seen:
                    status, _, body = phone.request(kind, "GET", page)
                    expect(status, 200, kind, body)
                    seen = state
            except Failed as error:
                stats.error(f"{kind}: {error}")
            pause(period, deadline)
    finally:
        phone.close()


def play(port: int, table: Table, deadline: float, interval: float, stats: Stats) -> None:
    phone = Phone(port, stats)
    n = 0
    try:
        pause(interval * (table.number % 10) / 10, deadline)  # tables do not all start at once
        while time.monotonic() < deadline:
            started = time.monotonic()
            try:
                enter_deal(phone, table, n)
            except Failed as error:
                stats.error(f"table {table.number}: {error}")
            n += 1
            pause(max(0.0, interval - (time.monotonic() - started)), deadline)
    finally:
        phone.close()


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--duration", type=float, default=60.0)
    parser.add_argument("--interval", type=float, default=2.0, help="seconds between deals")
    parser.add_argument("--followers", type=int, default=60, help="phones following tables")
    parser.add_argument("--threads", type=int, default=8, help="server threads")
    parser.add_argument("--workers", type=int, help="server processes (default: serve's own)")
    return parser.parse_args()


def main() -> int:
    args = arguments()
    with tempfile.TemporaryDirectory(prefix="bench-tournament-") as folder:
        db = Path(folder) / "games.sqlite"
        port = free_port()
        server = start_server(db, port, args.threads, Path(folder) / "server.log", args.workers)
        stats = Stats()
        try:
            director = Phone(port, stats)
            token, view = create_tournament(director, 3 * args.tables, rounds=30)
            links = scorer_links(director, token)
            director.close()
            if len(links) != args.tables:
                raise SystemExit(f"{len(links)} scorer links, not {args.tables}")
            tables = [Table(n + 1, token=t) for n, t in enumerate(links)]
            views = []
            reader = Phone(port, Stats())
            for table in tables:
                status, _, html = reader.request("page", "GET", f"/g/{table.token}")
                found = SHEET.search(html) or re.search(r"/v/([A-Za-z0-9_-]+)", html)
                if status != 200 or found is None:
                    raise SystemExit(f"table {table.number}: no read-only link")
                table.view = found.group(1)
                views.append(table.view)
            reader.close()
            stats = Stats()  # only the tour's traffic is measured
            cpu_before = cpu_seconds(server.pid)
            start = time.monotonic()
            deadline = start + args.duration
            threads = [
                threading.Thread(target=play, args=(port, t, deadline, args.interval, stats))
                for t in tables
            ]
            threads.append(
                threading.Thread(
                    target=follow,
                    args=(port, "board", f"/tv/{view}/version", f"/tv/{view}/board", deadline,
                          1.0, stats),
                )
            )  # fmt: skip
            threads.append(
                threading.Thread(
                    target=follow,
                    args=(port, "director", f"/tv/{view}/version", f"/t/{token}", deadline,
                          1.0, stats),
                )
            )  # fmt: skip
            for n in range(args.followers):
                table = tables[n % len(tables)]
                threads.append(
                    threading.Thread(
                        target=follow,
                        args=(port, "follower", f"/v/{table.view}/version",
                              f"/v/{table.view}", deadline, 1.0, stats),
                    )
                )  # fmt: skip
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            elapsed = time.monotonic() - start
            cpu = cpu_seconds(server.pid) - cpu_before
            memory = rss_mb(server.pid)
            lost, doubled = verify(port, tables)
        finally:
            server.terminate()
            server.wait(timeout=30)
    deals = sum(len(t.acked) for t in tables)
    every = [v * 1000 for values in stats.latencies.values() for v in values]
    print(
        f"{args.tables} tables, a deal every ~{args.interval:g} s each, the board, the "
        f"director's page and {args.followers} following phones, {elapsed:.1f} s"
    )
    print(f"requests {len(every)} ({len(every) / elapsed:.1f}/s), deals saved {deals}")
    print(f"{'':15}{'count':>7}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}{'max ms':>9}")
    kinds = ["page", "check", "save", "board-poll", "board", "director-poll", "director"]
    kinds += ["follower-poll", "follower"]
    for kind in kinds:
        values = stats.latencies.get(kind)
        if values:
            ms = [v * 1000 for v in values]
            print(
                f"{kind:15}{len(ms):7}{statistics.median(ms):9.1f}{percentile(ms, 95):9.1f}"
                f"{percentile(ms, 99):9.1f}{max(ms):9.1f}"
            )
    print(f"all requests   p99 {percentile(every, 99):.1f} ms")
    print(f"errors {len(stats.errors)}; lost deals {lost}; doubled deals {doubled}")
    for message in stats.errors[:10]:
        print(f"  {message}")
    print(f"server CPU {cpu:.1f} s over {elapsed:.1f} s, memory {memory:.0f} MB")
    return 0 if not stats.errors and not lost and not doubled else 1


if __name__ == "__main__":
    sys.exit(main())
