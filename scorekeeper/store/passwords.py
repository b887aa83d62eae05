"""Wrong server passwords kept in the database itself, so every process and every host
serving it counts together (scorekeeper/lockout.py, on both engines). Times are seconds
since 1970 by the database's clock (PostgreSQL's, so hosts whose clocks differ still agree;
an SQLite file's is its one machine's)."""

from __future__ import annotations

from .store import Store

KEEP_ROWS = 50_000
"""Wrong passwords kept at most (the oldest go first)."""

_EPOCH = "SELECT extract(epoch FROM clock_timestamp())::float8 AS now"


class WrongPasswords:
    """The wrong_passwords table (schema step m007), through a Store's engine."""

    def __init__(self, store: Store) -> None:
        self.engine = store.engine

    def now(self) -> float:
        """The database's clock, as time.time() gives it."""
        if self.engine.kind == "sqlite":
            import time

            return time.time()
        return float(self.engine.value(_EPOCH))

    def recent(self, client: str, since: float) -> list[float]:
        """When the client gave a wrong password after `since`, oldest first."""
        rows = self.engine.rows(
            "SELECT at FROM wrong_passwords WHERE client = ? AND at > ? ORDER BY at",
            [client, since],
        )
        return [float(row["at"]) for row in rows]

    def add(self, client: str, at: float, forget_before: float) -> None:
        """Count one wrong password; forget those before `forget_before` and the oldest
        beyond KEEP_ROWS."""
        with self.engine.writing(lazy_commit=True):
            self.engine.insert("wrong_passwords", {"client": client, "at": at})
            self.engine.execute("DELETE FROM wrong_passwords WHERE at <= ?", [forget_before])
            self.engine.execute(
                "DELETE FROM wrong_passwords WHERE id <= (SELECT max(id) FROM wrong_passwords) - ?",
                [KEEP_ROWS],
            )
