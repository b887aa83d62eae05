"""A PostgreSQL database made without a locale (SQL_ASCII, what `initdb` gives with no
LANG) works as a UTF-8 one: the schema's steps are known and names come back as written."""

from __future__ import annotations

import uuid
from typing import Any

import psycopg

from scorekeeper.store import Store
from scorekeeper.store.engine import close_pools


def test_an_sql_ascii_database_keeps_its_steps_and_names(pg_server: Any) -> None:
    name = f"sk_ascii_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(pg_server.base, autocommit=True) as admin:
        admin.execute(
            f"CREATE DATABASE {name} ENCODING 'SQL_ASCII' LC_COLLATE 'C' LC_CTYPE 'C'"
            " TEMPLATE template0"
        )
    url = pg_server.url(name)
    store = Store(url)
    try:
        record = store.create_game(
            name="Пятница",
            convention="sochi",
            options={},
            players=["Анна", "Bože", "Ćiro"],
            first_dealer="Анна",
        )
    finally:
        store.close()
    again = Store(url)  # opened anew: the steps applied are recognised, none run twice
    try:
        kept = again.get_game(record.edit_token)
        assert (kept.name, kept.players) == ("Пятница", ["Анна", "Bože", "Ćiro"])
    finally:
        again.close()
        close_pools()
        pg_server.drop(url)
