"""Failover of the database under two serving hosts: a primary with a synchronous streaming
standby (tests/pgcluster.py), the hosts on libpq's multi-host URL with
target_session_attrs=read-write; the primary stopped hard mid-burst of Saves and the standby
promoted. The hosts find the new primary by themselves; every acknowledged Save is there,
none doubled; meanwhile every answer is a 503 with Retry-After, never a 500, and the phone's
queue (the same Save, the same request key) gets each entry in once a database answers."""

from __future__ import annotations

import threading
import uuid
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from ..harness import until
from ..pgcluster import Pair
from ..served import NET_ERRORS, Phone, Server, checked, correction, new_game

TABLES = 6
SAVES_AFTER = 3  # Saves each table gets acknowledged after the failover


@pytest.fixture
def pair() -> Iterator[Pair]:
    made = Pair()
    try:
        yield made
    finally:
        made.remove()


class QueuedTable:
    """One table's phone: Saves one after another to its host; an answer that is not a
    302 (a 503 while no database answers, or no answer at all) is kept and sent again, as
    the phone's offline queue does."""

    def __init__(self, number: int, port: int, token: str) -> None:
        self.number, self.phone, self.token = number, Phone(port), token
        self.acked: list[str] = []
        self.statuses: Counter[int] = Counter()
        self.without_retry_after = 0
        self.failure: BaseException | None = None
        self.after_failover = threading.Event()
        self.acked_after = 0
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        try:
            while self.acked_after < SAVES_AFTER:
                reason = f"table {self.number} {uuid.uuid4().hex[:8]}"
                fields = self._checked(reason)
                self._send_until_taken(fields)
                self.acked.append(reason)
                if self.after_failover.is_set():
                    self.acked_after += 1
        except BaseException as error:  # noqa: BLE001 - handed to the test thread
            self.failure = error

    def _checked(self, reason: str) -> dict[str, list[str]]:
        form: list[dict[str, list[str]]] = []

        def came_back() -> bool:
            try:
                form.append(checked(self.phone, self.token, **correction(reason)))
            except (AssertionError, *NET_ERRORS):
                return False
            return True

        until(came_back, "the deal form came back", 0.2)
        return form[-1]

    def _send_until_taken(self, fields: dict[str, list[str]]) -> None:
        until(lambda: self._sent(fields), "a database took the Save", 0.2)

    def _sent(self, fields: dict[str, list[str]]) -> bool:
        """One Save sent: taken (True), or a 503 with Retry-After or no answer (False)."""
        try:
            reply = self.phone.post(f"/g/{self.token}/deal/new", fields)
        except NET_ERRORS:
            return False
        self.statuses[reply.status] += 1
        if reply.status == 503 and not reply.headers.get("Retry-After"):
            self.without_retry_after += 1
        assert reply.status in (302, 503), (reply.status, reply.html[:300])
        return reply.status == 302


def all_saving(tables: list[QueuedTable]) -> None:
    """Wait until every table has a Save acknowledged (mid-burst: every table is saving)."""
    until(lambda: min(len(t.acked) for t in tables) >= 1, "every table had a Save taken")


def all_done(tables: list[QueuedTable]) -> Counter[int]:
    """Wait for every table's phone to finish; every answer it got was a 302 or a 503 with
    Retry-After. The statuses, counted."""
    for table in tables:
        table.thread.join(timeout=180)
        assert table.failure is None, repr(table.failure)
        assert not table.thread.is_alive()
    statuses = sum((t.statuses for t in tables), Counter())
    assert set(statuses) <= {302, 503}, statuses
    assert sum(t.without_retry_after for t in tables) == 0
    return statuses


def every_ack_once_on_the_standby(pair: Pair, tables: list[QueuedTable]) -> None:
    """Every Save each table's phone got acknowledged is on the promoted standby, once,
    and nothing else is."""
    for table in tables:
        stored = pair.standby.sql(
            "SELECT d.data FROM deals d JOIN games g ON g.id = d.game_id"
            f" WHERE g.edit_token = '{table.token}' AND d.deleted = 0 ORDER BY d.seq",
            database=pair.database,
        ).splitlines()
        reasons = Counter(r for line in stored for r in table.acked if f'"{r}"' in line)
        assert reasons == Counter(table.acked), (table.number, reasons)
        assert len(stored) == len(table.acked)


def test_the_hosts_follow_the_promoted_standby_and_keep_every_acknowledged_save(
    pair: Pair, tmp_path: Path
) -> None:
    url = pair.url()
    hosts = [Server(url, tmp_path / f"host-{n}.log") for n in "ab"]  # type: ignore[arg-type]
    try:
        for host in hosts:
            host.start()
        tables = []
        for n in range(TABLES):
            port = hosts[n % 2].port
            tables.append(QueuedTable(n, port, new_game(Phone(port))))
        for table in tables:
            table.thread.start()
        all_saving(tables)
        before = sum(len(t.acked) for t in tables)
        pair.fail_over()
        for table in tables:
            table.after_failover.set()
        all_done(tables)
        assert before > 0
        # Every acknowledged Save is on the new primary, once; the old one is gone for good.
        every_ack_once_on_the_standby(pair, tables)
    finally:
        for host in hosts:
            host.stop()
    for host in hosts:
        assert "Traceback" not in host.log.read_text(errors="replace")
