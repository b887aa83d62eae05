"""Every connection to PostgreSQL is bounded (store/engine.py): TCP keepalives and
tcp_user_timeout, a connect timeout, the server's statement_timeout (a statement past it
is cancelled: a 503 "busy", never a request hung for ever); the schema steps at a process's
first start run with none (a step on a large table may take long)."""

from __future__ import annotations

import os
import signal
import threading

import pytest

from scorekeeper.store import StorageUnavailable, Store
from scorekeeper.store.engine import PostgresEngine, close_pools

from ..harness import until


def test_every_connection_is_bounded(pg_url: str) -> None:
    with Store(pg_url) as store:
        assert store.engine.value("SHOW statement_timeout") == "5s"
        assert isinstance(store.engine, PostgresEngine) and store.engine.connection is not None
        given = store.engine.connection.info.get_parameters()
        assert given["keepalives"] == "1" and given["tcp_user_timeout"] == "15000"
        assert given["connect_timeout"] == "2"


def test_a_statement_past_its_bound_is_cancelled_and_unhurried_lifts_it(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    close_pools()
    monkeypatch.setenv("SCOREKEEPER_DB_STATEMENT_TIMEOUT", "1")
    with Store(pg_url) as store:
        with pytest.raises(StorageUnavailable, match="busy"):
            store.engine.value("SELECT pg_sleep(3)")
        engine = store.engine
        assert isinstance(engine, PostgresEngine)
        with engine.unhurried():
            assert engine.value("SHOW statement_timeout") == "0"
            engine.value("SELECT pg_sleep(1.5)")
        assert engine.value("SHOW statement_timeout") == "1s"
    close_pools()


def test_the_pools_own_look_at_its_idle_connections_is_bounded(pg_url: str) -> None:
    """When a connection breaks, the pool looks at its idle ones (ConnectionPool.check); on a
    frozen server (its processes stopped, its kernel still answering) that look is cut off
    as every call is, and the frozen connection is replaced, not waited on for ever."""
    close_pools()
    with Store(pg_url) as store:
        engine = store.engine
        assert isinstance(engine, PostgresEngine) and engine.connection is not None
        backend = engine.connection.info.backend_pid
        pool = engine._pool  # noqa: SLF001 - the pool this engine's connection goes back to
    os.kill(backend, signal.SIGSTOP)
    try:
        looked = threading.Thread(target=pool.check, daemon=True)
        looked.start()
        until(lambda: not looked.is_alive(), "the pool's look at a frozen connection ended")
    finally:
        os.kill(backend, signal.SIGCONT)
    with Store(pg_url) as store:
        assert store.engine.value("SELECT 1") == 1
    close_pools()
