"""The store's file: durability settings, reopening, backups, migrations and failures."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sqlite3
import subprocess
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.store import (
    DatabaseMissing,
    GameRecord,
    StorageUnavailable,
    Store,
    StoreError,
)
from scorekeeper.store.engine import SqliteEngine
from scorekeeper.store.schema import applied, migrate, step_names

from ..helpers import newest_game, sqlite_connection

DEAL = {"type": "contract", "declarer": "Анна", "contract": "7S", "answers": {"Борис": "whist"}}


def new_game(store: Store, name: str = "Friday") -> GameRecord:
    return store.create_game(
        name=name,
        convention="sochi",
        options={"pool_target": 10},
        players=["Анна", "Борис", "Вера"],
        first_dealer="Вера",
        deals=[DEAL],
    )


def schema(path: Path) -> list[tuple[str, str]]:
    with closing(sqlite3.connect(path)) as db:
        return [(name, sql) for name, sql in db.execute("SELECT name, sql FROM sqlite_master")]


def bare_engine(path: Path) -> SqliteEngine:
    """The file's engine alone, no Store: to apply some of the steps, as a release did."""
    return SqliteEngine(path, create=True, busy_timeout_ms=5000)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    with Store(tmp_path / "games.db") as store:
        yield store


def test_every_connection_is_set_up_for_durability(store: Store) -> None:
    def pragma(name: str) -> Any:
        return store.engine.value(f"PRAGMA {name}")

    assert pragma("journal_mode") == "wal"
    assert pragma("synchronous") == 2  # FULL
    assert pragma("busy_timeout") == 5000
    assert pragma("foreign_keys") == 1


def test_a_missing_folder_is_refused_but_the_instance_folder_is_made(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "instance" / "data" / "games.db"
    with pytest.raises(DatabaseMissing, match="does not exist"):
        Store(path)
    assert not (tmp_path / "instance").exists()
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(tmp_path / "instance" / "data"))
    with Store(path) as store:
        new_game(store)
    assert path.is_file()


def test_everything_is_there_after_reopening(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    with Store(path) as store:
        game = new_game(store)
        _, deal, _ = store.add_deal(
            game.edit_token, {"type": "redeal"}, base_version=1, request_key="k"
        )
        store.delete_deal(game.edit_token, game.deals[0].id, base_version=2)
        before = store.get_game(game.edit_token)
        history = store.revisions(game.edit_token)
    with Store(path) as store:
        assert store.get_game(game.edit_token) == before
        assert store.revisions(game.edit_token) == history
        assert newest_game(store) is not None
        # The request key survived too: a resend after a restart still lands once.
        _, same, created = store.add_deal(
            game.edit_token, {"type": "redeal"}, base_version=1, request_key="k"
        )
        assert (created, same.id) == (False, deal.id)


def test_the_file_is_complete_after_close_without_its_wal(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    with Store(path) as store:
        game = new_game(store)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.db"]
    moved = tmp_path / "moved" / "games.db"
    moved.parent.mkdir()
    shutil.copy(path, moved)
    with Store(moved) as store:
        assert store.get_game(game.view_token).deals[0].data == DEAL


def test_backup_is_a_sound_self_contained_copy(store: Store, tmp_path: Path) -> None:
    games = [new_game(store, name) for name in ("one", "two")]
    dest = tmp_path / "backups" / "games-backup.db"
    store.backup(dest)
    assert sorted(p.name for p in dest.parent.iterdir()) == ["games-backup.db"]
    with closing(sqlite3.connect(dest)) as raw:
        assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    with Store(dest) as copy:
        assert copy.integrity_check() == "ok"
        assert copy.games_for_tokens(g.edit_token for g in games) == list(reversed(games))


def test_backup_overwrites_an_older_backup(store: Store, tmp_path: Path) -> None:
    dest = tmp_path / "backup.db"
    first = new_game(store, "first")
    store.backup(dest)
    second = new_game(store, "second")
    store.backup(dest)
    with Store(dest) as copy:
        assert [g.name for g in copy.games_for_tokens([first.edit_token, second.edit_token])] == [
            "second",
            "first",
        ]


def test_backup_to_an_impossible_place_fails_cleanly(store: Store, tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    with pytest.raises(StorageUnavailable, match="could not be used"):
        store.backup(blocker / "backup.db")
    assert store.integrity_check() == "ok"


def test_integrity_check_is_ok_for_a_fresh_store(store: Store) -> None:
    assert store.integrity_check() == "ok"


#: Every migration step, in the order written (each branch appends its own).
STEPS = step_names()
assert STEPS[0] == "m001_games_deals_revisions"


def test_migrations_run_twice_change_nothing(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    with Store(path) as store:
        game = new_game(store)
    once = schema(path)
    with Store(path) as store:
        assert store.get_game(game.edit_token).name == "Friday"
    engine = bare_engine(path)
    migrate(engine)
    done = applied(engine)
    engine.close()
    assert schema(path) == once
    assert done == STEPS


def test_a_file_migrated_step_by_step_ends_like_a_new_one(tmp_path: Path) -> None:
    # An early release's file: the first two steps only, with a game and a deal in it.
    old, new = tmp_path / "old.db", tmp_path / "new.db"
    engine = bare_engine(old)
    migrate(engine, upto=STEPS[1])
    with engine.writing():
        engine.insert("games",
            {"name": "Old", "convention": "sochi", "options": "{}", "first_dealer": "Anna",
             "players": '["Anna", "Boris", "Vera"]', "finished": 0, "created_at": "then",
             "updated_at": "then", "version": 1, "edit_token": "e1", "view_token": "v1"}
        )  # fmt: skip
        engine.insert("deals",
            {"game_id": 1, "seq": 0, "data": '{"type": "redeal"}', "created_at": "then",
             "updated_at": "then"}
        )  # fmt: skip
    engine.close()
    with Store(old) as store:
        assert [d.data for d in store.get_game("e1").deals] == [{"type": "redeal"}]
        store.add_deal("e1", {"type": "redeal", "n": 2}, base_version=1)
    Store(new).close()
    assert schema(old) == schema(new)
    assert len(schema(new)) > 20


#: What each step leaves (the schema after it and every step before it, as SQLite describes
#: its tables, columns, keys and indexes), fingerprinted when the step was released: a step is
#: never edited in effect, even when its code is reshaped. Append each new step's own.
RELEASED = {
    "m001_games_deals_revisions": "4a07eb90f1bd0dad",
    "m002_games_deleted_at": "220fee5b5451a491",
    "m003_companies": "1c00306c25c14a9e",
    "m004_deal_confirmations": "5afca3bfc46a9e22",
    "m005_tournaments": "188f8c4d073a4e7a",
    "m006_schema_release": "1c4ab74c25163110",
    "m007_wrong_passwords": "ee6bd18afea3372c",
    "m107_i32_seat_claims": "4af384a0f700edcf",
    "m131_i31_tours_planned": "12fa05b05d52c82d",
    "m141_i31_joined": "136ebb9762d7172f",
    "m148_i48_clubs": "71b9474b7e72231f",
    "m149_i48_season_carry": "2d430fdf8a533df0",
    "m150_i50_retired_links": "d6bb6f5fb8a8829c",
}


def _structure(db: sqlite3.Connection) -> str:
    found: list[object] = []
    for (table,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY 1"):
        found.append([table, db.execute(f"PRAGMA table_xinfo([{table}])").fetchall()])
        found.append([table, db.execute(f"PRAGMA foreign_key_list([{table}])").fetchall()])
        for index in db.execute(f"PRAGMA index_list([{table}])").fetchall():
            found.append([index[1:], db.execute(f"PRAGMA index_xinfo([{index[1]}])").fetchall()])
    return hashlib.sha256(json.dumps(found).encode()).hexdigest()[:16]


def test_every_released_step_still_makes_the_schema_it_made(tmp_path: Path) -> None:
    engine = bare_engine(tmp_path / "steps.db")
    made = {}
    for name in STEPS:
        migrate(engine, upto=name)
        made[name] = _structure(engine.connection)
    engine.close()
    assert {name: made.get(name) for name in RELEASED} == RELEASED


def test_every_migration_is_recorded_once_in_order(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    for _ in range(3):
        Store(path).close()
    with closing(sqlite3.connect(path)) as db:
        rows = db.execute("SELECT migration_set, name FROM _sqlite_migrations ORDER BY id")
        assert rows.fetchall() == [("scorekeeper", name) for name in STEPS]


def test_the_schema_refuses_orphan_deals(store: Store) -> None:
    with pytest.raises(sqlite3.IntegrityError):
        sqlite_connection(store).execute(
            "INSERT INTO deals (game_id, seq, data, created_at, updated_at)"
            " VALUES (999, 0, '{}', 'now', 'now')"
        )


# -- round trip ------------------------------------------------------------------------------

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(), children, max_size=4)
    ),
    max_leaves=12,
)
deals = st.dictionaries(st.text(), json_values, max_size=6)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(deal=deals, replacement=deals)
def test_any_json_deal_reads_back_exactly_as_stored(
    store: Store, deal: dict[str, Any], replacement: dict[str, Any]
) -> None:
    game = new_game(store)
    after, added, _ = store.add_deal(game.edit_token, deal, base_version=1)
    assert added.data == deal
    assert store.get_game(game.view_token).deals[-1].data == deal
    after = store.update_deal(game.edit_token, added.id, replacement, base_version=2)
    assert after.deals[-1].data == replacement
    edit = store.revisions(game.edit_token, added.id)[0]
    assert (edit.data, edit.previous) == (replacement, deal)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(options=st.dictionaries(st.text(), json_values, max_size=5), snapshot=deals, name=st.text())
def test_any_settings_read_back_exactly_as_stored(
    store: Store, options: dict[str, Any], snapshot: dict[str, Any], name: str
) -> None:
    game = store.create_game(
        name=name,
        convention="rostov",
        options=options,
        players=["Ä", "B", "C", "D"],
        first_dealer="B",
    )
    finished = store.set_finished(game.edit_token, True, base_version=1, snapshot=snapshot)
    assert store.get_game(game.edit_token) == finished
    assert (finished.name, finished.options, finished.finished_snapshot) == (
        name,
        options,
        snapshot,
    )


# -- a file that cannot be used ----------------------------------------------------------------


@pytest.fixture
def read_only_file(tmp_path: Path) -> Iterator[tuple[Path, GameRecord]]:
    """A database file with one game that this process can no longer write to."""
    path = tmp_path / "games.db"
    with Store(path) as store:
        game = new_game(store)
    if os.geteuid() != 0:
        path.chmod(0o444)
        yield path, game
        path.chmod(0o644)
        return
    # root ignores file modes; an immutable file is read-only even for root.
    assert shutil.which("chattr"), "root needs chattr (e2fsprogs) to make a file read-only"
    made = subprocess.run(["chattr", "+i", path], capture_output=True)
    assert made.returncode == 0, f"chattr +i failed: {made.stderr!r}"
    try:
        yield path, game
    finally:
        subprocess.run(["chattr", "-i", path], check=True)


def test_a_read_only_file_can_be_read_but_refuses_writes(
    read_only_file: tuple[Path, GameRecord],
) -> None:
    path, game = read_only_file
    with Store(path) as store:
        assert store.get_game(game.view_token).deals[0].data == DEAL
        with pytest.raises(StorageUnavailable, match="read-only"):
            store.add_deal(game.edit_token, {"type": "redeal"}, base_version=1)
        assert store.get_game(game.edit_token).version == 1


def test_a_read_only_connection_refuses_writes_with_a_clear_error(store: Store) -> None:
    game = new_game(store)
    store.engine.execute("PRAGMA query_only = ON")  # what SQLite reports for a read-only file
    with pytest.raises(StorageUnavailable, match="^the database is read-only: .*games.db"):
        store.add_deal(game.edit_token, {"type": "redeal"}, base_version=1)
    store.engine.execute("PRAGMA query_only = OFF")
    assert store.get_game(game.edit_token) == game


def test_a_full_disk_gives_storage_unavailable_and_writes_nothing(store: Store) -> None:
    game = new_game(store)
    pages = store.engine.value("PRAGMA page_count")
    store.engine.execute(f"PRAGMA max_page_count = {pages}")  # the disk is full from now on
    big = {"type": "correction", "reason": "x" * 100_000}
    with pytest.raises(StorageUnavailable, match="disk is full"):
        store.add_deal(game.edit_token, big, base_version=1, request_key="k")
    assert store.get_game(game.edit_token) == game
    assert len(store.revisions(game.edit_token)) == 1
    store.engine.execute("PRAGMA max_page_count = 1073741823")
    _, deal, created = store.add_deal(game.edit_token, big, base_version=1, request_key="k")
    assert (created, deal.data) == (True, big)


def test_a_file_that_is_not_a_database_is_refused_clearly(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    path.write_bytes(b"these are my holiday photos, not a database" * 100)
    with pytest.raises(StorageUnavailable, match="not a database"):
        Store(path)
    assert path.read_bytes().startswith(b"these are my holiday photos")


def test_a_directory_in_place_of_the_file_is_refused_clearly(tmp_path: Path) -> None:
    (tmp_path / "games.db").mkdir()
    with pytest.raises(StorageUnavailable, match="could not be opened") as caught:
        Store(tmp_path / "games.db")
    assert isinstance(caught.value, StoreError)
