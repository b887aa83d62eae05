"""scorekeeper: an electronic pulka for Preferans played with real cards."""

from __future__ import annotations

import importlib

from scorekeeper.version import __version__

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = ["__version__", "create_app"]


def create_app(test_config: dict[str, Any] | None = None) -> Any:
    """Create the Flask app (imported lazily so the rules and the CLI start fast)."""
    return importlib.import_module("scorekeeper.web").create_app(test_config)
