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
import logging
import os
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

WATCH = 0.25
"""Seconds between two looks of the watching thread."""
AGAIN = 2.0
"""Seconds after a cut when a call still not ended is cut again (and the log says so)."""

_lock = threading.Lock()
_due: dict[int, tuple[float, Any, str, int]] = {}
"""Each call in its block: key → (deadline, connection, thread's name, times cut so far)."""
_watcher: list[int] = []  # the process id whose watching thread runs
_cut = [0]  # how many times a call was cut off, in this process (for the metrics)
_keys = itertools.count()


@contextlib.contextmanager
def bounded(connection: Any, seconds: float) -> Iterator[None]:
    """Run the block with the connection's socket shut down if it lasts over `seconds`."""
    key = next(_keys)
    with _lock:
        if not _watcher or _watcher[0] != os.getpid():
            _start()  # before this call is noted: the start forgets every call noted before
        _due[key] = (time.monotonic() + seconds, connection, threading.current_thread().name, 0)
    try:
        yield
    finally:
        with _lock:  # the cut happens under the lock: the descriptor is still the call's
            _due.pop(key, None)


def cut_count() -> int:
    """How many times this process cut a call off since it started."""
    return _cut[0]


def _start() -> None:
    _due.clear()  # a forked child's copy names its parent's calls
    _watcher[:] = [os.getpid()]
    threading.Thread(target=_watch, name="scorekeeper-db-deadline", daemon=True).start()


def _watch() -> None:
    while True:
        time.sleep(WATCH)
        try:
            _cut_late(time.monotonic())
        except Exception:  # noqa: BLE001 - the watching thread never ends: every call needs it
            logging.getLogger(__name__).exception("the database calls' watch failed once")


def _cut_late(now: float) -> None:
    """Shut the socket of each call past its deadline. The call stays noted until it ends:
    one still running AGAIN seconds later is cut again, and the log says which thread's."""
    with _lock:
        for key, (when, connection, thread, cuts) in list(_due.items()):
            if when <= now:
                if cuts:
                    logging.getLogger(__name__).warning(
                        "a call to the database (thread %s) did not end when its socket was"
                        " shut down %d time(s): shut again",
                        thread,
                        cuts,
                    )
                _due[key] = (now + AGAIN, connection, thread, cuts + 1)
                _shut(connection)
                _cut[0] += 1


def _shut(connection: Any) -> None:
    """Shut the connection's socket down (both ways) through a copy of its descriptor: the
    call waiting on it wakes with the connection broken; the descriptor itself stays
    psycopg's. The socket is the one the connection has now, at the cut (libpq has none
    between two, and may have another after)."""
    try:
        copy = os.dup(int(connection.pgconn.socket))
    except Exception:  # noqa: BLE001 - no socket now: looked at again AGAIN seconds later
        return
    try:
        sock = socket.socket(fileno=copy)
    except OSError:  # no longer a socket: nothing to cut
        os.close(copy)
        return
    with sock, contextlib.suppress(OSError):  # the socket closes the copy
        sock.shutdown(socket.SHUT_RDWR)
