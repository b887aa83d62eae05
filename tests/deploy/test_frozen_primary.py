"""A primary that hangs rather than dies (every process of it stopped: SIGSTOP, as a frozen
VM or a partition leaves it: its connections stay open and nothing answers on them), under
two serving hosts on libpq's multi-host URL, with a synchronous standby (tests/pgcluster.py).

/healthz says 503 within its bound on both hosts (a balancer stops sending phones there),
the standby is promoted, and the Saves are taken again on every host: each call to the frozen
server is cut off by the client (store/deadline.py), the pool checks what it hands out, and
new connections skip the frozen host after connect_timeout. Every acknowledged Save is on
the promoted standby, once. The recovery time is printed (the note reports it)."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

from ..harness import until
from ..pgcluster import Pair, PgNode
from ..served import Phone, Server, new_game
from . import test_failover
from .test_failover import QueuedTable, all_done, all_saving, every_ack_once_on_the_standby

TABLES = 4


def children(postmaster: int) -> list[int]:
    """The processes the postmaster forked."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == postmaster:
                found.append(int(entry.name))
    return found


def stopped(pid: int) -> bool:
    """Whether the process is stopped (its state in /proc: T)."""
    return (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0] == "T"


def freeze(node: PgNode) -> list[int]:
    """Stop every process of the server, as a frozen machine stops them all at once: the
    postmaster first, then its children, listed once it can fork no new one (listed
    before, a backend forked meanwhile for a new connection would go on running)."""
    postmaster = int((node.data / "postmaster.pid").read_text().split()[0])
    os.kill(postmaster, signal.SIGSTOP)
    until(lambda: stopped(postmaster), "the postmaster stopped")  # a fork under way is done
    frozen = [postmaster, *children(postmaster)]
    for pid in frozen[1:]:
        os.kill(pid, signal.SIGSTOP)
    return frozen


class TimedTable(QueuedTable):
    """A table's phone that notes when each of its Saves was acknowledged."""

    def __init__(self, number: int, port: int, token: str) -> None:
        super().__init__(number, port, token)
        self.times: list[float] = []

    def _send_until_taken(self, fields: dict[str, list[str]]) -> None:
        super()._send_until_taken(fields)
        self.times.append(time.monotonic())


pair = test_failover.pair  # a primary and its synchronous standby, removed after the test


def unhealthy(port: int) -> int:
    """/healthz's status once it answers (it must answer, frozen database or not)."""
    return Phone(port).get("/healthz").status


STACKS = {"PYTHONFAULTHANDLER": "1"}
"""A host that is sent SIGABRT writes every thread's stack into its log (faulthandler)."""


def where_held(hosts: list[Server]) -> str:
    """Where each host's threads stand while a request is held: each is asked for its
    threads' stacks (SIGABRT: the host ends), which a failure then shows."""
    said = []
    for host in hosts:
        assert host.process is not None
        os.kill(host.process.pid, signal.SIGABRT)
        host.process.wait(timeout=30)
        log = host.log.read_text(errors="replace")
        at = log.find("Fatal Python error")
        said.append(f"{host.log.name}, its last lines:\n{log[:at][-1500:]}")
        said.append(f"{host.log.name}, its threads but the idle ones:\n{busy_threads(log[at:])}")
    return "\n".join(said)


def busy_threads(dump: str) -> str:
    """faulthandler's stacks without the threads waiting for work, each cut to the frames
    of the app, of psycopg and the innermost one (the rest is Flask's and Python's)."""
    kept = []
    for thread in dump.split("\nThread ")[1:]:
        head, *frames = thread.strip().splitlines()
        frames = [f.strip() for f in frames if f.strip().startswith("File")]
        if not frames or "in _worker" in frames[0] and "thread.py" in frames[0]:
            continue
        own = [f for f in frames[1:] if "scorekeeper/" in f or "psycopg" in f]
        kept.append("\n  ".join([head, frames[0], *own]))
    return "\n".join(kept) or "(every thread idle)"


def test_a_frozen_primary_is_left_for_the_promoted_standby_and_no_save_is_lost(
    pair: Pair, tmp_path: Path
) -> None:
    hosts = [
        Server(pair.url(), tmp_path / f"host-{n}.log", env=STACKS)  # type: ignore[arg-type]
        for n in "ab"
    ]
    frozen: list[int] = []
    try:
        for host in hosts:
            host.start()
        tables = [
            TimedTable(n, hosts[n % 2].port, new_game(Phone(hosts[n % 2].port)))
            for n in range(TABLES)
        ]
        for table in tables:
            table.thread.start()
        all_saving(list(tables))
        frozen = freeze(pair.primary)
        frozen_at = time.monotonic()
        for table in tables:
            table.after_failover.set()
        # Both hosts tell the balancer at once (within the health check's bound).
        assert [unhealthy(host.port) for host in hosts] == [503, 503]
        pair.standby.promote()
        promoted_at = time.monotonic()
        try:
            statuses = all_done(list(tables))
        except AssertionError as stuck:
            raise AssertionError(f"{stuck}\n{where_held(hosts)}") from None
        every_ack_once_on_the_standby(pair, list(tables))
        first = [min(t for t in table.times if t > promoted_at) for table in tables]
        print(
            f"\nfrozen primary: health 503 on both hosts {promoted_at - frozen_at:.1f} s after"
            f" the freeze; Saves taken again on every table {max(first) - promoted_at:.1f} s"
            f" after the promotion ({max(first) - frozen_at:.1f} s after the freeze);"
            f" {sum(len(t.acked) for t in tables)} acknowledged, 0 lost; {dict(statuses)}"
        )
        assert [unhealthy(host.port) for host in hosts] == [200, 200]
    finally:
        for pid in frozen:  # never woken: it would take writes again (fencing, docs/deploy.md)
            os.kill(pid, signal.SIGKILL)
        for host in hosts:
            host.stop()
    for host in hosts:
        assert "Traceback" not in host.log.read_text(errors="replace")
