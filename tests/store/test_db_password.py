"""A PostgreSQL server that asks for a password (scram-sha-256, as a hosted one does): the
password is taken from SCOREKEEPER_DB_PASSWORD_FILE, PGPASSWORD or ~/.pgpass (never needed
on a command line); a wrong or missing one is said as such (not "cannot be reached"), in
one line, exit 2, with none of psycopg's warnings and without the password."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from ..harness import CLI
from ..pgcluster import PgNode

RIGHT, WRONG = "Right-pw-71", "Wrong-pw-93"


@pytest.fixture(scope="module")
def node() -> Iterator[PgNode]:
    made = PgNode("auth").initdb()
    try:
        (made.data / "pg_hba.conf").write_text(
            "local all all trust\n"
            "host all postgres 127.0.0.1/32 trust\n"
            "host all all 127.0.0.1/32 scram-sha-256\n"
        )
        made.start()
        made.sql(f"CREATE ROLE keeper LOGIN PASSWORD '{RIGHT}'")
        made.sql("CREATE DATABASE kept OWNER keeper")
        yield made
    finally:
        made.remove()


def backup(node: PgNode, tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """`scorekeeper backup` of the keeper's database, the password only in the environment."""
    target = tmp_path / f"backup-{len(list(tmp_path.iterdir()))}.sqlite"
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("PG", "SCOREKEEPER_"))}
    return subprocess.run(
        [CLI, "backup", str(target), "--db", f"postgresql://keeper@127.0.0.1:{node.port}/kept"],
        capture_output=True,
        text=True,
        timeout=120,
        env={**clean, "LANG": "C.UTF-8", "HOME": str(tmp_path), **env},
    )


def test_the_password_comes_from_a_file_pgpassword_or_pgpass(node: PgNode, tmp_path: Path) -> None:
    secret = tmp_path / "secret"
    secret.write_text(RIGHT + "\n")
    pgpass = tmp_path / ".pgpass"
    pgpass.write_text(f"127.0.0.1:{node.port}:kept:keeper:{RIGHT}\n")
    pgpass.chmod(0o600)
    for env in ({"SCOREKEEPER_DB_PASSWORD_FILE": str(secret)}, {"PGPASSWORD": RIGHT}, {}):
        done = backup(node, tmp_path, **env)
        assert done.returncode == 0, (env, done.stderr)
        assert RIGHT not in done.stdout + done.stderr
        assert "postgresql://keeper@127.0.0.1" in done.stdout  # named, no password to hide


def test_a_wrong_or_missing_password_is_said_as_such(node: PgNode, tmp_path: Path) -> None:
    secret = tmp_path / "secret"
    secret.write_text(WRONG + "\n")
    for env in ({"SCOREKEEPER_DB_PASSWORD_FILE": str(secret)}, {"PGPASSWORD": WRONG}, {}):
        done = backup(node, tmp_path, **env)
        assert done.returncode == 2, (env, done.stderr)
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1, (env, lines)  # none of psycopg's WARNING lines
        assert "refused the password" in lines[0] and "cannot be reached" not in lines[0]
        assert WRONG not in done.stdout + done.stderr


def test_an_unreadable_password_file_is_refused_in_one_line(node: PgNode, tmp_path: Path) -> None:
    done = backup(node, tmp_path, SCOREKEEPER_DB_PASSWORD_FILE=str(tmp_path / "missing"))
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        f"scorekeeper: SCOREKEEPER_DB_PASSWORD_FILE names {tmp_path / 'missing'}, which cannot"
        " be read: No such file or directory"
    ]
