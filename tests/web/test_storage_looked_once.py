"""The database file is looked at (stat()) once per request at most, and a thread's kept
SQLite connection still follows the file: a file gone is a 503, and back, it is read again
(tests/attacks/test_safety_faults.py: one made read-only, or replaced)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from ..harness import Web


def _looks(monkeypatch: pytest.MonkeyPatch, database: str) -> list[str]:
    """The stat() calls on the database file from now on (Path.stat and isfile use it)."""
    seen: list[str] = []
    real = os.stat

    def counting(path: Any, *args: Any, **kwargs: Any) -> os.stat_result:
        if os.fspath(path) == database:
            seen.append(os.fspath(path))
        return real(path, *args, **kwargs)

    monkeypatch.setattr(os, "stat", counting)
    return seen


def test_a_page_looks_at_the_database_file_once(
    app: Flask, web: Web, monkeypatch: pytest.MonkeyPatch
) -> None:
    client = web.client
    token = web.new_game()
    assert client.get(f"/g/{token}").status_code == 200  # the thread's Store is kept
    looks = _looks(monkeypatch, app.config["DATABASE"])
    for path in (f"/g/{token}", f"/g/{token}/version", f"/g/{token}/deal/new"):
        looks.clear()
        assert client.get(path).status_code == 200
        assert len(looks) <= 1, path


def test_a_file_moved_away_is_a_503_and_moved_back_is_read_again(app: Flask, web: Web) -> None:
    client = web.client
    database = Path(app.config["DATABASE"])
    token = web.new_game()
    assert client.get(f"/g/{token}").status_code == 200  # the thread's Store is kept
    aside = database.with_name("aside.sqlite")
    os.replace(database, aside)
    assert client.get(f"/g/{token}").status_code == 503
    os.replace(aside, database)
    assert client.get(f"/g/{token}").status_code == 200
