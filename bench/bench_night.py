"""A club night at scale: N tables, each with a scorer and three following phones.

One process, asyncio, plain HTTP/1.1 over loopback (the generator must not eat the server's
CPU). Each table creates its game through the new game form; its three followers open the
read-only sheet and say who they are. Then, for the length of the night, each table enters a
deal every ~2 minutes (randomly phased: the first after a random part of the interval, then
every interval ± 20 %): its scorer opens the deal form, taps for a few seconds, gets two live
previews (Check), saves as the page's script does (one JSON Save), loads the sheet it is
sent to and its chart. Every open page follows the game exactly as static/app.js does, read
from the page itself: the version poll with the browser's conditional request (a 304 while
nothing changed), its period and backoff (the constants of app.js, the page's
data-idle-max) or, where the page asks for it (data-wait), the long poll; after a change the
page swapped in (X-Follow), or, when only the table's answers changed (the long poll's
"only": "answers"; the same version from the version poll), only the parts that show them
(the page's data-answers), and on a follower the confirm card: a new deal is answered "✓
right" a few seconds later (a one-time key, then the answer), which the other phones of the
table follow in turn.

Printed: p50/p95/p99/max per kind of request, errors, timeouts; how long a Save took to show
on every follower and an answer on the scorer's sheet; acknowledged against stored (each
game file against the deals its scorer was answered for, each player's confirmed count on
the sheet against the answers acknowledged); the server's CPU and RSS every 30 s.

Run: .venv/bin/python bench/bench_night.py [--tables 100] [--minutes 5] [--interval 120]
     [--followers 3] [--hosts 1] [--db PATH|postgresql://...] [--workers 2] [--threads 8]
     .venv/bin/python bench/bench_night.py --compare --tables 300 [--tables 1000 ...]
     [--pg-workers 1]
--compare runs, back to back in one run, for each --tables: one SQLite host, then --hosts
(at least 2) hosts on one PostgreSQL (the one SCOREKEEPER_TEST_PG names, else one started
as tests/pg.py starts it), and ends with one table of them all: Save p50/p99, a held request
answered after a Save p99, a change on every follower p99, CPU a deal, each with the load
average before it.
The server is the deploy's: the Dockerfile's CMD (gunicorn with scorekeeper.gunicorn_config),
one per --hosts, each on its own loopback port, all on the same database (--db: a file, made
in a temporary folder by default, or a PostgreSQL URL the store accepts). Loopback only; every
loop ends with the night.
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import html
import json
import os
import random
import re
import resource
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import brotli

from scorekeeper.web.options import preset_values

ROOT = Path(__file__).resolve().parent.parent
PLAYERS = ["Anna", "Boris", "Vera"]
TIMEOUT = 30.0
"""A request unanswered this long is a timeout (a browser's fetch waits longer; a person not)."""
LAST_DEAL = 15.0
"""No deal begins in the night's last seconds: each one is saved, and followed, before it ends."""
HIDDEN = re.compile(r'<input[^>]*\bname="(csrf_token|request_key|base_version|checked)"[^>]*>')
VALUE = re.compile(r'\bvalue="([^"]*)"')
ATTR = re.compile(r'([\w-]+)="([^"]*)"')
FOLLOW = re.compile(r'<div hidden id="follow"[^>]*>')
CONFIRM = re.compile(r'<section[^>]*id="confirm"[^>]*>')
ASKED = re.compile(r'<li hidden data-deal="(\d+)" data-revision="(\d+)"\s+data-answered="([^"]*)"')
COUNTS = re.compile(r"<bdi>([^<]+)</bdi> (\d+)")
CHART = re.compile(r'data-chart="([^"]+)"')
ANSWERS_PART = re.compile(r'<div id="answers-part" data-version="(\d+)" data-seen="([\d.]+)">')
KEEP_STYLE = re.compile(r'<style data-keep="([^"]+)" data-version="([^"]+)"')


def attributes(tag: str) -> dict[str, str]:
    return {k: html.unescape(v) for k, v in ATTR.findall(tag)}


def script_constants() -> dict[str, float]:
    """The follow script's cadence, read from static/app.js (what the phones run)."""
    text = (ROOT / "static" / "app.js").read_text()
    return {k: float(v) for k, v in re.findall(r"const (FOLLOW_\w+) = (\d+);", text)}


# -- measuring ---------------------------------------------------------------------------------


@dataclass
class Stats:
    latencies: dict[str, list[float]] = field(default_factory=dict)
    ended: dict[str, list[float]] = field(default_factory=dict)  # when each was answered
    errors: list[str] = field(default_factory=list)
    timeouts: Counter[str] = field(default_factory=Counter)
    shown: list[float] = field(default_factory=list)  # Save acknowledged -> on a follower
    woken: list[float] = field(default_factory=list)  # Save acknowledged -> a wait answered
    missed: int = 0  # follower page never showed a saved deal before the night ended
    answered: list[float] = field(default_factory=list)  # answer acknowledged -> scorer's sheet
    requests: Counter[str] = field(default_factory=Counter)
    follower_bytes: int = 0
    follower_requests: int = 0
    ridden: int = 0  # wait answers that carried the page or answers part the page needed

    def record(self, kind: str, seconds: float, size: int, follower: bool) -> None:
        self.latencies.setdefault(kind, []).append(seconds)
        self.ended.setdefault(kind, []).append(time.monotonic())
        self.requests[kind] += 1
        if follower:
            self.follower_bytes += size
            self.follower_requests += 1


class Failed(Exception):
    """A request did not get the answer it should have."""


# -- one phone's connection --------------------------------------------------------------------


class Connection:
    """One HTTP/1.1 keep-alive connection."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        self.open = True

    def close(self) -> None:
        self.open = False
        self.writer.close()

    async def exchange(self, message: bytes) -> tuple[int, dict[str, str], bytes]:
        self.writer.write(message)
        await self.writer.drain()
        line = await self.reader.readline()
        if not line:
            raise ConnectionResetError("closed")
        status = int(line.split()[1])
        headers: dict[str, str] = {}
        size = len(line)
        while True:
            raw = await self.reader.readline()
            size += len(raw)
            if raw in (b"\r\n", b"\n", b""):
                break
            name, _, value = raw.decode("latin-1").partition(":")
            key = name.strip().lower()
            headers[key] = f"{headers[key]}\n{value.strip()}" if key in headers else value.strip()
        if status in (204, 304) or 100 <= status < 200:
            data = b""
        elif "content-length" in headers:
            data = await self.reader.readexactly(int(headers["content-length"]))
        elif headers.get("transfer-encoding", "").lower() == "chunked":
            data = await self._chunks()
        else:
            data = await self.reader.read()
            headers["connection"] = "close"
        if headers.get("connection", "").lower() == "close":
            self.close()
        headers[":size"] = str(size + len(data))  # what came over the wire
        return status, headers, data

    async def _chunks(self) -> bytes:
        parts: list[bytes] = []
        while True:
            size = int((await self.reader.readline()).split(b";")[0], 16)
            if size == 0:
                await self.reader.readline()
                return b"".join(parts)
            parts.append(await self.reader.readexactly(size))
            await self.reader.readline()


class Phone:
    """One browser on one host: keep-alive connections (a new one while the others are busy,
    as a browser opens up to six), a cookie jar, a cache of ETags."""

    def __init__(self, port: int, stats: Stats, follower: bool = False) -> None:
        self.port, self.stats, self.follower = port, stats, follower
        self.cookies: dict[str, str] = {}
        self.etags: dict[str, tuple[str, bytes]] = {}  # url -> (tag, body): the HTTP cache
        self.idle: list[Connection] = []

    def close(self) -> None:
        for connection in self.idle:
            connection.close()
        self.idle = []

    async def request(
        self,
        kind: str,
        method: str,
        path: str,
        fields: dict[str, str] | list[tuple[str, str]] | None = None,
        extra: dict[str, str] | None = None,
        *,
        cached: bool = False,
        timeout: float = TIMEOUT,
    ) -> tuple[int, dict[str, str], str]:
        """One request, timed: (status, headers, body). cached: revalidate with the ETag kept
        (fetch's cache "no-cache"), a 304 gives the body kept."""
        headers = {"Host": f"127.0.0.1:{self.port}", "Accept-Encoding": "br, gzip"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if cached and path in self.etags:
            headers["If-None-Match"] = self.etags[path][0]
        headers |= extra or {}
        body = b""
        if fields is not None:
            body = urllib.parse.urlencode(fields).encode()
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        head = f"{method} {path} HTTP/1.1\r\n"
        head += "".join(f"{k}: {v}\r\n" for k, v in headers.items())
        head += f"Content-Length: {len(body)}\r\n\r\n" if method == "POST" else "\r\n"
        start = time.perf_counter()
        try:
            status, answer, data = await asyncio.wait_for(self._send(head.encode() + body), timeout)
        except TimeoutError:
            self.stats.timeouts[kind] += 1
            raise Failed(f"{method} {kind}: no answer in {timeout:g} s") from None
        except (OSError, asyncio.IncompleteReadError, ValueError, IndexError) as error:
            raise Failed(f"{method} {kind}: {type(error).__name__}: {error}") from error
        size = int(answer.pop(":size")) + len(head) + len(body)
        self.stats.record(kind, time.perf_counter() - start, size, self.follower)
        for cookie in answer.get("set-cookie", "").split("\n"):
            name, _, value = cookie.split(";", 1)[0].partition("=")
            if name.strip():
                self.cookies[name.strip()] = value.strip()
        encoding = answer.get("content-encoding")
        if encoding == "br":
            data = brotli.decompress(data)
        elif encoding == "gzip":
            data = gzip.decompress(data)
        if cached and status == 304 and path in self.etags:
            status, data = 200, self.etags[path][1]
        elif cached and status == 200 and "etag" in answer:
            self.etags[path] = (answer["etag"], data)
        text = data.decode("utf-8", "replace")
        if status == 200 and "sk_style" not in self.cookies:
            await self.keep_style(text)
        return status, answer, text

    async def keep_style(self, text: str) -> None:
        """app.js's keepStyle: a page that carried the stylesheet inside itself has the file
        fetched into the cache, and the cookie set: later pages link it."""
        found = KEEP_STYLE.search(text)
        if found is None:
            return
        status, _, _ = await self.request("style", "GET", html.unescape(found.group(1)))
        if status == 200:
            self.cookies["sk_style"] = found.group(2)

    async def _send(self, message: bytes) -> tuple[int, dict[str, str], bytes]:
        """On an idle kept connection (once more on a new one if the server had closed it),
        else a new one. A request cut off (a timeout, a page left) closes its connection."""
        while True:
            kept = self.idle.pop() if self.idle else None
            connection = kept or Connection(*await asyncio.open_connection("127.0.0.1", self.port))
            try:
                answer = await connection.exchange(message)
            except (OSError, asyncio.IncompleteReadError) as error:
                connection.close()
                if kept is None:
                    raise
                if isinstance(error, asyncio.IncompleteReadError) and error.partial:
                    raise
                continue
            except BaseException:
                connection.close()
                raise
            if connection.open:
                self.idle.append(connection)
            return answer


def hidden_fields(page: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for match in HIDDEN.finditer(page):
        value = VALUE.search(match.group(0))
        out[match.group(1)] = value.group(1) if value else ""
    return out


def expect(status: int, wanted: int, what: str, body: str) -> None:
    if status != wanted:
        text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", body))[:160]
        raise Failed(f"{what}: HTTP {status}, not {wanted}: {text}")


# -- a table -------------------------------------------------------------------------------------


@dataclass
class Table:
    number: int
    token: str = ""
    view: str = ""
    acked: list[str] = field(default_factory=list)
    unanswered: int = 0
    saved_at: dict[int, float] = field(default_factory=dict)  # version -> Save acknowledged
    confirmed: Counter[str] = field(default_factory=Counter)  # player -> answers acknowledged
    confirmed_at: list[float] = field(default_factory=list)  # when each answer was acked
    scorer_counts: int = 0  # answers the scorer's sheet shows (summed)
    ready: asyncio.Event = field(default_factory=asyncio.Event)


class Page:
    """A page open on a phone, followed as static/app.js follows it."""

    def __init__(self, phone: Phone, url: str, text: str, kind: str) -> None:
        self.phone, self.url, self.kind = phone, url, kind
        self.text = text
        tag = FOLLOW.search(text)
        self.follow = attributes(tag.group(0)) if tag else {}
        self.only_answers = False  # the last answer of the follow: only the answers changed
        self.ridden: str | None = None  # what rode with the last answer of the follow

    @property
    def seen(self) -> str:
        return self.follow.get("data-seen") or self.follow.get("data-version", "")

    @property
    def version(self) -> int:
        return int(self.follow.get("data-version", "0") or 0)


class Night:
    def __init__(self, args: argparse.Namespace, ports: list[int]) -> None:
        self.args, self.ports = args, ports
        self.stats = Stats()
        self.constants = script_constants()
        self.tables = [Table(n) for n in range(args.tables)]
        self.start = self.deadline = 0.0

    def phone(self, rng: random.Random, follower: bool = False) -> Phone:
        return Phone(rng.choice(self.ports), self.stats, follower)

    def left(self) -> float:
        return self.deadline - time.monotonic()

    async def pause(self, seconds: float) -> None:
        await asyncio.sleep(max(0.0, min(seconds, self.left())))

    def error(self, who: str, error: Exception) -> None:
        if time.monotonic() < self.deadline:  # a request cut by the end of the night is none
            self.stats.errors.append(f"{who}: {error}")

    # -- the scorer --

    async def scorer(self, table: Table) -> None:
        rng = random.Random(table.number)
        phone = self.phone(rng)
        try:
            await asyncio.sleep(rng.uniform(0, self.args.ramp))
            opened = await (self.open_game if table.token else self.new_game)(phone, table)
        except Failed as error:
            self.error(f"table {table.number} new game", error)
            table.ready.set()
            return
        table.ready.set()
        follow = asyncio.create_task(self.follow(opened, table, scorer=True))
        page: Page | None = opened
        try:
            await self.pause(rng.uniform(0, self.args.interval))
            n = 0
            while self.left() > LAST_DEAL:
                began = time.monotonic()
                follow.cancel()
                try:
                    page = await self.deal(phone, table, n, rng)
                except Failed as error:
                    self.error(f"table {table.number} deal {n}", error)
                    page = None
                if page is not None:
                    follow = asyncio.create_task(self.follow(page, table, scorer=True))
                n += 1
                await self.pause(
                    self.args.interval * rng.uniform(0.8, 1.2) - (time.monotonic() - began)
                )
        finally:
            follow.cancel()
            phone.close()

    async def new_game(self, phone: Phone, table: Table) -> Page:
        status, _, page = await phone.request("form", "GET", "/new")
        expect(status, 200, "new game form", page)
        body = [("csrf_token", hidden_fields(page)["csrf_token"])]
        for name, value in preset_values("sochi").items():
            if isinstance(value, bool):
                body += [(name, "y")] if value else []
            elif isinstance(value, list | tuple):
                body += [(name, str(v)) for v in value]
            else:
                body.append((name, str(value)))
        body += [("name", f"Table {table.number}"), ("convention", "sochi")]
        body += [("rendered_preset", "sochi"), ("first_dealer", "0")]
        body += [(f"player_{i}", p) for i, p in enumerate(PLAYERS)]
        status, answer, page = await phone.request("new", "POST", "/new", body)
        expect(status, 302, "new game", page)
        table.token = urllib.parse.urlsplit(answer["location"]).path.rsplit("/", 1)[-1]
        url = f"/g/{table.token}"
        status, _, page = await phone.request("sheet", "GET", url)
        expect(status, 200, "game page", page)
        view = re.search(r"/v/([A-Za-z0-9_-]+)", page)
        if view is None:
            raise Failed("the game page has no read-only link")
        table.view = view.group(1)
        return Page(phone, url, page, "sheet")

    async def open_game(self, phone: Phone, table: Table) -> Page:
        """A game already on its way (--played): the scorer opens its sheet."""
        url = f"/g/{table.token}"
        status, _, page = await phone.request("sheet", "GET", url)
        expect(status, 200, "game page", page)
        return Page(phone, url, page, "sheet")

    async def deal(self, phone: Phone, table: Table, n: int, rng: random.Random) -> Page | None:
        url = f"/g/{table.token}/deal/new"
        status, _, form = await phone.request("form", "GET", url)
        expect(status, 200, "deal form", form)
        follow = asyncio.create_task(
            self.follow(Page(phone, url, form, "form"), table, scorer=True)
        )
        try:
            fields = hidden_fields(form)
            base = int(fields.get("base_version") or 0)
            if n % 2 == 0:
                reason = f"table {table.number} deal {n}"
                fields |= {"kind": "correction", "reason": reason, "corr_player_0": str(n % 3)}
                fields |= {"corr_column_0": "hill", "corr_amount_0": "1"}
            else:
                reason = "allpass"
                fields |= {"kind": "allpass", "tricks_0": "2", "tricks_1": "4", "tricks_2": "4"}
            # The taps: a deal begun is played at its pace to the end (cut by the night's
            # end, every table still tapping would Save at that instant, a burst no club has).
            await asyncio.sleep(rng.uniform(3, 8))
            for _ in range(2):
                status, _, body = await phone.request(
                    "check", "POST", f"/g/{table.token}/deal/check", fields | {"action": "check"}
                )
                expect(status, 200, "preview", body)
            try:
                status, _, body = await phone.request(
                    "save", "POST", url, fields | {"action": "save"}, {"X-Save": "json"}
                )
            except Failed:
                table.unanswered += 1
                raise
            expect(status, 200, "save", body)
            answer = json.loads(body)
            if not answer.get("saved"):
                raise Failed(f"save refused: {body[:160]}")
        finally:
            follow.cancel()
        table.acked.append(reason)
        table.saved_at[base + 1] = time.monotonic()
        nxt = urllib.parse.urlsplit(answer["next"]).path
        status, _, sheet = await phone.request("sheet", "GET", nxt)
        expect(status, 200, "sheet after saving", sheet)
        chart = CHART.search(sheet)
        if chart is not None:
            status, _, body = await phone.request("chart", "GET", html.unescape(chart.group(1)))
            expect(status, 200, "chart", body)
        page = Page(phone, nxt, sheet, "sheet")
        self.scorer_saw(table, page)
        return page

    def scorer_saw(self, table: Table, page: Page) -> None:
        counts = sum(int(c) for _, c in COUNTS.findall(page.text))
        now = time.monotonic()
        while table.scorer_counts < counts:
            # An answer can show before its phone has read the server's reply: it is counted
            # as shown at once when that reply comes (not at the sheet's next change).
            if table.scorer_counts < len(table.confirmed_at):
                self.stats.answered.append(max(0.0, now - table.confirmed_at[table.scorer_counts]))
            table.scorer_counts += 1

    # -- a follower --

    async def follower(self, table: Table, i: int) -> None:
        rng = random.Random(table.number * 10 + i + 1)
        phone = self.phone(rng, follower=True)
        await table.ready.wait()
        if not table.view:
            return
        try:
            await asyncio.sleep(rng.uniform(0, 5))
            url = f"/v/{table.view}"
            status, _, text = await phone.request("page", "GET", url)
            expect(status, 200, "read-only sheet", text)
            page = Page(phone, url, text, "follower")
            await self.follow(page, table, player=PLAYERS[i % len(PLAYERS)], rng=rng)
        except Failed as error:
            self.error(f"follower {i} of table {table.number}", error)
        finally:
            phone.close()

    # -- following a page, as app.js does --

    async def follow(
        self,
        page: Page,
        table: Table,
        *,
        scorer: bool = False,
        player: str = "",
        rng: random.Random | None = None,
    ) -> None:
        """The page's follow script until the night ends (or the page is left)."""
        if not page.follow:
            return
        shown = page.version
        confirming: asyncio.Task[None] | None = None
        sent: set[tuple[str, str]] = set()  # confirm.js's "sent": never the same answer twice
        ticket: dict[str, str] = {}  # confirm.js's ticket: one key request per page load
        # confirm.js's "since": saying who you are asks the deal changed last, then each change
        tag = CONFIRM.search(page.text)
        since = int(attributes(tag.group(0)).get("data-top") or 1) - 1 if tag else 0
        if player:
            confirming = asyncio.create_task(
                self.confirm(page, table, player, rng, sent, ticket, since)
            )
        c = self.constants
        period, quiet_since = c["FOLLOW_PERIOD"] / 1000, time.monotonic()
        try:
            while self.left() > 0:
                wait = page.follow.get("data-wait")
                try:
                    if wait:
                        now = await self.long_poll(page, wait)
                    else:
                        await self.pause(period)
                        if self.left() <= 0:
                            return
                        now = await self.poll(page)
                except Failed as error:
                    self.error(f"{page.kind} of table {table.number} poll", error)
                    await self.pause(1.0)
                    continue
                if now is not None and now != page.seen:
                    period, quiet_since = c["FOLLOW_PERIOD"] / 1000, time.monotonic()
                    if wait and not scorer:
                        woke = time.monotonic()
                        for v in range(shown + 1, int(now.split(".")[0]) + 1):
                            if v in table.saved_at:
                                self.stats.woken.append(max(0.0, woke - table.saved_at[v]))
                    if page.follow.get("data-follow") == "banner":
                        page.follow["data-seen"] = now  # the banner shows; nothing fetched
                        continue
                    try:
                        if page.only_answers and page.follow.get("data-answers"):
                            page = await self.swap_answers(page)
                        else:
                            page = await self.swap(page)
                    except Failed as error:
                        self.error(f"{page.kind} of table {table.number} swap", error)
                        continue
                    if scorer:
                        self.scorer_saw(table, page)
                    elif page.version > shown:
                        for v in range(shown + 1, page.version + 1):
                            if v in table.saved_at:
                                self.stats.shown.append(time.monotonic() - table.saved_at[v])
                        shown = page.version
                    if confirming is not None and confirming.done():
                        confirming = asyncio.create_task(
                            self.confirm(page, table, player, rng, sent, ticket, since)
                        )
                    continue
                most = float(page.follow.get("data-idle-max") or c["FOLLOW_IDLE_MAX"]) / 1000
                if time.monotonic() - quiet_since > c.get("FOLLOW_QUIET", 30000) / 1000:
                    period = min(period * 1.5, most)
        finally:
            if confirming is not None:
                confirming.cancel()
            if not scorer:
                self.stats.missed += sum(1 for v in table.saved_at if v > shown)

    async def poll(self, page: Page) -> str | None:
        status, _, body = await page.phone.request(
            "poll", "GET", page.follow["data-watch"], cached=True
        )
        expect(status, 200, "version", body)
        d = json.loads(body)
        same = str(d["version"]) == page.follow.get("data-version")
        page.only_answers = same and "data-seen" in page.follow
        return self.seen_of(page, d)

    async def long_poll(self, page: Page, wait: str) -> str | None:
        """The long poll: ask with what the page shows; answered when that changed, or
        after the hold with the same."""
        sep = "&" if "?" in wait else "?"
        url = f"{wait}{sep}since={urllib.parse.quote(page.seen)}{self.rides(page, wait)}"
        status, headers, body = await page.phone.request("wait", "GET", url, timeout=TIMEOUT + 60)
        expect(status, 200, "wait", body)
        said = headers.get("x-wait")
        d = json.loads(said or body)
        page.ridden = body if said else None
        if said:
            self.stats.ridden += 1
        page.only_answers = d.get("only") == "answers"
        return self.seen_of(page, d)

    @staticmethod
    def rides(page: Page, wait: str) -> str:
        """app.js's rides: what the page would fetch after a change, asked to ride along."""
        if not re.search(r"/v/[^/]+/wait\Z", wait):
            return ""
        more = ""
        if page.follow.get("data-answers"):
            more += "&answers=" + urllib.parse.quote(page.follow["data-answers"], safe="")
        if page.follow.get("data-follow") == "swap" and "?" not in page.url:
            more += "&page=" + urllib.parse.quote(page.url, safe="")
        return more

    @staticmethod
    def seen_of(page: Page, d: dict[str, int]) -> str:
        if "data-seen" in page.follow:
            return f"{d['version']}.{d.get('seen') or 0}"
        return str(d["version"])

    async def swap(self, page: Page) -> Page:
        if page.ridden is not None:  # the page came with the wait's answer
            status, text, page.ridden = 200, page.ridden, None
        else:
            status, _, text = await page.phone.request(
                "swap", "GET", page.url, extra={"X-Follow": "1"}
            )
        expect(status, 200, "page swapped in", text)
        fresh = Page(page.phone, page.url, text, page.kind)
        if not fresh.follow:
            raise Failed("the page swapped in has no #follow")
        return fresh

    async def swap_answers(self, page: Page) -> Page:
        """Only the parts that show the answers (app.js's swapAnswers); drawn at another
        version (a deal came meanwhile): the whole page."""
        url = page.follow["data-answers"]
        if page.ridden is not None:  # the part came with the wait's answer
            status, text, page.ridden = 200, page.ridden, None
        else:
            status, _, text = await page.phone.request("answers", "GET", url)
        expect(status, 200, "answers swapped in", text)
        part = ANSWERS_PART.search(text)
        if part is None or part.group(1) != page.follow.get("data-version"):
            return await self.swap(page)
        fresh = Page(page.phone, page.url, text, page.kind)  # the parts: the card, the asks
        fresh.follow = page.follow | {"data-seen": part.group(2)}
        return fresh

    async def confirm(
        self,
        page: Page,
        table: Table,
        player: str,
        rng: random.Random | None,
        sent: set[tuple[str, str]],
        ticket: dict[str, str],
        since: int,
    ) -> None:
        """confirm.js: each deal changed after the phone said who it is (and the one changed
        last then), answered ✓ after a while."""
        tag = CONFIRM.search(page.text)
        if tag is None:
            return
        card = attributes(tag.group(0))
        for deal, revision, answered in ASKED.findall(page.text):
            if int(revision) <= since or (deal, revision) in sent:
                continue
            if player in json.loads(html.unescape(answered)):
                continue
            await self.pause((rng or random).uniform(2, 8))
            if self.left() <= 0:
                return
            try:
                if not ticket:
                    status, _, body = await page.phone.request("key", "GET", card["data-key"])
                    expect(status, 200, "confirm key", body)
                    ticket |= json.loads(body)
                fields = {"csrf_token": ticket["csrf_token"], "request_key": ticket["request_key"]}
                fields |= {"deal": deal, "revision": revision, "player": player}
                status, _, body = await page.phone.request(
                    "answer", "POST", card["data-post"], fields | {"verdict": "right", "note": ""}
                )
                expect(status, 200, "answer", body)
                ticket["request_key"] = json.loads(body)["request_key"]
            except Failed as error:
                self.error(f"{player} at table {table.number} answering", error)
                return
            sent.add((deal, revision))
            table.confirmed[player] += 1
            table.confirmed_at.append(time.monotonic())
            if len(table.confirmed_at) <= table.scorer_counts:
                self.stats.answered.append(0.0)  # the scorer's sheet already showed it

    # -- the night --

    async def run(self) -> None:
        self.start = time.monotonic()
        self.deadline = self.start + self.args.ramp + self.args.minutes * 60
        tasks = [asyncio.create_task(self.scorer(t)) for t in self.tables]
        tasks += [
            asyncio.create_task(self.follower(t, i))
            for t in self.tables
            for i in range(self.args.followers)
        ]
        await asyncio.wait(tasks, timeout=self.deadline - time.monotonic() + TIMEOUT + 60)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def verify(self) -> tuple[int, int, int]:
        """(lost deals, doubled deals, lost answers): stored against acknowledged."""
        lost = doubled = lost_answers = 0
        phone = Phone(self.ports[0], Stats())
        for table in self.tables:
            if not table.token:
                continue
            status, _, body = await phone.request("verify", "GET", f"/g/{table.token}/game.json")
            expect(status, 200, "game file", body)
            stored = Counter(d.get("reason", d["type"]) for d in json.loads(body)["deals"])
            acked = Counter(table.acked)
            lost += sum((acked - stored).values())
            doubled += max(0, sum((stored - acked).values()) - table.unanswered)
            if table.confirmed:
                status, _, page = await phone.request("verify", "GET", f"/g/{table.token}")
                counts = {html.unescape(n): int(c) for n, c in COUNTS.findall(page)}
                lost_answers += sum(
                    max(0, k - counts.get(p, 0)) for p, k in table.confirmed.items()
                )
        phone.close()
        return lost, doubled, lost_answers


# -- the servers ----------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def deploy_command() -> list[str]:
    """The Dockerfile's CMD, run with this Python."""
    text = (ROOT / "Dockerfile").read_text()
    found = re.search(r"^CMD (\[.*\])\s*$", text, re.M)
    if found is None:
        raise SystemExit("the Dockerfile has no CMD [...]")
    command: list[str] = json.loads(found.group(1))
    return [sys.executable, "-m", command[0], *command[1:]]


def start_servers(args: argparse.Namespace, db: str, folder: Path) -> list[subprocess.Popen[bytes]]:
    servers = []
    for host in range(args.hosts):
        port = free_port()
        env = {**os.environ, "SCOREKEEPER_SECRET_KEY": "bench", "SCOREKEEPER_PASSWORD": ""}
        env |= {
            "SCOREKEEPER_DB": db,
            "SCOREKEEPER_INSTANCE": str(folder / f"host{host}"),
            "SCOREKEEPER_BIND": f"127.0.0.1:{port}",
            "SCOREKEEPER_WORKERS": str(args.workers),
        }
        if args.threads:
            env["SCOREKEEPER_THREADS"] = str(args.threads)
        else:
            env.pop("SCOREKEEPER_THREADS", None)
        (folder / f"host{host}").mkdir(exist_ok=True)
        log = (folder / f"server{host}.log").open("wb")
        command = deploy_command()
        if args.cprofile:  # every thread of each worker under cProfile (bench/profiled.py)
            command = [sys.executable, str(ROOT / "bench" / "profiled.py"), args.cprofile]
            command += deploy_command()[1:]
        server = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env)
        server.port = port  # type: ignore[attr-defined]
        servers.append(server)
    for server in servers:
        wait_for_workers(server, args.workers, folder)
    return servers


def wait_for_workers(server: subprocess.Popen[bytes], workers: int, folder: Path) -> None:
    """gunicorn answers before all its workers are forked: wait for them all."""
    port = server.port  # type: ignore[attr-defined]
    for _ in range(600):
        if server.poll() is not None:
            raise SystemExit(f"the server did not start:\n{(folder / 'server0.log').read_text()}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                if len(children(server.pid)) >= workers:
                    return
        except OSError:
            pass
        time.sleep(0.1)
    raise SystemExit("the server did not answer")


def children(pid: int) -> list[int]:
    try:
        return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def usage(pids: list[int]) -> tuple[float, float]:
    """(CPU seconds, RSS MB) of the servers and their workers."""
    cpu = rss = 0.0
    tick = os.sysconf("SC_CLK_TCK")
    for pid in pids:
        for task in [pid, *children(pid)]:
            fields = stat(task)
            if fields:
                cpu += (int(fields[11]) + int(fields[12])) / tick
                rss += int(fields[21]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    return cpu, rss


def stat(pid: int) -> list[str]:
    """The fields of /proc/PID/stat after the command's name (the state first), or none."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return []


def postmasters() -> list[int]:
    """The PostgreSQL servers running on this machine: processes called postgres whose
    parent is not one."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and name(int(entry.name)) == "postgres":
            fields = stat(int(entry.name))
            if fields and name(int(fields[1])) != "postgres":
                found.append(int(entry.name))
    return found


def name(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/comm").read_text().strip()
    except OSError:
        return ""


def database_cpu(postmaster: int) -> float:
    """CPU seconds of a PostgreSQL server: the postmaster, its children that have ended
    (their time is added to the postmaster's when it reaps them: each connection's backend)
    and those still running."""
    tick = os.sysconf("SC_CLK_TCK")
    total = sum(int(f) for f in stat(postmaster)[11:15]) / tick
    for child in children(postmaster):
        fields = stat(child)
        if fields:
            total += (int(fields[11]) + int(fields[12])) / tick
    return total


async def sample(pids: list[int], every: float, out: list[tuple[float, float, float]]) -> None:
    t0 = time.monotonic()
    last_cpu, _ = usage(pids)
    last = t0
    while True:
        await asyncio.sleep(every)
        cpu, rss = usage(pids)
        now = time.monotonic()
        out.append((now - t0, (cpu - last_cpu) / (now - last), rss))
        last_cpu, last = cpu, now


async def profile(args: argparse.Namespace, workers: list[int]) -> None:
    """py-spy (in this Python's folder) on one worker for 60 s, from the middle of the night."""
    await asyncio.sleep(args.ramp + args.minutes * 60 / 2 - 30)
    spy = Path(sys.executable).with_name("py-spy")
    command = [str(spy), "record", "--pid", str(workers[0]), "--duration", "60", "--rate", "100"]
    command += ["--format", "raw", "--output", args.profile, "--nonblocking"]
    process = await asyncio.create_subprocess_exec(
        *command, stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL
    )
    await process.wait()


def own_cpu() -> float:
    u = resource.getrusage(resource.RUSAGE_SELF)
    return u.ru_utime + u.ru_stime


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered) + 0.5) - 1))]


def row(name: str, values: list[float]) -> str:
    ms = [v * 1000 for v in values]
    return (
        f"{name:10}{len(ms):8}{statistics.median(ms):9.1f}{percentile(ms, 95):9.1f}"
        f"{percentile(ms, 99):9.1f}{max(ms):9.1f}"
    )


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--tables", type=int, action="append", help="tables (repeat with --compare; 100)"
    )
    parser.add_argument(
        "--compare",
        action="store_true",
        help="one SQLite host, then --hosts (≥ 2) PostgreSQL hosts, per --tables, one table",
    )
    parser.add_argument("--followers", type=int, default=3, help="read-only phones per table")
    parser.add_argument("--minutes", type=float, default=5.0, help="the night, after the ramp")
    parser.add_argument("--interval", type=float, default=120.0, help="seconds between deals")
    parser.add_argument(
        "--ramp",
        type=float,
        default=0.0,
        help="seconds to open the games (default 30 + 0.06 a table)",
    )
    parser.add_argument(
        "--played",
        type=int,
        default=0,
        help="deals already on each sheet when the night begins (a night hours old)",
    )
    parser.add_argument("--hosts", type=int, default=1, help="servers on one database")
    parser.add_argument("--db", default="", help="a SQLite file or a postgresql:// URL")
    parser.add_argument("--workers", type=int, default=2, help="processes per host")
    parser.add_argument(
        "--pg-workers",
        type=int,
        default=0,
        help="with --compare: processes per PostgreSQL host (default --workers; 1 gives two"
        " hosts the processes of one SQLite host)",
    )
    parser.add_argument(
        "--db-pid",
        type=int,
        default=0,
        help="the PostgreSQL server's pid, to count its CPU (default: the one running here)",
    )
    parser.add_argument(
        "--threads", type=int, default=0, help="threads per process (default: the deploy's)"
    )
    parser.add_argument("--logs", default="", help="copy the servers' logs into this folder")
    parser.add_argument(
        "--profile", default="", help="py-spy a worker for 60 s mid-night, stacks to this file"
    )
    parser.add_argument(
        "--cprofile",
        default="",
        help="cProfile every thread of each worker, written to PATH.<pid> as it ends",
    )
    return parser.parse_args()


async def night(
    args: argparse.Namespace, servers: list[subprocess.Popen[bytes]]
) -> dict[str, object]:
    ports = [s.port for s in servers]  # type: ignore[attr-defined]
    pids = [s.pid for s in servers]
    the = Night(args, ports)
    if args.played:
        seated = time.monotonic()
        played(args, the.tables)
        print(f"{args.tables} games of {args.played} deals written in", end=" ")
        print(f"{time.monotonic() - seated:.0f} s", flush=True)
    series: list[tuple[float, float, float]] = []
    sampler = asyncio.create_task(sample(pids, 10.0, series))
    postmaster = database_server(args)
    db0 = database_cpu(postmaster) if postmaster else 0.0
    cpu0, client0, t0 = usage(pids)[0], own_cpu(), time.monotonic()
    spy = asyncio.create_task(profile(args, children(pids[0]))) if args.profile else None
    opened = asyncio.create_task(after_ramp(args, the, pids, postmaster))
    await the.run()
    if spy is not None:
        await spy
    elapsed = time.monotonic() - t0
    cpu, rss = usage(pids)
    args.db_cpu = database_cpu(postmaster) - db0 if postmaster else None
    ramp_cpu, ramp_db, ramp_deals = await opened
    db_after = database_cpu(postmaster) - ramp_db if postmaster else 0.0
    args.steady = (cpu - ramp_cpu + db_after, sum(len(t.acked) for t in the.tables) - ramp_deals)
    client = own_cpu() - client0
    sampler.cancel()
    lost, doubled, lost_answers = await the.verify()
    report(args, the, elapsed, cpu - cpu0, rss, client, series, (lost, doubled, lost_answers))
    return summary(args, the, cpu - cpu0, lost + doubled + lost_answers)


async def after_ramp(
    args: argparse.Namespace, the: Night, pids: list[int], postmaster: int
) -> tuple[float, float, int]:
    """The servers' and the database's CPU and the deals saved when the ramp ends: from
    then on every game is open, and the CPU is the deals' alone (the ramp's is opening a
    game and four pages a table, once a night: a night of hours pays it once, a bench of
    minutes many times a deal)."""
    await asyncio.sleep(args.ramp)
    db = database_cpu(postmaster) if postmaster else 0.0
    return usage(pids)[0], db, sum(len(t.acked) for t in the.tables)


def summary(args: argparse.Namespace, the: Night, cpu: float, lost: int) -> dict[str, object]:
    """One line of the --compare table."""
    s = the.stats
    deals = max(1, sum(len(t.acked) for t in the.tables) - args.played * args.tables)

    def p(values: list[float], at: float) -> float:
        return 1000 * percentile(values, at) if values else float("nan")

    saves = s.latencies.get("save", [])
    engine = "PostgreSQL" if args.db.startswith("postgres") else "SQLite"
    return {
        "setup": f"{args.tables} tables, {args.hosts} × {args.workers} × {engine}",
        "load": args.load_before,
        "save p50": p(saves, 50),
        "save p99": p(saves, 99),
        "woken p99": p(s.woken, 99),
        "shown p99": p(s.shown, 99),
        "cpu": 1000 * (cpu + (args.db_cpu or 0.0)) / deals,
        "steady": steady_ms(args),
        "bad": len(s.errors) + sum(s.timeouts.values()) + lost,
    }


def steady_ms(args: argparse.Namespace) -> float:
    """The servers' CPU a deal after the ramp (the database's too, when it is counted), in ms."""
    cpu, deals = args.steady
    return 1000 * cpu / max(1, deals)


def database_server(args: argparse.Namespace) -> int:
    """The PostgreSQL server whose CPU the night counts: --db-pid, or the only one running."""
    if not args.db.startswith("postgres"):
        return 0
    if args.db_pid:
        return int(args.db_pid)
    found = postmasters()
    if len(found) != 1:
        print(f"PostgreSQL servers here: {found or 'none'}; its CPU is not counted (--db-pid)")
        return 0
    return found[0]


def played_deals(n: int) -> list[dict[str, object]]:
    """n deals in game-file notation, as a night plays them: a contract made with one
    whist, one set with two, an all-pass, a correction (the pool stays under 200)."""
    deals: list[dict[str, object]] = []
    for i in range(n):
        d, o1, o2 = PLAYERS[i % 3], PLAYERS[(i + 1) % 3], PLAYERS[(i + 2) % 3]
        kinds: list[dict[str, object]] = [
            {"type": "contract", "declarer": d, "contract": "6S"}
            | {"answers": {o1: "whist", o2: "pass"}, "tricks": {d: 6, o1: 4, o2: 0}},
            {"type": "contract", "declarer": d, "contract": "7H"}
            | {"answers": {o1: "whist", o2: "whist"}, "tricks": {d: 6, o1: 2, o2: 2}},
            {"type": "allpass", "tricks": {d: 2, o1: 4, o2: 4}},
            {"type": "correction", "reason": f"played {i}", "entries": [{"player": d, "hill": 1}]},
        ]
        deals.append(kinds[i % 4])
    return deals


def played(args: argparse.Namespace, tables: list[Table]) -> None:
    """Write each table's game with --played deals on it, as an imported game file is (read
    and checked, then stored), before the night: a night some hours old, each Save adding
    to a long sheet."""
    from scorekeeper import gamefile
    from scorekeeper.games import create_from_game
    from scorekeeper.store import Store

    deals = played_deals(args.played)
    data: dict[str, object] = {"format": gamefile.FORMAT, "convention": "sochi"}
    data |= {"options": {"pool_target": 200}, "players": PLAYERS, "first_dealer": PLAYERS[0]}
    data["deals"] = deals
    store = Store(args.db_location)
    try:
        with store.batch():
            for table in tables:
                game = gamefile.load(data | {"name": f"Table {table.number}"})
                record = create_from_game(store, game)
                table.token, table.view = record.edit_token, record.view_token
                table.acked += [str(d.get("reason", d["type"])) for d in deals]
    finally:
        store.close()


def over_time(the: Night, kind: str) -> str:
    """A kind's p99 in each 30 s of the night (the ramp opens the games: its tail is not the
    steady night's)."""
    windows: dict[int, list[float]] = {}
    ended_at, took = the.stats.ended.get(kind, []), the.stats.latencies.get(kind, [])
    for ended, seconds in zip(ended_at, took, strict=True):
        windows.setdefault(int((ended - the.start) // 30), []).append(seconds)
    return ", ".join(
        f"{30 * w}: {percentile([1000 * x for x in v], 99):.0f}" for w, v in sorted(windows.items())
    )


def report(
    args: argparse.Namespace,
    the: Night,
    elapsed: float,
    cpu: float,
    rss: float,
    client: float,
    series: list[tuple[float, float, float]],
    checked: tuple[int, int, int],
) -> None:
    s = the.stats
    deals = sum(len(t.acked) for t in the.tables) - args.played * args.tables
    total = sum(s.requests.values())
    print(
        f"{args.tables} tables × {args.followers} followers, a deal every ~{args.interval:g} s, "
        f"{args.minutes:g} min after a {args.ramp:g} s ramp ({elapsed:.0f} s in all), "
        f"{args.hosts} host(s) × {args.workers} processes × {args.threads or 'default'} threads, "
        f"{'PostgreSQL' if args.db.startswith('postgres') else 'SQLite'}"
        + (f", each sheet {args.played} deals long at the start" if args.played else "")
    )
    print(f"load average before: {the.args.load_before}")
    answers = sum(sum(t.confirmed.values()) for t in the.tables)
    print(f"requests {total} ({total / elapsed:.0f}/s), deals saved {deals}, answers {answers}")
    print(f"{'':10}{'count':>8}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}{'max ms':>9}")
    for kind in (
        "save",
        "check",
        "form",
        "sheet",
        "chart",
        "poll",
        "wait",
        "swap",
        "answers",
        "page",
        "key",
        "answer",
        "new",
        "style",
    ):
        if s.latencies.get(kind):
            print(row(kind, s.latencies[kind]))
    if s.shown:
        print(
            row("on follower", s.shown)
            + f"   (Save acknowledged -> page swapped in; {sum(1 for t in s.shown if t > 2.0)}"
            + f" after 2 s, {s.missed} never)"
        )
    if s.woken:
        print(row("wait woken", s.woken) + "   (Save acknowledged -> a held request answered)")
    for kind in ("save", "check", "form"):
        print(f"{kind} p99 ms by 30 s of the night: " + over_time(the, kind))
    if s.answered:
        late = sum(1 for t in s.answered if t > 2.0)
        print(
            row("on scorer", s.answered)
            + f"   (answer acknowledged -> scorer's sheet; {late} after 2 s)"
        )
    lost, doubled, lost_answers = checked
    print(
        f"errors {len(s.errors)}, timeouts {sum(s.timeouts.values())} {dict(s.timeouts)}; "
        f"lost deals {lost}, doubled {doubled}, "
        f"unanswered Saves {sum(t.unanswered for t in the.tables)}, lost answers {lost_answers}"
    )
    for message in s.errors[:8]:
        print(f"  {message}")
    print(
        f"server CPU {cpu:.0f} s in {elapsed:.0f} s ({100 * cpu / elapsed:.0f}% of one core), "
        f"RSS at the end {rss:.0f} MB; "
        f"this generator's CPU {client:.0f} s ({100 * client / elapsed:.0f}%)"
    )
    if args.db_cpu is not None:
        print(
            f"PostgreSQL's CPU {args.db_cpu:.0f} s ({100 * args.db_cpu / elapsed:.0f}% of one "
            f"core); servers and database {100 * (cpu + args.db_cpu) / elapsed:.0f}%"
        )
    if deals:
        kinds = sorted(s.requests, key=lambda k: -s.requests[k])
        both = cpu + (args.db_cpu or 0.0)
        print(
            "per deal: "
            + ", ".join(f"{k} {s.requests[k] / deals:.1f}" for k in kinds)
            + f" requests (waits that carried the part or page: {s.ridden / deals:.1f})"
            + f"; server CPU {1000 * cpu / deals:.0f} ms"
            + f" (after the ramp, with the database's if counted: {steady_ms(args):.0f} ms)"
            + (f", with PostgreSQL's {1000 * both / deals:.0f} ms" if args.db_cpu else "")
        )
    print(
        "server over time (s: % of one core, RSS MB): "
        + ", ".join(f"{t:.0f}: {100 * c:.0f}% {m:.0f}" for t, c, m in series[::3])
    )
    phones = args.tables * args.followers
    if phones:
        per_hour = phones * elapsed / 3600
        print(
            f"a follower: {s.follower_bytes / per_hour / 1e6:.3f} MB/h over the wire (requests"
            f" and answers, HTTP/1.1, compressed), {s.follower_requests / per_hour:.0f} requests/h"
        )


def one_night(args: argparse.Namespace) -> dict[str, object]:
    """Start the servers on args.db (a new SQLite file when empty), play the night, stop."""
    args.ramp = args.given_ramp or 30 + 0.06 * args.tables
    args.load_before = " ".join(f"{x:.2f}" for x in os.getloadavg())
    with tempfile.TemporaryDirectory(prefix="bench-night-") as name:
        folder = Path(name)
        db = args.db_location = args.db or str(folder / "games.sqlite")
        servers = start_servers(args, db, folder)
        try:
            return asyncio.run(night(args, servers))
        finally:
            for server in servers:
                server.terminate()
            for server in servers:
                server.wait(timeout=40)
            if args.logs:
                Path(args.logs).mkdir(parents=True, exist_ok=True)
                for log in folder.glob("server*.log"):
                    shutil.copy(log, Path(args.logs) / log.name)


def compare(args: argparse.Namespace, sizes: list[int]) -> None:
    """For each size: one SQLite host, then args.hosts hosts on one PostgreSQL; one table."""
    sys.path.insert(0, str(ROOT))
    from tests.pg import Server

    server = Server(own=not os.environ.get("SCOREKEEPER_TEST_PG"))
    hosts, lines, sqlite_workers = max(2, args.hosts), [], args.workers
    try:
        for tables in sizes:
            for db, count in (("", 1), (server.new_database(), hosts)):
                args.tables, args.db, args.hosts = tables, db, count
                args.workers = (db and args.pg_workers) or sqlite_workers
                args.db_pid = postmaster_of(server) if db else 0
                print(f"\n== {tables} tables, {count} host(s), {db and 'PostgreSQL' or 'SQLite'}")
                lines.append(one_night(args))
    finally:
        server.close()
    print(
        "\nsetup (hosts × processes)          load before          Save p50  Save p99  woken p99"
        "  shown p99  CPU ms/deal  after ramp  errors"
    )
    for line in lines:
        print(
            f"{line['setup']:34} {line['load']:20} {line['save p50']:8.0f}"
            f" {line['save p99']:9.0f} {line['woken p99']:10.0f} {line['shown p99']:10.0f}"
            f" {line['cpu']:12.0f} {line['steady']:11.0f} {line['bad']:7}"
        )
    print(
        "woken: Save acknowledged -> a follower's held request answered; shown: -> the change"
        " on every follower's page; CPU: the hosts' and PostgreSQL's a deal (after ramp: from the"
        " ramp's end, every game open)"
    )


def postmaster_of(server: object) -> int:
    """The pid of the PostgreSQL server tests/pg.py started (0: one it did not start)."""
    data = getattr(server, "_data", None)
    if data is None:
        return 0
    return int((Path(data) / "postmaster.pid").read_text().split()[0])


def main() -> int:
    args = arguments()
    sizes = args.tables or [100]
    args.given_ramp = args.ramp
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    if args.compare:
        compare(args, sizes)
    else:
        args.tables = sizes[0]
        one_night(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
