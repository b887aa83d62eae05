"""Confirmations under load: tables saving deals while their followers confirm each one.

Starts one real `scorekeeper serve` (its default processes) on a fresh database file, then
runs one thread per table, entering deals as bench_load does, and for each table followers
that poll the game's version each second like the page's script, reload the read-only sheet
when it changes (a Save, or another phone's answer), and answer each new deal once: "right",
or now and then "not so" with a note, with the session's CSRF token and a one-time key.

Prints latency percentiles of Save, of the answers (confirm), of the polls and pages, the
errors, and checks that every answer sent was kept and no deal was lost or doubled.

Run: .venv/bin/python bench/bench_confirm.py [--tables 30] [--followers 3] [--duration 60]
     [--interval 2] [--flow form|script]
Target: zero errors, p99 of Save and of confirm < 250 ms (2-core machine). Loopback only.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sqlite3
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

import bench_load
from bench_load import Failed, Phone, Stats, Table, expect, pause, percentile

ASKED = re.compile(
    r'data-deal="(\d+)" data-revision="(\d+)"\s+data-answered="([^"]*)"', re.MULTILINE
)
NAMES = ["Anna", "Boris", "Vera"]


class Follower:
    """One phone following a table and answering for one player."""

    def __init__(self, port: int, table: Table, name: str, stats: Stats, seed: int) -> None:
        self.phone = Phone(port, stats)
        self.table, self.name, self.stats = table, name, stats
        self.rng = random.Random(seed)
        self.ticket: dict[str, str] | None = None
        self.sent = 0
        self.answered: set[tuple[int, int]] = set()

    def run(self, deadline: float, poll: float) -> None:
        seen = ""
        try:
            pause(self.rng.uniform(0, poll), deadline)
            while time.monotonic() < deadline:
                if self.table.view:
                    try:
                        seen = self.look(seen)
                    except Failed as error:
                        self.stats.error(f"{self.name} at table {self.table.number}: {error}")
                pause(poll, deadline)
        finally:
            self.phone.close()

    def look(self, seen: str) -> str:
        view = self.table.view
        status, _, body = self.phone.request("poll", "GET", f"/v/{view}/version")
        expect(status, 200, "version", body)
        answer = json.loads(body)
        now = f"{answer['version']}.{answer.get('seen', 0)}"
        if now == seen:
            return seen
        status, _, html = self.phone.request("page", "GET", f"/v/{view}", extra={"X-Follow": "1"})
        expect(status, 200, "read-only sheet", html)
        asked = ASKED.findall(html)
        if asked:
            deal, revision, answered = asked[-1]
            key = (int(deal), int(revision))
            if key not in self.answered and self.name not in answered.replace("&#34;", '"'):
                self.confirm(*key)
        return now

    def confirm(self, deal: int, revision: int) -> None:
        if self.ticket is None:
            status, _, body = self.phone.request("page", "GET", f"/v/{self.table.view}/confirm/key")
            expect(status, 200, "confirm key", body)
            self.ticket = json.loads(body)
        wrong = self.rng.random() < 0.2
        fields = {
            "csrf_token": self.ticket["csrf_token"],
            "request_key": self.ticket["request_key"],
            "deal": str(deal),
            "revision": str(revision),
            "player": self.name,
            "verdict": "wrong" if wrong else "right",
            "note": "the whists are off by two" if wrong else "",
        }
        status, _, body = self.phone.request(
            "confirm", "POST", f"/v/{self.table.view}/confirm", fields
        )
        answer = json.loads(body) if body.startswith("{") else {}
        if answer.get("request_key"):
            self.ticket["request_key"] = answer["request_key"]
        if status == 409 and answer.get("reason") == "changed":
            return  # the scorer changed it meanwhile: asked again with the new page
        expect(status, 200, "confirm", body)
        self.answered.add((deal, revision))
        self.sent += 1


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=30)
    parser.add_argument("--followers", type=int, default=3, help="answering phones per table")
    parser.add_argument("--duration", type=float, default=60.0)
    parser.add_argument("--interval", type=float, default=2.0, help="seconds between deals")
    parser.add_argument("--poll", type=float, default=1.0, help="followers' polling period")
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--workers", type=int)
    parser.add_argument("--flow", choices=("form", "script"), default="script")
    return parser.parse_args()


def main() -> int:
    args = arguments()
    with tempfile.TemporaryDirectory(prefix="bench-confirm-") as folder:
        db = Path(folder) / "games.sqlite"
        port = bench_load.free_port()
        server = bench_load.start_server(
            db, port, args.threads, Path(folder) / "server.log", args.workers
        )
        stats = Stats()
        tables = [Table(n) for n in range(args.tables)]
        followers = [
            Follower(port, t, NAMES[i % len(NAMES)], stats, t.number * 10 + i)
            for t in tables
            for i in range(args.followers)
        ]
        try:
            cpu_before = bench_load.cpu_seconds(server.pid)
            start = time.monotonic()
            deadline = start + args.duration
            script = args.flow == "script"
            threads = [
                threading.Thread(
                    target=bench_load.run_table,
                    args=(port, t, deadline, args.interval, stats, script),
                )
                for t in tables
            ]
            threads += [
                threading.Thread(target=f.run, args=(deadline, args.poll)) for f in followers
            ]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            elapsed = time.monotonic() - start
            cpu = bench_load.cpu_seconds(server.pid) - cpu_before
            lost, doubled = bench_load.verify(port, tables)
        finally:
            server.terminate()
            server.wait(timeout=30)
        with sqlite3.connect(db) as conn:
            kept = conn.execute("SELECT count(*) FROM deal_confirmations").fetchone()[0]
    sent = sum(f.sent for f in followers)
    deals = sum(len(t.acked) for t in tables)
    print(
        f"{args.tables} tables × {args.followers} answering followers (polling every "
        f"{args.poll:g} s), a deal every ~{args.interval:g} s per table, {elapsed:.1f} s, "
        f"deals by {'the script' if script else 'plain form posts'}"
    )
    print(f"deals saved {deals}, answers sent {sent}, answers kept {kept}")
    print(f"{'':8}{'count':>8}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}{'max ms':>9}")
    for kind in ("save", "confirm", "check", "poll", "page"):
        values = stats.latencies.get(kind)
        if values:
            ms = [v * 1000 for v in values]
            print(
                f"{kind:8}{len(ms):8}{statistics.median(ms):9.1f}{percentile(ms, 95):9.1f}"
                f"{percentile(ms, 99):9.1f}{max(ms):9.1f}"
            )
    print(f"errors {len(stats.errors)}; lost deals {lost}; doubled deals {doubled}")
    for message in stats.errors[:10]:
        print(f"  {message}")
    print(f"server CPU {cpu:.1f} s over {elapsed:.1f} s ({100 * cpu / elapsed:.0f}% of one core)")
    good = not stats.errors and not lost and not doubled and kept == sent
    return 0 if good else 1


if __name__ == "__main__":
    sys.exit(main())
