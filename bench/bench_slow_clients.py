"""Slow clients against the deploy (issue 32, item 8): do polls and Saves still get answered?

N attackers open connections and send their request a byte every few seconds: the header
(`--attack header`) or, after a complete header with a Content-Length, the body (`--attack
body`). Meanwhile one table saves deals through the form (deal form, Check, Save) and four
followers poll the game's version. Printed: the latency of polls and Saves (median, p99,
max) and the requests that failed or took longer than a second.

Where the attack lands (`--front`):
- `none`: the server exposed directly (`--server gunicorn`, the deploy's command; or
  `serve --workers N`, gunicorn too, and `--server serve --workers 1`: waitress);
- `caddy`: Caddy with the shipped deploy/Caddyfile in front (plain HTTP on loopback), the
  deploy of deploy/compose.yaml.

Run: .venv/bin/python bench/bench_slow_clients.py [--attackers 200] [--attack header|body]
     [--front none|caddy] [--server gunicorn|serve] [--duration 20]
Target: with Caddy in front, 200 attackers of either kind: every poll and Save under 1 s.
Loopback only; every loop is bounded by --duration.
"""

from __future__ import annotations

import argparse
import os
import shutil
import socket
import subprocess
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
    enter_deal,
    free_port,
    new_game,
    percentile,
    start_server,
)

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from tests.served import caddy_buffering  # noqa: E402  (how this machine's Caddy names it)


def start_caddy(folder: Path, upstream: int) -> tuple[subprocess.Popen[bytes], int]:
    """Caddy with deploy/Caddyfile on a loopback port (plain HTTP), in front of `upstream`."""
    port = free_port()
    home = folder / "caddy"
    home.mkdir()
    env = {
        **os.environ,
        "HOME": str(home),
        "XDG_DATA_HOME": str(home),
        "XDG_CONFIG_HOME": str(home),
        "SCOREKEEPER_SITE": f"http://127.0.0.1:{port}",
        "SCOREKEEPER_UPSTREAM": f"127.0.0.1:{upstream}",
        "CADDY_GLOBAL": "admin off\nskip_install_trust",
        "CADDY_BUFFERING": caddy_buffering(),
    }
    command = ["caddy", "run", "--config", str(ROOT / "deploy" / "Caddyfile")]
    with (folder / "caddy.log").open("wb") as out:
        caddy = subprocess.Popen(
            [*command, "--adapter", "caddyfile"], stdout=out, stderr=subprocess.STDOUT, env=env
        )
    for _ in range(200):
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return caddy, port
        except OSError:
            time.sleep(0.05)
    caddy.kill()
    raise SystemExit(f"caddy did not start:\n{(folder / 'caddy.log').read_text()}")


class Attackers:
    """N slow clients, each sending its request one byte every `every` seconds."""

    def __init__(self, port: int, count: int, kind: str, every: float, token: str) -> None:
        self.port, self.count, self.kind, self.every = port, count, kind, every
        head = f"POST /g/{token}/deal/new HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        if kind == "body":
            head += "Content-Type: application/x-www-form-urlencoded\r\n"
            self.prefix = (head + "Content-Length: 100000\r\n\r\n").encode()
        else:
            self.prefix = head.encode()
        self.socks: list[socket.socket] = []
        self.stop = threading.Event()
        self.closed = 0

    def start(self) -> None:
        for _ in range(self.count):
            sock = socket.create_connection(("127.0.0.1", self.port), timeout=5)
            # The header's first line at once, then one byte at a time (header or body).
            sock.sendall(self.prefix if self.kind == "body" else self.prefix[:20])
            self.socks.append(sock)
        threading.Thread(target=self._trickle, daemon=True).start()

    def _trickle(self) -> None:
        while not self.stop.wait(self.every):
            for sock in list(self.socks):
                try:
                    sock.send(b"X-Slow: 1\r\n"[:1] if self.kind == "header" else b"a")
                except OSError:
                    self.socks.remove(sock)
                    self.closed += 1

    def close(self) -> None:
        self.stop.set()
        for sock in self.socks:
            sock.close()


def run(args: argparse.Namespace) -> int:
    folder = Path(tempfile.mkdtemp(prefix="bench-slow-"))
    app_port = free_port()
    server = start_server(
        folder / "games.sqlite", app_port, 8, folder / "server.log", args.workers, args.server
    )
    caddy = None
    port = app_port
    try:
        if args.front == "caddy":
            caddy, port = start_caddy(folder, app_port)
        stats = Stats()
        phone = Phone(port, stats)
        table = Table(1)
        table.token, table.view = new_game(phone, 1)
        attackers = Attackers(port, args.attackers, args.attack, args.every, table.token)
        attackers.start()
        time.sleep(args.every + 1)  # every attacker has sent a byte or two
        deadline = time.monotonic() + args.duration
        threads = [
            threading.Thread(target=_follow, args=(port, table.view, deadline, stats))
            for _ in range(4)
        ]
        threads.append(threading.Thread(target=_save, args=(phone, table, deadline, stats)))
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(args.duration + 120)
        alive = len(attackers.socks)
        attackers.close()
    finally:
        for process in (caddy, server):
            if process is not None:
                process.terminate()
                try:
                    process.wait(timeout=40)
                except subprocess.TimeoutExpired:
                    process.kill()
    report(args, stats, alive)
    shutil.rmtree(folder, ignore_errors=True)
    return 0


def _follow(port: int, view: str, deadline: float, stats: Stats) -> None:
    phone = Phone(port, stats)
    while time.monotonic() < deadline:
        try:
            status, _, _ = phone.request("poll", "GET", f"/v/{view}/version")
            if status != 200:
                stats.error(f"poll: HTTP {status}")
        except Failed as error:
            stats.error(f"poll: {error}")
        time.sleep(0.5)
    phone.close()


def _save(phone: Phone, table: Table, deadline: float, stats: Stats) -> None:
    n = 0
    while time.monotonic() < deadline:
        try:
            enter_deal(phone, table, n)
        except Failed as error:
            stats.error(f"save: {error}")
        n += 1
        time.sleep(0.5)


def report(args: argparse.Namespace, stats: Stats, alive: int) -> None:
    print(
        f"{args.attackers} slow-{args.attack} clients ({alive} still connected at the end), "
        f"front {args.front}, server {args.server} ({args.workers} processes), "
        f"{args.duration:.0f} s"
    )
    for kind in ("poll", "save"):
        values = stats.latencies.get(kind, [])
        if not values:
            print(f"  {kind}: none answered")
            continue
        slow = sum(1 for v in values if v >= 1.0)
        print(
            f"  {kind}: {len(values)} answered, median {percentile(values, 50) * 1000:.0f} ms, "
            f"p99 {percentile(values, 99) * 1000:.0f} ms, max {max(values) * 1000:.0f} ms, "
            f"{slow} took 1 s or more"
        )
    print(
        f"  failed: {len(stats.errors)}" + (f" (first: {stats.errors[0]})" if stats.errors else "")
    )


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--attackers", type=int, default=200)
    parser.add_argument("--attack", choices=("header", "body"), default="header")
    parser.add_argument("--front", choices=("none", "caddy"), default="caddy")
    parser.add_argument("--server", choices=("gunicorn", "serve"), default="gunicorn")
    parser.add_argument("--workers", type=int, default=2, help="1 with --server serve: waitress")
    parser.add_argument("--every", type=float, default=5.0, help="seconds between two bytes")
    parser.add_argument("--duration", type=float, default=20.0)
    return parser.parse_args()


if __name__ == "__main__":
    sys.exit(run(arguments()))
