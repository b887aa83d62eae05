"""The deploy's server with every thread of every worker under cProfile (bench_night's
--cprofile): run as `python bench/profiled.py OUT -m gunicorn ...`. Each worker writes the sum
of its threads' profiles to OUT.<pid> (pstats) every 15 s, read with `python -m pstats
OUT.<pid>`. Each thread is timed by its own CPU clock (time.thread_time), so a thread waiting
for the GIL, a lock, the database or the network counts nothing: the numbers are where the
server's CPU goes. Costs about as much CPU again as the server: the numbers say where the time
goes, not how much there is."""

from __future__ import annotations

import cProfile
import os
import pstats
import runpy
import sys
import threading
import time
from typing import Any

PROFILES: list[cProfile.Profile] = []
EVERY = 15.0


def _thread_hook(*_: Any) -> None:
    """The first event of a new thread: its own profiler from here on."""
    profile = cProfile.Profile(time.thread_time)
    PROFILES.append(profile)
    profile.enable()


class _Snapshot:
    """What pstats reads from a profile still running (create_stats would stop it)."""

    def __init__(self, profile: cProfile.Profile) -> None:
        profile.snapshot_stats()
        self.stats = profile.stats  # type: ignore[attr-defined]

    def create_stats(self) -> None:
        pass


def _writer(pid: int) -> None:
    while True:
        time.sleep(EVERY)
        snapshots = [_Snapshot(p) for p in list(PROFILES)]
        stats = pstats.Stats(snapshots[0])  # type: ignore[arg-type]
        for snapshot in snapshots[1:]:
            stats.add(snapshot)  # type: ignore[arg-type]
        stats.dump_stats(f"{OUT}.{pid}")


def _in_worker() -> None:
    main = cProfile.Profile(time.thread_time)
    PROFILES[:] = [main]
    main.enable()
    threading.Thread(target=_writer, args=(os.getpid(),), daemon=True).start()


OUT = sys.argv[1]
threading.setprofile(_thread_hook)
os.register_at_fork(after_in_child=_in_worker)
module = sys.argv[3]
sys.argv = [module, *sys.argv[4:]]
runpy.run_module(module, run_name="__main__", alter_sys=True)
