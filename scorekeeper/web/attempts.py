"""Wrong server passwords, counted per client: after a few in a minute, the client waits.

Without this, 1,235 guesses in 17 s found "1234". The count is kept in the app's memory
(a restart clears it), by the client's address as the server sees it (ProxyFix under
PROXY=1). Under `serve`'s N worker processes each counts its share, ⌈LIMIT / N⌉.
"""

from __future__ import annotations

import math
import threading
import time
from collections import OrderedDict, deque

from flask import current_app, request

LIMIT = 5
"""Wrong passwords allowed per client in WINDOW seconds."""
WINDOW = 60.0
_CLIENTS = 10_000  # addresses remembered at most (the oldest are forgotten first)


class Attempts:
    """Wrong passwords per client address, in a sliding window."""

    def __init__(self, limit: int = LIMIT) -> None:
        self.limit = limit
        self._lock = threading.Lock()
        self._failures: OrderedDict[str, deque[float]] = OrderedDict()

    def wait_seconds(self, client: str, now: float) -> int:
        """Seconds the client must wait before trying again (0: it may try now)."""
        with self._lock:
            times = self._failures.get(client)
            if not times:
                return 0
            while times and times[0] <= now - WINDOW:
                times.popleft()
            if len(times) < self.limit:
                return 0
            return max(1, math.ceil(times[0] + WINDOW - now))

    def failed(self, client: str, now: float) -> None:
        """Count a wrong password from the client."""
        with self._lock:
            times = self._failures.pop(client, None) or deque(maxlen=self.limit)
            times.append(now)
            self._failures[client] = times
            while len(self._failures) > _CLIENTS:
                self._failures.popitem(last=False)


def _attempts() -> Attempts:
    found = current_app.extensions.get("password_attempts")
    if found is None:
        # Each of `serve`'s N processes counts on its own: each allows its share of the tries,
        # so a guesser gets at most LIMIT + N - 1 a minute whichever process answers.
        share = math.ceil(LIMIT / max(1, int(current_app.config.get("WORKERS", 1))))
        found = current_app.extensions.setdefault("password_attempts", Attempts(share))
    assert isinstance(found, Attempts)
    return found


def wait_seconds() -> int:
    """Seconds this request's client must wait before its next password (0: none)."""
    return _attempts().wait_seconds(request.remote_addr or "?", time.monotonic())


def failed() -> None:
    """Count a wrong password from this request's client."""
    _attempts().failed(request.remote_addr or "?", time.monotonic())
