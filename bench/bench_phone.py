"""Benchmark: the cheap-phone profile, in real headless Chromium against `scorekeeper serve`.

Run: .venv/bin/python bench/bench_phone.py [--deals 280] [--idle 120] [--repeat 3] [--verbose]

A 375 × 667 page with its CPU slowed 4× (CDP Emulation.setCPUThrottlingRate) on a slow
network (CDP Network.emulateNetworkConditions: 300 ms latency, 50 KB/s down and up), a game
of --deals deals (a long evening) on a temporary SQLite file. Prints:

(a) the game page's first paint (first-contentful-paint) with an empty cache, and again with
    the static files cached; bytes down and requests;
(b) Save → new sheet: on the deal form an all-pass is tapped in, then Save; from the tap
    (Date.now() in the page) to the game page's first paint (performance.timeOrigin + FCP),
    and the Python wall clock from the tap to the sheet on screen (selector + a frame);
    bytes down and up, and the requests it took;
(c) an idle follower: the view link left open --idle seconds, nothing changing; bytes down and
    up over CDP (response encodedDataLength; request line, headers and body up), the poll
    intervals the page settles to, and the hour extrapolated from the settled interval.

Bars (issue 15): first paint ≤ 1.0 s, Save → sheet ≤ 0.6 s, an idle follower ≤ 0.5 MB an hour.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for tests.browser

from scorekeeper import gamefile  # noqa: E402
from scorekeeper.games import create_from_game  # noqa: E402
from scorekeeper.sample import random_game  # noqa: E402
from scorekeeper.store import Store  # noqa: E402
from tests.browser import launch  # noqa: E402  (the same Chromium, the same flags)

SERVE = Path(sys.executable).with_name("scorekeeper")
VIEWPORT = {"width": 375, "height": 667}
KB = 1024
NETWORK = {
    "offline": False,
    "latency": 300,  # ms, added to every request
    "downloadThroughput": 50 * KB,  # bytes per second
    "uploadThroughput": 50 * KB,
}
CPU_SLOWDOWN = 4
FCP = """() => {
  const e = performance.getEntriesByType('paint').find(p => p.name === 'first-contentful-paint');
  return e ? e.startTime : null;
}"""


SAVE_TAP = """() => {
  // The moment the form is gone, the next frame after it is painted (a swap in place);
  // a page loaded anew has its own first paint instead.
  new MutationObserver((changes, observer) => {
    if (document.getElementById('deal-form')) return;
    observer.disconnect();
    requestAnimationFrame(() => setTimeout(() => { window.swapPainted = Date.now(); }, 0));
  }).observe(document, { childList: true, subtree: true });
  const t = Date.now();
  document.getElementById('save-button').click();
  return t;
}"""


def long_game(deals: int) -> dict[str, Any]:
    """A valid Sochi game of `deals` deals that never ends by itself (as bench_web.py's)."""
    options = {"pool_target": 100000, "stake": "0.10", "currency": "EUR"}
    data = random_game(random.Random(deals), deals, convention="sochi", players=3, options=options)
    data["name"] = "A long evening"
    return data


@dataclass
class Wire:
    """What one page sent and received, from its CDP Network events."""

    requests: dict[str, dict[str, Any]] = field(default_factory=dict)

    def attach(self, cdp: Any) -> None:
        cdp.on("Network.requestWillBeSent", self._sent)
        cdp.on("Network.requestWillBeSentExtraInfo", self._sent_headers)
        cdp.on("Network.responseReceived", self._response)
        cdp.on("Network.loadingFinished", self._finished)
        cdp.on("Network.requestServedFromCache", self._cached)

    def _entry(self, request_id: str) -> dict[str, Any]:
        return self.requests.setdefault(
            request_id, {"up": 0, "down": 0, "done": False, "cached": False, "status": None}
        )

    def _sent(self, event: dict[str, Any]) -> None:
        request = event["request"]
        entry = self._entry(event["requestId"])
        if "url" in entry:  # a redirect: the same id goes on to the next address
            entry["hops"] = entry.get("hops", 1) + 1
        entry.update(url=request["url"], method=request["method"], start=event["timestamp"])
        entry["up"] += len(request.get("postData") or "")
        entry.setdefault("wall", time.time())

    def _sent_headers(self, event: dict[str, Any]) -> None:
        # The headers as sent (cookies too): "Name: value\r\n" each, plus the request line.
        headers = event.get("headers", {})
        self._entry(event["requestId"])["up"] += 40 + sum(
            len(k) + len(str(v)) + 4 for k, v in headers.items()
        )

    def _response(self, event: dict[str, Any]) -> None:
        entry = self._entry(event["requestId"])
        response = event["response"]
        entry["status"] = response.get("status")
        entry["encoding"] = {k.lower(): v for k, v in response.get("headers", {}).items()}.get(
            "content-encoding", ""
        )
        entry["connection"] = response.get("connectionId")
        entry["from_cache"] = bool(response.get("fromDiskCache") or response.get("fromMemoryCache"))

    def _finished(self, event: dict[str, Any]) -> None:
        entry = self._entry(event["requestId"])
        entry["down"] += int(event.get("encodedDataLength", 0))
        entry["done"] = True
        entry["end"] = event["timestamp"]

    def _cached(self, event: dict[str, Any]) -> None:
        self._entry(event["requestId"])["cached"] = True

    def clear(self) -> None:
        self.requests.clear()

    def network(self) -> list[dict[str, Any]]:
        """The requests that went over the network (not answered by the browser's cache)."""
        return [
            r
            for r in self.requests.values()
            if "url" in r
            and not r["cached"]
            and not r.get("from_cache")
            and not r["url"].startswith("data:")
        ]

    def down(self) -> int:
        return sum(r["down"] for r in self.network())

    def up(self) -> int:
        return sum(r["up"] for r in self.network())

    def listing(self) -> str:
        rows = []
        network = sorted(self.network(), key=lambda r: r.get("start", 0))
        first = network[0]["start"] if network else 0
        for r in network:
            path = r["url"].split("//", 1)[-1].split("/", 1)[-1].split("?")[0]
            since = (r["start"] - first) * 1000
            took = (r.get("end", r["start"]) - r["start"]) * 1000
            rows.append(
                f"      {r['method']:4} /{path[:40]:40} {r['status'] or '-':>3} "
                f"{r.get('encoding') or '-':4} {r['down'] / KB:5.1f} KB down {r['up']:5d} B up "
                f"at {since:5.0f} ms, {took:5.0f} ms"
            )
        return "\n".join(rows)


class Phone:
    """One cheap phone: a fresh browser context (empty cache) with its CDP throttling."""

    def __init__(self, browser: Any) -> None:
        self.context = browser.new_context(viewport=VIEWPORT)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.cdp = self.context.new_cdp_session(self.page)
        self.wire = Wire()
        self.wire.attach(self.cdp)
        self.cdp.send("Network.enable")
        self.cdp.send("Network.emulateNetworkConditions", NETWORK)
        self.cdp.send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})

    def fcp(self) -> float:
        self.page.wait_for_function(
            "performance.getEntriesByType('paint').some(p => p.name === 'first-contentful-paint')"
        )
        return float(self.page.evaluate(FCP))

    def close(self) -> None:
        self.context.close()


def first_paint(browser: Any, url: str) -> dict[str, Any]:
    phone = Phone(browser)
    try:
        phone.page.goto(url, wait_until="load")
        cold = phone.fcp()
        cold_down, cold_requests = phone.wire.down(), len(phone.wire.network())
        listing = phone.wire.listing()
        # A moment after the load, as a person would take: the page has fetched the
        # stylesheet it brought inside itself, to link it from the cache from now on (the
        # network is never idle: the page holds its request that follows the game).
        phone.page.wait_for_function("() => document.cookie.indexOf('sk_style=') >= 0")
        first_visit, first_requests = phone.wire.down(), len(phone.wire.network())
        phone.wire.clear()
        phone.page.goto(url, wait_until="load")
        warm = phone.fcp()
        return {
            "cold": cold,
            "cold_down": cold_down,
            "cold_requests": cold_requests,
            "first_visit": first_visit,  # all a first visit brought down, the style's fetch too
            "first_requests": first_requests,
            "listing": listing,
            "warm": warm,
            "warm_down": phone.wire.down(),
            "warm_requests": len(phone.wire.network()),
            "errors": phone.errors,
        }
    finally:
        phone.close()


def save_to_sheet(browser: Any, server: str, token: str, times: int) -> list[dict[str, Any]]:
    phone = Phone(browser)
    page = phone.page
    out = []
    try:
        page.goto(f"{server}/g/{token}", wait_until="load")  # static files cached, as at a table
        for _ in range(times):
            page.goto(f"{server}/g/{token}/deal/new", wait_until="load")
            page.locator('#kind .tap[data-value="allpass"]').click()
            page.wait_for_selector("#trickpad .num")
            page.locator('#trickpad .num[data-n="4"]').click()
            page.locator('#trickpad .num[data-n="3"]').click()
            page.wait_for_selector("#save-button:not([disabled])")
            page.wait_for_timeout(300)  # let the preview's request finish: not part of Save
            phone.wire.clear()
            start = time.perf_counter()
            tapped = page.evaluate(SAVE_TAP)
            page.wait_for_url(lambda url: "/deal/" not in url)
            page.wait_for_selector("#deal-form", state="detached")
            page.wait_for_selector("#follow", state="attached")
            page.evaluate("() => new Promise(r => requestAnimationFrame(() => r(null)))")
            wall = time.perf_counter() - start
            page.wait_for_load_state("load")
            # A new document: its first paint. The same one (the page came in the Save's
            # answer and was swapped in): the frame after the swap.
            page.wait_for_function("() => window.swapPainted || performance.timeOrigin > 0")
            paint = page.evaluate(f"() => window.swapPainted || performance.timeOrigin + ({FCP})()")
            swapped = page.evaluate("() => !!window.swapPainted")
            out.append(
                {
                    "swapped": swapped,
                    "paint": (paint - tapped) / 1000,
                    "wall": wall,
                    "down": phone.wire.down(),
                    "up": phone.wire.up(),
                    "requests": len(phone.wire.network()),
                    "listing": phone.wire.listing(),
                    "errors": list(phone.errors),
                }
            )
    finally:
        phone.close()
    return out


def idle_follower(browser: Any, url: str, seconds: float) -> dict[str, Any]:
    phone = Phone(browser)
    try:
        phone.page.goto(url, wait_until="load")
        phone.fcp()
        phone.wire.clear()
        start = time.time()
        phone.page.wait_for_timeout(seconds * 1000)
        polls = sorted(r["wall"] for r in phone.wire.network() if r.get("method") == "GET")
        gaps = [b - a for a, b in zip(polls, polls[1:], strict=False)]
        settled = gaps[-1] if gaps else None  # the interval the page has grown to
        network = phone.wire.network()
        per_poll = (phone.wire.down() + phone.wire.up()) / max(1, len(network))
        tail = [r for r in network if r["wall"] >= polls[-4]] if len(polls) >= 4 else network
        tail_per_poll = sum(r["down"] + r["up"] for r in tail) / max(1, len(tail))
        connections = {r.get("connection") for r in network}
        return {
            "seconds": time.time() - start,
            "down": phone.wire.down(),
            "up": phone.wire.up(),
            "requests": len(network),
            "statuses": sorted({str(r["status"]) for r in network}),
            "connections": len(connections),
            "gaps": gaps,
            "settled": settled,
            "per_poll": per_poll,
            "tail_per_poll": tail_per_poll,
            "errors": phone.errors,
        }
    finally:
        phone.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=280)
    parser.add_argument("--idle", type=float, default=120, help="seconds the follower stays open")
    parser.add_argument("--repeat", type=int, default=3, help="first paints and saves measured")
    parser.add_argument("--verbose", action="store_true", help="list every request")
    parser.add_argument("--only", choices=("paint", "save", "idle"), help="measure one thing")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="bench-phone-"))
    db = folder / "phone.sqlite"
    with Store(db) as store:
        record = create_from_game(store, gamefile.load(long_game(args.deals)))
    env = {k: v for k, v in os.environ.items() if not k.startswith("SCOREKEEPER_")}
    env.update(SCOREKEEPER_SECRET_KEY="bench", SCOREKEEPER_INSTANCE=str(folder / "instance"))
    with socket_port() as port:
        pass
    server = f"http://127.0.0.1:{port}"
    process = subprocess.Popen(
        [str(SERVE), "serve", "--host", "127.0.0.1", "--port", str(port), "--db", str(db)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        cwd=folder,
    )
    try:
        wait_ready(server)
        for path in (f"/g/{record.edit_token}", f"/v/{record.view_token}"):  # a warm server,
            urllib.request.urlopen(server + path, timeout=30).read()  # as at a table
        with sync_playwright() as playwright:
            browser = launch(playwright)
            print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
            print(
                f"cheap phone: CPU ÷{CPU_SLOWDOWN}, latency {NETWORK['latency']} ms, "
                f"{NETWORK['downloadThroughput'] // KB} KB/s down and up; "
                f"{args.deals}-deal game, 375×667"
            )
            if args.only in (None, "paint"):
                measure_paint(browser, server, record.edit_token, args)
            if args.only in (None, "save"):
                measure_save(browser, server, record.edit_token, args)
            if args.only in (None, "idle"):
                measure_idle(browser, server, record.view_token, args)
            browser.close()
    finally:
        process.terminate()
        process.wait(timeout=20)
        shutil.rmtree(folder, ignore_errors=True)


def measure_paint(browser: Any, server: str, token: str, args: Any) -> None:
    paints = [first_paint(browser, f"{server}/g/{token}") for _ in range(args.repeat)]
    cold_each = [p["cold"] / 1000 for p in paints]
    cold = statistics.median(cold_each)
    warm = statistics.median(p["warm"] for p in paints) / 1000
    print(
        f"(a) first paint, empty cache:  median {cold:5.2f} s "
        f"[{', '.join(f'{p:.2f}' for p in cold_each)}]  "
        f"{paints[0]['cold_down'] / KB:.1f} KB down in {paints[0]['cold_requests']} "
        f"requests   bar 1.0 s: {'met' if cold <= 1.0 else 'MISSED'}"
    )
    if args.verbose:
        print(paints[0]["listing"])
    print(
        f"    the whole first visit (its stylesheet fetched to be cached too): "
        f"{paints[0]['first_visit'] / KB:.1f} KB down in {paints[0]['first_requests']} "
        f"requests   bar 60 KB: {'met' if paints[0]['first_visit'] <= 60 * KB else 'MISSED'}"
    )
    print(
        f"    first paint, files cached: median {warm:5.2f} s "
        f"{paints[0]['warm_down'] / KB:.1f} KB down in "
        f"{paints[0]['warm_requests']} requests"
    )
    report_errors(p["errors"] for p in paints)


def measure_save(browser: Any, server: str, token: str, args: Any) -> None:
    saves = save_to_sheet(browser, server, token, args.repeat)
    paint_each = [s["paint"] for s in saves]
    paint = statistics.median(paint_each)
    print(
        f"(b) Save → sheet painted:      median {paint:5.2f} s "
        f"[{', '.join(f'{p:.2f}' for p in paint_each)}]  wall clock to the sheet "
        f"on screen {statistics.median(s['wall'] for s in saves):.2f} s  "
        f"bar 0.6 s: {'met' if paint <= 0.6 else 'MISSED'}"
    )
    how = "swapped in from the Save's answer" if saves[0]["swapped"] else "a new page"
    print(
        f"    {saves[0]['down'] / KB:.1f} KB down, {saves[0]['up'] / KB:.1f} KB up in "
        f"{saves[0]['requests']} requests ({how})"
    )
    if args.verbose:
        print(saves[0]["listing"])
    report_errors(s["errors"] for s in saves)


def measure_idle(browser: Any, server: str, token: str, args: Any) -> None:
    idle = idle_follower(browser, f"{server}/v/{token}", args.idle)
    settled = idle["settled"]
    hour = idle["tail_per_poll"] * 3600 / settled / 1e6 if settled else float("nan")
    measured = (idle["down"] + idle["up"]) / idle["seconds"] * 3600 / 1e6
    print(
        f"(c) idle follower, {idle['seconds']:.0f} s: {idle['requests']} requests "
        f"(HTTP {'/'.join(idle['statuses'])}) on {idle['connections']} connection(s), "
        f"{idle['down'] / KB:.1f} KB down, {idle['up'] / KB:.1f} KB up "
        f"({idle['tail_per_poll']:.0f} B a poll once settled)"
    )
    print(f"    poll gaps (s): {' '.join(f'{g:.1f}' for g in idle['gaps'])}")
    print(
        f"    settles to one poll every {settled or float('nan'):.1f} s → "
        f"{hour:.2f} MB an hour (the whole window's rate: {measured:.2f} MB/h)   "
        f"bar 0.5 MB/h: {'met' if hour <= 0.5 else 'MISSED'}"
    )
    report_errors([idle["errors"]])


def report_errors(lists: Any) -> None:
    errors = {e for found in lists for e in found}
    if errors:
        print("page errors:", *sorted(errors), sep="\n  ")


class socket_port:
    """A free loopback port (closed again before the server takes it)."""

    def __enter__(self) -> int:
        import socket

        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        return int(self.sock.getsockname()[1])

    def __exit__(self, *exc: object) -> None:
        self.sock.close()


def wait_ready(server: str, timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(server + "/", timeout=1) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.1)
    raise SystemExit("scorekeeper serve did not start")


if __name__ == "__main__":
    main()
