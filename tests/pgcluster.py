"""PostgreSQL servers of our own for the tests that stop, kill and fail over the database:
a primary made by initdb, and a streaming standby made from it with pg_basebackup -R, the
primary committing synchronously to it. Each on a free port on 127.0.0.1, its data and
socket in a temporary folder owned by the `postgres` user when the tests run as root
(initdb refuses root), from Debian's `postgresql` package."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from .ports import free_port


def _bin_dir() -> Path:
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"))
    if not found:
        raise AssertionError("PostgreSQL's server is not installed: scripts/setup.sh --test")
    return found[-1].parent


def _as_postgres(command: list[str], **kwargs: object) -> subprocess.CompletedProcess[str]:
    """Run a server command, as the postgres user when we are root."""
    if os.geteuid() == 0:
        command = ["runuser", "-u", "postgres", "--", *command]
    result = subprocess.run(
        command,
        capture_output=True,
        text=True,
        timeout=120,
        **kwargs,  # type: ignore[call-overload]
    )
    if result.returncode != 0:
        raise AssertionError(f"{' '.join(command)}:\n{result.stdout}\n{result.stderr}")
    return result


def _folder(name: str) -> Path:
    folder = Path(tempfile.mkdtemp(prefix=f"scorekeeper-{name}-"))
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres", "postgres")
    return folder


class PgNode:
    """One PostgreSQL server: its data folder, port and log."""

    def __init__(self, name: str, data: Path | None = None) -> None:
        self.name = name
        self.home = _folder(name)
        self.data = data or self.home / "data"
        self.port = free_port()
        self.log = self.home / "server.log"
        self.bin = _bin_dir()

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def initdb(self) -> PgNode:
        _as_postgres(
            [str(self.bin / "initdb"), "-D", str(self.data), "-U", "postgres", "-A", "trust"]
            + ["--no-sync", "-E", "UTF8", "--locale=C.UTF-8"]
        )
        return self

    def start(self, *settings: str) -> PgNode:
        options = [f"-p {self.port}", f"-k {self.home}", "-c listen_addresses=127.0.0.1"]
        options += ["-c fsync=on", "-c max_connections=60", *(f"-c {s}" for s in settings)]
        _as_postgres(
            [str(self.bin / "pg_ctl"), "-D", str(self.data), "-l", str(self.log), "-w"]
            + ["-t", "60", "-o", " ".join(options), "start"]
        )
        self.settings = settings
        return self

    def stop(self, mode: str = "fast") -> None:
        """pg_ctl stop: "immediate" is a crash (no checkpoint, clients cut off at once)."""
        with contextlib.suppress(AssertionError):
            _as_postgres([str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", mode, "-w", "stop"])

    def running(self) -> bool:
        result = subprocess.run(
            [str(self.bin / "pg_isready"), "-h", "127.0.0.1", "-p", str(self.port)],
            capture_output=True,
            timeout=30,
        )
        return result.returncode == 0

    def promote(self) -> None:
        _as_postgres([str(self.bin / "pg_ctl"), "-D", str(self.data), "-w", "promote"])

    def sql(self, statement: str, database: str = "postgres") -> str:
        """Run one statement through psql; its output (tuples only)."""
        result = subprocess.run(
            [str(self.bin / "psql"), "-X", "-At", "-v", "ON_ERROR_STOP=1", self.url(database)]
            + ["-c", statement],
            capture_output=True,
            text=True,
            timeout=60,
        )
        if result.returncode != 0:
            raise AssertionError(f"{statement}: {result.stderr}")
        return result.stdout.strip()

    def log_text(self) -> str:
        try:
            return self.log.read_text(errors="replace")[-3000:]
        except OSError:
            return ""

    def remove(self) -> None:
        self.stop("immediate")
        shutil.rmtree(self.home, ignore_errors=True)


class Pair:
    """A primary and its synchronous streaming standby."""

    def __init__(self, database: str = "scorekeeper") -> None:
        self.database = database
        self.primary = PgNode("primary").initdb()
        self.standby = PgNode("standby")
        try:
            self.primary.start("synchronous_commit=on", "wal_level=replica")
            self.primary.sql(f"CREATE DATABASE {database}")
            _as_postgres(
                [str(self.primary.bin / "pg_basebackup"), "-D", str(self.standby.data), "-R"]
                + ["-X", "stream", "-c", "fast", "-d"]
                + [f"host=127.0.0.1 port={self.primary.port} user=postgres"]
            )
            # The walreceiver names itself by cluster_name: the name the primary waits for.
            self.standby.start("cluster_name=standby1", "hot_standby=on")
            # Only now: with no standby yet, every commit would wait for one.
            self.primary.sql("ALTER SYSTEM SET synchronous_standby_names = 'standby1'")
            self.primary.sql("SELECT pg_reload_conf()")
            self._wait_streaming()
        except BaseException:
            self.remove()
            raise

    def _wait_streaming(self) -> None:
        deadline = time.monotonic() + 60
        query = "SELECT sync_state FROM pg_stat_replication WHERE application_name = 'standby1'"
        while self.primary.sql(query) != "sync":
            if time.monotonic() > deadline:
                raise AssertionError(f"the standby never streamed:\n{self.standby.log_text()}")
            time.sleep(0.1)

    def url(self) -> str:
        """libpq's multi-host URL: whichever of the two takes writes."""
        hosts = f"127.0.0.1:{self.primary.port},127.0.0.1:{self.standby.port}"
        return (
            f"postgresql://postgres@{hosts}/{self.database}"
            "?target_session_attrs=read-write&connect_timeout=2"
        )

    def fail_over(self) -> None:
        """The primary crashes (stop -m immediate) and the standby is promoted."""
        self.primary.stop("immediate")
        self.standby.promote()

    def remove(self) -> None:
        self.primary.remove()
        self.standby.remove()
