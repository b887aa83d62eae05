"""HTTPS under slow clients: does a connection that says nothing hold up the scorer's Save?

Starts a server over TLS on a loopback port (by default `scorekeeper serve --https`, with its
self-made certificate), creates a game, and times the scorer's Save (a fresh TLS connection,
the POST of a checked deal) in three situations:

1. alone (the baseline);
2. with one silent TCP connection open (connected, never a byte sent; a new one before
   each Save): what it adds to a Save;
3. with 20 silent TCP connections and 20 slow TLS clients (handshake done, then a request
   header dribbled one byte a second), all reconnecting whenever the server drops them.

Bars (issue 21): one silent connection adds < 100 ms to the median Save (the
slowest is printed too: on a busy machine it carries the machine's noise); under 20 + 20,
Save p99 < 1 s.

Run: .venv/bin/python bench/bench_tls.py [--saves 30] [--server serve|gunicorn|hypercorn|uvicorn]
(the other servers are the candidates measured when `serve --https` was chosen: gunicorn's
gthread worker with certfile/keyfile, hypercorn, uvicorn with a2wsgi, and cheroot, which
served it before; each but gunicorn and hypercorn must be installed by hand).
"""

from __future__ import annotations

import argparse
import http.client
import os
import re
import socket
import ssl
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from collections.abc import Callable
from pathlib import Path

from scorekeeper.serving import certificate
from scorekeeper.web.options import preset_values

PLAYERS = ["Anna", "Boris", "Vera"]
HIDDEN = re.compile(r'<input[^>]*\bname="(csrf_token|request_key|base_version|checked)"[^>]*>')
VALUE = re.compile(r'\bvalue="([^"]*)"')
ASGI = (
    "from a2wsgi import WSGIMiddleware; from scorekeeper.wsgi import app as wsgi; "
    "app = WSGIMiddleware(wsgi, workers=8)"
)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def command(server: str, port: int, cert: Path, key: Path) -> list[str]:
    """How each candidate is started (one process, eight threads for the app)."""
    py = sys.executable
    bind = f"127.0.0.1:{port}"
    if server == "serve":
        return [py, "-m", "scorekeeper.cli", "serve", "--https", "--host", "127.0.0.1"] + [
            "--port",
            str(port),
        ]
    if server == "gunicorn":
        return [py, "-m", "gunicorn", "-k", "gthread", "--threads", "8", "-w", "1", "-b", bind] + [
            "--certfile",
            str(cert),
            "--keyfile",
            str(key),
            "scorekeeper.wsgi:app",
        ]
    if server == "hypercorn":
        return [py, "-m", "hypercorn", "-b", bind, "--certfile", str(cert)] + [
            "--keyfile",
            str(key),
            "scorekeeper.wsgi:app",
        ]
    if server == "cheroot":
        script = (
            "from cheroot import wsgi; from cheroot.ssl.builtin import BuiltinSSLAdapter; "
            "from scorekeeper.wsgi import app; "
            f"s = wsgi.Server(('127.0.0.1', {port}), app, numthreads=8, timeout=30); "
            f"s.ssl_adapter = BuiltinSSLAdapter({str(cert)!r}, {str(key)!r}); s.safe_start()"
        )
        return [py, "-c", script]
    if server == "uvicorn":
        script = (
            f"import uvicorn; {ASGI}; uvicorn.run(app, host='127.0.0.1', port={port}, "
            f"ssl_certfile={str(cert)!r}, ssl_keyfile={str(key)!r}, log_level='warning')"
        )
        return [py, "-c", script]
    raise SystemExit(f"unknown server {server}")


class Phone:
    """The scorer's phone over HTTPS: cookies, a fresh connection per request."""

    def __init__(self, port: int, context: ssl.SSLContext) -> None:
        self.port = port
        self.context = context
        self.cookies: dict[str, str] = {}

    def request(
        self, method: str, path: str, fields: dict[str, str] | list[tuple[str, str]] | None = None
    ) -> tuple[int, str, str]:
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        body = None
        if fields is not None:
            body = urllib.parse.urlencode(fields).encode()
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        conn = http.client.HTTPSConnection("localhost", self.port, context=self.context, timeout=90)
        try:
            conn.request(method, path, body=body, headers=headers)
            response = conn.getresponse()
            data = response.read().decode("utf-8", "replace")
        finally:
            conn.close()
        for cookie in response.headers.get_all("Set-Cookie") or []:
            name, _, value = cookie.split(";", 1)[0].partition("=")
            self.cookies[name.strip()] = value.strip()
        location = urllib.parse.urlsplit(response.headers.get("Location", "")).path
        return response.status, location, data


def hidden(html: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for match in HIDDEN.finditer(html):
        value = VALUE.search(match.group(0))
        out[match.group(1)] = value.group(1) if value else ""
    return out


def new_game(phone: Phone) -> str:
    status, _, html = phone.request("GET", "/new")
    assert status == 200, status
    body = [("csrf_token", hidden(html)["csrf_token"])]
    for name, value in preset_values("sochi").items():
        if isinstance(value, bool):
            body += [(name, "y")] if value else []
        elif isinstance(value, list | tuple):
            body += [(name, str(v)) for v in value]
        else:
            body.append((name, str(value)))
    body += [("name", "TLS"), ("convention", "sochi"), ("rendered_preset", "sochi")]
    body += [(f"player_{i}", p) for i, p in enumerate(PLAYERS)] + [("first_dealer", "0")]
    status, location, html = phone.request("POST", "/new", body)
    assert status == 302, (status, re.sub(r"<[^>]+>", " ", html)[-1500:])
    return location.rsplit("/", 1)[-1]


FAILURES: list[str] = []


def timed_save(phone: Phone, token: str, n: int, before: Callable[[], None] | None = None) -> float:
    """Open the deal form, check a correction, then time the Save alone (seconds); a Save
    that fails counts the time until it failed (and the failure is listed)."""
    start = time.perf_counter()
    try:
        return _timed_save(phone, token, n, before)
    except (OSError, http.client.HTTPException, AssertionError) as error:
        FAILURES.append(f"save {n}: {type(error).__name__}: {error}")
        return time.perf_counter() - start


def _timed_save(
    phone: Phone, token: str, n: int, before: Callable[[], None] | None = None
) -> float:
    url = f"/g/{token}/deal/new"
    _, _, html = phone.request("GET", url)
    fields = {
        "kind": "correction",
        "reason": f"save {n}",
        "corr_player_0": str(n % 3),
        "corr_column_0": "hill",
        "corr_amount_0": "1",
        **hidden(html),
    }
    status, _, html = phone.request("POST", url, fields | {"action": "check"})
    assert status == 200, status
    fields["checked"] = hidden(html)["checked"]
    if before is not None:
        before()
    start = time.perf_counter()
    status, _, _ = phone.request("POST", url, fields | {"action": "save"})
    took = time.perf_counter() - start
    assert status == 302, status
    return took


class Attackers:
    """Silent TCP connections and slow TLS clients, reconnecting when dropped."""

    def __init__(self, port: int, context: ssl.SSLContext, silent: int, slow: int) -> None:
        self.port = port
        self.context = context
        self.stop = threading.Event()
        self.threads = [threading.Thread(target=self._silent, daemon=True) for _ in range(silent)]
        self.threads += [threading.Thread(target=self._slow, daemon=True) for _ in range(slow)]
        self.ready = threading.Semaphore(0)
        for thread in self.threads:
            thread.start()
        for _ in self.threads:  # every attacker connected once (a slow one: handshake done)
            self.ready.acquire(timeout=120)

    def _silent(self) -> None:
        first = True
        while not self.stop.is_set():
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=5) as s:
                    if first:
                        self.ready.release()
                        first = False
                    s.settimeout(0.5)
                    while not self.stop.is_set():
                        try:
                            if s.recv(1) == b"":
                                break  # the server gave up on it: connect again
                        except TimeoutError:
                            continue
            except OSError:
                time.sleep(0.1)

    def _slow(self) -> None:
        first = True
        while not self.stop.is_set():
            try:
                raw = socket.create_connection(("127.0.0.1", self.port), timeout=120)
                with self.context.wrap_socket(raw, server_hostname="localhost") as s:
                    if first:
                        self.ready.release()
                        first = False
                    for byte in b"GET / HTTP/1.1\r\nHost: localhost\r\nX-Slow: " + b"a" * 10_000:
                        if self.stop.wait(1.0):
                            return
                        s.sendall(bytes([byte]))
            except OSError:
                if first:
                    self.ready.release()
                    first = False
                time.sleep(0.1)

    def close(self) -> None:
        self.stop.set()


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(p / 100 * len(ordered) + 0.5) - 1))
    return ordered[index]


def ms(values: list[float]) -> str:
    v = [x * 1000 for x in values]
    return (
        f"median {statistics.median(v):7.1f} ms  p99 {percentile(v, 99):8.1f} ms  "
        f"max {max(v):8.1f} ms"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--saves", type=int, default=30, help="Saves timed per situation")
    parser.add_argument(
        "--server",
        choices=("serve", "gunicorn", "hypercorn", "uvicorn", "cheroot"),
        default="serve",
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-tls-") as folder:
        instance = Path(folder) / "instance"
        cert, key = certificate(instance / "tls", ["localhost"])
        context = ssl.create_default_context(cafile=str(cert))
        port = free_port()
        env = {
            **os.environ,
            "SCOREKEEPER_INSTANCE": str(instance),
            "SCOREKEEPER_DB": str(Path(folder) / "games.sqlite"),
            "SCOREKEEPER_SECRET_KEY": "bench",
            "SCOREKEEPER_PASSWORD": "",
        }
        log = Path(folder) / "server.log"
        with log.open("wb") as out:
            server = subprocess.Popen(
                command(args.server, port, cert, key), stdout=out, stderr=subprocess.STDOUT, env=env
            )
        try:
            phone = Phone(port, context)
            for _ in range(400):
                if server.poll() is not None:
                    raise SystemExit(f"the server did not start:\n{log.read_text()}")
                try:
                    phone.request("GET", "/healthz")
                    break
                except (OSError, http.client.HTTPException):
                    time.sleep(0.05)
            token = new_game(phone)
            n = 0
            alone = []
            print(f"server: {args.server} over TLS, {args.saves} Saves per situation", flush=True)
            for _ in range(args.saves):
                alone.append(timed_save(phone, token, n))
                n += 1
            print(f"Save alone:                        {ms(alone)}", flush=True)
            silent: list[socket.socket] = []

            def one_silent() -> None:
                for s in silent:
                    s.close()
                silent[:] = [socket.create_connection(("127.0.0.1", port), timeout=5)]

            with_one = []
            for _ in range(args.saves):
                with_one.append(timed_save(phone, token, n, one_silent))
                n += 1
            for s in silent:
                s.close()
            print(f"Save with one silent connection:   {ms(with_one)}", flush=True)
            attackers = Attackers(port, context, 20, 20)
            crowd = []
            try:
                for _ in range(args.saves):
                    crowd.append(timed_save(phone, token, n))
                    n += 1
            finally:
                attackers.close()
            print(f"Save with 20 silent + 20 slow TLS: {ms(crowd)}", flush=True)
        finally:
            server.terminate()
            try:
                server.wait(timeout=40)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()

    added = (statistics.median(with_one) - statistics.median(alone)) * 1000
    worst_added = (max(with_one) - statistics.median(alone)) * 1000
    print(
        f"one silent connection adds {added:.1f} ms to the median Save "
        f"({worst_added:.1f} ms to the slowest) (bar: < 100 ms)"
    )
    p99 = percentile(crowd, 99) * 1000
    print(f"20 silent + 20 slow: Save p99 {p99:.1f} ms (bar: < 1000 ms)")
    print(f"failed Saves: {len(FAILURES)}")
    for failure in FAILURES[:5]:
        print(f"  {failure}")
    ok = added < 100 and p99 < 1000 and not FAILURES
    print("bars met" if ok else "bars NOT met")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
