"""Statements each page sends to the database, and the database time of a Save and a poll,
on SQLite and on PostgreSQL (issue 29: a query costs ~0.06 ms in SQLite, ~0.4 ms over
loopback to PostgreSQL, so the count matters).

    .venv/bin/python -m bench.bench_statements            # SQLite, and PostgreSQL if it can
    SCOREKEEPER_TEST_PG=postgresql://... .venv/bin/python -m bench.bench_statements

Counts every statement the driver runs (BEGIN/COMMIT included) during one request, after a
warm-up request of the same kind (so the kept states are what a busy server has), and on
PostgreSQL the round trips (statements sent together in psycopg's pipeline mode are one:
a write's BEGIN with its first statement, the statements nobody waits for with its COMMIT).
The time is the sum of the driver's calls during the request (network and server included).
"""

from __future__ import annotations

import re
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.harness import Web  # noqa: E402

_COUNT = [0, 0.0]  # statements, seconds in the driver
ASKED = re.compile(r'<li hidden data-deal="(\d+)" data-revision="(\d+)"')


class _Timed(sqlite3.Connection):
    def execute(self, *args: Any, **kwargs: Any) -> sqlite3.Cursor:
        start = time.perf_counter()
        try:
            return super().execute(*args, **kwargs)
        finally:
            _COUNT[1] += time.perf_counter() - start

    def executemany(self, *args: Any, **kwargs: Any) -> sqlite3.Cursor:
        start = time.perf_counter()
        try:
            return super().executemany(*args, **kwargs)
        finally:
            _COUNT[1] += time.perf_counter() - start


def _patch_sqlite() -> None:
    real = sqlite3.connect

    def connect(*args: Any, **kwargs: Any) -> sqlite3.Connection:
        kwargs.setdefault("factory", _Timed)
        conn = real(*args, **kwargs)
        conn.set_trace_callback(lambda _sql: _COUNT.__setitem__(0, _COUNT[0] + 1))
        return conn

    sqlite3.connect = connect  # type: ignore[assignment]


def _patch_psycopg() -> None:
    import psycopg

    for name in ("execute", "executemany"):
        real = getattr(psycopg.Cursor, name)

        def timed(self: Any, *args: Any, _real: Any = real, **kwargs: Any) -> Any:
            start = time.perf_counter()
            try:
                return _real(self, *args, **kwargs)
            finally:
                _COUNT[0] += 1
                _COUNT[1] += time.perf_counter() - start

        setattr(psycopg.Cursor, name, timed)


@contextmanager
def counted() -> Iterator[list[Any]]:
    from scorekeeper.store.engine import round_trips

    _COUNT[:] = [0, 0.0]
    result: list[Any] = []
    trips = round_trips()
    start = time.perf_counter()
    yield result
    elapsed = time.perf_counter() - start
    result.extend([_COUNT[0], _COUNT[1], elapsed, round_trips() - trips])


def pages(web: Web) -> dict[str, Any]:
    token = web.new_game(pool_target=500)
    players = ["Anna", "Boris", "Vera"]
    for _ in range(3):
        web.play(token, players, "misere", declarer="Anna", tricks={"Anna": 0})
    view = web.get(f"/g/{token}").html.split("/v/")[1].split('"')[0].split("/")[0]
    client = web.client

    def save() -> Any:
        web.play(token, players, "misere", declarer="Boris", tricks={"Boris": 0})

    def checked() -> tuple[Any, Any]:
        page, form = web.deal_form(token)
        web.fill_deal(form, players, "misere", declarer="Vera", tricks={"Vera": 0})
        done = web.check(page, form)
        return done, done.form("deal-form")

    def asked() -> tuple[str, str, Any]:
        save()
        page = client.get(f"/v/{view}").get_data(as_text=True)
        deal, revision = ASKED.findall(page)[-1]
        return deal, revision, client.get(f"/v/{view}/confirm/key").get_json()

    def answer(got: tuple[str, str, Any]) -> None:
        deal, revision, key = got
        form = {"deal": deal, "revision": revision, "player": "Vera", "verdict": "right"}
        sent = client.post(f"/v/{view}/confirm", data=form | key)
        assert sent.status_code == 200, sent.get_data(as_text=True)

    return {
        "save (the POST alone)": (checked, lambda got: web.save(*got)),
        "answers (a follower's part)": lambda: client.get(f"/v/{view}/answers"),
        "answer key (a follower)": lambda: client.get(f"/v/{view}/confirm/key"),
        "answer (a follower's POST)": (asked, answer),
        "home": lambda: client.get("/"),
        "game page (edit)": lambda: client.get(f"/g/{token}"),
        "game page (view)": lambda: client.get(f"/v/{view}"),
        "deal form": lambda: client.get(f"/g/{token}/deal/new"),
        "poll": lambda: client.get(f"/v/{view}/version"),
        "save (form+check+save+page)": save,
    }


def run(location: str, label: str) -> None:
    from scorekeeper.web import create_app

    app = create_app({"TESTING": True, "DATABASE": location, "SECRET_KEY": "bench"})
    web = Web(app.test_client())
    kinds = pages(web)
    print(f"\n{label}")
    print(
        f"  {'page':30} {'statements':>10} {'round trips':>11} {'db ms (p50)':>12}"
        f" {'request ms':>11}"
    )
    for name, page in kinds.items():
        prepare, act = page if isinstance(page, tuple) else (lambda: None, lambda _, p=page: p())
        act(prepare())  # warm
        runs = []
        for _ in range(15 if not name.startswith(("save", "answer (")) else 8):
            ready = prepare()
            with counted() as got:
                act(ready)
            runs.append(got)
        trips = runs[-1][3] or "-"  # SQLite: no network
        print(
            f"  {name:30} {runs[-1][0]:>10} {trips:>11}"
            f" {statistics.median(r[1] for r in runs) * 1000:>12.2f}"
            f" {statistics.median(r[2] for r in runs) * 1000:>11.2f}"
        )


def main() -> None:
    _patch_sqlite()
    with tempfile.TemporaryDirectory() as folder:
        run(str(Path(folder) / "bench.sqlite"), "SQLite (db ms: the driver's execute calls)")
    try:
        _patch_psycopg()
        from tests.pg import Server

        server = Server()
    except Exception as error:  # noqa: BLE001 - no PostgreSQL here: SQLite only
        print(f"\nPostgreSQL: not measured ({error})")
        return
    try:
        run(server.new_database(), "PostgreSQL over loopback")
    finally:
        from scorekeeper.store.engine import close_pools

        close_pools()
        server.close()


if __name__ == "__main__":
    main()
