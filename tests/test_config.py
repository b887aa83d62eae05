"""The CLI reads the server's settings without the web app: the same instance folder and
the same database file as `create_app` would use."""

from __future__ import annotations

import errno
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

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


@pytest.mark.parametrize(
    ("value", "expected"),
    [("1", True), ("true", True), ("True", True), ("yes", True), ("ON", True), ("0", False)]
    + [("false", False), ("no", False), ("off", False), ("No", False), ("", False)],
)
def test_boolean_settings_read_the_usual_words(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, value: str, expected: bool
) -> None:
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(tmp_path))
    monkeypatch.setenv("SCOREKEEPER_HTTPS", value)
    monkeypatch.setenv("SCOREKEEPER_PROXY", value)
    assert config.settings()["HTTPS"] is expected
    app = create_app(create_database=False)
    assert app.config["HTTPS"] is expected and app.config["PROXY"] is expected


@pytest.mark.parametrize("value", ["maybe", "2", "nein", "[1]", "{}"])
def test_a_boolean_setting_that_is_not_true_or_false_is_refused(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, value: str
) -> None:
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(tmp_path))
    monkeypatch.setenv("SCOREKEEPER_HTTPS", value)
    with pytest.raises(config.SettingError, match="SCOREKEEPER_HTTPS must be true or false"):
        config.settings()
    with pytest.raises(config.SettingError):
        create_app(create_database=False)


def test_a_boolean_in_config_py_is_checked_too(tmp_path: Path) -> None:
    (tmp_path / "config.py").write_text("HTTPS = True\nPROXY = 'sometimes'\n")
    with pytest.raises(config.SettingError, match="SCOREKEEPER_PROXY .* not 'sometimes'"):
        config.settings(tmp_path)
    (tmp_path / "config.py").write_text("HTTPS = True\nPROXY = 0\n")
    found = config.settings(tmp_path)
    assert found["HTTPS"] is True and found["PROXY"] is False


CLI = Path(sys.executable).with_name("scorekeeper")


def refusal(env: dict[str, str], *command: str) -> str:
    """What the CLI says when it refuses a setting: its one line (exit status 2)."""
    out = subprocess.run(
        [str(CLI), *command, "--lang", "en"], capture_output=True, text=True, env=env, timeout=60
    )
    assert out.returncode == 2, out
    return out.stderr.strip()


def test_the_cli_refuses_https_no_as_a_clear_message(tmp_path: Path) -> None:
    env = {**os.environ, "SCOREKEEPER_INSTANCE": str(tmp_path), "SCOREKEEPER_HTTPS": "nope"}
    for command in (["serve", "--port", "0"], ["backup", str(tmp_path / "copy.sqlite")]):
        assert refusal(env, *command) == (
            "scorekeeper: SCOREKEEPER_HTTPS must be true or false (1/0, yes/no, on/off), not 'nope'"
        )
    env["SCOREKEEPER_HTTPS"] = "no"
    out = subprocess.run(
        [str(CLI), "backup", str(tmp_path / "copy.sqlite")], capture_output=True, text=True, env=env
    )
    assert "must be true or false" not in out.stderr


def test_the_secret_key_can_come_from_a_file(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A compose secret: the key then shows in no environment nor podman-compose's output."""
    instance = tmp_path / "instance"
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(instance))
    monkeypatch.delenv("SCOREKEEPER_SECRET_KEY", raising=False)
    key_file = tmp_path / "run-secrets-secret_key"
    key_file.write_text("k3y-from-a-file\n")
    monkeypatch.setenv("SCOREKEEPER_SECRET_KEY_FILE", str(key_file))
    assert create_app(create_database=False).config["SECRET_KEY"] == "k3y-from-a-file"
    assert not (instance / "secret_key").exists()  # none made in the instance folder
    monkeypatch.setenv("SCOREKEEPER_SECRET_KEY", "the-variable-first")
    assert config.settings()["SECRET_KEY"] == "the-variable-first"


def test_an_unreadable_secret_key_file_is_one_line_and_exit_2(tmp_path: Path) -> None:
    missing = tmp_path / "no-such-key"
    env = {
        **os.environ,
        "SCOREKEEPER_INSTANCE": str(tmp_path),
        "SCOREKEEPER_SECRET_KEY_FILE": str(missing),
    }
    env.pop("SCOREKEEPER_SECRET_KEY", None)
    assert refusal(env, "backup", str(tmp_path / "copy.sqlite")) == (
        f"scorekeeper: SCOREKEEPER_SECRET_KEY_FILE names {missing}, which cannot be read: "
        "No such file or directory"
    )


def test_an_installed_copy_keeps_its_data_in_the_data_folder(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """As pipx or pip install it (site-packages inside a venv): outside the venv."""
    monkeypatch.delenv("SCOREKEEPER_INSTANCE", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setattr(sys, "prefix", str(Path(config.__file__).parent.parent))
    assert config.instance_path() == tmp_path / "data" / "scorekeeper"
    monkeypatch.setenv("XDG_DATA_HOME", "relative/ignored")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert config.instance_path() == tmp_path / "home" / ".local" / "share" / "scorekeeper"
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(tmp_path / "named"))
    assert config.instance_path() == tmp_path / "named"


@pytest.fixture
def installed(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> tuple[Path, Path]:
    """An installed copy (its venv in tmp_path/venv) with an earlier release's instance
    folder inside the venv: (that folder, the data folder it belongs in now)."""
    monkeypatch.delenv("SCOREKEEPER_INSTANCE", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setattr(config, "_install_prefix", lambda _path: str(tmp_path / "venv"))
    old = tmp_path / "venv" / "var" / "scorekeeper.web-instance"
    (old / "tls").mkdir(parents=True)
    for name, text in FILES.items():
        (old / name).write_text(text)
    return old, tmp_path / "data" / "scorekeeper"


FILES = {
    "scorekeeper.sqlite": "the games",
    "scorekeeper.sqlite-wal": "the last writes",
    "secret_key": "the cookies' key",
    "config.py": "PASSWORD = 'x'\n",
    "tls/cert.pem": "the certificate",
}


def test_an_old_instance_inside_the_venv_is_moved_once_whole(installed: tuple[Path, Path]) -> None:
    old, new = installed
    assert config.instance_path() == new
    assert config.move_old_instance() == (old, new)
    assert {name: (new / name).read_text() for name in FILES} == FILES
    assert not old.exists()
    assert config.move_old_instance() is None  # once


def test_moving_onto_another_file_system_copies_then_removes(
    installed: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    old, new = installed
    rename = os.rename

    def across(source: Any, target: Any) -> None:
        if Path(source).is_relative_to(old):
            raise OSError(errno.EXDEV, "Invalid cross-device link")
        rename(source, target)

    monkeypatch.setattr(os, "rename", across)
    assert config.move_old_instance() == (old, new)
    assert {name: (new / name).read_text() for name in FILES} == FILES
    assert not old.exists() and not list(new.parent.glob(".*.part"))


def test_a_file_the_data_folder_has_already_is_left_where_it_was(
    installed: tuple[Path, Path],
) -> None:
    old, new = installed
    new.mkdir(parents=True)
    (new / "secret_key").write_text("a newer key")
    config.move_old_instance()
    assert (new / "secret_key").read_text() == "a newer key"
    assert (old / "secret_key").read_text() == "the cookies' key"  # kept, not overwritten
    assert (new / "scorekeeper.sqlite").read_text() == "the games"


def test_nothing_moves_where_a_folder_is_named_or_the_data_folder_has_a_database(
    installed: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    old, new = installed
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(tmp_path / "named"))
    assert config.move_old_instance() is None
    monkeypatch.delenv("SCOREKEEPER_INSTANCE")
    new.mkdir(parents=True)
    (new / "scorekeeper.sqlite").write_text("games kept here since")
    assert config.move_old_instance() is None
    assert (old / "scorekeeper.sqlite").read_text() == "the games"
