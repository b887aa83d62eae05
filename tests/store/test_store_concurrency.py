"""The store under concurrent writers: threads, each with its own Store on one file."""

from __future__ import annotations

import fcntl
import multiprocessing
import os
import sqlite3
import threading
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from scorekeeper.store import DealRecord, GameRecord, StorageUnavailable, Store, VersionConflict

PLAYERS = ["Anna", "Boris", "Vera"]


def new_game(path: Path | str) -> GameRecord:
    with Store(path) as store:
        return store.create_game(
            name="Friday",
            convention="sochi",
            options={"pool_target": 10},
            players=PLAYERS,
            first_dealer="Anna",
        )


def test_two_threads_sending_the_same_request_key_at_once_create_one_deal(
    store_location: str,
) -> None:
    path = store_location
    game = new_game(path)
    rounds, threads = 10, 4
    barrier = threading.Barrier(threads)

    def tap(key: str) -> tuple[DealRecord, bool]:
        with Store(path) as store:
            barrier.wait()  # all threads post the same key at the same moment
            _, deal, created = store.add_deal(
                game.edit_token,
                {"type": "redeal", "key": key},
                base_version=1 + int(key),
                request_key=key,
            )
            return deal, created

    with ThreadPoolExecutor(max_workers=threads) as pool:
        for round_ in range(rounds):
            results = list(pool.map(tap, [str(round_)] * threads))
            assert sorted(created for _, created in results) == [False] * (threads - 1) + [True]
            assert len({deal.id for deal, _ in results}) == 1

    with Store(path) as store:
        final = store.get_game(game.edit_token)
    assert [deal.data["key"] for deal in final.deals] == [str(n) for n in range(rounds)]
    assert final.version == 1 + rounds


def test_many_writers_retrying_on_conflict_land_every_deal_exactly_once(
    store_location: str,
) -> None:
    path = store_location
    game = new_game(path)
    writers, deals_each = 6, 8
    conflicts = Counter[int]()

    def write(writer: int) -> None:
        with Store(path) as store:
            for n in range(deals_each):
                deal = {"type": "allpass", "writer": writer, "n": n}
                while True:
                    version = store.get_game(game.edit_token).version
                    try:
                        store.add_deal(game.edit_token, deal, base_version=version)
                        break
                    except VersionConflict as conflict:
                        assert conflict.current_version > version
                        conflicts[writer] += 1

    with ThreadPoolExecutor(max_workers=writers) as pool:
        list(pool.map(write, range(writers)))

    with Store(path) as store:
        final = store.get_game(game.edit_token)
        history = store.revisions(game.edit_token)
    seen = Counter((deal.data["writer"], deal.data["n"]) for deal in final.deals)
    assert seen == Counter((w, n) for w in range(writers) for n in range(deals_each))
    assert final.version == 1 + writers * deals_each
    assert sorted(r.game_version for r in history) == list(range(2, final.version + 1))
    # Each writer's own deals stay in the order it wrote them.
    for writer in range(writers):
        mine = [deal.data["n"] for deal in final.deals if deal.data["writer"] == writer]
        assert mine == list(range(deals_each))


@pytest.mark.parametrize("write", ["add_deal", "update_deal", "tournament", "company"])
def test_of_two_phones_at_one_version_the_second_gets_the_conflict(
    store_location: str, write: str
) -> None:
    """Both read version 1, both send at the same moment: one is written at version 2, the
    other is told of the conflict (under PostgreSQL's READ COMMITTED too: the row lock)."""
    from scorekeeper.store.companies import Companies
    from scorekeeper.store.tournaments import Tournaments

    game = new_game(store_location)
    with Store(store_location) as store:
        first = store.add_deal(game.edit_token, {"type": "redeal"}, base_version=1)[1]
        tournament = Tournaments(store).create(
            name="Cup", convention="sochi", options={}, table_size=3, bands=[], roster=PLAYERS
        )
        company = Companies(store).create(
            name="Fridays", convention="sochi", options={}, roster=PLAYERS
        )
    rounds, phones = 6, 2
    outcomes: list[str] = []
    lock = threading.Lock()
    for round_ in range(rounds):
        barrier = threading.Barrier(phones)
        version = 2 + round_ if write in ("add_deal", "update_deal") else 1 + round_

        def send(n: int, barrier: threading.Barrier, version: int, round_: int) -> None:
            with Store(store_location) as store:
                barrier.wait()
                try:
                    if write == "add_deal":
                        store.add_deal(
                            game.edit_token, {"type": "redeal", "n": n}, base_version=version
                        )
                    elif write == "update_deal":
                        store.update_deal(
                            game.edit_token,
                            first.id,
                            {"type": "redeal", "n": n, "round": round_},
                            base_version=version,
                        )
                    elif write == "tournament":
                        Tournaments(store).update(
                            tournament.edit_token, version, name=f"Cup {round_}.{n}"
                        )
                    else:
                        Companies(store).add_player(company.edit_token, f"P{round_}.{n}")
                    outcome = "written"
                except VersionConflict:
                    outcome = "conflict"
                with lock:
                    outcomes.append(outcome)

        threads = [
            threading.Thread(target=send, args=(n, barrier, version, round_)) for n in range(phones)
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    with Store(store_location) as store:
        final = store.get_game(game.edit_token)
        cup = Tournaments(store).get(tournament.edit_token)
        club = Companies(store).get(company.edit_token)
    if write == "company":  # no version: both are written, one after the other
        assert Counter(outcomes) == {"written": rounds * phones}
        assert len(club.roster) == len(PLAYERS) + rounds * phones
        return
    assert Counter(outcomes) == {"written": rounds, "conflict": rounds}
    if write == "tournament":
        assert cup.version == 1 + rounds
    else:
        assert final.version == 2 + rounds
        deals = len(final.deals)
        assert deals == (1 + rounds if write == "add_deal" else 1)
        with Store(store_location) as store:
            revisions = store.revisions(game.edit_token)
        assert [r.game_version for r in revisions] == list(range(2 + rounds, 1, -1))


def test_a_guard_refuses_inside_the_write_and_a_resend_still_gets_its_answer(
    store_location: str,
) -> None:
    from scorekeeper.store import StoreError

    game = new_game(store_location)
    seen: list[int] = []

    def closed(store: Store, game_id: int) -> None:
        seen.append(game_id)
        raise StoreError("the tour is closed")

    with Store(store_location) as store:
        _, deal, _ = store.add_deal(
            game.edit_token, {"type": "redeal"}, base_version=1, request_key="k1"
        )
        # The same request sent again gets its original answer, the guard not asked.
        _, again, created = store.add_deal(
            game.edit_token, {"type": "redeal"}, base_version=1, request_key="k1", guard=closed
        )
        assert (again.id, created, seen) == (deal.id, False, [])
        for write in (
            lambda: store.add_deal(
                game.edit_token, {"type": "redeal"}, base_version=2, guard=closed
            ),
            lambda: store.update_deal(
                game.edit_token, deal.id, {"type": "redeal", "x": 1}, base_version=2, guard=closed
            ),
            lambda: store.delete_deal(game.edit_token, deal.id, base_version=2, guard=closed),
            lambda: store.undo_last(game.edit_token, base_version=2, guard=closed),
            lambda: store.set_finished(game.edit_token, True, base_version=2, guard=closed),
            lambda: store.play_on(game.edit_token, base_version=2, options={}, guard=closed),
        ):
            with pytest.raises(StoreError, match="tour is closed"):
                write()
        assert seen == [game.id] * 6
        after = store.get_game(game.edit_token)
    assert (after.version, len(after.deals)) == (2, 1)


def test_a_locked_database_gives_storage_unavailable_and_writes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    game = new_game(path)
    other = sqlite3.connect(path, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")  # another process holds the write lock
        with Store(path, busy_timeout_ms=100) as store:
            assert store.get_game(game.view_token).version == 1  # WAL: reading still works
            with pytest.raises(StorageUnavailable, match="busy"):
                store.add_deal(game.edit_token, {"type": "redeal"}, base_version=1)
            other.execute("ROLLBACK")
            after, _, created = store.add_deal(game.edit_token, {"type": "redeal"}, base_version=1)
    finally:
        other.close()
    assert (created, after.version, len(after.deals)) == (True, 2, 1)


def test_a_writer_waits_for_a_short_lock_instead_of_failing(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    game = new_game(path)
    other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    try:
        other.execute("BEGIN IMMEDIATE")
        release = threading.Timer(0.3, other.execute, ["COMMIT"])
        release.start()
        with Store(path) as store:  # busy_timeout 5 s: long enough to wait for the commit
            after, _, created = store.add_deal(game.edit_token, {"type": "redeal"}, base_version=1)
        release.join()
    finally:
        other.close()
    assert (created, after.version) == (True, 2)


def test_another_server_process_writing_the_same_file_is_waited_for_in_turn(
    tmp_path: Path,
) -> None:
    """The processes of `serve --workers` take turns on an flock of the database's folder:
    a writer waits while another process holds the turn, and goes as soon as it is free."""
    path = tmp_path / "games.db"
    game = new_game(path)
    ready, go = multiprocessing.Event(), multiprocessing.Event()
    holder = multiprocessing.get_context("fork").Process(
        target=_hold_the_turn, args=(str(tmp_path), ready, go)
    )
    holder.start()
    try:
        assert ready.wait(10)
        with Store(path, busy_timeout_ms=200) as store:
            with pytest.raises(StorageUnavailable, match="busy"):
                store.add_deal(game.edit_token, {"type": "redeal"}, base_version=1)
            go.set()
            holder.join(10)
            after, _, created = store.add_deal(game.edit_token, {"type": "redeal"}, base_version=1)
    finally:
        go.set()
        holder.join(10)
    assert (created, after.version) == (True, 2)
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith("games.db-")) == [
        "games.db"
    ]  # no lock file left behind


def _hold_the_turn(folder: str, ready: Any, go: Any) -> None:
    fd = os.open(folder, os.O_RDONLY)
    fcntl.flock(fd, fcntl.LOCK_EX)
    ready.set()
    go.wait(10)
    os.close(fd)


def test_backup_while_another_thread_writes_is_consistent(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    game = new_game(path)
    stop = threading.Event()

    def keep_writing() -> int:
        written = 0
        with Store(path) as store:
            while not stop.is_set() or written < 5:
                version = store.get_game(game.edit_token).version
                store.add_deal(
                    game.edit_token, {"type": "redeal", "n": written}, base_version=version
                )
                written += 1
        return written

    with ThreadPoolExecutor(max_workers=1) as pool:
        writer = pool.submit(keep_writing)
        with Store(path) as store:
            for n in range(3):
                store.backup(tmp_path / f"backup-{n}.db")
        stop.set()
        total = writer.result()

    for n in range(3):
        with Store(tmp_path / f"backup-{n}.db") as copy:
            assert copy.integrity_check() == "ok"
            copied = copy.get_game(game.edit_token)
        # A snapshot: version and deals agree, and the deals are a prefix of what was written.
        assert copied.version == 1 + len(copied.deals)
        assert [deal.data["n"] for deal in copied.deals] == list(range(len(copied.deals)))
        assert len(copied.deals) <= total


def test_a_store_belongs_to_the_thread_that_opened_it(tmp_path: Path) -> None:
    with Store(tmp_path / "games.db") as store, ThreadPoolExecutor(max_workers=1) as pool:
        with pytest.raises(sqlite3.ProgrammingError):
            pool.submit(store.ping).result()


def test_two_hosts_purging_at_once_purge_each_game_once(store_location: str) -> None:
    import datetime

    games = [new_game(store_location) for _ in range(6)]
    with Store(store_location) as store:
        for game in games:
            store.delete_game(game.edit_token)
        later = datetime.datetime.now(datetime.UTC) + datetime.timedelta(days=30)
    barrier = threading.Barrier(2)

    def purge() -> int:
        with Store(store_location) as store:
            barrier.wait()
            return store.purge_deleted(now=later)

    with ThreadPoolExecutor(max_workers=2) as pool:
        done = list(pool.map(lambda _: purge(), range(2)))
    assert sum(done) == 6  # each game purged by one of them, none twice, no error
    with Store(store_location) as store:
        assert store.engine.value("SELECT count(*) FROM games") == 0
        assert store.engine.value("SELECT count(*) FROM deals") == 0
