"""Checking a backup file and putting it back: `scorekeeper restore BACKUP`.

A backup is always a SQLite file (`scorekeeper backup` writes one from either engine). Before
anything is written it must pass SQLite's integrity check, be a scorekeeper database and hold
no schema step this release does not know (a newer release's backup is refused, never
half-read). Restoring onto SQLite copies it with SQLite's own backup API:

- onto a missing file: into a new file beside the target, which gets the owner and group of
  the folder it lands in (root restoring for the service's user must not leave a database the
  service cannot write) and mode 0600, then renamed into place;
- onto an existing database (only with force): into that database in place, as one SQLite
  transaction, so its owner and mode stay, its write-ahead log stays consistent, and a server
  running on it sees the restored games on its next request.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import sqlite3
import tempfile
from pathlib import Path

from .errors import StoreError
from .schema import RELEASE, STEP_SET, _release_key, step_names

_SQLITE_HEADER = b"SQLite format 3\x00"


class BadBackup(StoreError):
    """The file given to restore is not a sound scorekeeper backup of a known schema.

    `why` is one of "missing", "not-sqlite", "damaged", "not-scorekeeper", "newer"; `detail`
    says more (the integrity check's words, the unknown schema steps).
    """

    def __init__(self, why: str, detail: str = "") -> None:
        super().__init__(f"{why}: {detail}" if detail else why)
        self.why = why
        self.detail = detail


class TargetHoldsData(StoreError):
    """The database to restore into already holds games, companies or tournaments."""


def known_steps() -> list[str]:
    """The names of the schema steps this release knows, in order."""
    return step_names()


def check_backup(path: Path) -> list[str]:
    """Check a backup file without changing it; return the schema steps it holds.

    Raises BadBackup saying what is wrong with it.
    """
    try:
        with path.open("rb") as file:
            head = file.read(len(_SQLITE_HEADER))
    except FileNotFoundError:
        raise BadBackup("missing") from None
    except OSError as error:
        raise BadBackup("missing", error.strerror or str(error)) from None
    if head != _SQLITE_HEADER:
        raise BadBackup("not-sqlite")
    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        check = "\n".join(str(row[0]) for row in conn.execute("PRAGMA integrity_check"))
        if check != "ok":
            raise BadBackup("damaged", check)
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master")}
        if not {"_sqlite_migrations", "games"} <= tables:
            raise BadBackup("not-scorekeeper")
        steps = [
            str(row[0])
            for row in conn.execute(
                "SELECT name FROM _sqlite_migrations WHERE migration_set = ? ORDER BY rowid",
                [STEP_SET],
            )
        ]
    except sqlite3.DatabaseError as error:
        raise BadBackup("damaged", str(error)) from None
    finally:
        conn.close()
    unknown = [step for step in steps if step not in known_steps()]
    if unknown:
        raise BadBackup("newer", ", ".join(unknown))
    if not steps:
        raise BadBackup("not-scorekeeper")
    writer = _writer(path) if "m006_schema_release" in steps else None
    if writer is not None and _release_key(writer) > _release_key(RELEASE):
        raise BadBackup("newer", f"scorekeeper {writer}")
    return steps


def _writer(path: Path) -> str | None:
    """The newest release a backup records as having written it."""
    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        row = conn.execute("SELECT release FROM schema_release ORDER BY id DESC LIMIT 1")
        found = row.fetchone()
    finally:
        conn.close()
    return None if found is None else str(found[0])


def holds_data(path: Path) -> bool:
    """Whether a SQLite database has any row in any of the app's tables (read-only)."""
    if not path.exists():
        return False
    if path.stat().st_size == 0:
        return False
    from .copy import COPIED

    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        tables = {str(row[0]) for row in conn.execute("SELECT name FROM sqlite_master")}
        names = [name for name in COPIED if name in tables]
        return any(
            conn.execute(f'SELECT 1 FROM "{name}" LIMIT 1').fetchone() is not None for name in names
        )
    finally:
        conn.close()


def restore_sqlite(backup: Path, target: Path, *, force: bool = False) -> None:
    """Put a checked backup back as the SQLite database at target.

    Raises BadBackup, TargetHoldsData (an existing database with data, without force) or
    StoreError for a target that cannot be written.
    """
    check_backup(backup)
    if not target.parent.is_dir():
        raise StoreError(f"the folder {target.parent} does not exist")
    try:
        existing = target.exists() and target.stat().st_size > 0
        if existing and holds_data(target) and not force:
            raise TargetHoldsData(str(target))
    except sqlite3.DatabaseError as error:
        if not force:
            raise StoreError(f"{target} is not a database that can be read ({error})") from None
        existing = False  # a damaged file, and force: replaced whole, as if missing
    try:
        if existing:
            _copy_into(backup, target)
        else:
            _new_file(backup, target)
    except (OSError, sqlite3.Error) as error:
        raise StoreError(f"cannot write {target}: {error}") from error


def _copy_into(backup: Path, target: Path) -> None:
    """Copy the backup into the database at target, in place, as one transaction."""
    source = sqlite3.connect(f"{backup.resolve().as_uri()}?mode=ro", uri=True)
    dest = sqlite3.connect(target, timeout=30, isolation_level=None)
    try:
        dest.execute("PRAGMA synchronous = FULL")
        source.backup(dest)
    finally:
        dest.close()
        source.close()


def _new_file(backup: Path, target: Path) -> None:
    """Write the backup into a new file beside target, owned as its folder, then rename it."""
    folder = target.parent.stat()
    for suffix in ("-wal", "-shm", "-journal"):  # a missing database's leftovers: stale
        with contextlib.suppress(FileNotFoundError):
            Path(f"{target}{suffix}").unlink()
    partial = target.with_name(f".{target.name}.{secrets.token_hex(4)}.restoring")
    fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    os.close(fd)
    try:
        if hasattr(os, "chown"):
            with contextlib.suppress(PermissionError):  # not root: it is ours already
                os.chown(partial, folder.st_uid, folder.st_gid)
        source = sqlite3.connect(f"{backup.resolve().as_uri()}?mode=ro", uri=True)
        dest = sqlite3.connect(partial, isolation_level=None)
        try:
            dest.execute("PRAGMA synchronous = FULL")
            source.backup(dest)
            dest.execute("PRAGMA journal_mode = DELETE")
        finally:
            dest.close()
            source.close()
        os.replace(partial, target)
        directory = os.open(target.parent, os.O_RDONLY)
        try:
            os.fsync(directory)
        finally:
            os.close(directory)
    except BaseException:
        for leftover in (partial, *(Path(f"{partial}{s}") for s in ("-journal", "-wal"))):
            with contextlib.suppress(OSError):
                leftover.unlink()
        raise


def restore_postgresql(backup: Path, url: str, *, force: bool = False) -> None:
    """Put a checked backup back into the PostgreSQL database at url: into an empty one, or
    (with force) into one whose rows are deleted in the same transaction (so a failed
    restore leaves it as it was). The backup file itself is never changed: an older one is
    brought to this release's schema in a copy.

    Raises BadBackup, TargetHoldsData, StoreError.
    """
    from .copy import TargetNotEmpty, copy_database
    from .store import Store

    check_backup(backup)
    with tempfile.TemporaryDirectory(prefix="scorekeeper-restore-") as folder:
        copy = Path(folder) / "backup.sqlite"
        shutil.copyfile(backup, copy)
        with Store(copy, create=False) as source, Store(url) as target:
            try:
                copy_database(source.engine, target.engine, replace=force)
            except TargetNotEmpty as full:
                raise TargetHoldsData(target.engine.display) from full
