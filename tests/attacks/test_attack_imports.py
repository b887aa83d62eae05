"""Issue 32, item 13: company imports yield to the table's writes.

- While `scorekeeper import` stores a company of 300 evenings, a phone saves deals through
  `scorekeeper serve --workers 2`: each Save is answered 302 and stored while the import is
  still running, and the import ends with the whole company (the times are printed;
  bench/bench_import_yield.py measures two 600-evening imports);
- an import that fails after its first evenings leaves no company and no live game behind.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from scorekeeper.company import file as company_file
from scorekeeper.store import Store, StoreError
from scorekeeper.store.companies import Companies

from ..harness import CLI, ROOT
from ..served import Phone, Server, checked, correction, new_game, save

sys.path.insert(0, str(ROOT / "bench"))
from bench_company_import import company_data  # noqa: E402


def rows(db: Path, query: str) -> list[tuple[object, ...]]:
    conn = sqlite3.connect(db)
    try:
        return conn.execute(query).fetchall()
    finally:
        conn.close()


def test_saves_are_answered_while_a_company_is_imported(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    server = Server(db, tmp_path / "server.log", args=("--workers", "2")).start()
    try:
        phone = Phone(server.port)
        token = new_game(phone)
        data = company_data(300, 10)
        path = tmp_path / "company.json"
        path.write_text(json.dumps(data))
        importing = subprocess.Popen(
            [CLI, "import", str(path), "--db", str(db)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        during, waits = 0, []
        for n in range(40):
            fields = checked(phone, token, **correction(f"during the import {n}"))
            started = time.perf_counter()
            save(phone, token, fields)
            waits.append(time.perf_counter() - started)
            if importing.poll() is None:
                during += 1
            else:
                break
        out, err = importing.communicate(timeout=600)
    finally:
        server.stop()
    print(f"{during} Saves while importing 300 evenings; the longest {max(waits) * 1000:.0f} ms")
    assert importing.returncode == 0, err
    assert b"imported the company" in out
    assert during >= 3  # the Saves went in between the import's writes, not after it
    assert rows(db, "SELECT count(*) FROM company_games") == [(300,)]
    reasons = rows(db, "SELECT count(*) FROM deals WHERE data LIKE '%during the import%'")
    assert reasons == [(len(waits),)]


def test_an_import_that_fails_leaves_no_company_and_no_live_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "games.sqlite"
    company = company_file.load_file(company_data(30, 5))

    def broken_fill(self: Companies, *args: object, **kwargs: object) -> None:
        raise StoreError("the disk filled up")

    monkeypatch.setattr(Companies, "fill", broken_fill)
    with Store(db) as store, pytest.raises(StoreError):
        company_file.create(store, company)
    assert rows(db, "SELECT count(*) FROM company_games") == [(0,)]
    assert rows(db, "SELECT count(*) FROM games") == [(30,)]
    assert rows(db, "SELECT count(*) FROM games WHERE deleted_at IS NULL") == [(0,)]
