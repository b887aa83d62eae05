"""Wrong server passwords, counted per client: after a few in a minute, the client waits.

Without this, 1,235 guesses in 17 s found "1234". The count is kept in a small SQLite file
beside the database (limits.py), so every process of the server counts together, and a
restart does not clear it; on PostgreSQL it is kept in the database itself (its
wrong_passwords table, by the database's clock), so every host counts together. The client
is its address as the app sees it (the proxy's client when the proxy is trusted, proxy.py).
"""

from __future__ import annotations

import math
import sqlite3
import threading
import time
from collections import OrderedDict, deque
from pathlib import Path

from flask import current_app, request

from scorekeeper.store import is_database_url
from scorekeeper.store.passwords import WrongPasswords

from .limits import beside_database, warn_once
from .storage import get_store

LIMIT = 5
"""Wrong passwords allowed per client in WINDOW seconds."""
WINDOW = 60.0
_CLIENTS = 10_000  # addresses remembered at most (the oldest are forgotten first)
_ROWS = 50_000  # wrong passwords kept at most in the file (the oldest go first)


class Attempts:
    """Wrong passwords per client address, in a sliding window, in this process's memory
    (the fallback where the shared file cannot be kept, and the rule SharedAttempts keeps)."""

    def __init__(self, limit: int = LIMIT) -> None:
        self.limit = limit
        self._lock = threading.Lock()
        self._failures: OrderedDict[str, deque[float]] = OrderedDict()

    def wait_seconds(self, client: str, now: float) -> int:
        """Seconds the client must wait before trying again (0: it may try now)."""
        with self._lock:
            times = self._failures.get(client)
            if not times:
                return 0
            return _wait([t for t in times if t > now - WINDOW], self.limit, now)

    def failed(self, client: str, now: float) -> None:
        """Count a wrong password from the client."""
        with self._lock:
            times = self._failures.pop(client, None) or deque(maxlen=self.limit)
            times.append(now)
            self._failures[client] = times
            while len(self._failures) > _CLIENTS:
                self._failures.popitem(last=False)


def _wait(recent: list[float], limit: int, now: float) -> int:
    """The wait, given the client's wrong passwords within the window (oldest first)."""
    if len(recent) < limit:
        return 0
    return max(1, math.ceil(recent[-limit] + WINDOW - now))


class SharedAttempts:
    """The same count in an SQLite file every process of the server opens."""

    def __init__(self, path: Path, limit: int = LIMIT) -> None:
        self.path = path
        self.limit = limit
        with self._connect() as db:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("CREATE TABLE IF NOT EXISTS wrong_passwords (client TEXT, at REAL)")
            db.execute("CREATE INDEX IF NOT EXISTS by_client ON wrong_passwords (client, at)")

    def _connect(self) -> sqlite3.Connection:
        return sqlite3.connect(self.path, timeout=5, isolation_level=None)

    def wait_seconds(self, client: str, now: float) -> int:
        db = self._connect()
        try:
            rows = db.execute(
                "SELECT at FROM wrong_passwords WHERE client = ? AND at > ? ORDER BY at",
                (client, now - WINDOW),
            ).fetchall()
        finally:
            db.close()
        return _wait([at for (at,) in rows], self.limit, now)

    def failed(self, client: str, now: float) -> None:
        db = self._connect()
        try:
            db.execute("BEGIN IMMEDIATE")
            db.execute("INSERT INTO wrong_passwords VALUES (?, ?)", (client, now))
            db.execute("DELETE FROM wrong_passwords WHERE at <= ?", (now - WINDOW,))
            db.execute(
                "DELETE FROM wrong_passwords WHERE rowid <= "
                "(SELECT max(rowid) FROM wrong_passwords) - ?",
                (_ROWS,),
            )
            db.execute("COMMIT")
        finally:
            db.close()


class DatabaseAttempts:
    """The same count in the database every host serves (PostgreSQL), by its clock."""

    def __init__(self, limit: int = LIMIT) -> None:
        self.limit = limit

    def wait_seconds(self, client: str, now: float) -> int:
        table = WrongPasswords(get_store())
        now = table.now()
        return _wait(table.recent(client, now - WINDOW), self.limit, now)

    def failed(self, client: str, now: float) -> None:
        table = WrongPasswords(get_store())
        now = table.now()
        table.add(client, now, now - WINDOW)


def _attempts() -> Attempts | SharedAttempts | DatabaseAttempts:
    found = current_app.extensions.get("password_attempts")
    if found is None:
        if is_database_url(current_app.config["DATABASE"]):
            found = DatabaseAttempts()
        else:
            try:
                found = SharedAttempts(beside_database(current_app.config, ".limits.sqlite"))
            except (OSError, sqlite3.Error) as error:
                warn_once("wrong passwords", OSError(str(error)))
                found = Attempts()
        found = current_app.extensions.setdefault("password_attempts", found)
    assert isinstance(found, Attempts | SharedAttempts | DatabaseAttempts)
    return found


def _call(method: str, *args: object) -> int | None:
    """Ask the shared count; should its file fail now, this process's own count answers."""
    counter = _attempts()
    if isinstance(counter, DatabaseAttempts):
        # The database is the count: if it cannot be reached the request is a 503 anyway.
        return getattr(counter, method)(*args)  # type: ignore[no-any-return]
    try:
        return getattr(counter, method)(*args)  # type: ignore[no-any-return]
    except sqlite3.Error as error:
        warn_once("wrong passwords", OSError(str(error)))
        local = Attempts()
        current_app.extensions["password_attempts"] = local
        return getattr(local, method)(*args)  # type: ignore[no-any-return]


def wait_seconds() -> int:
    """Seconds this request's client must wait before its next password (0: none)."""
    return _call("wait_seconds", request.remote_addr or "?", time.time()) or 0


def failed() -> None:
    """Count a wrong password from this request's client."""
    _call("failed", request.remote_addr or "?", time.time())
