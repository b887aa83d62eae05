"""Issue 32, item 5, the command line's output as a new user meets it:

- `scorekeeper import f.json | true`: the import is done, no traceback, the links go to
  stderr with a note, and the exit status (141, as for SIGPIPE) says the output was lost;
- `scorekeeper score f.json | head -c 1`: no traceback either;
- `export` without --out writes where it says (a full path), never into the folder the
  command runs in.
"""

from __future__ import annotations

import json
import re
import sqlite3
import subprocess
from pathlib import Path

from ..harness import CLI
from ..helpers import allpass, game_file


def piped(command: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """A shell pipeline; its status is the scorekeeper command's (pipefail)."""
    return subprocess.run(
        ["bash", "-o", "pipefail", "-c", command],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=cwd,
        env={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": str(cwd)},
    )


def a_game(tmp_path: Path) -> Path:
    path = tmp_path / "friday.json"
    data = game_file([allpass(A=2, B=3, C=5)] * 3, name="Friday")
    path.write_text(json.dumps(data))
    return path


def test_import_into_a_closed_pipe_is_done_and_says_so(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    game = a_game(tmp_path)
    # `true` exits before reading: the first write after it is gone fails (EPIPE).
    done = piped(f"sleep 0.2 | {CLI} import {game} --db {db} | (exec 0<&-; true)", tmp_path)
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == 141, (done.returncode, done.stderr)
    assert "was imported, but its links could not be printed" in done.stderr
    assert "edit: /g/" in done.stderr and "view: /v/" in done.stderr
    conn = sqlite3.connect(db)
    try:
        assert conn.execute("SELECT name FROM games").fetchall() == [("Friday",)]
    finally:
        conn.close()


def test_score_into_a_pipe_closed_early_has_no_traceback(tmp_path: Path) -> None:
    game = a_game(tmp_path)
    done = piped(f"{CLI} score {game} --format text | head -c 1", tmp_path)
    assert "Traceback" not in done.stderr and "BrokenPipe" not in done.stderr, done.stderr
    assert done.returncode in (0, 141)
    assert len(done.stdout) == 1


def test_export_without_out_says_where_and_writes_nothing_in_the_current_folder(
    tmp_path: Path,
) -> None:
    game = a_game(tmp_path)
    here = tmp_path / "elsewhere"
    here.mkdir()
    done = subprocess.run(
        [CLI, "export", str(game)], capture_output=True, text=True, timeout=120, cwd=here
    )
    assert done.returncode == 0, done.stderr
    written = Path(done.stdout.strip())
    try:
        assert written.is_absolute() and written.is_file()
        assert written.read_bytes().startswith(b"%PDF")
        assert not (here / "exports").exists() and list(here.iterdir()) == []
    finally:
        written.unlink(missing_ok=True)


def test_the_commands_are_listed_as_they_are_typed_in_every_language(tmp_path: Path) -> None:
    """The help names each command as it must be typed, whatever the language says: a
    msgid spelt like a command ("backup", the restore's argument) never renames it."""
    for lang in ("en", "ru", "uk"):
        listed = subprocess.run(
            [CLI, "--lang", lang, "--help"], capture_output=True, text=True, timeout=60
        ).stdout
        names = [line.split()[0] for line in listed.splitlines() if line.startswith("    ")]
        names = [name for name in names if name.isascii() or not name.islower()]
        for command in ("score", "tournament", "export", "serve", "import", "backup", "restore"):
            assert command in names, (lang, command, listed)
        assert not re.search(r"^ {4}(копия|копія)\b", listed, re.M), listed
        typed = subprocess.run(
            [CLI, "--lang", lang, "backup", "--help"], capture_output=True, text=True, timeout=60
        )
        assert typed.returncode == 0, typed.stderr
