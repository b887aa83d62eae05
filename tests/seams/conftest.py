"""The seams' own fixture: the real server on each engine's database."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from ..served import Server


@pytest.fixture
def served(store_location: str, tmp_path: Path) -> Iterator[Server]:
    """`scorekeeper serve` (uvicorn) on this engine's database."""
    server = Server(Path(store_location), tmp_path / "server.log")
    server.db = store_location  # type: ignore[assignment]  # a URL is passed as it is
    server.start()
    try:
        yield server
    finally:
        server.stop()
