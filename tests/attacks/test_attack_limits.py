"""Issue 22, row 3: a game stored with more deals than a game may hold now (301), or than a
game file may hold (5,001: an older version or a hand-edited database), inserted straight into
the store, against the real server and CLI: it opens read-only with a clear message, its game
file downloads whole, its PDF is refused with a message (the CLI's export too, exit 2), and no
page is a 500."""

from __future__ import annotations

import json
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from scorekeeper import gamefile
from scorekeeper.games import create_from_game
from scorekeeper.store import Store

from ..harness import CLI
from ..served import PLAYERS, Phone, Server

ALLPASS = json.dumps({"type": "allpass", "tricks": {"Anna": 4, "Boris": 3, "Vera": 3}})


def stored_game(db: Path, deals: int) -> tuple[str, str]:
    """A game of `deals` all-passes written into the database as an older version could:
    (edit token, view token)."""
    game = gamefile.load(
        {
            "format": gamefile.FORMAT,
            "name": "Long ago",
            "convention": "sochi",
            "options": {"pool_target": 100000},
            "players": PLAYERS,
        }
    )
    with Store(db) as store:
        record = create_from_game(store, game)
    conn = sqlite3.connect(db)
    with conn:
        conn.executemany(
            "INSERT INTO deals (game_id, seq, data, deleted, created_at, updated_at)"
            " VALUES (?, ?, ?, 0, ?, ?)",
            [(record.id, n, ALLPASS, "2025-01-01", "2025-01-01") for n in range(deals)],
        )
        conn.execute(
            "UPDATE games SET version = 2, updated_at = '2025-01-02' WHERE id = ?", [record.id]
        )
    conn.close()
    return record.edit_token, record.view_token


@pytest.fixture(scope="module")
def served(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[Server, dict[int, tuple[str, str]]]]:
    where = tmp_path_factory.mktemp("long")
    db = where / "games.sqlite"
    tokens = {n: stored_game(db, n) for n in (301, 5001)}
    running = Server(db, where / "server.log")
    try:
        yield running.start(), tokens
    finally:
        running.stop()


PAGES = ("", "/log", "/settlement", "/history", "/game.json", "/chart.svg", "/version")


@pytest.mark.parametrize("deals", [301, 5001])
def test_a_game_over_the_limit_opens_read_only_and_downloads(
    served: tuple[Server, dict[int, tuple[str, str]]], deals: int
) -> None:
    server, tokens = served
    edit, view = tokens[deals]
    phone = Phone(server.port)
    pages = PAGES if deals == 301 else ("", "/game.json", "/version")
    for mode, token in (("g", edit), ("v", view)):
        for page in pages:
            reply = phone.get(f"/{mode}/{token}{page}")
            assert reply.status == 200, (mode, page, reply.status, reply.body[:300])
    shown = phone.get(f"/g/{edit}")
    assert f"This game has {deals} deals, more than the 300 one game holds now" in shown.html
    assert f"/g/{edit}/deal/new" not in shown.html, "the read-only game offers a new deal"
    data = json.loads(phone.get(f"/g/{edit}/game.json").body)
    assert len(data["deals"]) == deals
    # Writes are refused with the reason, never a 500.
    for path in (f"/g/{edit}/deal/new",):
        reply = phone.get(path)
        assert reply.status == 403, reply.status
        assert "shown read-only" in reply.html
    # The PDF is refused with a message (its drawing would take minutes).
    for mode, token in (("g", edit), ("v", view)):
        reply = phone.get(f"/{mode}/{token}/pulka.pdf")
        assert reply.status == 422, reply.status
        assert "the PDF is drawn for games of at most 300" in reply.html
    # The links page still works: the scorer can delete the old game.
    assert phone.get(f"/g/{edit}/links").status == 200


def test_export_of_a_game_over_the_limit_exits_2_with_a_message(
    served: tuple[Server, dict[int, tuple[str, str]]], tmp_path: Path
) -> None:
    server, tokens = served
    edit, _view = tokens[301]
    done = subprocess.run(
        [CLI, "export", edit, "--db", str(server.db), "--out", str(tmp_path / "x.pdf")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert "the game has 301 deals: the PDF is drawn for games of at most 300" in done.stderr
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "x.pdf").exists()
