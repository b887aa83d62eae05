"""Faults of the database file made for real (another program holding its write lock), the
app opened on it, and the 503 page people are shown while it cannot be used."""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterator
from pathlib import Path

from flask import Flask

from .harness import Page

#: The words of the 503 page (in English) while the database cannot be used.
UNAVAILABLE = "The score sheet cannot be reached"


@contextlib.contextmanager
def locked(db: Path) -> Iterator[Path]:
    """Another program holds the database's write lock (BEGIN EXCLUSIVE) until the end."""
    other = sqlite3.connect(db, isolation_level=None)
    try:
        other.execute("BEGIN EXCLUSIVE")
        yield db
        other.execute("ROLLBACK")
    finally:
        other.close()


def new_app(db: Path) -> Flask:
    """The app on this database file, as the server makes it."""
    from scorekeeper.web import create_app

    return create_app({"TESTING": True, "DATABASE": str(db), "SECRET_KEY": "faults"})


def assert_unavailable_page(page: Page, why: str) -> None:
    """A plain 503 page saying the sheet cannot be reached, and why; no traceback."""
    assert page.status == 503, (page.status, page.text()[:400])
    assert UNAVAILABLE in page.text()
    assert why in page.text()
    assert "Traceback" not in page.html and 'File "' not in page.html
    assert page.response.headers["Content-Security-Policy"]
