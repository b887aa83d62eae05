"""The browser tier: every test in this folder drives headless Chromium (the fixtures are in
tests/conftest.py), and carries the `browser` mark, so `-m "not browser"` leaves it out too."""

from __future__ import annotations

from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if HERE in item.path.parents:
            item.add_marker(pytest.mark.browser)
