"""Copying a whole database to another, on either engine: `scorekeeper copy-db`, a backup of
a PostgreSQL database into an SQLite file, and a restore onto PostgreSQL.

Every row of every table in `schema.TABLES` is copied, parents first, ids kept, from one read
snapshot of the source into one transaction on the target; on PostgreSQL the identity
sequences are then set past the largest id copied, so the next game gets a new id. Only the
Engine interface is used: the same code copies SQLite to PostgreSQL, back, or either to itself.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .engine import Engine, is_database_url
from .errors import StoreError
from .location import printable
from .schema import TABLES
from .store import Store

_CHUNK = 2000  # rows read and written at a time (a club's database fits, a federation's too)

COPIED: tuple[str, ...] = tuple(t for t in TABLES if t != "schema_release")
"""What is copied: every table but the one naming the release that wrote the database (the
target's own row stays: this release wrote it)."""


class TargetNotEmpty(StoreError):
    """The copy's target already holds data; `table` names the first table found with rows."""

    def __init__(self, table: str) -> None:
        super().__init__(f"the target database already holds data (table {table})")
        self.table = table


def first_table_with_rows(engine: Engine) -> str | None:
    """The first of the app's tables that holds a row, or None for an empty database."""
    for table in COPIED:
        if engine.value(f"SELECT 1 FROM {table} LIMIT 1") is not None:
            return table
    return None


def copy_database(
    source: Engine,
    target: Engine,
    *,
    replace: bool = False,
    progress: Callable[[str, int], None] | None = None,
) -> dict[str, int]:
    """Copy every row of the app's tables from source into target (both migrated to this
    release's schema); return the number of rows copied per table.

    Raises TargetNotEmpty if the target holds any row, unless replace: then the target's rows
    are deleted first, in the same transaction, so a failed copy leaves it as it was.
    """
    counts: dict[str, int] = {}
    with source.reading(), target.writing():
        if replace:
            for table in reversed(COPIED):
                target.execute(f"DELETE FROM {table}")
        else:
            full = first_table_with_rows(target)
            if full is not None:
                raise TargetNotEmpty(full)
        for table in COPIED:
            counts[table] = _copy_table(source, target, table)
            if progress is not None:
                progress(table, counts[table])
        if target.kind == "postgresql":
            _reset_sequences(target)
    return counts


def _columns(engine: Engine, table: str) -> list[str]:
    """The table's columns, in their order."""
    if engine.kind == "sqlite":
        return [str(row["name"]) for row in engine.rows(f"PRAGMA table_info({table})")]
    found = engine.rows(
        "SELECT column_name FROM information_schema.columns"
        " WHERE table_schema = current_schema() AND table_name = ? ORDER BY ordinal_position",
        [table],
    )
    return [str(row["column_name"]) for row in found]


def _copy_table(source: Engine, target: Engine, table: str) -> int:
    columns = _columns(source, table)
    missing = set(columns) - set(_columns(target, table))
    if missing:
        raise StoreError(f"the target's table {table} has no column {sorted(missing)[0]}")
    names = ", ".join(columns)
    marks = ", ".join("?" * len(columns))
    overriding = " OVERRIDING SYSTEM VALUE" if target.kind == "postgresql" else ""
    insert = f"INSERT INTO {table} ({names}){overriding} VALUES ({marks})"
    order = ", ".join(str(n) for n in range(1, len(columns) + 1))
    copied = 0
    for chunk in _chunks(source, table, names, order, "id" in columns):
        target.executemany(insert, [[row[c] for c in columns] for row in chunk])
        copied += len(chunk)
    return copied


def _chunks(source: Engine, table: str, names: str, order: str, by_id: bool) -> Any:
    """The table's rows in chunks (by id where it has one), in a stable order."""
    if not by_id:
        rows = source.rows(f"SELECT {names} FROM {table} ORDER BY {order}")
        if rows:
            yield rows
        return
    last: int | None = None
    while True:
        if last is None:
            sql, params = f"SELECT {names} FROM {table} ORDER BY id LIMIT ?", [_CHUNK]
        else:
            sql = f"SELECT {names} FROM {table} WHERE id > ? ORDER BY id LIMIT ?"
            params = [last, _CHUNK]
        rows = source.rows(sql, params)
        if not rows:
            return
        yield rows
        last = int(rows[-1]["id"])


def _reset_sequences(target: Engine) -> None:
    """Set every identity sequence past the largest id of its table (PostgreSQL only)."""
    for table in COPIED:
        if "id" not in _columns(target, table):
            continue  # a table keyed otherwise (request keys, a game's company, ...)
        sequence = target.value("SELECT pg_get_serial_sequence(?, 'id')", [table])
        if sequence is None:
            continue
        top = target.value(f"SELECT max(id) FROM {table}")
        if top is None:
            target.value("SELECT setval(?, 1, false)", [sequence])
        else:
            target.value("SELECT setval(?, ?, true)", [sequence, int(top)])


def shown(location: str | os.PathLike[str]) -> str:
    """A location as it may be printed: a URL's password masked (location.printable)."""
    return printable(location)


def same_location(a: str, b: str) -> bool:
    """Whether two --db locations name the same database (same URL, or the same file)."""
    if is_database_url(a) or is_database_url(b):
        return a == b
    from .store import same_file

    return same_file(Path(a), Path(b))


def copy_locations(source: str, target: str, *, replace: bool = False) -> dict[str, int]:
    """Copy the database at source (which must exist) into target, made and migrated if
    missing; the rows copied per table. Raises TargetNotEmpty, StoreError."""
    with Store(source, create=False) as src, Store(target) as dst:
        return copy_database(src.engine, dst.engine, replace=replace)


def backup_to_sqlite(source: Store, dest: Path) -> None:
    """Write the whole database of source into a new SQLite file at dest, from one read
    snapshot: built beside dest (mode 0600: it holds every edit link), renamed into place."""
    partial = dest.with_name(f".{dest.name}.{secrets.token_hex(4)}.partial")
    dest.parent.mkdir(parents=True, exist_ok=True)
    os.close(os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    try:
        _sqlite_header(partial)
        with Store(partial) as copy:
            copy_database(source.engine, copy.engine)
            copy.engine.execute("PRAGMA journal_mode = DELETE")  # one self-contained file
        os.replace(partial, dest)
        directory = os.open(dest.parent, os.O_RDONLY)
        try:
            os.fsync(directory)
        finally:
            os.close(directory)
    except BaseException:
        for leftover in (partial, *(Path(f"{partial}{s}") for s in ("-journal", "-wal", "-shm"))):
            with contextlib.suppress(OSError):
                leftover.unlink()
        raise


def _sqlite_header(path: Path) -> None:
    """Make an empty file (made with its mode) an empty SQLite database: the Store refuses
    a file of 0 bytes, which is never a database it made."""
    conn = sqlite3.connect(path)
    try:
        conn.execute("CREATE TABLE made (x)")
        conn.execute("DROP TABLE made")
        conn.commit()
    finally:
        conn.close()
