"""`scorekeeper copy-db SOURCE TARGET` through the real command line: SQLite to PostgreSQL and
back, over every kind of data (games with edited, deleted and restored deals, request keys,
a deleted game, companies with evenings and payments, a tournament, confirmations); and
`backup` / `restore` of a PostgreSQL database, end to end."""

from __future__ import annotations

import json
import random
import stat
from pathlib import Path
from typing import Any

from scorekeeper.company import file as company_file
from scorekeeper.games import file_data
from scorekeeper.sample import random_game
from scorekeeper.store import Store
from scorekeeper.store.confirmations import Confirmations
from scorekeeper.store.copy import COPIED
from scorekeeper.store.engine import close_pools
from scorekeeper.tournament import service as tournament_service
from scorekeeper.tournament.sample import random_tournament

from ..company.test_company import random_company
from ..served import run_cli


def fill(location: str) -> None:
    """Every kind of data the app keeps, written through the store as the app writes it."""
    rng = random.Random(29)
    with Store(location) as store:
        game = random_game(rng, 6)
        record = store.create_game(
            name="Friday",
            convention=game["convention"],
            options=game.get("options", {}),
            players=game["players"],
            first_dealer=game["first_dealer"],
            deals=game["deals"][:3],
        )
        token = record.edit_token
        for n, deal in enumerate(game["deals"][3:]):
            record, _, _ = store.add_deal(
                token, deal, base_version=record.version, request_key=f"key-{n}"
            )
        first = record.deals[0]
        record = store.update_deal(
            token, first.id, record.deals[1].data, base_version=record.version, request_key="e"
        )
        gone_deal = record.deals[2].id
        record = store.delete_deal(token, gone_deal, base_version=record.version)
        kept = next(r for r in store.revisions(token, gone_deal) if r.data is not None)
        record = store.restore_revision(token, kept.id, base_version=record.version)
        Confirmations(store).add(
            record.view_token,
            deal_id=record.deals[0].id,
            revision=max(r.id for r in store.revisions(token, record.deals[0].id)),
            player=record.players[0],
            verdict="wrong",
            note="Борис взял 4",
            request_key="tap-1",
        )
        gone = store.create_game(
            name="deleted",
            convention="sochi",
            options={},
            players=["A", "B", "C"],
            first_dealer="A",
        )
        store.delete_game(gone.edit_token)
        company_file.create(store, company_file.load_file(random_company(3, 4)))
        tournament_service.import_file(store, random_tournament(rng, players=7, tours=2))


def rows_of(location: str) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every copied table, in a stable order, as plain values."""
    found: dict[str, list[tuple[Any, ...]]] = {}
    with Store(location, create=False) as store:
        for table in COPIED:
            rows = store.engine.rows(f"SELECT * FROM {table}")
            found[table] = sorted(
                (tuple(sorted((k, v) for k, v in row.items())) for row in rows), key=repr
            )
    close_pools()
    return found


def game_files(location: str) -> dict[str, str]:
    """Every live game's file as the app exports it, by edit token."""
    with Store(location, create=False) as store:
        tokens = [
            str(r["edit_token"])
            for r in store.engine.rows("SELECT edit_token FROM games WHERE deleted_at IS NULL")
        ]
        files = {t: json.dumps(file_data(store.get_game(t)), sort_keys=True) for t in tokens}
    close_pools()
    return files


def test_copy_db_to_postgresql_and_back_keeps_every_row_and_game_file(
    tmp_path: Path, pg_server: Any
) -> None:
    source = str(tmp_path / "club.sqlite")
    fill(source)
    target = pg_server.new_database(migrated=False)  # an empty database, made by the copy
    done = run_cli("copy-db", source, target)
    assert done.returncode == 0, done.stderr
    before = rows_of(source)
    games = len(before["games"])
    assert f"copied {games} games, 1 company, 1 tournament from {source} to " in done.stdout
    assert before["deal_revisions"] and before["request_keys"] and before["company_payments"]
    assert before["deal_confirmations"] and before["tournament_tables"]
    assert rows_of(target) == before
    assert game_files(target) == game_files(source)
    back = str(tmp_path / "back.sqlite")
    done = run_cli("copy-db", target, back)
    assert done.returncode == 0, done.stderr
    assert rows_of(back) == before
    assert game_files(back) == game_files(source)
    # The target's ids go on past the copied ones: a new game there gets a new id.
    with Store(target) as store:
        new = store.create_game(
            name="after",
            convention="sochi",
            options={},
            players=["A", "B", "C"],
            first_dealer="A",
        )
        assert new.id > max(dict(row)["id"] for row in before["games"])
    close_pools()


def test_copy_db_refuses_a_target_that_holds_data_and_says_so(tmp_path: Path, pg_url: str) -> None:
    source = str(tmp_path / "club.sqlite")
    fill(source)
    with Store(pg_url) as store:
        store.create_game(
            name="theirs",
            convention="sochi",
            options={},
            players=["A", "B", "C"],
            first_dealer="A",
        )
    close_pools()
    before = rows_of(pg_url)
    secret = pg_url.replace("postgres@", "postgres:hunter2@")
    for target in (secret, source):
        other = source if target != source else secret
        done = run_cli("copy-db", other, target)
        assert done.returncode == 2, done.stdout + done.stderr
        assert "already holds data (its table games has rows): nothing was copied" in done.stderr
        assert "hunter2" not in done.stdout + done.stderr
        assert "Traceback" not in done.stderr
    assert rows_of(pg_url) == before


def test_backup_of_postgresql_is_an_sqlite_file_that_restores_anywhere(
    tmp_path: Path, pg_server: Any
) -> None:
    source = pg_server.new_database()
    fill(source)
    backup = tmp_path / "backups" / "club.sqlite"
    done = run_cli("backup", str(backup), "--db", source)
    assert done.returncode == 0, done.stderr
    assert stat.S_IMODE(backup.stat().st_mode) == 0o600
    before = rows_of(source)
    assert rows_of(str(backup)) == before
    # onto an empty PostgreSQL database, onto a missing SQLite file
    empty = pg_server.new_database()
    for target in (empty, str(tmp_path / "restored.sqlite")):
        done = run_cli("restore", str(backup), "--db", target)
        assert done.returncode == 0, done.stderr
        assert rows_of(target) == before
        assert game_files(target) == game_files(source)
    # onto the live database: refused, then with --force the games written since are gone
    with Store(source) as store:
        store.create_game(
            name="since",
            convention="sochi",
            options={},
            players=["A", "B", "C"],
            first_dealer="A",
        )
    close_pools()
    done = run_cli("restore", str(backup), "--db", source)
    assert done.returncode == 2 and "already holds games" in done.stderr
    done = run_cli("restore", str(backup), "--db", source, "--force")
    assert done.returncode == 0, done.stderr
    assert rows_of(source) == before


def test_copy_db_refuses_a_missing_source_and_a_copy_onto_itself(tmp_path: Path) -> None:
    source = str(tmp_path / "club.sqlite")
    done = run_cli("copy-db", source, str(tmp_path / "new.sqlite"))
    assert done.returncode == 2 and f"there is no database at {source}" in done.stderr
    assert not (tmp_path / "new.sqlite").exists()
    fill(source)
    before = rows_of(source)
    done = run_cli("copy-db", source, str(tmp_path / "." / "club.sqlite"))
    assert done.returncode == 2 and "are the same database: nothing was copied" in done.stderr
    done = run_cli("--lang", "ru", "copy-db", source, source)
    assert done.returncode == 2 and "одна и та же база" in done.stderr
    assert rows_of(source) == before
