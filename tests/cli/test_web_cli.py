"""`scorekeeper serve`, `import` and `backup`: clear messages, exit statuses, no tracebacks."""

from __future__ import annotations

import json
import socket
import subprocess
import urllib.request
from pathlib import Path
from typing import Any

from scorekeeper.cli import main, serve_urls
from scorekeeper.store import Store

from ..harness import CLI, wait_for_start
from ..helpers import newest_game
from ..ports import free_port

GAME = {
    "format": "scorekeeper-game/1",
    "name": "Friday",
    "convention": "sochi",
    "players": ["Anna", "Boris", "Vera"],
    "deals": [{"type": "misere", "declarer": "Anna", "tricks": {"Anna": 0}}],
}


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([CLI, *args], capture_output=True, text=True, timeout=60)


def test_import_prints_the_edit_address(tmp_path: Path) -> None:
    file = tmp_path / "game.json"
    file.write_text(json.dumps(GAME))
    db = tmp_path / "db.sqlite"
    result = run("import", str(file), "--db", str(db), "--url", "http://table.local:8000")
    assert result.returncode == 0, result.stderr
    assert "imported Friday: 1 deal" in result.stdout
    edit = [line for line in result.stdout.splitlines() if line.startswith("edit: ")][0]
    assert edit.startswith("edit: http://table.local:8000/g/")
    token = edit.rsplit("/", 1)[-1]
    with Store(db) as store:
        game = store.get_game(token)
    assert game.access == "edit" and game.name == "Friday"
    assert game.options["pool_target"] == 10 and len(game.deals) == 1


def test_import_of_a_bad_file_lists_the_problems(tmp_path: Path) -> None:
    file = tmp_path / "game.json"
    file.write_text(json.dumps({**GAME, "deals": [{"type": "misere", "declarer": "Olga"}]}))
    db = tmp_path / "db.sqlite"
    result = run("import", str(file), "--db", str(db))
    assert result.returncode == 2
    assert "deal 1:" in result.stderr and "Traceback" not in result.stderr
    assert not db.exists()
    missing = run("import", str(tmp_path / "nope.json"), "--db", str(db))
    assert missing.returncode == 2
    assert "cannot read the file" in missing.stderr and "Traceback" not in missing.stderr


def test_backup_writes_a_sound_copy(tmp_path: Path) -> None:
    file = tmp_path / "game.json"
    file.write_text(json.dumps(GAME))
    db = tmp_path / "db.sqlite"
    assert main(["import", str(file), "--db", str(db)]) == 0
    copy = tmp_path / "backups" / "copy.sqlite"
    result = run("backup", str(copy), "--db", str(db))
    assert result.returncode == 0, result.stderr
    assert "backed up" in result.stdout
    with Store(copy) as store:
        assert store.integrity_check() == "ok"
        game = newest_game(store)
        assert game is not None and game.players == ["Anna", "Boris", "Vera"]


def test_backup_without_a_database_says_so(tmp_path: Path) -> None:
    result = run("backup", str(tmp_path / "copy.sqlite"), "--db", str(tmp_path / "none.sqlite"))
    assert result.returncode == 1
    assert "there is no database" in result.stderr and "Traceback" not in result.stderr


def test_the_urls_to_print() -> None:
    assert serve_urls("127.0.0.1", 8000) == ["http://127.0.0.1:8000/"]
    urls = serve_urls("0.0.0.0", 8123)
    assert urls[0] == "http://127.0.0.1:8123/"
    assert all(u.endswith(":8123/") for u in urls)


def test_serve_answers_pages_and_prints_the_address(tmp_path: Path) -> None:
    port = free_port()
    db = tmp_path / "db.sqlite"
    server = subprocess.Popen(
        [CLI, "serve", "--host", "127.0.0.1", "--port", str(port), "--db", str(db)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        url = f"http://127.0.0.1:{port}/"
        answered: list[tuple[str, Any]] = []

        def home() -> bool:
            with urllib.request.urlopen(url, timeout=2) as response:
                answered.append((response.read().decode(), response.headers))
            return True

        # Its output is read once it has stopped: the log of a failed start says only that.
        wait_for_start(home, server, lambda: "(its output follows its exit)")
        body, headers = answered[0]
        assert "New game" in body
        assert "frame-ancestors 'none'" in headers["Content-Security-Policy"]
    finally:
        server.terminate()
        out, err = server.communicate(timeout=20)
    assert url in err  # the banner is on stderr: stdout is the access log's
    assert "█" in err or "▀" in err  # the QR code
    assert db.exists()


def test_serve_on_a_busy_port_fails_clearly(tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = run(
            "serve", "--host", "127.0.0.1", "--port", str(port), "--db", str(tmp_path / "db.sqlite")
        )
    assert result.returncode == 1
    assert "cannot listen" in result.stderr and "Traceback" not in result.stderr


def test_serve_with_an_unusable_database_fails_clearly(tmp_path: Path) -> None:
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"not a database" * 200)
    result = run("serve", "--port", str(free_port()), "--db", str(junk))
    assert result.returncode == 2
    assert "not a database" in result.stderr and "Traceback" not in result.stderr
