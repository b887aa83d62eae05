"""The errors the store raises, and the translation of SQLite's errors into them."""

from __future__ import annotations

import os
import sqlite3


class StoreError(Exception):
    """Base of every error the store raises; its message is human readable."""


class GameNotFound(StoreError):
    """No game has this token (the link is wrong or the game never existed here)."""


class ReadOnlyAccess(StoreError):
    """A write was attempted through a game's view token."""


class VersionConflict(StoreError):
    """The game changed since the caller read it, so the write was refused."""

    def __init__(self, message: str, *, current_version: int) -> None:
        super().__init__(message)
        self.current_version = current_version


class DealNotFound(StoreError):
    """The game has no such live deal."""


class RevisionNotFound(DealNotFound):
    """The game has no such revision (a `DealNotFound`, so one 404 handler covers both)."""


class GameInOtherCompany(StoreError):
    """The game is an evening of another company already (a game belongs to one company)."""


class GameInAClub(GameInOtherCompany):
    """The game is in a club on its own, and the company is in a club: as an evening it
    would be held twice (season.md §1: a game is in one club, once)."""


class RequestKeyReused(StoreError):
    """A request key already used for one kind of change came back with another."""


class StorageUnavailable(StoreError):
    """The database file cannot be used: busy, read-only, full, damaged or unreachable.

    `reason` says why in a few words without the file's path (safe to show on a page).
    """

    def __init__(self, message: str, reason: str = "the games database is not available") -> None:
        super().__init__(message)
        self.reason = reason


class BackupOntoItself(StoreError):
    """A backup was asked to overwrite the very database it copies."""


class DatabaseMissing(StorageUnavailable):
    """The database file (or its directory) is not where the server was started with it."""

    def __init__(self, message: str, reason: str = "the database file is missing") -> None:
        super().__init__(message, reason)


class EmptyDatabase(StorageUnavailable):
    """A file of 0 bytes is where the database should be (never taken for a new one)."""


# Primary SQLite result codes (https://sqlite.org/rescode.html) that mean "the file, not the
# caller, is the problem", each with the sentence a person running the server can act on.
_REASONS = {
    3: "permission to use the database file was denied",  # SQLITE_PERM
    5: "the database is busy (another program holds its lock); try again",  # SQLITE_BUSY
    6: "the database is locked; try again",  # SQLITE_LOCKED
    8: "the database is read-only",  # SQLITE_READONLY
    10: "the database file could not be read or written (I/O error)",  # SQLITE_IOERR
    11: "the database file is damaged",  # SQLITE_CORRUPT
    13: "the disk is full",  # SQLITE_FULL
    14: "the database file could not be opened",  # SQLITE_CANTOPEN
    26: "the file is not a database",  # SQLITE_NOTADB
}


def storage_error(exc: sqlite3.Error | OSError, path: str | os.PathLike[str]) -> StoreError:
    """Return the store error that explains a failed SQLite call or file operation."""
    if isinstance(exc, OSError):
        return StorageUnavailable(
            f"the database file could not be used: {path} ({exc})",
            "the database file could not be used",
        )
    if isinstance(exc, sqlite3.IntegrityError):
        return StoreError(f"the database refused the change: {exc}")
    code = getattr(exc, "sqlite_errorcode", None)
    reason = _REASONS.get(code & 0xFF) if isinstance(code, int) else None
    if reason is None:
        reason = "the database could not be used"
    return StorageUnavailable(f"{reason}: {path} ({exc})", reason)


class SchemaTooNew(StoreError):
    """A newer release of scorekeeper has written this database: this one must not open it
    (its purge, backup or writes could break what the newer one keeps).

    `where` is the database as printed, `writer` the newer release recorded (None when only
    unknown schema `steps` tell), `release` this one: the command line says it from them."""

    def __init__(
        self,
        message: str,
        *,
        where: str = "",
        writer: str | None = None,
        release: str = "",
        steps: tuple[str, ...] = (),
    ) -> None:
        super().__init__(message)
        self.where, self.writer, self.release, self.steps = where, writer, release, steps
