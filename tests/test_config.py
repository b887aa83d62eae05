"""The CLI reads the server's settings without the web app: the same instance folder and
the same database file as `create_app` would use."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from flask import Flask

from scorekeeper import config
from scorekeeper.web import create_app


def test_instance_folder_is_where_flask_puts_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SCOREKEEPER_INSTANCE", raising=False)
    assert str(config.instance_path()) == Flask("scorekeeper.web").instance_path


def test_settings_match_the_app(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(tmp_path))
    (tmp_path / "config.py").write_text('BASE_URL = "https://cards.example/"\nPASSWORD = "x"\n')
    monkeypatch.setenv("SCOREKEEPER_PASSWORD", "1234")
    monkeypatch.setenv("SCOREKEEPER_THREADS", "12")
    app = create_app(create_database=False)
    assert app.instance_path == str(tmp_path.resolve())
    found = config.settings()
    for key in ("DATABASE", "BASE_URL", "PASSWORD", "THREADS"):
        assert found[key] == app.config[key]
    assert found["PASSWORD"] == "1234" and found["THREADS"] == 12
    assert config.database_path() == str(tmp_path / "scorekeeper.sqlite")
    assert config.base_url() == "https://cards.example"
    assert config.base_url("http://x/") == "http://x"


def test_db_setting_names_the_database(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(tmp_path))
    monkeypatch.setenv("SCOREKEEPER_DB", str(tmp_path / "games.db"))
    assert config.database_path() == str(tmp_path / "games.db")
    assert create_app(create_database=False).config["DATABASE"] == str(tmp_path / "games.db")
    assert config.database_path("other.db") == "other.db"


def test_cli_commands_do_not_load_the_web_app() -> None:
    code = (
        "import sys; from scorekeeper import cli, config, games, company; "
        "import scorekeeper.company.file; "
        "print(sorted(m for m in sys.modules if m == 'flask' or m.startswith('scorekeeper.web')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
