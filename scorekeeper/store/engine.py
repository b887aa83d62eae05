"""The two databases the store runs on, behind one small interface.

A location is either a path (an SQLite file, the embedded default) or a URL
(``postgresql://user@host:port/dbname``: a PostgreSQL server shared by several hosts). The
store's SQL is written once, with ``?`` placeholders, in the dialect both engines agree on;
the PostgreSQL engine turns each ``?`` into ``%s`` (and escapes ``%``).

    engine = open_engine(location, create=True, busy_timeout_ms=5000)
    with engine.writing():
        engine.lock_row("games", game_id)
        engine.execute("UPDATE games SET version = ? WHERE id = ?", [2, game_id])

One Engine belongs to one thread. SQLite: one connection, writers queued by `_WriterTurn`
and BEGIN IMMEDIATE. PostgreSQL: one connection borrowed from the process's pool for the URL
(given back by close()), READ COMMITTED writes made exact by row locks.
"""

from __future__ import annotations

import contextlib
import datetime
import fcntl
import functools
import os
import select
import sqlite3
import threading
import time
import weakref
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from .deadline import bounded
from .errors import StorageUnavailable, StoreError, storage_error
from .location import connect_settings, is_postgresql, kind, printable, scrubbed

if TYPE_CHECKING:
    import psycopg
    from psycopg_pool import ConnectionPool

Row = dict[str, Any]
Kind = Literal["sqlite", "postgresql"]

_BUSY = "the database is busy (another program holds its lock); try again"


def is_database_url(location: object) -> bool:
    """Whether a --db location names a PostgreSQL server (a URL or a libpq key=value string)
    rather than an SQLite file."""
    return is_postgresql(location)


def _utc_now() -> str:
    return datetime.datetime.now(datetime.UTC).isoformat(timespec="microseconds")


class Engine:
    """What the store needs of a database (see the module's docstring)."""

    kind: Kind
    display: str
    """The path, or the URL with its password masked: safe to print and log."""

    def rows(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        raise NotImplementedError

    def value(self, sql: str, params: Sequence[Any] = ()) -> Any:
        """The first column of the first row, or None."""
        found = self.rows(sql, params)
        return next(iter(found[0].values())) if found else None

    def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one statement; its rowcount."""
        raise NotImplementedError

    def executemany(self, sql: str, seq: Iterable[Sequence[Any]]) -> None:
        raise NotImplementedError

    def rows_each(self, statements: Sequence[tuple[str, Sequence[Any]]]) -> list[list[Row]]:
        """The rows of each statement, run one after the other (on PostgreSQL in one round
        trip: the server still runs each after the one before has ended, a lock it waits
        for included, and each sees what was committed before it began)."""
        return [self.rows(sql, params) for sql, params in statements]

    def send(self, sql: str, params: Sequence[Any] = ()) -> None:
        """Run one statement whose answer nobody reads (no rows, no rowcount): inside a
        transaction on PostgreSQL it goes to the server with the next statement that is
        answered, or with the COMMIT, in one round trip (PostgresEngine.send)."""
        self.execute(sql, params)

    def insert(self, table: str, values: Mapping[str, Any]) -> int:
        """Insert one row into a table with an `id` primary key; the new row's id."""
        columns = ", ".join(values)
        marks = ", ".join("?" * len(values))
        found = self.rows(
            f"INSERT INTO {table} ({columns}) VALUES ({marks}) RETURNING id", list(values.values())
        )
        return int(found[0]["id"])

    def update(self, table: str, row_id: int, values: Mapping[str, Any]) -> int:
        """Set some columns of the row with this id; its rowcount."""
        sets = ", ".join(f"{column} = ?" for column in values)
        return self.execute(f"UPDATE {table} SET {sets} WHERE id = ?", [*values.values(), row_id])

    def writing(self, *, lazy_commit: bool = False) -> contextlib.AbstractContextManager[None]:
        """One write transaction (nested: a savepoint of the outer one).

        lazy_commit: commit without waiting for the disk (SQLite: synchronous NORMAL for this
        transaction; PostgreSQL: synchronous_commit off): the write is never half done, but
        a power cut right after may lose it. For answers a phone will send again.
        """
        raise NotImplementedError

    def reading(self) -> contextlib.AbstractContextManager[None]:
        """One consistent snapshot for several queries."""
        raise NotImplementedError

    def in_transaction(self) -> bool:
        raise NotImplementedError

    def lock_row(self, table: str, row_id: int) -> None:
        """Hold the row until the write transaction ends (a second writer waits for it)."""

    @property
    def for_update(self) -> str:
        """The clause that locks the rows a SELECT reads, inside writing() ("" on SQLite,
        where BEGIN IMMEDIATE already serializes every writer)."""
        return ""

    def now(self) -> str:
        """The time as ISO-8601 UTC text (microseconds, "+00:00"): the database's clock on
        PostgreSQL, so that every host stamps by one clock."""
        return _utc_now()

    def now_column(self) -> tuple[str, list[Any]]:
        """now() as an item of a SELECT's list and its parameters, for a query that asks
        something else too (one round trip, not two)."""
        return "?", [_utc_now()]

    def references(self, parent: str) -> list[tuple[str, str, str, bool]]:
        """(table, column, parent column, whether the column must hold a value) of every
        foreign key that points at `parent`, read from the schema."""
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError

    def usable(self) -> bool:
        """Whether this engine may serve another request as it is."""
        return not self.in_transaction()

    def changes(self) -> Changes:
        """A look at whether anyone committed a write since the last look (the long poll's
        reader asks it before reading every waited-on game)."""
        raise NotImplementedError

    def changed(self, key: str) -> None:
        """Inside writing(): this write changes what phones waiting on `key` (a game's
        read-only token) are shown. A write that names what it changes is announced with the
        names, and the long poll reads only those games (Changes.wait); one that names
        nothing may have changed anything. Nothing on SQLite (its look cannot say what)."""


Heard = bool | frozenset[str]
"""What a look heard: False, nothing committed; True, anything may have been; a set of
keys, only the waited-on games of these read-only tokens changed (and with them, perhaps,
the tournaments they are tables of)."""


class Changes:
    """Whether anything may have been committed to the database since the last look."""

    def wait(self, seconds: float) -> Heard:
        """Look, waiting up to `seconds` for a commit: False only if surely nothing was
        committed since the last look (the first look, and a look that cannot tell, say
        True); the keys the commits named when every one named what it changed."""
        raise NotImplementedError

    def close(self) -> None:
        """Let go of what the looks hold."""


# -- SQLite -----------------------------------------------------------------------------------


class _WriterTurn:
    """The turn to write to one database file.

    The threads of this process queue on a lock, and the processes serving the same file
    (`serve --workers`) on an flock of its folder, so each writer goes the moment the one
    before is done: left to SQLite, a writer that finds the file locked sleeps in steps of
    up to 100 ms before it looks again (a fifth of the Saves of two busy workers waited so,
    up to 0.4 s). The folder, not the file, is locked: closing a descriptor of the database
    file would drop the locks SQLite holds on it, and no lock file is left behind.
    """

    def __init__(self, path: str) -> None:
        self.folder = os.path.dirname(path) or "."
        self._lock = threading.RLock()
        self._depth = 0  # only the thread holding _lock reads or changes these
        self._fd: int | None = None

    def acquire(self, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        if not self._lock.acquire(timeout=timeout):
            return False
        if self._depth == 0 and not self._lock_folder(deadline):
            self._lock.release()
            return False
        self._depth += 1
        return True

    def release(self) -> None:
        self._depth -= 1
        if self._depth == 0 and self._fd is not None:
            fd, self._fd = self._fd, None
            os.close(fd)  # and with it the flock
        self._lock.release()

    def _lock_folder(self, deadline: float) -> bool:
        try:
            fd = os.open(self.folder, os.O_RDONLY | os.O_CLOEXEC)
        except OSError:
            return True  # nothing to lock here: SQLite's own locking still holds
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    os.close(fd)
                    return False
                time.sleep(0.0005)
                continue
            except OSError:  # a file system without flock
                os.close(fd)
                return True
            self._fd = fd
            return True


_WRITERS: dict[str, _WriterTurn] = {}
_WRITERS_LOCK = threading.Lock()


def _writer_turn(path: Path) -> _WriterTurn:
    """The turn to write to one database file, shared by the engines of this process."""
    key = os.path.abspath(path)
    with _WRITERS_LOCK:
        turn = _WRITERS.get(key)
        if turn is None:
            turn = _WRITERS[key] = _WriterTurn(key)
        return turn


class SqliteEngine(Engine):
    """One connection to one SQLite file (WAL, foreign keys on, synchronous FULL)."""

    kind: Kind = "sqlite"

    def __init__(self, path: Path, *, create: bool, busy_timeout_ms: int) -> None:
        self.path = path
        self.display = str(path)
        self._busy_seconds = busy_timeout_ms / 1000
        try:
            if create:
                target: str | Path = path
            else:
                target = f"{path.resolve().as_uri()}?mode=rw"
            # isolation_level=None: the driver opens no implicit transactions; every
            # transaction below is begun and ended explicitly.
            self.connection = sqlite3.connect(
                target, timeout=busy_timeout_ms / 1000, isolation_level=None, uri=not create
            )
        except (OSError, sqlite3.Error) as exc:
            raise storage_error(exc, path) from exc
        try:
            with self.translated():
                self._configure(busy_timeout_ms)
        except BaseException:
            self.connection.close()
            raise

    def _configure(self, busy_timeout_ms: int) -> None:
        """Set this connection's pragmas (they are per connection, not stored in the file)."""
        conn = self.connection
        conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
        conn.execute("PRAGMA foreign_keys = ON")
        # WAL: phones reading the sheet never block the one writing a deal, nor wait for it.
        conn.execute("PRAGMA journal_mode = WAL")
        # FULL: every acknowledged deal must survive kill -9 *and* power loss (NORMAL may lose
        # the last commits on power loss in WAL mode). We write a few deals per minute, so
        # the extra fsync per commit costs nothing anyone could notice.
        conn.execute("PRAGMA synchronous = FULL")

    @contextlib.contextmanager
    def translated(self) -> Iterator[None]:
        """Turn SQLite and file errors into StoreErrors that say what is wrong."""
        try:
            yield
        except sqlite3.ProgrammingError:
            raise  # our own misuse (e.g. a closed Store): a bug, not a storage problem
        except (sqlite3.DatabaseError, OSError) as exc:
            raise storage_error(exc, self.path) from exc

    def rows(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        with self.translated():
            cursor = self.connection.execute(sql, list(params))
            if cursor.description is None:
                return []
            names = [d[0] for d in cursor.description]
            return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]

    def value(self, sql: str, params: Sequence[Any] = ()) -> Any:
        with self.translated():
            row = self.connection.execute(sql, list(params)).fetchone()
        return None if row is None else row[0]

    def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        with self.translated():
            return self.connection.execute(sql, list(params)).rowcount

    def executemany(self, sql: str, seq: Iterable[Sequence[Any]]) -> None:
        with self.translated():
            self.connection.executemany(sql, [list(p) for p in seq])

    def in_transaction(self) -> bool:
        return self.connection.in_transaction

    @contextlib.contextmanager
    def writing(self, *, lazy_commit: bool = False) -> Iterator[None]:
        if lazy_commit and not self.connection.in_transaction:
            with self.translated():
                self.connection.execute("PRAGMA synchronous = NORMAL")
            try:
                with self.writing():
                    yield
            finally:
                with self.translated():
                    self.connection.execute("PRAGMA synchronous = FULL")
            return
        turn = _writer_turn(self.path)  # writers queue for their turn (_WriterTurn)
        if not turn.acquire(timeout=self._busy_seconds):
            raise StorageUnavailable(f"{_BUSY}: {self.path} (waiting for other writes)", _BUSY)
        conn = self.connection
        with contextlib.ExitStack() as held, self.translated():
            held.callback(turn.release)
            if conn.in_transaction:  # inside batch(): a savepoint of its transaction
                conn.execute("SAVEPOINT nested_write")
                try:
                    yield
                    conn.execute("RELEASE nested_write")
                except BaseException:
                    with contextlib.suppress(sqlite3.Error):
                        conn.execute("ROLLBACK TO nested_write")
                        conn.execute("RELEASE nested_write")
                    raise
                return
            # IMMEDIATE takes the write lock first (waiting up to busy_timeout), so two
            # writers queue. A deferred BEGIN would let both read, then fail the second
            # one's upgrade to writing with SQLITE_BUSY, without waiting.
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    with contextlib.suppress(sqlite3.Error):
                        conn.execute("ROLLBACK")
                raise

    @contextlib.contextmanager
    def reading(self) -> Iterator[None]:
        conn = self.connection
        with self.translated():
            if conn.in_transaction:
                yield
                return
            conn.execute("BEGIN")
            try:
                yield
            finally:
                if conn.in_transaction:
                    conn.execute("COMMIT")

    def references(self, parent: str) -> list[tuple[str, str, str, bool]]:
        found = []
        tables = [
            r["name"]
            for r in self.rows(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite%'"
            )
        ]
        for table in tables:
            info = self.rows(f"PRAGMA table_info({table})")
            required = {r["name"]: bool(r["notnull"] or r["pk"]) for r in info}
            for fk in self.rows(f"PRAGMA foreign_key_list({table})"):
                if fk["table"] == parent:
                    column, parent_column = fk["from"], fk["to"] or "id"
                    found.append((table, column, parent_column, required.get(column, False)))
        return found

    def changes(self) -> Changes:
        return _DataVersion(self)

    def close(self) -> None:
        self.connection.close()


class _DataVersion(Changes):
    """SQLite's count of the commits by other connections to the file (PRAGMA data_version,
    read from the file's shared index: microseconds, no read of any table). The engine's
    connection must not write itself: its own commits are not counted."""

    def __init__(self, engine: SqliteEngine) -> None:
        self._engine = engine
        self._seen: int | None = None

    def _look(self) -> bool:
        with self._engine.translated():
            now = int(self._engine.connection.execute("PRAGMA data_version").fetchone()[0])
        changed, self._seen = now != self._seen, now
        return changed

    def wait(self, seconds: float) -> bool:
        if self._look():
            return True
        time.sleep(seconds)
        return self._look()


# -- PostgreSQL -------------------------------------------------------------------------------


def pool_max() -> int:
    """Connections per process and URL at most: SCOREKEEPER_DB_POOL, else the server's
    threads (SCOREKEEPER_THREADS, which `serve --threads` and gunicorn's settings read; 8),
    each thread borrowing one for the length of a request."""
    for name in ("SCOREKEEPER_DB_POOL", "SCOREKEEPER_THREADS"):
        value = os.environ.get(name, "").strip()
        if value.isascii() and value.isdigit() and int(value) > 0:
            return min(int(value), 100)
    return 8


_POOLS: dict[tuple[str, int], ConnectionPool[Any]] = {}
_POOLS_LOCK = threading.Lock()
_DOWN = "the database server cannot be reached; try again"
_REFUSED = (
    "the database server refused the password (see SCOREKEEPER_DB_PASSWORD_FILE, PGPASSWORD "
    "or ~/.pgpass)"
)
_CONTENDED = "the database was busy with a conflicting change; try again"

# The clock of the database, in the text format the SQLite side writes (Python's isoformat).
_NOW = "to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US\"+00:00\"')"
_NOW_SQL = f"SELECT {_NOW} AS now"


@functools.lru_cache(maxsize=1024)
def _pg_sql(sql: str) -> str:
    """The store's SQL (?-placeholders) in psycopg's placeholders."""
    return sql.replace("%", "%%").replace("?", "%s")


def _seconds(name: str, default: float) -> float:
    """A positive number of seconds from the environment, else the default."""
    try:
        value = float(os.environ.get(name, "") or default)
    except ValueError:
        return default
    return value if 0 < value < 86400 else default


def statement_seconds() -> float:
    """How long one statement may run: SCOREKEEPER_DB_STATEMENT_TIMEOUT, else 5 s (the
    server's statement_timeout; the client cuts a call off 2 s later: deadline.py)."""
    return _seconds("SCOREKEEPER_DB_STATEMENT_TIMEOUT", 5.0)


def connect_seconds() -> int:
    """How long to wait for one server to accept a connection: SCOREKEEPER_DB_CONNECT_TIMEOUT,
    else 2 s (libpq's least), for each host of a multi-host URL."""
    return max(2, int(_seconds("SCOREKEEPER_DB_CONNECT_TIMEOUT", 2)))


UNHURRIED_SECONDS = 3600.0
"""The client's bound on a call made with no statement timeout (PostgresEngine.unhurried)."""
CHECK_SECONDS = 2.0
"""How long the pool's look at a connection it hands out may take."""

#: TCP settings of every connection: a server whose machine is gone (a partition, a frozen
#: VM) is found out in ~20 s by the kernel, not after two hours.
LIVENESS = {
    "keepalives": 1,
    "keepalives_idle": 10,
    "keepalives_interval": 3,
    "keepalives_count": 3,
    "tcp_user_timeout": 15000,
}


def connection_kwargs(url: str) -> dict[str, Any]:
    """What every connection to the server is opened with beside its setting: the password
    from SCOREKEEPER_DB_PASSWORD_FILE (when the setting has none), the TCP liveness, the
    connect timeout, and UTF-8 as the client's encoding (a database made without a locale is
    SQL_ASCII: its text would come back as bytes, and no step of the schema would be known)."""
    return {
        **connect_settings(url),
        **LIVENESS,
        "connect_timeout": connect_seconds(),
        "client_encoding": "UTF8",
    }


def _quiet_library() -> None:
    """psycopg's pool says each failed connection in English, six times a second while the
    server is away (and a connection's description, in a warning): those lines never reach
    a person. The store's own errors say what failed, once, in the person's language."""
    import logging

    for name in ("psycopg", "psycopg.pool"):
        logging.getLogger(name).setLevel(logging.CRITICAL)


FRESH_SECONDS = 1.0
"""A connection given back this recently, whole, with nothing come on its socket since, is
handed out without the pool's look (a round trip: on a busy host, one of every request's
two or three); one idle longer is looked at."""
_RETURNED: weakref.WeakKeyDictionary[Any, float] = weakref.WeakKeyDictionary()
_RETURNED_LOCK = threading.Lock()


def _checked(conn: psycopg.Connection[Any]) -> None:
    """The pool's look at a connection before handing it out (one empty query), bounded;
    none for one just given back and quiet since."""
    with _RETURNED_LOCK:
        returned = _RETURNED.pop(conn, None)
    if returned is not None and time.monotonic() - returned < FRESH_SECONDS and _quiet(conn):
        return
    _bounded_look(conn)


def _bounded_look(conn: psycopg.Connection[Any]) -> None:
    """The pool's look at a connection (one empty query), bounded."""
    from psycopg_pool import ConnectionPool

    with bounded(conn, CHECK_SECONDS):
        ConnectionPool.check_connection(conn)


def _quiet(conn: psycopg.Connection[Any]) -> bool:
    """Whether nothing came on an idle connection's socket: a server that ends a connection
    (shutting down, restarted, the backend killed) says so on it, or the socket closes."""
    if conn.broken or conn.closed:
        return False
    try:
        watch = select.poll()
        watch.register(conn.pgconn.socket, select.POLLIN | select.POLLERR | select.POLLHUP)
        return not watch.poll(0)
    except Exception:  # noqa: BLE001 - no socket to look at: the pool's look decides
        return False


def _given_back(conn: psycopg.Connection[Any]) -> None:
    """Note when a whole connection went back to the pool (_checked)."""
    with _RETURNED_LOCK:
        _RETURNED[conn] = time.monotonic()


def _pool(url: str, timeout: float) -> ConnectionPool[Any]:
    """The process's pool for a URL (a forked worker makes its own)."""
    from psycopg.rows import dict_row
    from psycopg_pool import ConnectionPool

    key = (url, os.getpid())
    with _POOLS_LOCK:
        pool = _POOLS.get(key)
        if pool is None:
            _quiet_library()
            ms, statement_ms = int(timeout * 1000), int(statement_seconds() * 1000)
            pool = ConnectionPool(
                url,
                min_size=1,
                max_size=pool_max(),
                timeout=timeout,
                open=False,
                name=f"scorekeeper-{len(_POOLS)}",
                kwargs={
                    **connection_kwargs(url),
                    "autocommit": True,
                    "row_factory": dict_row,
                    "options": f"-c lock_timeout={ms} -c statement_timeout={statement_ms}"
                    " -c idle_in_transaction_session_timeout=60000",
                    "application_name": "scorekeeper",
                },
                check=_checked,
                reconnect_timeout=0,
            )
            # The pool's own look at its idle connections (ConnectionPool.check, run when a
            # connection broke) bounded as every call is: unbounded it waits on a frozen
            # server for as long as that server's kernel answers.
            pool.check_connection = _bounded_look  # type: ignore[method-assign]
            pool.open(wait=False)
            _POOLS[key] = pool
        return pool


def pool_stats() -> list[dict[str, int]]:
    """psycopg_pool's numbers of each pool of this process (for the metrics)."""
    with _POOLS_LOCK:
        pools = [p for (url, pid), p in _POOLS.items() if pid == os.getpid()]
    return [pool.get_stats() for pool in pools]


_TRIPS = threading.local()


def round_trips() -> int:
    """How many calls this thread has sent to PostgreSQL so far (the metrics take the
    difference over a request)."""
    return int(getattr(_TRIPS, "n", 0))


def close_pools() -> None:
    """Close every pool of this process (tests, and a CLI command at its end)."""
    with _POOLS_LOCK:
        pools = [p for (url, pid), p in _POOLS.items() if pid == os.getpid()]
        _POOLS.clear()
    for pool in pools:
        with contextlib.suppress(Exception):
            pool.close(timeout=1)


def pg_error(exc: BaseException, display: str, url: str = "") -> StoreError:
    """The store error that explains a failed PostgreSQL call (never with the password)."""
    error = _pg_error(exc, display)
    text = " ".join(str(error).split())  # libpq's hint on a line of its own: one line
    error.args = (scrubbed(text, url) if url else text,)
    return error


def _pg_error(exc: BaseException, display: str) -> StoreError:
    import psycopg
    from psycopg import errors as pge
    from psycopg_pool import PoolTimeout

    if isinstance(exc, pge.SerializationFailure | pge.DeadlockDetected):
        return Contention(f"{_CONTENDED}: {display} ({exc})", _CONTENDED)
    if isinstance(exc, pge.LockNotAvailable | pge.QueryCanceled):
        return StorageUnavailable(f"{_BUSY}: {display} ({exc})", _BUSY)
    if isinstance(exc, psycopg.IntegrityError):
        return StoreError(f"the database refused the change: {exc}")
    if isinstance(exc, pge.ReadOnlySqlTransaction):
        return StorageUnavailable(
            f"the database is read-only: {display}", "the database is read-only"
        )
    if isinstance(exc, pge.DiskFull):
        return StorageUnavailable(f"the disk is full: {display}", "the disk is full")
    if _password_refused(exc):
        return PasswordRefused(f"{_REFUSED}: {display} ({exc})", _REFUSED)
    if isinstance(exc, PoolTimeout | psycopg.OperationalError | psycopg.InterfaceError):
        return StorageUnavailable(f"{_DOWN}: {display} ({exc})", _DOWN)
    return StorageUnavailable(
        f"the database could not be used: {display} ({exc})", "the database could not be used"
    )


def _password_refused(exc: BaseException) -> bool:
    """Whether a connection failed on its password: none given where one is needed, or one
    the server refused (libpq says which in its message; the server's code is not kept)."""
    pgconn = getattr(exc, "pgconn", None)
    if pgconn is None:
        return False
    if getattr(pgconn, "needs_password", False):
        return True
    said = bytes(getattr(pgconn, "error_message", b"") or b"").decode("utf-8", "replace")
    return bool(getattr(pgconn, "used_password", False)) and "password" in said.lower()


class PasswordRefused(StorageUnavailable):
    """The server refused the password given (or none was given where one is needed)."""


class Contention(StorageUnavailable):
    """A serialization failure or a deadlock: the whole write may be tried once more."""


class PostgresEngine(Engine):
    """One connection borrowed from the process's pool for a PostgreSQL URL."""

    kind: Kind = "postgresql"

    def __init__(self, url: str, *, busy_timeout_ms: int) -> None:
        kind(url)  # one libpq cannot read is refused here, before libpq quotes it
        self.url = url
        self.display = printable(url)
        self._pool = _pool(url, max(busy_timeout_ms, 1000) / 1000)
        self._bound = statement_seconds() + 2
        self._depth = 0
        self._broken = False
        self._pending: list[tuple[str, list[Any] | None]] = []
        """Statements sent with the next one answered (send, and a transaction's BEGIN)."""
        self._begin_pending = False
        """The outermost transaction's BEGIN is still in _pending: nothing was sent yet."""
        self._named: set[str] = set()
        """What the write transaction said it changed (changed()), for its notification."""
        self.connection: psycopg.Connection[Any] | None = None
        with self.translated():
            try:
                self.connection = self._pool.getconn()
            except Exception as exc:
                raise self._why_not(exc) from None

    def _why_not(self, exc: Exception) -> Exception:
        """The pool only says it waited: ask the server once directly for its reason (a
        wrong password, no such database, nothing listening)."""
        import psycopg
        from psycopg_pool import PoolTimeout

        if not isinstance(exc, PoolTimeout):
            return exc
        try:
            psycopg.connect(self.url, **connection_kwargs(self.url)).close()
        except psycopg.Error as direct:
            return direct
        return exc

    @contextlib.contextmanager
    def translated(self) -> Iterator[None]:
        """Run the block with psycopg's errors as the store's, each call to the server
        bounded (deadline.py)."""
        import psycopg
        from psycopg_pool import PoolTimeout

        try:
            if self.connection is None:
                yield
            else:
                _TRIPS.n = getattr(_TRIPS, "n", 0) + 1
                with bounded(self.connection, self._bound):
                    yield
        except StoreError:
            raise
        except (psycopg.Error, PoolTimeout) as exc:
            if isinstance(exc, psycopg.OperationalError | psycopg.InterfaceError | PoolTimeout):
                self._broken = True
            raise pg_error(exc, self.display, self.url) from None

    def _conn(self) -> psycopg.Connection[Any]:
        if self.connection is None:
            raise StorageUnavailable(f"{_DOWN}: {self.display} (closed)", _DOWN)
        return self.connection

    def rows(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        with self.translated():
            cursor = self._run(_pg_sql(sql), list(params))
            return list(cursor.fetchall()) if cursor.description is not None else []

    def value(self, sql: str, params: Sequence[Any] = ()) -> Any:
        with self.translated():
            row = self._run(_pg_sql(sql), list(params)).fetchone()
        return None if row is None else next(iter(row.values()))

    def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        with self.translated():
            return self._run(_pg_sql(sql), list(params)).rowcount

    def executemany(self, sql: str, seq: Iterable[Sequence[Any]]) -> None:
        with self.translated():
            self._run_pending()
            with self._conn().cursor() as cursor:
                cursor.executemany(_pg_sql(sql), [list(p) for p in seq])

    def rows_each(self, statements: Sequence[tuple[str, Sequence[Any]]]) -> list[list[Row]]:
        *first, (sql, params) = statements
        self._pending.extend((_pg_sql(kept), list(args)) for kept, args in first)
        with self.translated():
            cursors = self._run_all(_pg_sql(sql), list(params))[-len(statements) :]
            return [list(c.fetchall()) if c.description is not None else [] for c in cursors]

    def send(self, sql: str, params: Sequence[Any] = ()) -> None:
        """Inside a transaction, keep the statement to send with the next one answered (or
        the COMMIT): psycopg's pipeline mode sends them together and waits once. An error
        of a kept statement is raised there, and the transaction rolls back as for any."""
        if self._depth == 0:
            self.execute(sql, params)
        else:
            self._pending.append((_pg_sql(sql), list(params)))

    def _run(self, sql: str, params: list[Any] | None) -> psycopg.Cursor[Any]:
        """Run one statement, after the kept ones (send) in the same round trip."""
        if not self._pending:
            return self._conn().execute(sql, params)
        return self._run_all(sql, params)[-1]

    def _run_all(self, sql: str, params: list[Any] | None) -> list[psycopg.Cursor[Any]]:
        """The kept statements and this one in one pipeline: the cursor of each."""
        conn = self._conn()
        pending, self._pending, self._begin_pending = self._pending, [], False
        with conn.pipeline() as pipeline:
            cursors = [conn.execute(kept, args) for kept, args in pending]
            cursors.append(conn.execute(sql, params))
            pipeline.sync()
        return cursors

    def _run_pending(self) -> None:
        """Send the kept statements now (before one that cannot go in a pipeline)."""
        if self._pending:
            conn = self._conn()
            pending, self._pending, self._begin_pending = self._pending, [], False
            with conn.pipeline():
                for kept, args in pending:
                    conn.execute(kept, args)

    def in_transaction(self) -> bool:
        return self._depth > 0

    @contextlib.contextmanager
    def _transaction(self, begin: list[str], announced: bool = False) -> Iterator[None]:
        """One transaction (nested: a savepoint). The outermost one's BEGIN is kept to go
        with its first statement (one round trip, not two); one that ran no statement sends
        nothing at all. An `announced` one notifies the hosts with its COMMIT."""
        conn = self._conn()
        nested = self._depth > 0
        if nested:
            with self.translated():
                self._run(f"SAVEPOINT s{self._depth}", None)
        else:
            self._pending = [(statement, None) for statement in begin]
            self._begin_pending = True
        self._depth += 1
        try:
            yield
        except BaseException:
            self._depth -= 1
            unsent, self._begin_pending = self._begin_pending and not nested, False
            self._pending = []
            if not unsent:
                self._roll_back(nested)
            raise
        self._depth -= 1
        if not nested and self._begin_pending and len(self._pending) == len(begin):
            self._pending, self._begin_pending = [], False  # nothing ran: nothing to send
            return
        if announced:
            self._pending.append(self._announcement())
        with self.translated():
            try:
                self._run(f"RELEASE SAVEPOINT s{self._depth}" if nested else "COMMIT", None)
            except BaseException:
                self._pending, self._begin_pending = [], False
                if not nested:
                    with contextlib.suppress(Exception):
                        conn.execute("ROLLBACK")
                raise

    def _roll_back(self, nested: bool) -> None:
        conn = self._conn()
        with contextlib.suppress(Exception), self.translated():
            if nested:
                conn.execute(f"ROLLBACK TO SAVEPOINT s{self._depth}")
                conn.execute(f"RELEASE SAVEPOINT s{self._depth}")
            else:
                conn.execute("ROLLBACK")

    @contextlib.contextmanager
    def writing(self, *, lazy_commit: bool = False) -> Iterator[None]:
        outermost = self._depth == 0
        lazy = ["SET LOCAL synchronous_commit = off"] if lazy_commit and outermost else []
        if outermost:
            self._named = set()
        with self._transaction(["BEGIN", *lazy], announced=outermost):
            yield

    def changed(self, key: str) -> None:
        if self._depth > 0:
            self._named.add(key)

    def _announcement(self) -> tuple[str, list[Any]]:
        """Every write says so at its commit (a notification is sent only if it commits), to
        each host's long poll reader listening (_Notified), with the COMMIT (no round trip
        of its own): the read-only tokens of the games it named (changed()), or nothing,
        which says "anything may have changed" (as it does for names longer than 4,000
        characters: a notification's payload holds 8,000 bytes at most)."""
        named, self._named = " ".join(sorted(self._named)), set()
        return "SELECT pg_notify(%s, %s)", [CHANGES_CHANNEL, named if len(named) < 4000 else ""]

    def reading(self) -> contextlib.AbstractContextManager[None]:
        return self._transaction(["BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY"])

    def lock_row(self, table: str, row_id: int) -> None:
        self.execute(f"SELECT id FROM {table} WHERE id = ? FOR UPDATE", [row_id])

    @contextlib.contextmanager
    def unhurried(self) -> Iterator[None]:
        """No statement timeout for the block (schema steps on a large table): the server's
        off for this connection, the client's cut an hour away; both back after it."""
        bound, self._bound = self._bound, UNHURRIED_SECONDS
        self.execute("SET statement_timeout = 0")
        try:
            yield
        finally:
            self._bound = bound
            with contextlib.suppress(StoreError):
                self.execute("RESET statement_timeout")

    @property
    def for_update(self) -> str:
        return " FOR UPDATE"

    def now(self) -> str:
        return str(self.value(_NOW_SQL))

    def now_column(self) -> tuple[str, list[Any]]:
        return _NOW, []

    def references(self, parent: str) -> list[tuple[str, str, str, bool]]:
        found = self.rows(
            "SELECT c.conrelid::regclass::text AS child, a.attname AS col,"
            " pa.attname AS parent_col, a.attnotnull AS required"
            " FROM pg_constraint c"
            " JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]"
            " JOIN pg_attribute pa ON pa.attrelid = c.confrelid AND pa.attnum = c.confkey[1]"
            " WHERE c.contype = 'f' AND c.confrelid = ?::regclass ORDER BY 1, 2",
            [parent],
        )
        return [(r["child"], r["col"], r["parent_col"], bool(r["required"])) for r in found]

    def usable(self) -> bool:
        return self.connection is not None and not self._broken and self._depth == 0

    def changes(self) -> Changes:
        return _Notified(self.url)

    def close(self) -> None:
        conn, self.connection = self.connection, None
        if conn is None:
            return
        broken = self._broken or conn.broken or conn.closed
        if not broken:
            _given_back(conn)
        with contextlib.suppress(Exception):
            self._pool.putconn(conn)  # a broken connection is discarded by the pool
        if broken:
            # The server went away (or restarted): the idle connections are likely dead
            # too. Check them now, so that the next requests get working ones.
            threading.Thread(target=self._check_pool, daemon=True).start()

    def _check_pool(self) -> None:
        with contextlib.suppress(Exception):
            self._pool.check()


CHANGES_CHANNEL = "scorekeeper_changes"
"""The channel each PostgreSQL write transaction notifies as it commits."""
QUIET_SECONDS = 10.0
"""After this long without a notification, the listening connection is checked."""


class _Notified(Changes):
    """PostgreSQL's notifications of the commits of every host (LISTEN on a connection of
    its own). Without a connection (the server down, or just restarted) every look says
    "maybe"; after listening again, the first look says so too (what was committed before
    the LISTEN is read then)."""

    def __init__(self, url: str) -> None:
        self._url = url
        self._connection: psycopg.Connection[Any] | None = None
        self._heard = 0.0  # when the connection last said anything (time.monotonic())

    def wait(self, seconds: float) -> Heard:
        import psycopg

        try:
            if self._connection is None:
                self._listen()
                return True
            heard = list(self._connection.notifies(timeout=seconds, stop_after=1))
            if heard:  # the rest that came meanwhile: one read answers them all
                heard += self._connection.notifies(timeout=0)
                self._heard = time.monotonic()
            elif time.monotonic() - self._heard > QUIET_SECONDS:
                self._still_there()
            return _heard_of(note.payload for note in heard)
        except psycopg.Error:
            self.close()
            time.sleep(seconds)
            return True

    def _listen(self) -> None:
        import psycopg

        connection = psycopg.connect(self._url, autocommit=True, **connection_kwargs(self._url))
        self._connection = connection
        with bounded(connection, CHECK_SECONDS):
            connection.execute(f"LISTEN {CHANGES_CHANNEL}")
        self._heard = time.monotonic()

    def _still_there(self) -> None:
        """After a quiet while, one bounded empty query: a frozen server (whose kernel still
        answers TCP) never says a word, and its standby, promoted, is listened to instead."""
        assert self._connection is not None
        with bounded(self._connection, CHECK_SECONDS):
            self._connection.execute("")
        self._heard = time.monotonic()

    def close(self) -> None:
        connection, self._connection = self._connection, None
        if connection is not None:
            with contextlib.suppress(Exception):
                connection.close()


def _heard_of(payloads: Iterable[str]) -> Heard:
    """What notifications say: nothing (none), anything (one that named nothing: a write
    that did not say what it changed), or the read-only tokens they named."""
    keys: set[str] = set()
    for payload in payloads:
        if not payload:
            return True
        keys.update(payload.split())
    return frozenset(keys) if keys else False


def open_engine(location: str | os.PathLike[str], *, create: bool, busy_timeout_ms: int) -> Engine:
    """The engine for a --db location: a PostgreSQL URL or an SQLite file's path."""
    if is_database_url(location):
        return PostgresEngine(str(location), busy_timeout_ms=busy_timeout_ms)
    return SqliteEngine(Path(location), create=create, busy_timeout_ms=busy_timeout_ms)
