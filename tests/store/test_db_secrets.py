"""No database password is ever printed: a password planted in every form a database setting
can take (in a URL's netloc, in its query, in a libpq key=value string, in
SCOREKEEPER_DB_PASSWORD_FILE, in PGPASSWORD) is looked for in every stream (stdout and
stderr, each to its own file) of every command that names the database: `serve`, the
deploy's gunicorn, backup, restore, copy-db; a setting that names no database (a URL libpq
cannot read, a mysql:// one) and a server that cannot be reached are refused in one line,
exit 2, without the password and without a traceback."""

from __future__ import annotations

import os
import subprocess
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from scorekeeper.store import Store

from ..harness import CLI, ROOT, wait_for_start
from ..ports import free_port
from ..served import Phone

PLANTED = "Pl4nted-S3cret"
GUNICORN = str(ROOT / ".venv" / "bin" / "gunicorn")


def forms(url: str, tmp_path: Path) -> dict[str, tuple[str, dict[str, str]]]:
    """Each way of giving the password, for the database at `url`: (setting, environment)."""
    parts = urllib.parse.urlsplit(url)
    host, port, name = parts.hostname, parts.port, parts.path.lstrip("/")
    secret_file = tmp_path / "db-password"
    secret_file.write_text(PLANTED + "\n")
    return {
        "URL netloc": (f"postgresql://postgres:{PLANTED}@{host}:{port}/{name}", {}),
        "URL query": (f"postgresql://postgres@{host}:{port}/{name}?password={PLANTED}", {}),
        "key=value": (
            f"host={host} port={port} dbname={name} user=postgres password={PLANTED}",
            {},
        ),
        "password file": (url, {"SCOREKEEPER_DB_PASSWORD_FILE": str(secret_file)}),
        "PGPASSWORD": (url, {"PGPASSWORD": PLANTED}),
    }


class Run:
    """One command, its stdout and stderr each in a file of its own."""

    def __init__(self, folder: Path, name: str, command: list[str], env: dict[str, str]) -> None:
        self.out, self.err = folder / f"{name}.stdout", folder / f"{name}.stderr"
        self.env = {**os.environ, "SCOREKEEPER_SECRET_KEY": "k", "SCOREKEEPER_PASSWORD": ""}
        self.env |= {"LANG": "C.UTF-8", **env}
        self.env.pop("SCOREKEEPER_DB", None)
        self.command = command
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> Run:
        with self.out.open("wb") as out, self.err.open("wb") as err:
            self.process = subprocess.Popen(self.command, stdout=out, stderr=err, env=self.env)
        return self

    def wait(self, timeout: float = 120) -> int:
        assert self.process is not None
        return self.process.wait(timeout=timeout)

    def stop(self) -> int:
        assert self.process is not None
        self.process.terminate()
        return self.process.wait(timeout=60)

    def streams(self) -> dict[str, str]:
        return {
            "stdout": self.out.read_text(errors="replace"),
            "stderr": self.err.read_text(errors="replace"),
        }


def served(run: Run, port: int) -> dict[str, str]:
    """Start a server, ask its /healthz, stop it: what it wrote."""
    run.start()
    assert run.process is not None
    try:
        wait_for_start(
            lambda: Phone(port).get("/healthz").status == 200,
            run.process,
            lambda: str(run.streams()),
        )
    finally:
        run.stop()
    return run.streams()


def commands(setting: str, folder: Path) -> Iterator[tuple[str, list[str], dict[str, str]]]:
    """The commands that name the database, each with what it needs beside the setting."""
    backup = folder / "backup.sqlite"
    yield "backup", [CLI, "backup", str(backup), "--db", setting], {}
    yield "restore", [CLI, "restore", str(backup), "--db", setting, "--force"], {}
    yield "copy-db", [CLI, "copy-db", setting, str(folder / "copy.sqlite")], {}


def test_a_planted_password_is_in_no_stream_of_any_command(pg_server: Any, tmp_path: Path) -> None:
    looked: dict[str, int] = {}
    for form, (setting, env) in forms(pg_server.new_database(), tmp_path).items():
        folder = tmp_path / form.replace(" ", "-").replace("=", "-")
        folder.mkdir()
        found: dict[str, dict[str, str]] = {}
        for name, command, extra in commands(setting, folder):
            run = Run(folder, name, command, {**env, **extra})
            assert run.start().wait() == 0, (form, name, run.streams())
            found[name] = run.streams()
        port = free_port()
        serve = [CLI, "serve", "--host", "127.0.0.1", "--port", str(port), "--db", setting]
        found["serve"] = served(Run(folder, "serve", serve, env), port)
        port = free_port()
        deploy = {"SCOREKEEPER_DB": setting, "SCOREKEEPER_BIND": f"127.0.0.1:{port}"}
        gunicorn = Run(
            folder, "gunicorn", [GUNICORN, "--config", "python:scorekeeper.gunicorn_config"], {}
        )
        gunicorn.env |= {**env, **deploy, "SCOREKEEPER_WORKERS": "1"}
        found["gunicorn"] = served(gunicorn, port)
        assert "postgresql://postgres" in found["gunicorn"]["stderr"]  # the database is named
        for name, streams in found.items():
            for stream, text in streams.items():
                assert PLANTED not in text, (form, name, stream, text)
                looked[f"{name} {stream}"] = looked.get(f"{name} {stream}", 0) + 1
    assert len(looked) == 10 and set(looked.values()) == {5}  # 5 forms x 5 commands x 2


REFUSED = {
    "a URL libpq cannot read (a missing ])": f"postgresql://postgres:{PLANTED}@[::1/scorekeeper",
    "a mysql:// URL": f"mysql://keeper:{PLANTED}@db.example/scorekeeper",
    "a key=value string libpq cannot read": f"host=db password='{PLANTED}",
}


@pytest.mark.parametrize("why", sorted(REFUSED))
def test_a_setting_that_names_no_database_is_refused_in_one_line(why: str, tmp_path: Path) -> None:
    setting = REFUSED[why]
    for name, command, _extra in commands(setting, tmp_path):
        run = Run(tmp_path, name, command, {})
        assert run.start().wait() == 2, (name, run.streams())
        streams = run.streams()
        lines = streams["stderr"].strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("scorekeeper: "), (name, lines)
        assert PLANTED not in streams["stderr"] + streams["stdout"], name
        assert "Traceback" not in streams["stderr"]
    # never taken for an SQLite file's name
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        f"{n}.{s}" for n in ("backup", "restore", "copy-db") for s in ("stdout", "stderr")
    )
    run = Run(tmp_path, "serve", [CLI, "serve", "--port", str(free_port()), "--db", setting], {})
    assert run.start().wait() == 2
    assert PLANTED not in str(run.streams()) and "Traceback" not in str(run.streams())
    # The deploy's server (the setting in its environment) answers 503, and says why.
    streams = deployed(tmp_path, setting, "/healthz")
    assert "is not a database" in streams["stderr"] or "cannot be read" in streams["stderr"]
    assert PLANTED not in str(streams) and "Traceback" not in streams["stderr"]


def deployed(folder: Path, setting: str, *paths: str) -> dict[str, str]:
    """The deploy's gunicorn on a database that cannot be used: each path answered 503;
    what it wrote."""
    port = free_port()
    config = "python:scorekeeper.gunicorn_config"
    gunicorn = Run(folder, "gunicorn", [GUNICORN, "--config", config], {})
    gunicorn.env |= {"SCOREKEEPER_DB": setting, "SCOREKEEPER_BIND": f"127.0.0.1:{port}"}
    gunicorn.env |= {"SCOREKEEPER_WORKERS": "1"}
    gunicorn.start()
    assert gunicorn.process is not None
    try:
        wait_for_start(
            lambda: Phone(port).get("/healthz").status == 503,
            gunicorn.process,
            lambda: str(gunicorn.streams()),
        )
        for path in paths:
            assert Phone(port).get(path).status == 503, path
    finally:
        gunicorn.stop()
    return gunicorn.streams()


def test_a_server_that_cannot_be_reached_is_said_without_the_password(tmp_path: Path) -> None:
    setting = f"postgresql://keeper:{PLANTED}@127.0.0.1:{free_port()}/scorekeeper"
    Store(str(tmp_path / "backup.sqlite")).close()  # what restore would put back
    # Each command waits for the server as long as a busy one may take before it says so:
    # they wait side by side, and beside the deploy's server below.
    runs = [
        Run(tmp_path, name, command, {}).start() for name, command, _ in commands(setting, tmp_path)
    ]
    # The deploy's server starts all the same and says why in its log: the start-up error,
    # each 503's line and the health check's, without the password.
    streams = deployed(tmp_path, setting, "/healthz")
    for run in runs:
        assert run.wait() == 2, (run.command, run.streams())
        text = run.streams()["stderr"]
        assert "cannot be reached" in text and "postgresql://keeper:***@127.0.0.1" in text
        assert PLANTED not in text and "Traceback" not in text, (run.command, text)
        assert len(text.strip().splitlines()) == 1, (run.command, text)
    assert "health check: the database" in streams["stderr"]
    assert "postgresql://keeper:***@127.0.0.1" in streams["stderr"]
    assert PLANTED not in str(streams) and "WARNING" not in streams["stderr"]
