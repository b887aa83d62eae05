"""Load benchmark: many tables scoring at once against one real `scorekeeper serve`.

Starts the server on a loopback port with a fresh database file, then runs one thread per
table: it creates its game through the new game form, then over and over opens the deal
form, taps Check, taps Save (a correction or an all-pass, in turn) and reloads its sheet,
waiting a few hundred milliseconds between deals. Optional followers poll the game's
version like the page's script does and reload the read-only sheet when it changes.

At the end it prints requests per second, latency percentiles for page loads, Check and
Save, the errors, the server's CPU and memory, and checks every table's game file against
what the server acknowledged: no deal lost, none doubled.

Run: .venv/bin/python bench/bench_load.py [--tables 50] [--duration 60] [--interval 2] [--workers 2]
     [--server gunicorn|serve] [--flow form|script] (script: the page's script, live previews
     and a JSON Save). The server by default is the deploy's: gunicorn with the shipped settings
     (uvicorn's worker, 2 processes of 8 threads), as the Docker image runs it.
Targets: zero errors, zero lost or doubled deals, p99 < 250 ms (2-core machine).
Loopback only: the server listens on 127.0.0.1.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import re
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from scorekeeper.web.options import preset_values

PLAYERS = ["Anna", "Boris", "Vera"]
HIDDEN = re.compile(r'<input[^>]*\bname="(csrf_token|request_key|base_version|checked)"[^>]*>')
VALUE = re.compile(r'\bvalue="([^"]*)"')


# -- measuring ---------------------------------------------------------------------------------


@dataclass
class Stats:
    """Latencies by kind of request, and the errors, from every thread."""

    latencies: dict[str, list[float]] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def record(self, kind: str, seconds: float) -> None:
        with self.lock:
            self.latencies.setdefault(kind, []).append(seconds)

    def error(self, message: str) -> None:
        with self.lock:
            self.errors.append(message)


class Failed(Exception):
    """A request did not get the answer it should have."""


class Phone:
    """One browser: a keep-alive HTTP/1.1 connection and a cookie jar."""

    def __init__(self, port: int, stats: Stats) -> None:
        self.port = port
        self.stats = stats
        self.cookies: dict[str, str] = {}
        self.conn: http.client.HTTPConnection | None = None

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None

    def request(
        self,
        kind: str,
        method: str,
        path: str,
        fields: dict[str, str] | list[tuple[str, str]] | None = None,
        extra: dict[str, str] | None = None,
    ) -> tuple[int, str, str]:
        """Send one request and time it; returns status, Location and body."""
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        headers |= extra or {}
        body = None
        if fields is not None:
            body = urllib.parse.urlencode(fields).encode()
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        start = time.perf_counter()
        try:
            if self.conn is None:
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
            self.conn.request(method, path, body=body, headers=headers)
            response = self.conn.getresponse()
            data = response.read()
        except (OSError, http.client.HTTPException) as error:
            self.close()
            raise Failed(f"{method} {path}: {type(error).__name__}: {error}") from error
        self.stats.record(kind, time.perf_counter() - start)
        if response.will_close:
            self.close()
        for cookie in response.headers.get_all("Set-Cookie") or []:
            name, _, value = cookie.split(";", 1)[0].partition("=")
            self.cookies[name.strip()] = value.strip()
        location = urllib.parse.urlsplit(response.headers.get("Location", "")).path
        return response.status, location, data.decode("utf-8", "replace")


def hidden_fields(html: str) -> dict[str, str]:
    """The hidden fields of the page's form (CSRF token, request key, version, checked)."""
    out: dict[str, str] = {}
    for match in HIDDEN.finditer(html):
        value = VALUE.search(match.group(0))
        out[match.group(1)] = value.group(1) if value else ""
    return out


def expect(status: int, wanted: int, what: str, body: str) -> None:
    if status != wanted:
        text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", body))[:200]
        raise Failed(f"{what}: HTTP {status}, not {wanted}: {text}")


# -- a table --------------------------------------------------------------------------------------


@dataclass
class Table:
    """One table's game and what the server acknowledged for it."""

    number: int
    token: str = ""
    view: str = ""
    acked: list[str] = field(default_factory=list)  # one entry per deal answered 302
    unanswered: int = 0  # Saves sent that got no answer (an error was counted for each)


def new_game(phone: Phone, number: int) -> tuple[str, str]:
    """Create the table's game through the new game form: (edit token, view token)."""
    status, _, html = phone.request("page", "GET", "/new")
    expect(status, 200, "new game form", html)
    body = [("csrf_token", hidden_fields(html)["csrf_token"])]
    for name, value in preset_values("sochi").items():
        if isinstance(value, bool):
            body += [(name, "y")] if value else []
        elif isinstance(value, list | tuple):
            body += [(name, str(v)) for v in value]
        else:
            body.append((name, str(value)))
    body += [("name", f"Table {number}"), ("convention", "sochi"), ("rendered_preset", "sochi")]
    body += [(f"player_{i}", p) for i, p in enumerate(PLAYERS)] + [("first_dealer", "0")]
    status, location, html = phone.request("new", "POST", "/new", body)
    expect(status, 302, "new game", html)
    token = location.rsplit("/", 1)[-1]
    status, _, html = phone.request("page", "GET", f"/g/{token}")
    expect(status, 200, "game page", html)
    view = re.search(r"/v/([A-Za-z0-9_-]+)", html)
    if view is None:
        raise Failed("the game page has no read-only link")
    return token, view.group(1)


def deal_fields(number: int, n: int) -> tuple[dict[str, str], str | None]:
    """The n-th deal of a table: a correction (with a reason unique to it) or an all-pass."""
    if n % 2 == 0:
        reason = f"table {number} deal {n}"
        return {
            "kind": "correction",
            "reason": reason,
            "corr_player_0": str(n % 3),
            "corr_column_0": "hill",
            "corr_amount_0": "1",
        }, reason
    return {"kind": "allpass", "tricks_0": "2", "tricks_1": "4", "tricks_2": "4"}, None


def enter_deal(phone: Phone, table: Table, n: int) -> None:
    url = f"/g/{table.token}/deal/new"
    status, _, html = phone.request("page", "GET", url)
    expect(status, 200, "deal form", html)
    fields, reason = deal_fields(table.number, n)
    fields |= hidden_fields(html)
    status, _, html = phone.request("check", "POST", url, fields | {"action": "check"})
    expect(status, 200, "check", html)
    checked = hidden_fields(html).get("checked")
    if not checked:
        raise Failed("check: the deal did not check")
    try:
        status, location, html = phone.request(
            "save", "POST", url, fields | {"checked": checked, "action": "save"}
        )
    except Failed:
        table.unanswered += 1
        raise
    expect(status, 302, "save", html)
    table.acked.append(reason or "allpass")
    status, _, html = phone.request("page", "GET", location)
    expect(status, 200, "sheet after saving", html)


def enter_deal_by_script(phone: Phone, table: Table, n: int) -> None:
    """A deal as a phone with the page's script enters it: the form, a live preview after
    the taps (JSON), one Save that checks, writes and answers with the sheet (JSON), then
    the sheet's chart."""
    url = f"/g/{table.token}/deal/new"
    status, _, html = phone.request("page", "GET", url)
    expect(status, 200, "deal form", html)
    fields, reason = deal_fields(table.number, n)
    fields |= hidden_fields(html)
    for _ in range(PREVIEWS):
        status, _, body = phone.request(
            "check", "POST", f"/g/{table.token}/deal/check", fields | {"action": "check"}
        )
        expect(status, 200, "preview", body)
        if not json.loads(body)["ok"]:
            raise Failed(f"preview: the deal did not check: {body[:200]}")
    try:
        status, _, body = phone.request(
            "save",
            "POST",
            url,
            fields | {"action": "save"},
            extra={"X-Save": "json"},
        )
    except Failed:
        table.unanswered += 1
        raise
    expect(status, 200, "save", body)
    answer = json.loads(body)
    if not answer.get("saved"):
        raise Failed(f"save: not saved: {body[:200]}")
    table.acked.append(reason or "allpass")
    # The answer names the sheet to show next: the phone loads it.
    status, _, html = phone.request("page", "GET", urllib.parse.urlsplit(answer["next"]).path)
    expect(status, 200, "sheet after saving", html)
    chart = CHART.search(html)
    if chart is not None:  # the sheet came without its chart: it follows on its own
        status, _, body = phone.request("page", "GET", chart.group(1))
        expect(status, 200, "chart", body)


CHART = re.compile(r'data-chart="([^"]+)"')


PREVIEWS = 2
"""Live previews a phone asks for while a deal is tapped in (after the last taps)."""


def pause(seconds: float, deadline: float) -> None:
    """Sleep, but not past the end of the run."""
    time.sleep(max(0.0, min(seconds, deadline - time.monotonic())))


def run_table(
    port: int, table: Table, deadline: float, interval: float, stats: Stats, script: bool
) -> None:
    phone = Phone(port, stats)
    rng = random.Random(table.number)
    try:
        pause(rng.uniform(0, interval), deadline)  # tables do not all start at once
        table.token, table.view = new_game(phone, table.number)
        n = 0
        while time.monotonic() < deadline:
            try:
                (enter_deal_by_script if script else enter_deal)(phone, table, n)
            except Failed as error:
                stats.error(f"table {table.number}: {error}")
            n += 1
            pause(interval * rng.uniform(0.5, 1.5), deadline)
    except Failed as error:
        stats.error(f"table {table.number}: {error}")
    finally:
        phone.close()


def run_follower(port: int, table: Table, deadline: float, poll: float, stats: Stats) -> None:
    """A phone showing the read-only sheet, polling the version like the page's script."""
    phone = Phone(port, stats)
    rng = random.Random(-table.number)
    seen = -1
    try:
        pause(rng.uniform(0, poll), deadline)
        while time.monotonic() < deadline:
            if table.view:
                try:
                    status, _, body = phone.request("poll", "GET", f"/v/{table.view}/version")
                    expect(status, 200, "version", body)
                    version = int(json.loads(body)["version"])
                    if version != seen:
                        status, _, body = phone.request("page", "GET", f"/v/{table.view}")
                        expect(status, 200, "read-only sheet", body)
                        seen = version
                except Failed as error:
                    stats.error(f"follower of table {table.number}: {error}")
            pause(poll, deadline)
    finally:
        phone.close()


def verify(port: int, tables: list[Table]) -> tuple[int, int]:
    """Compare every game file with what its table was answered: (lost, doubled)."""
    lost = doubled = 0
    phone = Phone(port, Stats())
    try:
        for table in tables:
            if not table.token:
                continue
            status, _, body = phone.request("verify", "GET", f"/g/{table.token}/game.json")
            expect(status, 200, "game file", body)
            stored = Counter(d.get("reason", d["type"]) for d in json.loads(body)["deals"])
            acked = Counter(table.acked)
            lost += sum((acked - stored).values())
            # A Save that got no answer may have been written (once) or not.
            doubled += max(0, sum((stored - acked).values()) - table.unanswered)
    finally:
        phone.close()
    return lost, doubled


# -- the server ---------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process and its worker processes so far."""
    total = 0.0
    for task in [pid, *_children(pid)]:
        fields = Path(f"/proc/{task}/stat").read_text().rsplit(")", 1)[1].split()
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def _children(pid: int) -> list[int]:
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return []
    return [int(child) for child in text.split()]


def rss_mb(pid: int) -> float:
    """Resident memory of the server and its worker processes."""
    total = 0.0
    for task in [pid, *_children(pid)]:
        for line in Path(f"/proc/{task}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                total += int(line.split()[1]) / 1024
    return total


def start_server(
    db: Path, port: int, threads: int, log: Path, workers: int, server: str = "gunicorn"
) -> subprocess.Popen[bytes]:
    """The deploy's server (gunicorn with the shipped settings, as the Docker image runs it),
    or `scorekeeper serve` (waitress in one process, or gunicorn with --workers)."""
    env = {**os.environ, "SCOREKEEPER_SECRET_KEY": "bench", "SCOREKEEPER_PASSWORD": ""}
    if server == "gunicorn":
        env |= {
            "SCOREKEEPER_DB": str(db),
            "SCOREKEEPER_BIND": f"127.0.0.1:{port}",
            "SCOREKEEPER_WORKERS": str(workers),
            "SCOREKEEPER_THREADS": str(threads),
        }
        command = [sys.executable, "-m", "gunicorn", "--config"]
        command += ["python:scorekeeper.gunicorn_config"]  # the Dockerfile's CMD
    else:
        command = [sys.executable, "-m", "scorekeeper.cli", "serve", "--host", "127.0.0.1"]
        command += ["--port", str(port), "--db", str(db), "--threads", str(threads)]
        command += ["--workers", str(workers)]
    with log.open("wb") as out:
        server = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=env)
    for _ in range(300):
        if server.poll() is not None:
            raise SystemExit(f"the server did not start:\n{log.read_text()}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return server
        except OSError:
            time.sleep(0.05)
    server.kill()
    server.wait()
    raise SystemExit("the server did not answer")


def _own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(p / 100 * len(ordered) + 0.5) - 1))
    return ordered[index]


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--duration", type=float, default=60.0, help="seconds (default 60)")
    parser.add_argument(
        "--interval", type=float, default=2.0, help="seconds between deals (default 2)"
    )
    parser.add_argument("--followers", type=int, default=0, help="read-only phones per table")
    parser.add_argument("--poll", type=float, default=15.0, help="followers' polling period")
    parser.add_argument("--threads", type=int, default=8, help="server worker threads")
    parser.add_argument(
        "--workers", type=int, default=2, help="server processes (default 2, as deployed)"
    )
    parser.add_argument(
        "--server",
        choices=("gunicorn", "serve"),
        default="gunicorn",
        help="gunicorn: the deploy's command (Dockerfile); serve: `scorekeeper serve`",
    )
    parser.add_argument(
        "--flow",
        choices=("form", "script"),
        default="form",
        help="form: Check and Save as plain form posts (a phone without the script); "
        "script: the page's script, two live previews and one Save, as JSON",
    )
    return parser.parse_args()


@dataclass
class Run:
    """What one run measured."""

    stats: Stats
    tables: list[Table]
    elapsed: float
    cpu: float
    client: float
    memory: float
    lost: int
    doubled: int
    size: float
    processes: int


def run(args: argparse.Namespace) -> Run:
    """Start the server, play every table (and follower) until the time is up, verify."""
    with tempfile.TemporaryDirectory(prefix="bench-load-") as folder:
        db = Path(folder) / "games.sqlite"
        port = free_port()
        server = start_server(
            db, port, args.threads, Path(folder) / "server.log", args.workers, args.server
        )
        stats = Stats()
        tables = [Table(n) for n in range(args.tables)]
        try:
            cpu_before = cpu_seconds(server.pid)
            client_before = _own_cpu()
            start = time.monotonic()
            deadline = start + args.duration
            script = args.flow == "script"
            phones = [
                threading.Thread(
                    target=run_table, args=(port, t, deadline, args.interval, stats, script)
                )
                for t in tables
            ]
            phones += [
                threading.Thread(target=run_follower, args=(port, t, deadline, args.poll, stats))
                for t in tables
                for _ in range(args.followers)
            ]
            for phone in phones:
                phone.start()
            for phone in phones:
                phone.join()
            elapsed = time.monotonic() - start
            cpu = cpu_seconds(server.pid) - cpu_before
            client = _own_cpu() - client_before
            memory = rss_mb(server.pid)
            processes = len(_children(server.pid)) or 1  # gunicorn's workers, or itself alone
            lost, doubled = verify(port, tables)
        finally:
            server.terminate()
            server.wait(timeout=30)
        size = db.stat().st_size / 1024 / 1024
    return Run(stats, tables, elapsed, cpu, client, memory, lost, doubled, size, processes)


def report(args: argparse.Namespace, done: Run) -> None:
    stats, elapsed = done.stats, done.elapsed
    total = sum(len(v) for v in stats.latencies.values())
    deals = sum(len(t.acked) for t in done.tables)
    print(
        f"{args.tables} tables, {args.followers} followers each, a deal every "
        f"~{args.interval:g} s per table, {elapsed:.1f} s, {args.server}, "
        f"processes {done.processes} × threads {args.threads}, "
        f"deals entered by {'the script' if args.flow == 'script' else 'plain form posts'}"
    )
    print(
        f"requests {total} ({total / elapsed:.1f}/s), deals saved {deals} "
        f"({deals / elapsed:.1f}/s), games {sum(1 for t in done.tables if t.token)}"
    )
    print(f"{'':8}{'count':>8}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}{'max ms':>9}")
    for kind in ("page", "check", "save", "poll", "new"):
        values = stats.latencies.get(kind)
        if values:
            ms = [v * 1000 for v in values]
            print(
                f"{kind:8}{len(ms):8}{statistics.median(ms):9.1f}{percentile(ms, 95):9.1f}"
                f"{percentile(ms, 99):9.1f}{max(ms):9.1f}"
            )
    print(f"errors {len(stats.errors)}; lost deals {done.lost}; doubled deals {done.doubled}")
    for message in stats.errors[:10]:
        print(f"  {message}")
    print(
        f"server CPU {done.cpu:.1f} s over {elapsed:.1f} s ({100 * done.cpu / elapsed:.0f}% of "
        f"one core), memory {done.memory:.0f} MB, database {done.size:.1f} MB; this client's "
        f"CPU {done.client:.1f} s"
    )


def main() -> int:
    args = arguments()
    done = run(args)
    report(args, done)
    return 0 if not done.stats.errors and not done.lost and not done.doubled else 1


if __name__ == "__main__":
    sys.exit(main())
