"""`serve --workers N` (gunicorn's threads, which a few slow clients can hold: the note of
issue 49 measures it) says so when it faces other machines with no proxy in front: listening
beyond loopback with no SCOREKEEPER_TRUSTED_PROXY. Behind a proxy, or on loopback, it does
not."""

from __future__ import annotations

from pathlib import Path

import pytest

from ..harness import CLI
from ..ports import free_port
from ..store.test_db_secrets import Run, served

WARNING = "warning: --workers 2 listens on 0.0.0.0 with no proxy in front"


@pytest.mark.parametrize(
    ("host", "env", "warned"),
    [
        ("0.0.0.0", {}, True),
        ("127.0.0.1", {}, False),
        ("0.0.0.0", {"SCOREKEEPER_TRUSTED_PROXY": "127.0.0.1"}, False),
    ],
    ids=["exposed", "loopback", "behind-a-proxy"],
)
def test_serve_workers_warns_only_when_exposed_without_a_proxy(
    host: str, env: dict[str, str], warned: bool, tmp_path: Path
) -> None:
    port = free_port()
    command = [CLI, "serve", "--workers", "2", "--host", host, "--port", str(port)]
    command += ["--db", str(tmp_path / "games.sqlite")]
    streams = served(Run(tmp_path, "serve", command, env), port)
    assert (WARNING in streams["stderr"]) is warned, streams["stderr"][-2000:]
    assert WARNING not in streams["stdout"]
