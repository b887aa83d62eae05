"""What a Save and a page ask the database (issue 49: on PostgreSQL each statement is a round
trip over the network): a Save asks the time with its one-time key, numbers its deal in its
INSERT and reads no deal back; a follower's answer is checked in one statement; a
connection just given back to the pool is handed out again
without the pool's look, one whose server ended it is looked at and replaced."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import psycopg
import pytest
from psycopg_pool import ConnectionPool

from scorekeeper.store import GameRecord, Store, StoreError
from scorekeeper.store import engine as engine_module
from scorekeeper.store.confirmations import ConfirmationRefused, Confirmations
from scorekeeper.store.store import _KEPT_DEALS

from ..harness import until

ALLPASS = {"type": "allpass", "tricks": {"Anna": 2, "Boris": 4, "Vera": 4}}
MISERE = {"type": "misere", "declarer": "Vera", "tricks": {"Vera": 1}}


@pytest.fixture
def store(store_location: str) -> Iterator[Store]:
    """A store on each engine: an SQLite file, then a PostgreSQL database."""
    with Store(store_location) as store:
        yield store


def new_game(store: Store, deals: Sequence[dict[str, Any]]) -> GameRecord:
    return store.create_game(
        name="Friday",
        convention="sochi",
        options={"pool_target": 10},
        players=["Anna", "Boris", "Vera"],
        first_dealer="Vera",
        deals=list(deals),
    )


def datas(game: GameRecord) -> list[dict[str, Any]]:
    return [deal.data for deal in game.deals]


def _counting(store: Store, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every statement the store sends through its engine from now on (BEGIN and COMMIT are
    the engine's own: not counted)."""
    statements: list[str] = []
    engine = store.engine
    inside = [False]  # a call made by another counted call (SQLite's send runs execute)

    def counting(real: Any) -> Any:
        def counted(*args: Any) -> Any:
            outer = not inside[0]
            if outer:
                many = args[0] if real.__name__ == "rows_each" else [args]
                statements.extend(sql for sql, *_ in many)
            inside[0] = True
            try:
                return real(*args)
            finally:
                inside[0] = not outer

        return counted

    for name in ("rows", "value", "execute", "send", "rows_each"):
        monkeypatch.setattr(engine, name, counting(getattr(engine, name)))
    return statements


def test_a_save_is_six_statements_and_reads_no_deal_back(
    store_location: str, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The game's row locked, the key and the time, the deal (numbered in its INSERT), its
    revision, the game's version, the key: the sheet after it is the one read before and the
    new deal, as a reader with nothing kept reads it."""
    game = new_game(store, [ALLPASS])
    store.get_game(game.view_token)  # the state the scorer's page read
    statements = _counting(store, monkeypatch)
    after, deal, created = store.add_deal(
        game.edit_token, MISERE, base_version=game.version, request_key="k1"
    )
    assert created and deal.position == 1 and datas(after) == [ALLPASS, MISERE]
    assert len(statements) == 6, statements
    assert not [s for s in statements if s.startswith("SELECT * FROM deals")]
    _KEPT_DEALS.states.clear()
    with Store(store_location, create=False) as reader:
        assert reader.get_game(game.edit_token) == after

    again, same, created = store.add_deal(
        game.edit_token, MISERE, base_version=game.version, request_key="k1"
    )
    assert not created and same.id == deal.id and again.version == after.version
    assert datas(again) == [ALLPASS, MISERE]


def test_deals_after_a_deleted_one_are_numbered_after_it(store: Store) -> None:
    """The next deal's place is after every deal the sheet had, deleted ones too (their
    history stays on their rows)."""
    game = new_game(store, [ALLPASS, MISERE])
    undone = store.undo_last(game.edit_token, base_version=game.version)
    after, deal, _ = store.add_deal(game.edit_token, MISERE, base_version=undone.version)
    seqs = store.engine.rows("SELECT seq FROM deals WHERE game_id = ? ORDER BY seq", [game.id])
    assert [r["seq"] for r in seqs] == [0, 1, 2]
    assert deal.position == 1 and datas(after) == [ALLPASS, MISERE]


def _looks(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the pool's looks at the connections it hands out."""
    looks: list[int] = []
    real = ConnectionPool.check_connection

    def counted(conn: Any) -> None:
        looks.append(1)
        real(conn)

    monkeypatch.setattr(ConnectionPool, "check_connection", staticmethod(counted))
    return looks


def _use_every_connection(url: str) -> None:
    """Borrow every connection of the process's pool at once, then give them all back (the
    pool hands out the one given back longest ago)."""
    Store(url).close()
    size = engine_module.pool_stats()[0]["pool_size"]
    stores = [Store(url) for _ in range(size)]
    for store in stores:
        store.close()


def test_on_postgresql_a_save_is_three_round_trips_and_a_page_one(pg_url: str) -> None:
    """The write's BEGIN goes with the game's lock and the key's look-up (the key's run by
    the server once the lock is held), the deal's INSERT answers its id, and the revision,
    the version and the key go with the COMMIT; the game's page reads it, the tournament,
    the company and the answers' stamp in one statement."""
    with Store(pg_url) as store:
        game = new_game(store, [ALLPASS])
        before = engine_module.round_trips()
        after, deal, created = store.add_deal(
            game.edit_token, MISERE, base_version=game.version, request_key="k1"
        )
        assert created and engine_module.round_trips() - before == 3
        before = engine_module.round_trips()
        again, same, created = store.add_deal(
            game.edit_token, MISERE, base_version=game.version, request_key="k1"
        )
        assert not created and same.id == deal.id and engine_module.round_trips() - before == 2
        before = engine_module.round_trips()
        page = store.get_game(game.edit_token)
        assert engine_module.round_trips() - before == 1 and page == again
        assert page.around is not None and page.around.table is None
        assert page.around.company is None and page.around.stamp == 0


def test_a_statement_sent_with_the_commit_that_fails_rolls_the_whole_write_back(
    store: Store,
) -> None:
    """A statement nobody waits for (engine.send) fails at the COMMIT it went with: the
    write raises, nothing of it stays, and the connection serves the next one."""
    game = new_game(store, [ALLPASS])
    store.add_deal(game.edit_token, MISERE, base_version=game.version, request_key="k1")
    now = store.engine.now()
    with pytest.raises(StoreError):
        with store.engine.writing():
            store.engine.send("UPDATE games SET name = ? WHERE id = ?", ["Saturday", game.id])
            store.engine.send(
                "INSERT INTO request_keys (game_id, request_key, action, deal_id, created_at)"
                " VALUES (?, ?, ?, ?, ?)",
                [game.id, "k1", "add_deal", None, now],
            )
    assert store.get_game(game.edit_token).name == "Friday"
    with store.engine.writing():
        store.engine.send("UPDATE games SET name = ? WHERE id = ?", ["Sunday", game.id])
    assert store.get_game(game.edit_token).name == "Sunday"


def test_a_connection_just_given_back_is_handed_out_without_a_look(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A connection given back whole and quiet since is handed out without the pool's look.
    One the pool made meanwhile (it grows while every connection is lent, later on a loaded
    machine) was never given back: that one is looked at, and the next hand-out is one of
    those given back."""
    monkeypatch.setattr(engine_module, "FRESH_SECONDS", 3600.0)
    _use_every_connection(pg_url)
    looks = _looks(monkeypatch)
    quiet: list[bool] = []
    real_quiet = engine_module._quiet

    def noted(conn: Any) -> bool:
        quiet.append(real_quiet(conn))
        return quiet[-1]

    monkeypatch.setattr(engine_module, "_quiet", noted)
    fresh = 0
    for _ in range(engine_module.pool_max() + 1):
        before = len(looks), len(quiet)
        with Store(pg_url) as store:
            store.ping()
        given_back = len(quiet) > before[1] and quiet[-1]
        assert len(looks) - before[0] == (0 if given_back else 1), (given_back, looks, quiet)
        fresh += given_back
        if fresh:
            break
    assert fresh == 1  # one hand-out at least was of a connection just given back
    monkeypatch.setattr(engine_module, "FRESH_SECONDS", 0.0)  # idle "too long": looked at
    before = len(looks), len(quiet)
    with Store(pg_url) as store:
        store.ping()
    assert (len(looks) - before[0], len(quiet) - before[1]) == (1, 0)


def test_a_connection_its_server_ended_is_looked_at_and_replaced(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(engine_module, "FRESH_SECONDS", 3600.0)
    _use_every_connection(pg_url)
    with Store(pg_url) as store:
        pid = store.engine.value("SELECT pg_backend_pid()")
    with psycopg.connect(pg_url, autocommit=True) as admin:
        others = admin.execute(
            "SELECT pid FROM pg_stat_activity WHERE application_name = 'scorekeeper'"
        ).fetchall()
        for (other,) in others:
            admin.execute("SELECT pg_terminate_backend(%s)", [other])
    with psycopg.connect(pg_url, autocommit=True) as admin:
        until(
            lambda: (
                not admin.execute(
                    "SELECT 1 FROM pg_stat_activity WHERE application_name = 'scorekeeper'"
                ).fetchone()
            ),
            "the terminated backend ended",
        )
    looks = _looks(monkeypatch)
    with Store(pg_url) as store:
        assert store.engine.value("SELECT pg_backend_pid()") != pid
    assert looks, "an ended connection was handed out unlooked at"


def test_an_answer_is_checked_in_one_statement_after_its_game_is_locked(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A follower's answer: the game's row locked, one look-up (its key, the deal, its
    revision, the player's answers, the seat, the time), the seat claimed the first time,
    the answer; sent again, it is answered as before and nothing is written."""
    game = new_game(store, [ALLPASS])
    deal = game.deals[0]
    revision = store.revisions(game.edit_token, deal.id)[0].id
    answers = Confirmations(store)
    statements = _counting(store, monkeypatch)

    said = {"deal_id": deal.id, "player": "Vera", "verdict": "right", "note": ""}

    def answer(key: str, shown: int = revision) -> tuple[Any, bool]:
        sent = said | {"revision": shown, "request_key": key, "phone": "a phone"}
        return answers.add(game.view_token, **sent)  # type: ignore[arg-type]

    first, written = answer("k1")
    assert written and len(statements) == 4, statements
    statements.clear()
    assert answer("k2")[1] and len(statements) == 3, statements  # the seat is held already
    statements.clear()
    again, written = answer("k1")
    assert not written and again == first and len(statements) == 2, statements
    with pytest.raises(ConfirmationRefused) as refused:
        answer("k3", revision + 1)
    assert refused.value.reason == "changed"
