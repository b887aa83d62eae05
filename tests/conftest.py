"""Fixtures for the web tests: the app on a temp-file database, and a phone that fills in
the real forms of its pages (tests/harness.py); the browser tier's Chromium and server."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import jinja2
import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.store import Store

from .harness import TRANSLATIONS, Web


def pytest_configure(config: pytest.Config) -> None:
    """Register the browser tier's mark (run alone with -m browser, skip with -m "not browser");
    every app a test builds shares the templates compiled once (_CompiledOnce)."""
    config.addinivalue_line("markers", "browser: tests in headless Chromium at phone size")
    Flask.jinja_options = {**Flask.jinja_options, "bytecode_cache": _CompiledOnce()}


class _CompiledOnce(jinja2.BytecodeCache):
    """Jinja's bytecode cache, kept in the test process: most tests build an app of their own,
    and each compiled again every template it drew (~0.1 s for the home page alone, more
    for a sheet). A template is still read from its file; jinja2 compiles it again when its
    source changed (the bucket's checksum)."""

    def __init__(self) -> None:
        self.kept: dict[str, bytes] = {}

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        code = self.kept.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self.kept[bucket.key] = bucket.bytecode_to_string()


def compile_catalogues() -> None:
    """Compile the .po catalogues to .mo when stale, as scripts/setup.sh does."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    for po in TRANSLATIONS.glob("*/LC_MESSAGES/messages.po"):
        mo = po.with_suffix(".mo")
        if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
            continue
        with po.open("rb") as source:
            catalog = read_po(source)
        with mo.open("wb") as target:
            write_mo(target, catalog)


@pytest.fixture(scope="session", autouse=False)
def catalogues() -> None:
    """Compiled translations."""
    compile_catalogues()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    """A temp SQLite file (never :memory:)."""
    return tmp_path / "scorekeeper.sqlite"


@pytest.fixture
def app(db_path: Path, catalogues: None) -> Flask:
    """The app on a fresh temp-file database, CSRF on as in production."""
    from scorekeeper.web import create_app

    return create_app({"TESTING": True, "DATABASE": str(db_path), "SECRET_KEY": "test secret"})


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    """A test client (one browser: one cookie jar)."""
    return app.test_client()


@pytest.fixture
def store(db_path: Path, app: Flask) -> Iterator[Store]:
    """The same database, opened directly (to check what was written)."""
    with Store(db_path) as s:
        yield s


@pytest.fixture
def web(client: FlaskClient) -> Web:
    """A phone at the table: opens pages and fills in their forms."""
    return Web(client)


# -- the browser tier ------------------------------------------------------------------------


@pytest.fixture(scope="session")
def chromium() -> Iterator[Any]:
    """One headless Chromium for the whole run; each test opens its own context in it."""
    from playwright.sync_api import sync_playwright

    from .browser import launch

    with sync_playwright() as playwright:
        browser = launch(playwright)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture(scope="session")
def real_server(tmp_path_factory: pytest.TempPathFactory, catalogues: None) -> Iterator[Any]:
    """`scorekeeper serve` (uvicorn, as at the table) on a temp database, for the browser."""
    from .browser import RealServer

    where = tmp_path_factory.mktemp("served")
    server = RealServer(where / "scorekeeper.sqlite", where / "serve.log")
    try:
        server.wait_ready()
        yield server
    finally:
        server.stop()


# -- the real server in a process of its own (tests/served.py) -------------------------------


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Any]:
    """`scorekeeper serve` running on a fresh database file (a `served.Server`)."""
    from .served import Server

    running = Server(tmp_path / "games.sqlite", tmp_path / "server.log")
    try:
        yield running.start()
    finally:
        running.stop()


@pytest.fixture
def deploy(tmp_path: Path) -> Iterator[Any]:
    """The deploy's command (gunicorn, `served.GUNICORN`) running on a fresh database file."""
    from .served import GUNICORN, Server

    running = Server(tmp_path / "games.sqlite", tmp_path / "server.log", args=GUNICORN)
    try:
        yield running.start()
    finally:
        running.stop()


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[Callable[..., Any]]:
    """Start `scorekeeper serve` with these arguments (and environment), each with its own
    instance folder (a `served.Served`, answering); all stopped after the test."""
    from .served import Served

    started: list[Served] = []

    def start(*args: str, env: dict[str, str] | None = None) -> Served:
        started.append(Served(tmp_path, *args, env=env))
        return started[-1].wait()

    yield start
    for served in started:
        served.stop()


# -- PostgreSQL (tests/pg.py): the store's tests run on both engines ------------------------


@pytest.fixture(scope="session")
def pg_server() -> Iterator[Any]:
    """A PostgreSQL server for the session (SCOREKEEPER_TEST_PG, or one started here)."""
    from scorekeeper.store.engine import close_pools

    from .pg import Server

    server = Server()
    yield server
    close_pools()
    server.close()


@pytest.fixture
def pg_url(pg_server: Any) -> Iterator[str]:
    """A new, migrated PostgreSQL database of its own for this test."""
    from scorekeeper.store.engine import close_pools

    url: str = pg_server.new_database()
    yield url
    close_pools()
    pg_server.drop(url)


@pytest.fixture(params=["sqlite", "postgresql"])
def store_location(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Where a store test's database lives: an SQLite file, then a PostgreSQL database."""
    if request.param == "sqlite":
        return str(tmp_path / "scorekeeper.sqlite")
    url: str = request.getfixturevalue("pg_url")
    return url
