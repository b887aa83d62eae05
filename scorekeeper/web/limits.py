"""Limits every process of a server shares: where they are kept, and the PDFs drawn at once.

A server runs one process (`serve`) or several (`serve --workers N`, gunicorn); a limit said
to hold for the server holds for all of them together:

- wrong passwords are counted in the database itself (scorekeeper/lockout.py), on either
  engine;
- the PDFs drawn at the same time take a slot each: a lock file beside the database,
  `<name>.pdf-<n>.lock`, held with flock() while it is drawn (the system lets go of it when
  the process ends, however it ends).

On PostgreSQL (several hosts, one database) the PDF slots are each host's own.

Where the folder cannot be written (or flock does not exist, on Windows) a limit falls back
to the process's own memory; a warning says so once.
"""

from __future__ import annotations

import contextlib
import ctypes
import gc
import logging
import os
import threading
import time
from pathlib import Path
from typing import Any

from flask import current_app

from scorekeeper.store.engine import is_database_url

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: one process serves, a semaphore does
    fcntl = None  # type: ignore[assignment]

log = logging.getLogger(__name__)


def beside_database(config: Any, suffix: str) -> Path:
    """A file in the database's folder, named after it: games.sqlite → games<suffix>."""
    if is_database_url(config["DATABASE"]):
        # Several hosts serve one PostgreSQL: a file beside it does not exist. The PDF
        # slots are then each host's own (a host's CPU is what they protect).
        raise OSError("the database is a PostgreSQL server: each host keeps its own")
    database = Path(str(config["DATABASE"]))
    stem = database.name.removesuffix(".sqlite")
    return database.with_name(f"{stem}{suffix}")


_WARNED: set[str] = set()


def warn_once(what: str, error: OSError) -> None:
    """Say once per process that a limit is kept per process (and why)."""
    if what not in _WARNED:
        _WARNED.add(what)
        log.warning("%s are counted per process: %s", what, error)


class PdfSlots:
    """At most `count` drawings at once across every process serving the database.

    `acquire(timeout)` / `release()` in the same thread, as a semaphore's.
    """

    def __init__(self, count: int) -> None:
        self.count = count
        self._local = threading.local()
        self._fallback = threading.BoundedSemaphore(count)

    def acquire(self, timeout: float) -> bool:
        if fcntl is None:
            return self._fallback.acquire(timeout=timeout)
        deadline = time.monotonic() + timeout
        try:
            paths = [
                beside_database(current_app.config, f".pdf-{n}.lock") for n in range(self.count)
            ]
            while True:
                for path in paths:
                    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
                    try:
                        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    except BlockingIOError:
                        os.close(fd)
                        continue
                    self._local.fd = fd
                    return True
                if time.monotonic() >= deadline:
                    return False
                time.sleep(0.05)
        except OSError as error:
            warn_once("PDFs drawn at once", error)
            if self._fallback.acquire(timeout=max(0.0, deadline - time.monotonic())):
                self._local.fd = None
                return True
            return False

    def release(self) -> None:
        fd = getattr(self._local, "fd", None)
        self._local.fd = None
        if fd is None:
            self._fallback.release()
            return
        with contextlib.suppress(OSError):
            fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)


def give_back_memory() -> None:
    """Return the memory a drawing used to the system (glibc keeps freed heap otherwise):
    a PDF takes tens of MB for a moment, and a server that kept them would grow with each."""
    gc.collect()
    try:
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):  # not glibc: the memory is reused, just not returned
        pass
