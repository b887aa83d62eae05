"""What each kind of request asks PostgreSQL, counted through the app (issue 49: a hosted
host pays each statement in CPU and each round trip in waiting): upper bounds, so that a
statement or a round trip added to a Save or a page is seen here, and the bench that prints
them (bench/bench_statements.py) drives the very same requests."""

from __future__ import annotations

from typing import Any

import psycopg
import pytest

from bench.bench_statements import pages
from scorekeeper.store import engine as engine_module
from scorekeeper.web import create_app
from tests.harness import Web

#: (statements, round trips) at most, per kind of request, on PostgreSQL. A write's BEGIN,
#: NOTIFY and COMMIT are statements; sent together in psycopg's pipeline mode, one trip.
BOUNDS = {
    "save (the POST alone)": (10, 4),
    "answers (a follower's part)": (1, 1),
    "answer key (a follower)": (1, 1),
    "answer (a follower's POST)": (7, 3),
    "home": (1, 1),
    "game page (edit)": (2, 2),
    "game page (view)": (1, 1),
    "deal form": (1, 1),
    "poll": (1, 1),
    "save (form+check+save+page)": (14, 8),
}


def test_each_request_asks_postgresql_at_most_its_bound(
    pg_url: str, catalogues: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    sent: list[str] = []
    real = psycopg.Cursor.execute

    def execute(cursor: Any, query: Any, *args: Any, **kwargs: Any) -> Any:
        sent.append(str(query))
        return real(cursor, query, *args, **kwargs)

    monkeypatch.setattr(psycopg.Cursor, "execute", execute)
    app = create_app({"TESTING": True, "DATABASE": pg_url, "SECRET_KEY": "statements"})
    kinds = pages(Web(app.test_client()))
    assert set(kinds) == set(BOUNDS)
    counted = {}
    for name, page in kinds.items():
        prepare, act = page if isinstance(page, tuple) else (lambda: None, lambda _, p=page: p())
        act(prepare())  # the kept states a busy host has
        ready = prepare()
        sent.clear()
        trips = engine_module.round_trips()
        act(ready)
        counted[name] = (len(sent), engine_module.round_trips() - trips)
    over = {
        k: (counted[k], bound)
        for k, bound in BOUNDS.items()
        if counted[k][0] > bound[0] or counted[k][1] > bound[1]
    }
    assert not over, f"(statements, round trips) over the bound: {over}"
    assert all(counted[k][0] >= 1 for k in BOUNDS)  # each was counted, none went unseen
