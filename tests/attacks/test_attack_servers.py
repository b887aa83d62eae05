"""Issue 32, item 11, against the real servers (`serve`: uvicorn, `serve --workers 2` and the
deploy's command: gunicorn, `serve --https`: hypercorn), over raw sockets:

- a request with both Content-Length and Transfer-Encoding is answered (or refused) and the
  connection is closed after it, as RFC 9112 (6.3) says;
- gunicorn's 413 for a body over the limit says Connection: close, and closes.
"""

from __future__ import annotations

import signal
import socket
import ssl
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from ..harness import START_SECONDS, wait_until_read
from ..served import GUNICORN, Served
from ..serving.test_serve_logs import Started

FRAMED_TWICE = (
    b"POST /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n"
    b"Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n"
)


def exchange(port: int, data: bytes, tls: bool = False, wait: float = 10.0) -> tuple[bytes, bool]:
    """Send the bytes; (what came back, whether the server closed the connection within
    `wait` seconds of its answer). Fails if no answer comes in START_SECONDS (a busy machine
    is slow, and is told apart from a server that answers and keeps the connection open)."""
    sock: socket.socket = socket.create_connection(("127.0.0.1", port), timeout=5)
    if tls:
        context = ssl.create_default_context()
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        sock = context.wrap_socket(sock, server_hostname="localhost")
    try:
        sock.sendall(data)
        sock.settimeout(0.5)
        received, started = b"", time.monotonic()
        answered: float | None = None  # when the answer's head had come
        while answered is None or time.monotonic() - answered < wait:
            if answered is None and time.monotonic() - started > START_SECONDS:
                raise AssertionError(
                    f"no answer in {START_SECONDS} s (the machine may be busy): {received[:200]!r}"
                )
            try:
                chunk = sock.recv(65536)
            except (TimeoutError, ssl.SSLWantReadError):
                continue
            except (ConnectionResetError, ssl.SSLError):
                return received, True
            if not chunk:
                return received, True
            received += chunk
            if answered is None and b"\r\n\r\n" in received:
                answered = time.monotonic()
        return received, False  # answered, and still open `wait` seconds later
    finally:
        sock.close()


def head(received: bytes) -> str:
    return received.split(b"\r\n\r\n", 1)[0].decode("latin-1").lower()


@pytest.mark.parametrize("args", [(), ("--workers", "2"), ("--https",)], ids=str)
def test_a_request_framed_twice_is_answered_then_closed(
    serve: Callable[..., Served], args: tuple[str, ...]
) -> None:
    served = serve(*args)
    received, closed = exchange(served.port, FRAMED_TWICE, tls="--https" in args)
    assert head(received).startswith("http/1.1 "), received[:200]
    assert closed, head(received)


@pytest.mark.parametrize("how", ["workers-2", "gunicorn-command"])
def test_gunicorns_413_says_close_and_closes(tmp_path: Path, how: str) -> None:
    command = ["serve", "--workers", "2"] if how == "workers-2" else list(GUNICORN)
    started = Started(tmp_path, command, {})
    try:
        assert started.healthz() == 200
        body = b"x" * 200_000  # of a declared 3 MB: the answer comes before the rest
        request = (
            b"POST /import HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\n"
            b"Content-Length: 3145728\r\n\r\n" + body
        )
        received, closed = exchange(started.port, request)
    finally:
        started.stop()
    assert head(received).startswith("http/1.1 413"), received[:200]
    assert "connection: close" in head(received)
    assert closed


def tls_phone(port: int) -> ssl.SSLSocket:
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    raw = socket.create_connection(("127.0.0.1", port), timeout=10)
    return context.wrap_socket(raw, server_hostname="localhost")


def test_https_stops_at_once_with_phones_connected_and_hostile_tls_leaves_no_traceback(
    serve: Callable[..., Served],
) -> None:
    served = serve("--https")
    ask = b"GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n"
    idle = tls_phone(served.port)  # a phone between two polls: its connection kept open
    idle.sendall(ask)
    assert idle.recv(4096).startswith(b"HTTP/1.1 200")
    hostile = []
    for garbage in (b"\x16\x03\x01\x00\xff" + b"\x00" * 40, b"GET / HTTP/1.1\r\n"):
        raw = socket.create_connection(("127.0.0.1", served.port), timeout=10)
        raw.sendall(garbage)  # a handshake that is not one; plain text on the TLS port
        hostile.append(raw)
    broken = tls_phone(served.port)
    broken.sendall(ask)
    broken.recv(4096)
    broken.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
    broken.close()  # a reset instead of a goodbye
    polling = tls_phone(served.port)
    polling.sendall(ask)
    polling.recv(4096)
    for raw in hostile:  # the server has read the garbage (or closed on it): no fixed pause
        wait_until_read(served.port, raw.getsockname()[1])
    started = time.monotonic()
    served.process.send_signal(signal.SIGTERM)
    polling.sendall(ask)  # a poll as the stop begins
    status = served.process.wait(timeout=25)  # less than the 30 s grace it used to wait
    print(f"serve --https stopped {time.monotonic() - started:.1f} s after SIGTERM")
    for sock in (idle, polling, *hostile):
        sock.close()
    assert status == 0
    err = served.err.read_text()
    assert "Traceback" not in err and "CancelledError" not in err, err[-3000:]
