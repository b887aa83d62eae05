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


def new_game(path: Path) -> GameRecord:
    with Store(path) as store:
        return store.create_game(
            name="Friday",
            convention="sochi",
            options={"pool_target": 10},
            players=PLAYERS,
            first_dealer="Anna",
        )


def test_two_threads_sending_the_same_request_key_at_once_create_one_deal(
    tmp_path: Path,
) -> None:
    path = tmp_path / "games.db"
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


def test_many_writers_retrying_on_conflict_land_every_deal_exactly_once(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
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
            pool.submit(store.last_game_settings).result()
