"""The browser tier: every test in this folder drives headless Chromium and carries the
`browser` mark, so `-m "not browser"` leaves it out too. One Chromium and one served app for
the session are in tests/conftest.py; here, for one test: a phone-sized page on that app
(`phone`) and its database (`store`), Chromium trusting a server's own certificate
(`trusting`), and a server of its own, as deployed and as served (`deploy`)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from scorekeeper.store import Store

from ..browser import ARGS, CHROMIUM, SMALL_PHONE, watch_console
from ..served import GUNICORN, Server

HERE = Path(__file__).resolve().parent


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if HERE in item.path.parents:
            item.add_marker(pytest.mark.browser)


@pytest.fixture
def trusting(chromium: Any) -> Iterator[Any]:
    """Chromium that trusts the server's certificate, in a phone-sized window."""
    browser = chromium.browser_type.launch(
        executable_path=CHROMIUM, args=[*ARGS, "--ignore-certificate-errors"]
    )
    try:
        yield browser.new_context(viewport=SMALL_PHONE)
    finally:
        browser.close()


@pytest.fixture
def store(real_server: Any) -> Iterator[Store]:
    """The served database, read as the server wrote it."""
    with Store(real_server.db) as s:
        yield s


@pytest.fixture
def phone(real_server: Any, chromium: Any) -> Iterator[tuple[Any, str, list[str]]]:
    """A 375 × 667 page on the real server that keeps downloads, collecting console errors."""
    context = chromium.new_context(viewport=SMALL_PHONE, accept_downloads=True)
    page = context.new_page()
    problems: list[str] = []
    watch_console(page, problems)
    try:
        yield page, real_server.url, problems
    finally:
        context.close()


@pytest.fixture(params=[GUNICORN, ()], ids=["deploy", "serve"])
def deploy(tmp_path: Path, catalogues: None, request: Any) -> Iterator[Server]:
    server = Server(tmp_path / "games.sqlite", tmp_path / "server.log", args=request.param)
    server.start()
    try:
        yield server
    finally:
        server.stop()
