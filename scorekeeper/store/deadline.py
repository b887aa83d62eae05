"""A bound on every call to a PostgreSQL server, kept by the client.

A server that stops answering without closing its connections (a frozen VM, its processes
stopped, a network partition on a host whose kernel still acknowledges) never lets a
statement end: the server's own statement_timeout does not run, and TCP keepalives are
answered by the kernel. So each call on a connection is registered here with its deadline;
one thread per process looks every WATCH seconds and shuts down the socket of a call past
its deadline. psycopg, waiting on that socket, then fails the call (OperationalError: the
connection is broken, and the pool discards it) and the request answers 503.

    with bounded(connection, 7.0):
        connection.execute(...)
"""

from __future__ import annotations

import contextlib
import itertools
import os
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

WATCH = 0.25
"""Seconds between two looks of the watching thread."""

_lock = threading.Lock()
_due: dict[int, tuple[float, int]] = {}
_watcher: list[int] = []  # the process id whose watching thread runs
_cut = [0]  # how many calls were cut off, in this process (for the metrics)
_keys = itertools.count()


@contextlib.contextmanager
def bounded(connection: Any, seconds: float) -> Iterator[None]:
    """Run the block with the connection's socket shut down if it lasts over `seconds`."""
    try:
        fd = int(connection.pgconn.socket)
    except Exception:  # noqa: BLE001 - closed already: the call fails by itself
        yield
        return
    key = next(_keys)
    with _lock:
        _due[key] = (time.monotonic() + seconds, fd)
        if not _watcher or _watcher[0] != os.getpid():
            _start()
    try:
        yield
    finally:
        with _lock:  # the cut happens under the lock: the descriptor is still the call's
            _due.pop(key, None)


def cut_count() -> int:
    """How many calls this process cut off since it started."""
    return _cut[0]


def _start() -> None:
    _due.clear()  # a forked child's copy names its parent's calls
    _watcher[:] = [os.getpid()]
    threading.Thread(target=_watch, name="scorekeeper-db-deadline", daemon=True).start()


def _watch() -> None:
    while True:
        time.sleep(WATCH)
        now = time.monotonic()
        with _lock:
            for key, (when, fd) in list(_due.items()):
                if when <= now:
                    del _due[key]
                    _shut(fd)
                    _cut[0] += 1


def _shut(fd: int) -> None:
    """Shut the socket down (both ways) through a copy of its descriptor: the call waiting
    on it wakes with the connection broken; the descriptor itself stays psycopg's."""
    with contextlib.suppress(OSError):
        copy = socket.socket(fileno=os.dup(fd))
        try:
            copy.shutdown(socket.SHUT_RDWR)
        finally:
            copy.close()
