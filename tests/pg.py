"""A real PostgreSQL for the tests: the server named by SCOREKEEPER_TEST_PG (a URL), or one
started from Debian's package in a temporary folder (as the postgres user when run as root),
once per test session, on a free port on 127.0.0.1. Each test gets a fresh database, made
from a template that is already migrated (CREATE DATABASE ... TEMPLATE: a few ms)."""

from __future__ import annotations

import glob
import os
import queue
import shutil
import subprocess
import tempfile
import threading
import time
import urllib.parse
import uuid
from pathlib import Path

import psycopg

from scorekeeper.store import Store

from .ports import free_port

TEMPLATE = "scorekeeper_template"


def _bin(name: str) -> str:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    if not found:
        raise RuntimeError(
            f"PostgreSQL's {name} is not installed: apt-get install postgresql"
            " (scripts/setup.sh --test does), or set SCOREKEEPER_TEST_PG to a server's URL"
        )
    return found[-1]


class Server:
    """A PostgreSQL server for this session: its URL, and databases made on it."""

    def __init__(self, *, own: bool = False) -> None:
        """Use SCOREKEEPER_TEST_PG's server when it is set, unless `own`: then start one
        (a test that stops and starts the server may never do so to somebody else's)."""
        self._folder: str | None = None
        self._as: list[str] = []
        given = None if own else os.environ.get("SCOREKEEPER_TEST_PG")
        if given:
            self.base = given
        else:
            self.base = self._start()
        self._template_made = False
        self._lock = threading.Lock()
        self._maker: threading.Thread | None = None
        self._spares: queue.Queue[str] = queue.Queue(maxsize=1)
        self._closing = False

    def _start(self) -> str:
        self._folder = tempfile.mkdtemp(prefix="sk-pg-")
        data, sockets = f"{self._folder}/data", f"{self._folder}/run"
        os.mkdir(sockets)
        if os.geteuid() == 0:
            shutil.chown(self._folder, "postgres")
            shutil.chown(sockets, "postgres")
            self._as = ["runuser", "-u", "postgres", "--"]
        subprocess.run(
            [*self._as, _bin("initdb"), "-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8"],
            check=True,
            capture_output=True,
        )
        self.port = free_port()
        options = (
            f"-p {self.port} -k {sockets} -c listen_addresses=127.0.0.1 -c fsync=on"
            " -c max_connections=200"
        )
        subprocess.run(
            [*self._as, _bin("pg_ctl"), "-D", data, "-o", options, "-l", f"{self._folder}/log"]
            + ["-w", "-t", "60", "start"],
            check=True,
            capture_output=True,
        )
        self._data = data
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    @property
    def ours(self) -> bool:
        """Whether this session started the server (so a test may stop and start it), not
        SCOREKEEPER_TEST_PG's."""
        return self._folder is not None

    def url(self, database: str) -> str:
        parts = urllib.parse.urlsplit(self.base)
        return urllib.parse.urlunsplit(parts._replace(path=f"/{database}"))

    def _admin(self) -> psycopg.Connection[tuple[object, ...]]:
        return psycopg.connect(self.base, autocommit=True)

    def _template(self) -> None:
        if self._template_made:
            return
        with self._admin() as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {TEMPLATE}")
            conn.execute(f"CREATE DATABASE {TEMPLATE}")
        Store(self.url(TEMPLATE)).close()
        from scorekeeper.store.engine import close_pools

        close_pools()  # no connection may stay on a template that is copied
        self._template_made = True

    def new_database(self, *, migrated: bool = True) -> str:
        """The URL of a new, empty database (migrated: made from the migrated template).

        Migrated ones are made ahead by a thread (one spare), while the test before runs."""
        if not migrated:
            return self._create(template=False)
        self._template()
        with self._lock:
            if self._maker is None:
                self._maker = threading.Thread(target=self._make_spares, daemon=True)
                self._maker.start()
        return self._spares.get(timeout=120)

    def _make_spares(self) -> None:
        while not self._closing:
            try:
                spare = self._create(template=True)
            except psycopg.Error:
                return  # the server is going away (end of the session)
            self._spares.put(spare)  # blocks while a spare waits

    def _create(self, *, template: bool) -> str:
        name = f"sk_{uuid.uuid4().hex[:12]}"
        with self._admin() as conn:
            conn.execute(f"CREATE DATABASE {name}" + (f" TEMPLATE {TEMPLATE}" if template else ""))
        return self.url(name)

    def drop(self, url: str) -> None:
        """Drop a test's database on a server named by SCOREKEEPER_TEST_PG (one started here
        goes whole at the end of the session: dropping each costs more than making it)."""
        if self._folder is not None:
            return
        name = urllib.parse.urlsplit(url).path.lstrip("/")
        with self._admin() as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")

    def stop(self, mode: str = "fast") -> None:
        if self._folder is None:
            return
        subprocess.run(
            [*self._as, _bin("pg_ctl"), "-D", self._data, "-m", mode, "-w", "stop"],
            capture_output=True,
        )

    def start_again(self) -> None:
        """Start a server stopped by stop() again, on the same port (restart tests)."""
        assert self._folder is not None
        options = (
            f"-p {self.port} -k {self._folder}/run -c listen_addresses=127.0.0.1 -c fsync=on"
            " -c max_connections=200"
        )
        subprocess.run(
            [*self._as, _bin("pg_ctl"), "-D", self._data, "-o", options]
            + ["-l", f"{self._folder}/log", "-w", "-t", "180", "start"],
            check=True,
            capture_output=True,
        )

    def close(self) -> None:
        self._closing = True
        if not self._spares.empty():
            self._spares.get_nowait()  # lets a maker blocked on put() see _closing
        self.stop("immediate")
        if self._folder is not None:
            shutil.rmtree(self._folder, ignore_errors=True)


def wait_for(url: str, seconds: float = 30) -> None:
    """Wait until a server answers (after a restart)."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            psycopg.connect(url, connect_timeout=2).close()
            return
        except psycopg.OperationalError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def database_path(tmp_path: Path, kind: str, server: Server | None) -> str:
    """A location of each kind: an SQLite file in tmp_path, or a new PostgreSQL database."""
    if kind == "sqlite":
        return str(tmp_path / "scorekeeper.sqlite")
    assert server is not None
    return server.new_database()
