"""One Store per request thread, opened on first use and kept for the thread's next request
while it still names its file (SQLite; on PostgreSQL a connection is borrowed from the pool
for each request); the purge of deleted games (games/purging.py, a service) kept running.
Store errors are pages in web/errors.py."""

from __future__ import annotations

import concurrent.futures
import os
import stat
import threading

from flask import Flask, current_app, g, has_request_context, request

from scorekeeper.games import purging
from scorekeeper.store import (
    DatabaseMissing,
    SchemaTooNew,
    StorageUnavailable,
    Store,
    StoreError,
    is_database_url,
)
from scorekeeper.store.location import printable


def get_store() -> Store:
    """The Store of this request; raises StorageUnavailable if the database cannot be used.
    (On PostgreSQL it borrows a connection from the process's pool until the request ends.)"""
    if "store" not in g:
        g.store = _thread_store(current_app.config["DATABASE"])
    store: Store = g.store
    return store


_THREAD = threading.local()
"""Each server thread's Store, kept between its requests: opening one (connection, pragmas,
schema check) cost more than the rest of a kept page. A Store belongs to its thread."""


def _thread_store(path: str) -> Store:
    kept: tuple[str, int, Store] | None = getattr(_THREAD, "store", None)
    looked = g.get(_LOOKED) if has_request_context() else None
    if kept is not None and kept[:2] == (path, os.getpid()) and kept[2].reusable(looked):
        return kept[2]
    close_kept()
    # Never create the file here: it was made at start-up (prepare_database); a file or
    # folder gone since is a 503, not a fresh empty database beside the real one.
    store = Store(path, create=False)
    _THREAD.store = (path, os.getpid(), store)
    return store


HEALTH_SECONDS = 3.0
"""How long /healthz waits for the database's answer before it says 503: a balancer then
stops sending phones to a host whose database hangs (a frozen server answers nothing)."""
_HEALTH: list[tuple[int, concurrent.futures.ThreadPoolExecutor]] = []


def check_health(location: str, seconds: float = HEALTH_SECONDS) -> None:
    """Ask the database a trivial question on a Store of its own, in a thread of its own;
    raises StorageUnavailable when it fails or has not answered within `seconds` (the
    thread is left to end by itself: every call to the server is bounded, store/deadline)."""
    if not _HEALTH or _HEALTH[0][0] != os.getpid():  # a forked worker makes its own
        _HEALTH[:] = [(os.getpid(), concurrent.futures.ThreadPoolExecutor(2, "health"))]
    asked = _HEALTH[0][1].submit(_ping, location)
    try:
        asked.result(timeout=seconds)
    except concurrent.futures.TimeoutError:
        raise StorageUnavailable(
            f"the database did not answer within {seconds:g} s: {printable(location)}",
            "the database did not answer in time",
        ) from None


def _ping(location: str) -> None:
    with Store(location, create=False) as store:
        store.ping()


def _keep_purging() -> None:
    """Before each request: the purge service keeps purging this database (games/purging)."""
    purging.keep_purging(str(current_app.config["DATABASE"]))


def close_kept() -> None:
    """Close the Store this thread keeps, if any (it opens another when next needed)."""
    kept: tuple[str, int, Store] | None = getattr(_THREAD, "store", None)
    _THREAD.store = None
    if kept is not None:
        kept[2].close()


def _close_store(error: BaseException | None = None) -> None:
    """The request is over: its Store stays with the thread, unless the request failed."""
    store = g.pop("store", None)
    # The file is looked at when the thread's next request takes the Store (reusable), not
    # here too: once per request (stat() of the file was 7.8 % of a worker, docs/capacity.md).
    if store is not None and (error is not None or not store.keepable()):
        close_kept()


def prepare_database(app: Flask) -> None:
    """Create the database file at start-up if it does not exist yet (the only time the
    server makes one), bring its schema up to date and purge it; a file that cannot be
    made is logged and answered with 503s. A database written by a newer release is
    logged and refused: the server does not start (SchemaTooNew)."""
    location = str(app.config["DATABASE"])
    try:
        Store(location).close()
    except SchemaTooNew as error:
        app.logger.error("refusing to start: %s", error)
        raise
    except StoreError as error:
        app.logger.error("storage unavailable at start-up: %s", error)
        return
    purging.purge(location)


def _database_present() -> None:
    """Every page but the static files needs the database: answer 503 at once without it."""
    if request.endpoint in ("static", "main.healthz", "metrics.scrape"):  # answer for themselves
        return
    path = current_app.config["DATABASE"]
    if is_database_url(path):  # a server's, not a file: the request's Store finds out
        return
    try:
        info = os.stat(path)
    except OSError:
        info = None
    if info is None or not stat.S_ISREG(info.st_mode):
        raise DatabaseMissing(f"there is no database file at {path}")
    g.setdefault(_LOOKED, info)  # what the request's Store is checked against: no 2nd look


_LOOKED = "database_file"
"""Where a request keeps the database file's stat() as it found it (flask.g)."""


def init_app(app: Flask) -> None:
    """Check for the database before each request and close the request's Store on teardown
    (its errors are pages in web/errors.py)."""
    app.before_request(_database_present)
    app.before_request(_keep_purging)
    app.teardown_appcontext(_close_store)
