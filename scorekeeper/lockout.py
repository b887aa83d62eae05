"""Wrong server passwords, counted per client: after LIMIT in WINDOW seconds the client waits.

Without this, 1,235 guesses in 17 s found "1234". The count is kept in the database itself
(store/passwords.py: the wrong_passwords table, on SQLite as on PostgreSQL), by the
database's clock, so every process and every host serving the database counts together
and a restart does not clear it. The client is its address as the web app sees it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from scorekeeper.store import Store
from scorekeeper.store.passwords import WrongPasswords

LIMIT = 5
"""Wrong passwords allowed per client in WINDOW seconds."""
WINDOW = 60.0


def wait(times: Iterable[float], now: float, limit: int = LIMIT) -> int:
    """Seconds a client must wait at `now` (0: it may try now), given when it gave wrong
    passwords: the limit-th latest within the window holds it until the window passes."""
    recent = sorted(t for t in times if now - WINDOW < t <= now)
    if len(recent) < limit:
        return 0
    return max(1, math.ceil(recent[-limit] + WINDOW - now))


def wait_seconds(store: Store, client: str) -> int:
    """Seconds the client must wait before its next password (0: none)."""
    table = WrongPasswords(store)
    now = table.now()
    return wait(table.recent(client, now - WINDOW), now)


def failed(store: Store, client: str) -> None:
    """Count a wrong password from the client (and forget those the window has passed)."""
    table = WrongPasswords(store)
    now = table.now()
    table.add(client, now, now - WINDOW)
