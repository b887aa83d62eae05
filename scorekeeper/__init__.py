"""scorekeeper: an electronic pulka for Preferans played with real cards."""

from __future__ import annotations

import importlib

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__version__ = "0.1.0"


def create_app(test_config: dict[str, Any] | None = None) -> Any:
    """Create the Flask app (imported lazily so the rules and the CLI start fast)."""
    return importlib.import_module("scorekeeper.web").create_app(test_config)
