"""The purge of games deleted long enough ago (Store.purge_deleted): a service the server
runs, at start-up and then every PURGE_EVERY seconds in a background thread of each process;
the web app only asks that it be kept running (keep_purging, before a request). No Flask
here."""

from __future__ import annotations

import logging
import os
import threading
import time

from scorekeeper.store import Store, StoreError

PURGE_EVERY = 3600.0
"""Seconds between two purges of games deleted long enough ago (also done at start-up)."""

_PURGED: dict[str, float] = {}
"""Each database this process serves, and when (time.monotonic()) it was last purged."""
_PURGER: list[int] = []  # the process id whose purging thread runs
_PURGER_LOCK = threading.Lock()
log = logging.getLogger(__name__)


def purge(location: str) -> None:
    """Purge the games deleted long enough ago from one database, now, on its own Store
    (never inside a request's). On PostgreSQL one host at a time does it (an advisory lock:
    the others find it taken and leave it)."""
    _PURGED[location] = time.monotonic()
    try:
        with Store(location, create=False) as store:
            store.purge_deleted()
    except StoreError as error:  # e.g. a read-only file: reading still works
        log.warning("could not purge deleted games: %s", error)


def keep_purging(location: str) -> None:
    """Make sure this process purges the database in the background every PURGE_EVERY
    seconds (a forked worker starts its own thread). Cheap: called before each request."""
    _PURGED.setdefault(location, time.monotonic())
    if _PURGER and _PURGER[0] == os.getpid():
        return
    with _PURGER_LOCK:
        if _PURGER and _PURGER[0] == os.getpid():
            return
        _PURGER[:] = [os.getpid()]
        threading.Thread(target=_purging, name="scorekeeper-purge", daemon=True).start()


def _purging() -> None:
    while True:
        time.sleep(min(60.0, PURGE_EVERY))
        for location, last in list(_PURGED.items()):
            if time.monotonic() - last >= PURGE_EVERY:
                purge(location)
