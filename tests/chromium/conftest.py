"""The browser tier: every test in this folder drives headless Chromium (the fixtures are in
tests/conftest.py), and carries the `browser` mark, so `-m "not browser"` leaves it out too."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ..browser import ARGS, CHROMIUM, SMALL_PHONE

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
