"""Wrong server passwords of this request's client, through the lockout service
(scorekeeper/lockout.py keeps the count in the database). The client is its address as the
app sees it (the proxy's client when the proxy is trusted, proxy.py)."""

from __future__ import annotations

from flask import request

from scorekeeper import lockout

from .storage import get_store

LIMIT = lockout.LIMIT
"""Wrong passwords allowed per client in a minute."""


def wait_seconds() -> int:
    """Seconds this request's client must wait before its next password (0: none)."""
    return lockout.wait_seconds(get_store(), request.remote_addr or "?")


def failed() -> None:
    """Count a wrong password from this request's client."""
    lockout.failed(get_store(), request.remote_addr or "?")
