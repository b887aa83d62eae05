"""Close tour while four tables save as fast as they can, on both engines, through the real
server: the director's one tap closes the tour every time (never "changed meanwhile": the
close and a table's Save take the table's game and then the tournament's row in one order,
so each waits for the other rather than refusing), and nothing is written after it."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from scorekeeper.store import Store
from scorekeeper.store.tournaments import Tournaments

from ..served import Phone, Server, new_tournament, table_tokens
from .test_tournament_server import TablePhone, _revisions_after, _until_each_tried_after, stored

TWELVE = ["Anna", "Boris", "Vera", "Gleb", "Dasha", "Egor", "Zoya", "Ivan", "Klara", "Lev"]
TWELVE += ["Mila", "Nina"]
ROUNDS = 3


@pytest.fixture(params=["sqlite", "postgresql"])
def server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Server]:
    where: Any = tmp_path / "games.sqlite"
    if request.param == "postgresql":
        where = request.getfixturevalue("pg_url")
    running = Server(where, tmp_path / "server.log").start()
    try:
        yield running
    finally:
        running.stop()


def test_one_tap_closes_the_tour_while_four_tables_save(server: Server) -> None:
    closed_first_time = 0
    for round_ in range(ROUNDS):
        director = Phone(server.port)
        token = new_tournament(director, TWELVE)
        tables = [TablePhone(server.port, t) for t in table_tokens(server.db, token)]
        assert len(tables) == 4
        for table in tables:
            table.thread.start()
        while min(len(t.saves) for t in tables) < 2:  # every table is saving
            time.sleep(0.01)
        form = director.get(f"/t/{token}").form("/close").set(early="y")
        closed = director.post(f"/t/{token}/close", form.data())
        closed_at = time.monotonic()
        assert closed.status == 302, (round_, closed.html[:1500])
        closed_first_time += 1
        at_close = stored(server.db, token)
        _until_each_tried_after(tables, closed_at)
        for table in tables:
            table.finish()
        assert stored(server.db, token) == at_close, round_
        assert _revisions_after(server.db, token) == [], round_
        with Store(server.db) as store:
            record = Tournaments(store).get(token)
            assert record.tours_closed == 1 and all(t.game.finished for t in record.tour(1))
        saved = sum(1 for t in tables for status, answer in t.saves if answer.get("saved"))
        assert saved >= 8
    print(f"\nClose tour: {closed_first_time}/{ROUNDS} closed at the first tap")
