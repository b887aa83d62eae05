"""`scorekeeper serve` as an operator meets it: stopping, several processes, HTTPS under a
silent client, the access log, --version, 304s of compressed downloads, proxy headers.

Each test runs the real server as its own process (uvicorn for `serve`, gunicorn with uvicorn's worker for
`serve --workers 2`, hypercorn for `serve --https`) and talks to it over a socket.
"""

from __future__ import annotations

import fcntl
import gzip
import http.client
import os
import re
import signal
import socket
import sqlite3
import ssl
import subprocess
import threading
import time
import urllib.parse
from collections.abc import Callable
from pathlib import Path

import brotli
import pytest

from scorekeeper import __version__
from scorekeeper.serverlog import MaskedFormatter, mask

from ..harness import (
    ANSWER_SECONDS,
    CLI,
    ROOT,
    START_SECONDS,
    until,
    wait_for_start,
    wait_for_text,
    wait_until_read,
)
from ..ports import free_port
from ..served import (
    GUNICORN,
    Browser,
    Caddy,
    Phone,
    Reply,
    Served,
    Server,
    checked,
    correction,
    fill_new_game,
    new_game,
)

# -- stopping: SIGTERM answers the Save in flight ----------------------------------------------


@pytest.mark.parametrize(
    "args", [(), ("--workers", "2"), GUNICORN], ids=["serve", "workers-2", "gunicorn-command"]
)
def test_sigterm_during_a_save_finishes_it_and_exits_0(
    tmp_path: Path, args: tuple[str, ...]
) -> None:
    db = tmp_path / "games.sqlite"
    server = Server(db, tmp_path / "server.log", args=args).start()
    try:
        phone = Phone(server.port)
        token = new_game(phone)
        fields = checked(phone, token, **correction("saved while the server stops"))
        # Another program holds the database's write lock for 3 s: the Save waits for it.
        holder = sqlite3.connect(db, timeout=10, isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")
        replies: list[Reply | BaseException] = []
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=ANSWER_SECONDS)
        conn.connect()
        assert conn.sock is not None
        client_port = int(conn.sock.getsockname()[1])
        sent = threading.Event()

        def tap() -> None:
            try:
                body = urllib.parse.urlencode(fields, doseq=True).encode()
                cookies = "; ".join(f"{k}={v}" for k, v in phone.cookies.items())
                kind = "application/x-www-form-urlencoded"
                conn.request("POST", f"/g/{token}/deal/new", body=body,
                             headers={"Cookie": cookies, "Content-Type": kind})  # fmt: skip
                sent.set()
                response = conn.getresponse()
                replies.append(Reply(response.status, response.headers, response.read()))
            except BaseException as error:  # noqa: BLE001 - checked below
                replies.append(error)
            finally:
                sent.set()
                conn.close()

        saving = threading.Thread(target=tap)
        saving.start()
        assert sent.wait(ANSWER_SECONDS)
        # The server has read the whole Save (it waits for the database): not a fixed pause.
        wait_until_read(server.port, client_port)
        assert server.process is not None
        server.process.send_signal(signal.SIGTERM)
        time.sleep(2.0)
        holder.execute("ROLLBACK")
        holder.close()
        saving.join(timeout=START_SECONDS)
        assert len(replies) == 1 and isinstance(replies[0], Reply), replies
        assert (replies[0].status, replies[0].location) == (302, f"/g/{token}")
        assert server.process.wait(timeout=START_SECONDS) == 0
        server.process = None
    finally:
        server.stop()
    conn = sqlite3.connect(db)
    try:
        stored = conn.execute(
            "SELECT count(*) FROM deals WHERE data LIKE '%saved while the server stops%'"
        ).fetchone()[0]
    finally:
        conn.close()
    assert stored == 1


# -- limits of the whole server, whichever process answers ------------------------------------


def test_wrong_passwords_are_counted_across_the_processes(tmp_path: Path) -> None:
    server = Server(
        tmp_path / "games.sqlite",
        tmp_path / "server.log",
        env={"SCOREKEEPER_PASSWORD": "1234"},
        args=("--workers", "2"),
    ).start()
    try:
        phone = Phone(server.port)  # a new connection per request: both processes answer
        form = fill_new_game(phone.get("/new").form("new-game"), ["Anna", "Boris", "Vera"])
        statuses = [
            phone.post("/new", form.set(password=f"{n:04d}").data()).status for n in range(5)
        ]
        assert statuses == [422] * 5
        for _ in range(4):  # now even the right one waits, from every process
            assert phone.post("/new", form.set(password="1234").data()).status == 429
    finally:
        server.stop()


def test_two_pdfs_at_a_time_is_a_limit_of_the_whole_server(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    server = Server(
        db,
        tmp_path / "server.log",
        env={"SCOREKEEPER_PDF_WAIT_SECONDS": "0.2"},
        args=("--workers", "2"),
    ).start()
    held: list[int] = []
    try:
        phone = Phone(server.port)
        token = new_game(phone)
        # Two drawings under way elsewhere (their slots held): no process draws a third.
        for n in range(2):
            fd = os.open(tmp_path / f"games.pdf-{n}.lock", os.O_RDWR | os.O_CREAT, 0o600)
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            held.append(fd)
        for _ in range(4):
            busy = phone.get(f"/g/{token}/pulka.pdf")
            assert busy.status == 503 and busy.headers["Retry-After"] == "5"
        os.close(held.pop())  # one of them finishes
        done = phone.get(f"/g/{token}/pulka.pdf")
        assert done.status == 200 and done.body.startswith(b"%PDF")
    finally:
        for fd in held:
            os.close(fd)
        server.stop()


# -- HTTPS: a silent client holds up no one ----------------------------------------------------


def still_open(sock: socket.socket) -> bool:
    """The server has not closed this connection (nothing to read from it yet, and no end)."""
    sock.setblocking(False)
    try:  # a TLS socket takes no flags; nothing is sent to it here, so reading takes nothing
        read = sock.recv(1) if isinstance(sock, ssl.SSLSocket) else sock.recv(1, socket.MSG_PEEK)
        return read != b""
    except (BlockingIOError, ssl.SSLWantReadError):
        return True
    except OSError:
        return False
    finally:
        sock.setblocking(True)


def test_a_silent_connection_does_not_hold_up_https(serve: Callable[..., Served]) -> None:
    """Another client is answered while the silent ones are still connected: it did not
    wait for the server to drop them (at its handshake timeout, 10 s; a request begun and
    not finished, 5 s). Its connection is made first, so only the server's answer is raced."""
    served = serve("--https")
    token = Browser(served).new_game()
    page = _connected(served)
    silent = [
        socket.create_connection(("127.0.0.1", served.port), timeout=ANSWER_SECONDS)
        for _ in range(3)
    ]
    try:
        assert _get(page, f"/g/{token}") == 200
        assert all(still_open(s) for s in silent)  # answered before their timeout, not after
        # A client that completed its handshake but sends its request slowly: same.
        health = _connected(served)
        context = ssl.create_default_context(cafile=str(served.instance / "tls" / "cert.pem"))
        raw = socket.create_connection(("127.0.0.1", served.port), timeout=ANSWER_SECONDS)
        slow = context.wrap_socket(raw, server_hostname="localhost")
        slow.sendall(b"GET / HTTP/1.1\r\nHost: local")
        assert _get(health, "/healthz") == 200
        assert still_open(slow)
        slow.close()
    finally:
        for s in silent:
            s.close()


def _connected(served: Served) -> http.client.HTTPConnection:
    """A connection to the server with its TLS handshake done."""
    conn = served.connection()
    conn.connect()
    return conn


def _get(conn: http.client.HTTPConnection, path: str) -> int:
    try:
        conn.request("GET", path)
        response = conn.getresponse()
        response.read()
        return response.status
    finally:
        conn.close()


# -- the access log ------------------------------------------------------------------------------

CLF = re.compile(
    r"(?P<client>\S+) - - \[(?P<time>\d{2}/\w{3}/\d{4}:\d{2}:\d{2}:\d{2} [+-]\d{4})\] "
    r'"(?P<request>[^"\\]*(?:\\.[^"\\]*)*)" (?P<status>\d{3}) (?P<size>\d+|-) '
    r'"(?P<referrer>[^"\\]*(?:\\.[^"\\]*)*)" "(?P<agent>[^"\\]*(?:\\.[^"\\]*)*)" '
    r"(?P<seconds>\d+\.\d{3})"
)


@pytest.mark.parametrize("args", [(), ("--workers", "2"), ("--https",)])
def test_the_access_log_is_combined_log_format_with_every_token_masked(
    serve: Callable[..., Served], args: tuple[str, ...]
) -> None:
    served = serve(*args)
    phone = Browser(served)
    token = phone.new_game()
    secret = "S3cretCompanyToken0123456789abcd"
    phone.headers = {"Referer": f"https://pulka.example.org/g/{token}", "User-Agent": 'Phone "7"'}
    phone.request("GET", f"/g/{token}?lang=ru")
    for path in ("c", "cv", "t", "tv", "v"):
        phone.request("GET", f"/{path}/{secret}")
    phone.request("GET", "/no/such/page")
    wait_for_text(served.out, "/no/such/page")  # a line is written once its reply has gone out
    served.stop()
    text = served.err.read_text() + served.out.read_text()
    assert token not in text and secret not in text and "lang=ru" not in text
    lines = [CLF.fullmatch(line) for line in served.out.read_text().splitlines()]
    log = [m for m in lines if m]
    requests = [m["request"] for m in log]
    protocol = "HTTP/1.1"
    assert f"POST /new {protocol}" in requests
    assert f"GET /g/*** {protocol}" in requests
    for path in ("c", "cv", "t", "tv", "v"):
        assert f"GET /{path}/*** {protocol}" in requests
    game = next(m for m in log if m["request"] == f"GET /g/*** {protocol}")
    assert game["client"] == "127.0.0.1" and game["status"] == "200"
    assert int(game["size"]) > 1000
    assert game["referrer"] == "https://pulka.example.org/g/***"
    assert game["agent"] == 'Phone \\"7\\"'
    assert float(game["seconds"]) >= 0  # how long it took: logged, never a test's bound
    missing = next(m for m in log if m["request"].startswith("GET /no/such/page"))
    assert missing["status"] == "404"


def test_error_lines_and_tracebacks_are_masked_too() -> None:
    import logging

    try:
        raise RuntimeError("cannot save /g/AbCdEf0123456789 for /cv/XyZ0123456789")
    except RuntimeError:
        import sys

        record = logging.LogRecord(
            "scorekeeper.web",
            logging.ERROR,
            __file__,
            1,
            "Exception on %s [POST]",
            ("/g/AbCdEf0123456789/deal/new",),
            sys.exc_info(),
        )
    line = MaskedFormatter("%(message)s").format(record)
    assert "Exception on /g/***/deal/new [POST]" in line
    assert "cannot save /g/*** for /cv/***" in line
    assert "AbCdEf" not in line and "XyZ" not in line
    assert mask("/static/app.css /healthz") == "/static/app.css /healthz"


# -- the command --------------------------------------------------------------------------------


def test_version_is_printed() -> None:
    done = subprocess.run([CLI, "--version"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0
    assert done.stdout.strip() == f"scorekeeper {__version__}"


# -- 304 for compressed downloads ------------------------------------------------------------------


@pytest.mark.parametrize("encoding", ["gzip", "br"])
def test_compressed_downloads_answer_304_to_their_own_tag(tmp_path: Path, encoding: str) -> None:
    server = Server(tmp_path / "games.sqlite", tmp_path / "server.log", args=("--workers", "2"))
    server.start()
    try:
        phone = Phone(server.port)
        token = new_game(phone)
        for n in range(8):  # a game file long enough to be worth compressing
            fields = checked(phone, token, **correction(f"correction number {n} " * 4))
            assert phone.post(f"/g/{token}/deal/new", fields).status == 302
        compressed = 0
        for path in (f"/g/{token}/game.json", f"/g/{token}.json", f"/g/{token}/chart.svg"):
            conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=ANSWER_SECONDS)
            try:
                conn.request("GET", path, headers={"Accept-Encoding": encoding})
                first = conn.getresponse()
                body = first.read()
                assert first.status == 200, path
                if first.headers.get("Content-Encoding") != encoding:
                    continue  # too small to be worth compressing: a plain tag
                compressed += 1
                data = gzip.decompress(body) if encoding == "gzip" else brotli.decompress(body)
                assert data
                etag = first.headers["ETag"]
                assert not etag.startswith("W/") and etag.endswith(f'-{encoding}"'), etag
                again_headers = {"Accept-Encoding": encoding, "If-None-Match": etag}
                conn.request("GET", path, headers=again_headers)
                again = conn.getresponse()
                assert again.read() == b""
                assert again.status == 304, path
                assert again.headers["ETag"] == etag
            finally:
                conn.close()
        assert compressed >= 2  # the game file and its twin at least: something was tested
    finally:
        server.stop()


# -- proxies: what a client sends never changes another client's page --------------------------

HOSTILE = {
    "X-Forwarded-Prefix": "//evil.example",
    "X-Forwarded-Host": "evil.example",
    "X-Forwarded-Proto": "https",
    "X-Forwarded-For": "203.0.113.66",
}


def _pages(served: Served, token: str, view: str, hostile: Browser, other: Browser) -> str:
    texts = []
    for _ in range(2):
        for path in (f"/v/{view}", f"/g/{token}", f"/v/{view}"):
            texts.append(hostile.request("GET", path)[2])
            status, _, html = other.request("GET", path)
            assert status == 200
            texts.append(html)
    return "\n".join(texts)


def _view_of(browser: Browser, token: str) -> str:
    html = browser.request("GET", f"/g/{token}")[2]
    found = re.search(r"/v/([A-Za-z0-9_-]+)", html)
    assert found
    return found.group(1)


@pytest.mark.parametrize(
    "env",
    [
        {},
        {"SCOREKEEPER_TRUSTED_PROXY": "10.9.9.9"},
        {"SCOREKEEPER_TRUSTED_PROXY": "10.9.9.9", "SCOREKEEPER_HTTPS": "1"},
    ],
    ids=["no-proxy", "other-proxy", "other-proxy-https"],
)
def test_a_clients_forwarded_headers_change_no_page(
    serve: Callable[..., Served], env: dict[str, str]
) -> None:
    served = serve("--workers", "2", env=env)
    owner = Browser(served)
    token = owner.new_game()
    view = _view_of(owner, token)
    text = _pages(served, token, view, Browser(served, HOSTILE), owner)
    assert "evil.example" not in text
    assert f"http://127.0.0.1:{served.port}/v/{view}" in text


def test_the_prefix_comes_from_configuration_only(serve: Callable[..., Served]) -> None:
    served = serve("--prefix", "/pulka", env={"SCOREKEEPER_TRUSTED_PROXY": "127.0.0.1"})
    owner = Browser(served, {"X-Forwarded-Host": "pulka.example.org"})
    token = owner.new_game()
    status, _, html = owner.request("GET", f"/pulka/g/{token}")  # a proxy that keeps the prefix
    assert status == 200
    assert "http://pulka.example.org/pulka/v/" in html
    assert "/pulka/static/" in html
    hostile = Browser(served, {"X-Forwarded-Prefix": "//evil.example"})
    assert "evil.example" not in hostile.request("GET", f"/g/{token}")[2]


def test_behind_the_shipped_caddyfile_a_clients_headers_change_no_page(
    serve: Callable[..., Served], tmp_path: Path
) -> None:
    served = serve("--workers", "2", env={"SCOREKEEPER_TRUSTED_PROXY": "127.0.0.1"})
    caddy = Caddy(tmp_path, served.port)
    try:
        caddy.wait()
        owner = Browser(served)
        owner.served = caddy  # type: ignore[assignment]  (through Caddy)
        hostile = Browser(served, HOSTILE)
        hostile.served = caddy  # type: ignore[assignment]
        token = owner.new_game()
        view = _view_of(owner, token)
        text = _pages(served, token, view, hostile, owner)
        assert "evil.example" not in text
        assert f"https://localhost:{caddy.port}/v/{view}" in text
    finally:
        caddy.stop()


def test_the_deploy_files_pin_their_images_and_run_gunicorn() -> None:
    dockerfile = (ROOT / "Dockerfile").read_text()
    # Both stages on one base: an exact Python on an exact Debian unless a build names another.
    images = re.findall(r"^FROM (\S+)", dockerfile, re.M)
    assert images == ["${BASE}", "${BASE}"], images
    base = re.findall(r"^ARG BASE=(\S+)$", dockerfile, re.M)
    pinned = r"python:3\.11\.\d+-slim-bookworm(@sha256:[0-9a-f]{64})?"
    assert len(base) == 1 and re.fullmatch(pinned, base[0]), base
    assert "STOPSIGNAL SIGTERM" in dockerfile
    assert "tini" in dockerfile and "/healthz" in dockerfile
    assert "gunicorn" in dockerfile and "scorekeeper.gunicorn_config" in dockerfile
    compose = (ROOT / "deploy" / "compose.yaml").read_text()
    assert re.search(r"image: caddy:2\.\d+\.\d+", compose)
    assert "stop_grace_period" in compose
    caddyfile = (ROOT / "deploy" / "Caddyfile").read_text()
    assert "header_up -X-Forwarded-Prefix" in caddyfile
    unit = (ROOT / "deploy" / "scorekeeper.service").read_text()
    assert "gunicorn" in unit and "KillSignal=SIGTERM" in unit


def test_sigterm_stops_serve_at_once_when_it_is_pid_1(tmp_path: Path) -> None:
    """In a container without an init, `serve` is PID 1, which the kernel shields from
    signals it has no handler for: serve handles SIGTERM itself and exits 0 (unhandled, the
    signal would be dropped and serve would run on until killed)."""
    port = free_port()
    env = {
        **os.environ,
        "SCOREKEEPER_INSTANCE": str(tmp_path / "instance"),
        "SCOREKEEPER_SECRET_KEY": "pid 1",
    }
    command = ["unshare", "--user", "--map-root-user", "--pid", "--fork", CLI, "serve"]
    command += ["--host", "127.0.0.1", "--port", str(port), "--db", str(tmp_path / "g.sqlite")]
    with (tmp_path / "out").open("wb") as out:
        outer = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=env)
    try:
        wait_for_start(
            lambda: Phone(port).get("/healthz").status == 200,
            outer,
            (tmp_path / "out").read_text,
        )
        (inner,) = Path(f"/proc/{outer.pid}/task/{outer.pid}/children").read_text().split()
        status = Path(f"/proc/{inner}/status").read_text()
        assert re.search(r"^NSpid:\s+\d+\s+1$", status, re.M), "serve is not PID 1"
        os.kill(int(inner), signal.SIGTERM)
        assert outer.wait(timeout=START_SECONDS) == 0
    finally:
        if outer.poll() is None:
            outer.kill()
            outer.wait()


def test_a_worker_whose_master_was_killed_stops(serve: Callable[..., Served]) -> None:
    """gunicorn's master killed (SIGKILL: it cannot stop its workers) leaves no worker
    behind serving the port and holding the database: each notices within a second or so
    that its master is gone and stops, as gunicorn's own workers do (the deploy runs the
    same worker: scorekeeper.async_worker)."""
    served = serve("--workers", "2")
    master = served.process.pid
    children = Path(f"/proc/{master}/task/{master}/children")
    until(lambda: len(children.read_text().split()) == 2, "the two workers started")
    workers = [int(pid) for pid in children.read_text().split()]
    served.process.kill()
    served.process.wait()

    def ended(pid: int) -> bool:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except FileNotFoundError:
            return True
        return state in ("Z", "X")  # a zombie waits for its new parent: it runs no more

    until(lambda: all(ended(pid) for pid in workers), "the workers stopping")
