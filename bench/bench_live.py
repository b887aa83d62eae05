"""Live-view benchmark: phones following one game while its scorer writes deals.

Starts `scorekeeper serve` (waitress) on a loopback port with a fresh database, creates one
game (optionally with a long log already in it), then runs one scorer and N followers:

- the scorer opens the deal form, taps Check and Save for an all-pass, again and again, a
  fixed pause between deals; the latency of each Save (the write) is recorded;
- each follower does what the page's script does: asks the game's version every PERIOD
  seconds with If-None-Match (a 304 while nothing changed) and, when it changed, fetches the
  read-only sheet (the page it swaps in).

Prints the Save latency (p50/p95/p99/max) with and without followers, the followers' poll
latency, how many polls were 304s, and how long a follower took to see each deal.

Run: .venv/bin/python bench/bench_live.py [--followers 20] [--period 1.5] [--deals 120]
     [--pause 0.25] [--log 0]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from pathlib import Path

HIDDEN = re.compile(r'<input[^>]*\bname="(csrf_token|request_key|base_version|checked)"[^>]*>')
VALUE = re.compile(r'\bvalue="([^"]*)"')


def pct(values: list[float], p: float) -> float:
    """The p-th percentile (nearest rank) of values, in milliseconds."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return 1000 * ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered)) - 1))]


def summary(values: list[float]) -> str:
    return (
        f"n={len(values):4d}  p50 {pct(values, 50):6.1f}  p95 {pct(values, 95):6.1f}  "
        f"p99 {pct(values, 99):6.1f}  max {pct(values, 100):6.1f} ms"
    )


class Client:
    """One phone: a keep-alive connection with a cookie jar of one session cookie."""

    def __init__(self, port: int) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.cookies: dict[str, str] = {}

    def request(
        self, method: str, path: str, body: dict[str, str] | None = None, **headers: str
    ) -> tuple[int, http.client.HTTPMessage, str]:
        hdrs = dict(headers)
        if self.cookies:
            hdrs["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        data = None
        if body is not None:
            data = urllib.parse.urlencode(body)
            hdrs["Content-Type"] = "application/x-www-form-urlencoded"
        self.conn.request(method, path, body=data, headers=hdrs)
        response = self.conn.getresponse()
        text = response.read().decode()
        for value in response.headers.get_all("Set-Cookie") or []:
            name, _, rest = value.partition("=")
            self.cookies[name] = rest.split(";", 1)[0]
        return response.status, response.headers, text

    def close(self) -> None:
        self.conn.close()


def hidden_fields(html: str) -> dict[str, str]:
    fields = {}
    for match in HIDDEN.finditer(html):
        value = VALUE.search(match.group(0))
        fields[match.group(1)] = value.group(1) if value else ""
    return fields


def start_server(db: Path, threads: int) -> tuple[subprocess.Popen[bytes], int]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    serve = Path(sys.executable).with_name("scorekeeper")
    env = {**os.environ, "SCOREKEEPER_SECRET_KEY": "bench"}
    process = subprocess.Popen(
        [str(serve), "serve", "--host", "127.0.0.1", "--port", str(port), "--db", str(db)]
        + ["--threads", str(threads)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env,
    )
    for _ in range(200):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return process, port
        except OSError:
            time.sleep(0.05)
    process.kill()
    raise SystemExit("the server did not start")


def make_game(db: Path, deals: int) -> tuple[str, str, list[str]]:
    """A Sochi game for Anna, Boris and Vera (with a random log of `deals` deals)."""
    from scorekeeper import gamefile, sample
    from scorekeeper.games import create_from_game
    from scorekeeper.store import Store

    data = sample.random_game(
        random.Random(1), deals, convention="sochi", players=3, options={"pool_target": 5000}
    )
    data["deals"] = data["deals"][:deals]
    with Store(db) as store:
        record = create_from_game(store, gamefile.load(data))
    return record.edit_token, record.view_token, list(record.players)


def scorer(port: int, token: str, players: list[str], count: int, pause: float) -> list[float]:
    """Enter `count` all-passes through the deal form; returns each Save's latency."""
    phone = Client(port)
    saves = []
    try:
        for _ in range(count):
            status, _h, html = phone.request("GET", f"/g/{token}/deal/new")
            assert status == 200, status
            fields = hidden_fields(html)
            active = [s for s in range(len(players)) if f'id="tricks_{s}"' in html]
            tricks = zip(active, "235", strict=True)
            deal = {"kind": "allpass", **{f"tricks_{s}": t for s, t in tricks}}
            body = {**fields, **deal, "action": "check"}
            status, _h, html = phone.request("POST", f"/g/{token}/deal/new", body)
            assert status == 200, (status, html[-500:])
            body = {**hidden_fields(html), **deal, "action": "save"}
            start = time.perf_counter()
            status, _h, _html = phone.request("POST", f"/g/{token}/deal/new", body)
            saves.append(time.perf_counter() - start)
            assert status == 302, status
            time.sleep(pause)
    finally:
        phone.close()
    return saves


class Follower(threading.Thread):
    """A phone on the read-only link, doing what static/app.js does."""

    def __init__(self, port: int, view: str, period: float, stop: threading.Event) -> None:
        super().__init__(daemon=True)
        self.port, self.view, self.period, self.stop = port, view, period, stop
        self.polls: list[float] = []
        self.pages: list[float] = []
        self.not_modified = 0
        self.seen: dict[int, float] = {}
        self.errors = 0

    def run(self) -> None:
        phone = Client(self.port)
        etag, version = "", None
        time.sleep(random.random() * self.period)  # phones do not start in step
        while not self.stop.is_set():
            began = time.perf_counter()
            try:
                headers = {"If-None-Match": etag} if etag else {}
                status, hdrs, text = phone.request("GET", f"/v/{self.view}/version", **headers)
                self.polls.append(time.perf_counter() - began)
                if status == 304:
                    self.not_modified += 1
                elif status == 200:
                    etag = hdrs.get("ETag", "")
                    now = json.loads(text)["version"]
                    if version is not None and now != version:
                        start = time.perf_counter()
                        phone.request("GET", f"/v/{self.view}", **{"X-Follow": "1"})
                        self.pages.append(time.perf_counter() - start)
                        self.seen[now] = time.monotonic()
                    version = now
                else:
                    self.errors += 1
            except (OSError, http.client.HTTPException):
                self.errors += 1
                phone.close()
                phone = Client(self.port)
            self.stop.wait(max(0.0, self.period - (time.perf_counter() - began)))
        phone.close()


def run(args: argparse.Namespace, followers: int) -> dict[str, object]:
    with tempfile.TemporaryDirectory() as where:
        db = Path(where) / "bench.sqlite"
        token, view, players = make_game(db, args.log)
        process, port = start_server(db, args.threads)
        stop = threading.Event()
        phones = [Follower(port, view, args.period, stop) for _ in range(followers)]
        try:
            for phone in phones:
                phone.start()
            time.sleep(args.period * 2 if followers else 0)
            began = time.monotonic()
            saves = scorer(port, token, players, args.deals, args.pause)
            elapsed = time.monotonic() - began
            time.sleep(args.period * 2 if followers else 0)
        finally:
            stop.set()
            for phone in phones:
                phone.join(10)
            process.terminate()
            process.wait(10)
    polls = [p for f in phones for p in f.polls]
    return {
        "saves": saves,
        "polls": polls,
        "pages": [p for f in phones for p in f.pages],
        "not_modified": sum(f.not_modified for f in phones),
        "errors": sum(f.errors for f in phones),
        "rate": len(polls) / elapsed if elapsed else 0.0,
        "seen": sum(len(f.seen) for f in phones),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--followers", type=int, default=20)
    parser.add_argument("--period", type=float, default=1.5, help="seconds between polls")
    parser.add_argument("--deals", type=int, default=120)
    parser.add_argument("--pause", type=float, default=0.25, help="seconds between deals")
    parser.add_argument("--log", type=int, default=0, help="deals already in the game")
    parser.add_argument("--threads", type=int, default=8, help="waitress threads")
    args = parser.parse_args()
    print(
        f"{args.deals} deals, {args.pause}s apart, game log {args.log} deals, "
        f"followers poll every {args.period}s"
    )
    alone = run(args, 0)
    print(f"scorer alone        Save {summary(alone['saves'])}")  # type: ignore[arg-type]
    crowd = run(args, args.followers)
    print(f"+{args.followers} followers   Save {summary(crowd['saves'])}")  # type: ignore[arg-type]
    print(f"  followers' polls       {summary(crowd['polls'])}")  # type: ignore[arg-type]
    print(f"  sheet fetched on change {summary(crowd['pages'])}")  # type: ignore[arg-type]
    polls = len(crowd["polls"])  # type: ignore[arg-type]
    print(
        f"  {polls} polls ({crowd['rate']:.1f}/s), {crowd['not_modified']} answered 304, "
        f"{crowd['errors']} errors, {crowd['seen']} changes seen"
    )


if __name__ == "__main__":
    main()
