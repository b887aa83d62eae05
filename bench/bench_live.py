"""Live-view benchmark: phones following one game while its scorer writes deals.

Starts `scorekeeper serve` on a loopback port with a fresh database, creates one
game (optionally with a long log already in it), then runs one scorer and N followers:

- the scorer opens the deal form, taps Check and Save for an all-pass, again and again, a
  fixed pause between deals; the latency of each Save (the write) is recorded;
- each follower asks the game's version every PERIOD seconds with If-None-Match (a 304 while
  nothing changed) and, when it changed, fetches the read-only sheet (the page it swaps in):
  what the page's script did on `serve` before it held one request (see --laptop).

Prints the Save latency (p50/p95/p99/max) with and without followers, the followers' poll
latency, how many polls were 304s, and how long a follower took to see each deal.

Run: .venv/bin/python bench/bench_live.py [--followers 20] [--period 1.5] [--deals 120]
     [--pause 0.25] [--log 0]

With --laptop, a laptop's evening instead (issue 52, item 1): --tables 20 tables, 3 phones
following each as the page's script does (ScriptPhone: the held request where the page
offers it, else the version polled as the script did before), idle for --warm then --idle
seconds, then 5 deals a table --gap seconds apart. Prints an idle follower's wake-ups and
bytes (both ways, headers included) per hour, how long a change took to show on every
follower (p50, p99), Save p99 and the server's CPU. --before DIR serves a copy of the code
before the change first (`git archive <commit> scorekeeper templates static | tar -x -C DIR`)
and prints both:

     .venv/bin/python bench/bench_live.py --laptop --before /tmp/before
"""

from __future__ import annotations

import argparse
import gzip
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
from multiprocessing.pool import ThreadPool
from pathlib import Path
from typing import Any

import brotli

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


def start_server(
    db: Path, threads: int, env: dict[str, str] | None = None
) -> tuple[subprocess.Popen[bytes], int]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    serve = Path(sys.executable).with_name("scorekeeper")
    env = {**(env or os.environ), "SCOREKEEPER_SECRET_KEY": "bench"}
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


def one_deal(phone: Client, token: str, players: list[str]) -> tuple[float, int]:
    """An all-pass through the deal form (Check, then Save): (the Save's latency, the
    game's version it wrote)."""
    status, _h, html = phone.request("GET", f"/g/{token}/deal/new")
    assert status == 200, status
    fields = hidden_fields(html)
    active = [s for s in range(len(players)) if f'id="tricks_{s}"' in html]
    deal = {"kind": "allpass", **{f"tricks_{s}": t for s, t in zip(active, "235", strict=True)}}
    body = {**fields, **deal, "action": "check"}
    status, _h, html = phone.request("POST", f"/g/{token}/deal/new", body)
    assert status == 200, (status, html[-500:])
    body = {**hidden_fields(html), **deal, "action": "save"}
    start = time.perf_counter()
    status, _h, _html = phone.request("POST", f"/g/{token}/deal/new", body)
    assert status == 302, status
    return time.perf_counter() - start, int(body["base_version"]) + 1


def scorer(
    port: int,
    token: str,
    players: list[str],
    count: int,
    pause: float,
    saved: dict[int, float] | None = None,
) -> list[float]:
    """Enter `count` all-passes through the deal form, `pause` seconds apart; returns each
    Save's latency (and notes in `saved` when each version's Save was answered)."""
    phone = Client(port)
    saves = []
    try:
        for _ in range(count):
            latency, version = one_deal(phone, token, players)
            saves.append(latency)
            if saved is not None:
                saved[version] = time.monotonic()
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


# -- a laptop's evening: tables followed the way the page's script follows them --------------

PHONE_HEADERS = (
    "User-Agent: Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like "
    "Gecko) Chrome/126.0 Mobile Safari/537.36\r\nAccept: */*\r\nAccept-Language: ru,en;q=0.8"
    "\r\nAccept-Encoding: gzip, deflate, br\r\n"
)
"""What a phone's browser sends with each request besides the path (the same both ways)."""
FOLLOW = re.compile(r'<div hidden id="follow"[^>]*>')
ATTRIBUTE = re.compile(r'([\w-]+)="([^"]*)"')
ANSWERS_PART = re.compile(r'<div id="answers-part" data-version="\d+" data-seen="([\d.]+)">')
FOLLOW_PERIOD, FOLLOW_QUIET, FOLLOW_IDLE_MAX = 1.0, 30.0, 4.0
"""static/app.js's constants for a page that asks for the version (before: every page)."""


class Wire:
    """A phone's keep-alive connection that counts every byte both ways, headers included."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.sock: socket.socket | None = None
        self.buffer = b""
        self.sent = self.received = 0

    def get(self, path: str, **headers: str) -> tuple[int, dict[str, str], bytes]:
        extra = "".join(f"{k}: {v}\r\n" for k, v in headers.items())
        data = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n{PHONE_HEADERS}{extra}\r\n"
        for attempt in range(2):  # a kept connection the server closed meanwhile: once more
            if self.sock is None:
                self.sock = socket.create_connection(("127.0.0.1", self.port), timeout=60)
                self.buffer = b""
            try:
                self.sock.sendall(data.encode())
                self.sent += len(data)
                return self._answer()
            except (OSError, ConnectionError):
                self.close()
                if attempt:
                    raise
        raise AssertionError("unreachable")

    def _read(self) -> bytes:
        assert self.sock is not None
        chunk = self.sock.recv(65536)
        if not chunk:
            raise ConnectionError("closed")
        self.received += len(chunk)
        return chunk

    def _answer(self) -> tuple[int, dict[str, str], bytes]:
        while b"\r\n\r\n" not in self.buffer:
            self.buffer += self._read()
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        lines = head.decode("latin-1").split("\r\n")
        headers = {
            k.strip().lower(): v.strip() for k, _, v in (h.partition(":") for h in lines[1:])
        }
        length = int(headers.get("content-length", "0"))
        while len(self.buffer) < length:
            self.buffer += self._read()
        body, self.buffer = self.buffer[:length], self.buffer[length:]
        if headers.get("connection", "").lower() == "close":
            self.close()
        encoding = headers.get("content-encoding", "")
        if encoding == "br":
            body = brotli.decompress(body)
        elif encoding == "gzip":
            body = gzip.decompress(body)
        return int(lines[0].split()[1]), headers, body

    def close(self) -> None:
        if self.sock is not None:
            self.sock.close()
        self.sock = None


class ScriptPhone(threading.Thread):
    """A phone on a table's read-only link doing what static/app.js does: where the page
    offers it (data-wait) one held request after another, else the version polled (every
    second, every 4 s at most after half a minute without a change); on a change, the page
    fetched again (X-Follow), or taken from the held request's answer when it rode along
    (page=, answers=). Each request is noted: (when, bytes sent, bytes received)."""

    def __init__(self, port: int, view: str, stop: threading.Event) -> None:
        super().__init__(daemon=True)
        self.port, self.view, self.stop = port, view, stop
        self.wire = Wire(port)
        self.requests: list[tuple[float, int, int]] = []
        self.seen: dict[int, float] = {}  # version → when this phone showed it
        self.errors = 0
        self.shown: dict[str, str] = {}

    def _get(self, path: str, **headers: str) -> tuple[int, dict[str, str], bytes]:
        sent, received = self.wire.sent, self.wire.received
        answer = self.wire.get(path, **headers)
        self.requests.append(
            (time.monotonic(), self.wire.sent - sent, self.wire.received - received)
        )
        return answer

    def _page(self, **headers: str) -> None:
        status, _, body = self._get(f"/v/{self.view}", **headers)
        assert status == 200, status
        tag = FOLLOW.search(body.decode())
        assert tag is not None, "the page follows nothing"
        self.shown = dict(ATTRIBUTE.findall(tag.group(0)))
        self.seen[int(self.shown["data-version"])] = time.monotonic()

    def _showing(self) -> str:
        return self.shown.get("data-seen") or self.shown["data-version"]

    def run(self) -> None:
        try:
            self._page()
            time.sleep(random.random())  # the phones did not open the page together
            if "data-wait" in self.shown:
                self._wait()
            else:
                self._poll()
        except (OSError, ConnectionError, AssertionError, ValueError):
            self.errors += 1
        finally:
            self.wire.close()

    def _rides(self) -> str:
        """app.js's rides: what the page would fetch after a change, asked to ride along."""
        more = "&page=" + urllib.parse.quote(f"/v/{self.view}", safe="")
        if "data-answers" in self.shown:
            more += "&answers=" + urllib.parse.quote(self.shown["data-answers"], safe="")
        return more

    def _ridden(self, body: bytes) -> None:
        """What rode with the wait's answer, shown: the page, or only its answers part."""
        text = body.decode()
        tag = FOLLOW.search(text)
        if tag is not None:
            self.shown = dict(ATTRIBUTE.findall(tag.group(0)))
            self.seen[int(self.shown["data-version"])] = time.monotonic()
            return
        part = ANSWERS_PART.search(text)
        assert part is not None, "the wait's answer carried neither the page nor its answers"
        self.shown["data-seen"] = part.group(1)

    def _wait(self) -> None:
        while not self.stop.is_set():
            wait = f"{self.shown['data-wait']}?since={self._showing()}{self._rides()}"
            status, answer, body = self._get(wait)
            said = json.loads(answer.get("x-wait") or body) if status == 200 else {}
            now = (
                f"{said.get('version')}.{said.get('seen', 0)}"
                if "." in self._showing()
                else str(said.get("version"))
            )
            if status != 200:
                self.errors += 1
                self.stop.wait(1.0)
            elif now != self._showing() and "x-wait" in answer:
                self._ridden(body)
            elif now != self._showing():
                self._page(**{"X-Follow": "1"})

    def _poll(self) -> None:
        period, quiet_since, etag = FOLLOW_PERIOD, time.monotonic(), ""
        while not self.stop.wait(period):
            headers = {"If-None-Match": etag} if etag else {}
            status, answer, body = self._get(self.shown["data-watch"], **headers)
            if status == 200:
                etag = answer.get("etag", "")
                said = json.loads(body)
                now = (
                    f"{said['version']}.{said.get('seen', 0)}"
                    if "data-seen" in self.shown
                    else str(said["version"])
                )
                if now != self._showing():
                    self._page(**{"X-Follow": "1"})
                    period, quiet_since = FOLLOW_PERIOD, time.monotonic()
                    continue
            elif status != 304:
                self.errors += 1
            if time.monotonic() - quiet_since > FOLLOW_QUIET:
                period = min(period * 1.5, FOLLOW_IDLE_MAX)


def cpu_seconds(pid: int) -> float:
    """The process's CPU time so far (user + system, its finished children's included)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = sum(int(fields[i]) for i in (11, 12, 13, 14))
    return ticks / os.sysconf("SC_CLK_TCK")


def in_window(phones: list[ScriptPhone], began: float, ended: float) -> tuple[int, int]:
    """Requests and bytes (both ways) of all phones between two moments."""
    noted = [r for p in phones for r in p.requests if began <= r[0] < ended]
    return len(noted), sum(sent + received for _, sent, received in noted)


def evening(args: argparse.Namespace, code: str | None) -> dict[str, Any]:
    """One laptop's evening on `serve`: args.tables tables × args.followers phones each, idle
    for a while (then measured: args.idle seconds), then every table saving args.deals deals
    args.gap seconds apart (measured: server CPU, Saves, when each phone showed each deal).
    `code`: a folder with another copy of scorekeeper to serve (the code before a change)."""
    with tempfile.TemporaryDirectory() as where:
        db = Path(where) / "bench.sqlite"
        games = [make_game(db, args.log) for _ in range(args.tables)]
        env = {**os.environ, **({"PYTHONPATH": code} if code else {})}
        process, port = start_server(db, args.threads, env)
        stop = threading.Event()
        phones = [
            ScriptPhone(port, view, stop) for _, view, _ in games for _ in range(args.followers)
        ]
        saved: list[dict[int, float]] = [{} for _ in games]
        try:
            for phone in phones:
                phone.start()
            time.sleep(args.warm)  # past the script's half a minute of quick polls
            began, cpu = time.monotonic(), cpu_seconds(process.pid)
            time.sleep(args.idle)
            ended, idle_cpu = time.monotonic(), cpu_seconds(process.pid) - cpu
            cpu = cpu_seconds(process.pid)
            with ThreadPool(len(games)) as pool:
                saves = pool.starmap(
                    lambda t, s: scorer(port, t[0], t[2], args.deals, args.gap, s),
                    [(game, s) for game, s in zip(games, saved, strict=True)],
                )
            time.sleep(3.0)  # the last deal reaches the phones
            busy_wall, busy_cpu = time.monotonic() - ended, cpu_seconds(process.pid) - cpu
        finally:
            stop.set()
            process.terminate()  # answers the held requests: the phones end
            for phone in phones:
                phone.join(30)
            process.wait(30)
    found = {"idle": (began, ended, idle_cpu), "busy": (busy_wall, busy_cpu)}
    return results(args, phones, saved, saves, found)


def results(
    args: argparse.Namespace,
    phones: list[ScriptPhone],
    saved: list[dict[int, float]],
    saves: list[list[float]],
    found: dict[str, tuple[float, ...]],
) -> dict[str, Any]:
    """The evening's numbers: per idle follower an hour, the changes' delays, Saves, CPU."""
    began, ended, idle_cpu = found["idle"]
    busy_wall, busy_cpu = found["busy"]
    requests, wire = in_window(phones, began, ended)
    per_phone_hour = 3600 / args.idle / len(phones)
    delays = [
        max(0.0, phone.seen[v] - saved[n // args.followers][v])
        for n, phone in enumerate(phones)
        for v in saved[n // args.followers]
        if v in phone.seen
    ]
    expected = sum(len(s) for s in saved) * args.followers
    return {
        "wakeups_hour": requests * per_phone_hour,
        "kb_hour": wire * per_phone_hour / 1024,
        "idle_cpu": 100 * idle_cpu / args.idle,
        "busy_cpu": 100 * busy_cpu / busy_wall,
        "cpu_ms_deal": 1000 * busy_cpu / max(1, sum(len(s) for s in saved)),
        "change_p50": pct(delays, 50),
        "change_p99": pct(delays, 99),
        "missed": expected - len(delays),
        "save_p50": pct([x for s in saves for x in s], 50),
        "save_p99": pct([x for s in saves for x in s], 99),
        "errors": sum(p.errors for p in phones),
        "mode": "held request" if any("data-wait" in p.shown for p in phones) else "poll",
    }


def laptop(args: argparse.Namespace) -> None:
    """Before (the code in --before: `serve` asked the phones to poll) and after (this copy)."""
    print(
        f"serve on a laptop: {args.tables} tables × {args.followers} followers; idle "
        f"{args.idle:.0f} s (after {args.warm:.0f} s), then {args.deals} deals a table "
        f"{args.gap:.0f} s apart"
    )
    runs = [("before", args.before), ("after", None)] if args.before else [("after", None)]
    for name, code in runs:
        r = evening(args, code)
        print(
            f"{name:6s} ({r['mode']}): an idle follower {r['wakeups_hour']:.0f} wake-ups/h, "
            f"{r['kb_hour']:.0f} KB/h; a change on every follower p50 {r['change_p50']:.0f} ms, "
            f"p99 {r['change_p99']:.0f} ms ({r['missed']:.0f} not seen); Save p50 "
            f"{r['save_p50']:.0f}, p99 {r['save_p99']:.0f} ms; server CPU idle "
            f"{r['idle_cpu']:.1f} %, with deals "
            f"{r['busy_cpu']:.1f} % of a core ({r['cpu_ms_deal']:.0f} ms a deal); "
            f"{r['errors']:.0f} errors"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--followers", type=int, default=20)
    parser.add_argument("--period", type=float, default=1.5, help="seconds between polls")
    parser.add_argument("--deals", type=int, default=120)
    parser.add_argument("--pause", type=float, default=0.25, help="seconds between deals")
    parser.add_argument("--log", type=int, default=0, help="deals already in the game")
    parser.add_argument("--threads", type=int, default=8, help="serve's threads")
    parser.add_argument("--laptop", action="store_true", help="an evening of tables (below)")
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--gap", type=float, default=6.0, help="seconds between a table's deals")
    parser.add_argument("--idle", type=float, default=60.0, help="idle seconds measured")
    parser.add_argument("--warm", type=float, default=45.0, help="idle seconds before that")
    parser.add_argument("--before", help="a copy of scorekeeper before the change, to compare")
    args = parser.parse_args()
    if args.laptop:
        args.followers = 3 if args.followers == 20 else args.followers
        args.deals = 5 if args.deals == 120 else args.deals
        laptop(args)
        return
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
