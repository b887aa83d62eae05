"""Issue 32, items 4 and 5 (the log, the version), against the real servers:

- the access log is alone on stdout and goaccess reads every line of it in its COMBINED
  format; gunicorn's, uvicorn's and hypercorn's own lines are on stderr, apart;
- the version is pyproject.toml's, and the first thing a server says;
- the deploy's gunicorn command started on an empty folder, six times: the database is made
  once before the workers, no start says "empty (0 bytes)", /healthz answers 200.
"""

from __future__ import annotations

import http.client
import json
import os
import shutil
import subprocess
import time
import tomllib
from pathlib import Path

import pytest

from scorekeeper import __version__

from ..harness import ANSWER_SECONDS, CLI, ROOT, START_SECONDS, wait_for_text
from ..ports import free_port
from ..served import GUNICORN, Phone, new_game
from .test_serve_processes import CLF

GOACCESS = shutil.which("goaccess")


class Started:
    """A server command with stdout and stderr in files of their own."""

    def __init__(self, tmp: Path, command: list[str], env: dict[str, str]) -> None:
        self.port = free_port()
        self.out, self.err = tmp / f"{self.port}.out", tmp / f"{self.port}.err"
        clean = {k: v for k, v in os.environ.items() if not k.startswith("SCOREKEEPER_")}
        env = {
            **clean,
            "SCOREKEEPER_SECRET_KEY": "logs",
            "SCOREKEEPER_INSTANCE": str(tmp / "instance"),
            "SCOREKEEPER_BIND": f"127.0.0.1:{self.port}",
            **env,
        }
        if command[0] == "serve":
            command = [CLI, *command, "--host", "127.0.0.1", "--port", str(self.port)]
        else:
            command = [str(ROOT / ".venv" / "bin" / command[0]), *command[1:]]
        with self.out.open("wb") as out, self.err.open("wb") as err:
            self.process = subprocess.Popen(command, stdout=out, stderr=err, env=env)

    def healthz(self) -> int:
        """The first answer of /healthz (waits up to START_SECONDS for the server to listen:
        a busy machine starts it slowly)."""
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline and self.process.poll() is None:
            try:
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=ANSWER_SECONDS)
                conn.request("GET", "/healthz")
                status = conn.getresponse().status
                conn.close()
                return status
            except OSError:
                time.sleep(0.02)
        raise AssertionError(f"no answer:\n{self.err.read_text()}")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=START_SECONDS)


@pytest.mark.parametrize(
    "command", [["serve"], ["serve", "--workers", "2"], list(GUNICORN)], ids=str
)
def test_the_access_log_is_alone_on_stdout_and_goaccess_reads_all_of_it(
    tmp_path: Path, command: list[str]
) -> None:
    assert GOACCESS, "goaccess: scripts/setup.sh --test installs it"
    started = Started(tmp_path, command, {})
    try:
        assert started.healthz() == 200
        phone = Phone(started.port)
        token = new_game(phone)
        for path in (f"/g/{token}", f"/v/{token}", "/no/such/page", "/static/app.css"):
            phone.get(path)
        wait_for_text(started.out, "/static/app.css")  # the last line, once its answer went out
    finally:
        started.stop()
    out = started.out.read_text().splitlines()
    err = started.err.read_text()
    assert len(out) >= 7 and all(CLF.fullmatch(line) for line in out), out
    assert not any(CLF.fullmatch(line) for line in err.splitlines())
    assert f"scorekeeper {__version__}" in "\n".join(err.splitlines()[:3])  # at start
    if "gunicorn" in command[0] or "--workers" in command:
        assert "Booting worker" in err
    assert token not in started.out.read_text() + err
    report = subprocess.run(
        [GOACCESS, str(started.out), "--log-format=COMBINED", "-o", "json", "--no-global-config"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    general = json.loads(report.stdout)["general"]
    assert general["failed_requests"] == 0
    assert general["valid_requests"] == len(out)


def test_the_version_is_pyprojects_and_said_at_start() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["version"] == __version__ == "0.4.0"
    done = subprocess.run([CLI, "--version"], capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == f"scorekeeper {__version__}"


def test_the_deploys_first_start_makes_the_database_once_before_the_workers(
    tmp_path: Path,
) -> None:
    statuses = []
    for attempt in range(6):
        folder = tmp_path / f"start-{attempt}"
        folder.mkdir()
        started = Started(folder, list(GUNICORN), {"SCOREKEEPER_WORKERS": "2"})
        try:
            statuses.append(started.healthz())
            time.sleep(1.0)  # both workers are up: neither found an empty file
        finally:
            started.stop()
        err = started.err.read_text()
        assert "0 bytes" not in err and "put the real file back" not in err, err
        assert "unavailable" not in err, err
        assert (folder / "instance" / "scorekeeper.sqlite").stat().st_size > 0
    assert statuses == [200] * 6
