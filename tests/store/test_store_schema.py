"""One list of schema steps for both engines (store/schema.py): a new database, one migrated
step by step and one the previous release made end with the same schema, on SQLite and on
PostgreSQL alike, as each engine describes its tables, columns, keys and indexes."""

from __future__ import annotations

import gzip
import shutil
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import psycopg
import pytest

from scorekeeper.store import Store
from scorekeeper.store.engine import Engine, close_pools
from scorekeeper.store.schema import TABLES, applied, migrate, step_names

from ..pg import Server

DATA = Path(__file__).parents[1] / "data"
LEDGERS = {"_sqlite_migrations", "scorekeeper_migrations"}
TYPES = {
    "integer": "integer",
    "bigint": "integer",
    "text": "text",
    "real": "real",
    "double precision": "real",
}
"""Each engine's column types, as the other engine's counterpart names them."""

Schema = dict[str, dict[str, list[Any]]]


def _default(value: str | None) -> str | None:
    """A column's default without PostgreSQL's cast ('[]'::text is '[]')."""
    return None if value is None else value.split("::")[0]


def _table(columns: list[Any], keys: list[Any], indexes: list[Any]) -> dict[str, list[Any]]:
    return {"columns": columns, "keys": sorted(keys), "indexes": sorted(indexes)}


def sqlite_schema(conn: sqlite3.Connection) -> Schema:
    """Every table's columns (name, type, must hold a value, default, place in the primary
    key), foreign keys and indexes (but the primary key's), as SQLite describes them."""
    names = [
        name
        for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        if name not in LEDGERS and not name.startswith("sqlite_")
    ]
    found = {}
    for name in names:
        columns = [
            [column, TYPES[kind.lower()], bool(notnull or pk), _default(default), pk]
            for _, column, kind, notnull, default, pk in conn.execute(f"PRAGMA table_info({name})")
        ]
        keys: dict[int, list[Any]] = {}
        for key, _, parent, column, to, *_ in conn.execute(f"PRAGMA foreign_key_list({name})"):
            keys.setdefault(key, [[], parent, []])
            keys[key][0].append(column)
            keys[key][2].append(to)
        indexes = [
            [[row[2] for row in conn.execute(f"PRAGMA index_info({index})")], bool(unique)]
            for _, index, unique, origin, _ in conn.execute(f"PRAGMA index_list({name})")
            if origin != "pk"
        ]
        found[name] = _table(columns, list(keys.values()), indexes)
    return found


_PG_COLUMNS = """
SELECT c.relname, a.attname, format_type(a.atttypid, NULL), a.attnotnull,
  pg_get_expr(d.adbin, d.adrelid),
  coalesce(array_position((SELECT p.conkey FROM pg_constraint p
    WHERE p.conrelid = c.oid AND p.contype = 'p'), a.attnum), 0)
FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
WHERE c.relnamespace = 'public'::regnamespace AND c.relkind = 'r' AND a.attnum > 0
  AND NOT a.attisdropped ORDER BY c.relname, a.attnum
"""
_PG_NAMES = """array(SELECT a.attname FROM unnest({keys}) WITH ORDINALITY k(n, o)
  JOIN pg_attribute a ON a.attrelid = {table} AND a.attnum = k.n ORDER BY k.o)"""
_PG_KEYS = f"""
SELECT c.conrelid::regclass::text, {_PG_NAMES.format(keys="c.conkey", table="c.conrelid")},
  c.confrelid::regclass::text, {_PG_NAMES.format(keys="c.confkey", table="c.confrelid")}
FROM pg_constraint c WHERE c.connamespace = 'public'::regnamespace AND c.contype = 'f'
"""
_PG_INDEXES = f"""
SELECT i.indrelid::regclass::text,
  {_PG_NAMES.format(keys="i.indkey::int2[]", table="i.indrelid")}, i.indisunique
FROM pg_index i JOIN pg_class t ON t.oid = i.indrelid
WHERE t.relnamespace = 'public'::regnamespace AND NOT i.indisprimary
"""


def pg_schema(url: str) -> Schema:
    """The same description as sqlite_schema's, as PostgreSQL's catalog gives it."""
    found: dict[str, tuple[list[Any], list[Any], list[Any]]] = {}
    with psycopg.connect(url) as conn:
        for table, column, kind, notnull, default, pk in conn.execute(_PG_COLUMNS):
            if table not in LEDGERS:
                entry = [column, TYPES[kind], notnull, _default(default), pk]
                found.setdefault(table, ([], [], []))[0].append(entry)
        for table, columns, parent, to in conn.execute(_PG_KEYS):
            found[table][1].append([columns, parent, to])
        for table, columns, unique in conn.execute(_PG_INDEXES):
            if table not in LEDGERS:
                found[table][2].append([columns, unique])
    return {table: _table(*parts) for table, parts in found.items()}


def schema_of(location: str) -> Schema:
    if location.startswith("postgresql"):
        return pg_schema(location)
    with closing(sqlite3.connect(location)) as conn:
        return sqlite_schema(conn)


@pytest.fixture(params=["sqlite", "postgresql"])
def kind(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def server(kind: str, request: pytest.FixtureRequest) -> Server | None:
    """The PostgreSQL server when the test is PostgreSQL's, or None."""
    return request.getfixturevalue("pg_server") if kind == "postgresql" else None  # type: ignore[no-any-return]


def _new(tmp_path: Path, server: Server | None, name: str) -> str:
    """A location of its own for one database of the test, with no schema yet."""
    if server is not None:
        return server.new_database(migrated=False)
    return str(tmp_path / name)


def test_both_engines_make_the_same_schema(tmp_path: Path, pg_server: Server) -> None:
    on_file = str(tmp_path / "new.sqlite")
    Store(on_file).close()
    on_server = pg_server.new_database(migrated=False)
    Store(on_server).close()
    close_pools()
    assert schema_of(on_file) == schema_of(on_server)
    assert set(schema_of(on_file)) == set(TABLES)
    columns = sum(len(table["columns"]) for table in schema_of(on_file).values())
    assert columns > 100


def test_a_database_migrated_step_by_step_ends_like_a_new_one(
    tmp_path: Path, kind: str, server: Server | None
) -> None:
    new = _new(tmp_path, server, "new.sqlite")
    Store(new).close()
    stepped = _new(tmp_path, server, "stepped.sqlite")
    engine = _bare(stepped)
    try:
        for number, name in enumerate(step_names()):
            migrate(engine, upto=name)
            assert applied(engine) == step_names()[: number + 1]
    finally:
        engine.close()
    Store(stepped).close()
    close_pools()
    assert schema_of(stepped) == schema_of(new)
    assert len(schema_of(new)) == len(TABLES)
    if kind == "sqlite":
        assert _sql_of(stepped) == _sql_of(new)


def _bare(location: str) -> Engine:
    """The database's engine alone, no Store (which would apply every step at once)."""
    from scorekeeper.store.engine import PostgresEngine, SqliteEngine

    if location.startswith("postgresql"):
        return PostgresEngine(location, busy_timeout_ms=5000)
    return SqliteEngine(Path(location), create=True, busy_timeout_ms=5000)


def _sql_of(path: str) -> list[tuple[str, str]]:
    """SQLite's own text of the schema, ledger included (an old release reads the ledger)."""
    with closing(sqlite3.connect(path)) as conn:
        return conn.execute("SELECT name, sql FROM sqlite_master ORDER BY name").fetchall()


def _previous_release(tmp_path: Path, kind: str, server: Server | None) -> str:
    """A database the release before this list of steps made (0.4.0, its sqlite-utils steps
    on SQLite, its own SQL list on PostgreSQL), with a game of one deal in it."""
    if server is None:
        path = tmp_path / "previous.sqlite"
        with gzip.open(DATA / "schema_before_52.sqlite.gz") as packed, path.open("wb") as out:
            shutil.copyfileobj(packed, out)
        return str(path)
    url = server.new_database(migrated=False)
    dump = gzip.decompress((DATA / "schema_before_52.postgresql.sql.gz").read_bytes()).decode()
    script = "\n".join(line for line in dump.splitlines() if not line.startswith("\\"))
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(script)  # type: ignore[call-overload]
    return url


def test_the_previous_releases_database_opens_and_ends_like_a_new_one(
    tmp_path: Path, kind: str, server: Server | None
) -> None:
    previous = _previous_release(tmp_path, kind, server)
    with Store(previous) as store:
        token = store.engine.value("SELECT edit_token FROM games")
        game = store.get_game(token)
        assert game.name == "Old" and len(game.deals) == 1
        store.add_deal(token, {"type": "redeal"}, base_version=game.version)
        assert len(store.get_game(token).deals) == 2
        assert store.engine.value("SELECT client FROM wrong_passwords") == "10.0.0.1"
    new = _new(tmp_path, server, "new.sqlite")
    Store(new).close()
    close_pools()
    assert schema_of(previous) == schema_of(new)
