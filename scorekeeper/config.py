"""Where the instance folder and the database are, and the settings of a server or a command.

The web app and the CLI read the same settings from here, so a command finds the database
the server uses without building the web app: defaults, then instance/config.py, then the
SCOREKEEPER_* environment (SCOREKEEPER_DB names the database file), then --db on top. They
are read with Flask's own `Config` (`from_pyfile`, `from_prefixed_env`), which needs no app;
it is imported only when settings are read, so `score` starts without Flask.

The instance folder of a checkout is its instance/; an installed copy keeps its data outside
its own install (pipx or pip may replace or remove the venv at any time), in the platform's
data folder: $XDG_DATA_HOME/scorekeeper, or ~/.local/share/scorekeeper.
"""

from __future__ import annotations

import contextlib
import errno
import os
import pathlib
import shutil
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

#: Settings read as typed from the environment (a password "1234" is not a number).
TEXT_SETTINGS = ("DB", "PASSWORD", "SECRET_KEY", "BASE_URL", "TRUSTED_PROXY")
#: Settings that are on or off: a value that is not one of BOOLEAN_WORDS is refused.
BOOLEAN_SETTINGS = ("HTTPS", "PROXY")
BOOLEAN_WORDS = {
    **dict.fromkeys(("1", "true", "yes", "on"), True),
    **dict.fromkeys(("0", "false", "no", "off", ""), False),
}
DATABASE_NAME = "scorekeeper.sqlite"
#: Where installed copies kept their data before (Flask's default for an installed app):
#: inside the venv, so `pipx reinstall` or `pipx uninstall` took every game with it.
OLD_INSTANCE = Path("var") / "scorekeeper.web-instance"


def N_(message: str) -> str:
    """Mark a message for translation where it is shown (the CLI); the store imports this
    module, so it takes nothing from the rules, not even theirs."""
    return message


class SettingError(ValueError):
    """A setting has a value it cannot have; `template` and `params` say which, in English."""

    def __init__(self, template: str, **params: Any) -> None:
        super().__init__(template % params)
        self.template = template
        self.params = params


def instance_path() -> Path:
    """The instance folder (database, secret key, TLS certificate, config.py).

    SCOREKEEPER_INSTANCE if set; else instance/ beside a checkout, or the platform's data
    folder for an installed copy (see the module's docstring).
    """
    given = os.environ.get("SCOREKEEPER_INSTANCE")
    if given:
        return Path(given).resolve()
    package_path = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if _install_prefix(package_path) is None:
        return Path(package_path) / "instance"
    return data_home() / "scorekeeper"


def data_home() -> Path:
    """The user's data folder: $XDG_DATA_HOME when it is an absolute path (the XDG Base
    Directory specification ignores a relative one), else ~/.local/share."""
    given = os.environ.get("XDG_DATA_HOME", "")
    if given and os.path.isabs(given):
        return Path(given)
    return Path.home() / ".local" / "share"


def _install_prefix(package_path: str) -> str | None:
    """The prefix a package is installed under (None for a checkout), as Flask finds it."""
    py_prefix = os.path.abspath(sys.prefix)
    if pathlib.PurePath(package_path).is_relative_to(py_prefix):
        return py_prefix
    site_parent, site_folder = os.path.split(package_path)
    if site_folder.lower() != "site-packages":
        return None
    parent, folder = os.path.split(site_parent)
    if folder.lower() == "lib":
        return parent
    if os.path.basename(parent).lower() == "lib":
        return os.path.dirname(parent)
    return site_parent


def move_old_instance() -> tuple[Path, Path] | None:
    """Move an installed copy's old instance folder (inside its venv) to the data folder,
    once: returns (from, to) when it moved one, None when there was nothing to move.

    Only when no folder is named (SCOREKEEPER_INSTANCE) and the data folder holds no
    database yet. Each file is renamed (or, onto another file system, copied beside its new
    place and renamed there), the database last: a move cut short moves the rest at the next
    start, and a file the data folder already has stays where it was. Raises OSError when it
    cannot (the files not moved yet stay where they were).
    """
    if os.environ.get("SCOREKEEPER_INSTANCE"):
        return None
    package_path = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    prefix = _install_prefix(package_path)
    if prefix is None:
        return None
    old = Path(prefix) / OLD_INSTANCE
    new = data_home() / "scorekeeper"
    if not old.is_dir() or (new / DATABASE_NAME).exists():
        return None
    with _held(old):  # the workers of one server start together: one of them moves it
        if not old.is_dir() or (new / DATABASE_NAME).exists():
            return None
        new.mkdir(parents=True, exist_ok=True)
        for entry in sorted(old.iterdir(), key=lambda e: e.name == DATABASE_NAME):
            target = new / entry.name
            if not target.exists():
                _move(entry, target)
        with contextlib.suppress(OSError):
            old.rmdir()  # gone once empty; what the data folder already had stays behind
    return old, new


@contextlib.contextmanager
def _held(folder: Path) -> Iterator[None]:
    """The folder locked against the other processes moving it (flock; nothing on a system
    without it, where one process serves)."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows
        yield
        return
    try:
        fd = os.open(folder, os.O_RDONLY)
    except FileNotFoundError:  # moved by another process meanwhile: nothing left to hold
        yield
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def _move(source: Path, target: Path) -> None:
    """Rename a file or folder; across file systems, copy it whole beside the target, rename
    the copy into place, then remove the source."""
    try:
        os.rename(source, target)
        return
    except FileNotFoundError:
        return  # another process moved it first
    except OSError as error:
        if error.errno != errno.EXDEV:
            raise
    part = target.with_name(f".{target.name}.{uuid.uuid4().hex}.part")
    if source.is_dir():
        shutil.copytree(source, part, symlinks=True)
    else:
        shutil.copy2(source, part)
    os.rename(part, target)
    if source.is_dir():
        shutil.rmtree(source)
    else:
        source.unlink()


def settings(instance: Path | str | None = None) -> dict[str, Any]:
    """The configured settings: instance/config.py, then the SCOREKEEPER_* environment.

    DATABASE is always set: the default file in the instance folder unless configured.
    Raises SettingError when a boolean setting is neither true nor false.
    """
    from flask import Config  # here, not at the top: `score` never reads settings

    folder = Path(instance) if instance is not None else instance_path()
    found = Config(str(folder), {"DATABASE": os.path.join(folder, DATABASE_NAME)})
    found.from_pyfile("config.py", silent=True)
    found.from_prefixed_env("SCOREKEEPER")
    for key in TEXT_SETTINGS:
        if f"SCOREKEEPER_{key}" in os.environ:
            found[key] = os.environ[f"SCOREKEEPER_{key}"]
    for key in BOOLEAN_SETTINGS:
        if key in found:
            found[key] = boolean(key, found[key])
    if found.get("DB"):
        found["DATABASE"] = found["DB"]
    if not found.get("SECRET_KEY") and (key := secret_key_from_file()):
        found["SECRET_KEY"] = key
    return dict(found)


SECRET_KEY_FILE = "SCOREKEEPER_SECRET_KEY_FILE"


def first_line_named_by(setting: str, refusal: type[SettingError] = SettingError) -> str | None:
    """The first line of the file the environment variable `setting` names (a compose or
    Docker secret: the value then shows in no environment, `docker inspect` nor
    podman-compose's output), "" for an empty file, None when unset. Raises `refusal` when
    the file cannot be read."""
    name = os.environ.get(setting, "").strip()
    if not name:
        return None
    try:
        text = Path(name).read_text(encoding="utf-8")
    except (OSError, UnicodeError) as error:
        raise refusal(
            N_("%(setting)s names %(path)s, which cannot be read: %(why)s"),
            setting=setting,
            path=name,
            why=getattr(error, "strerror", None) or type(error).__name__,
        ) from None
    return text.splitlines()[0] if text.strip() else ""


def secret_key_from_file() -> str:
    """The secret key in the file SCOREKEEPER_SECRET_KEY_FILE names, stripped; "" when
    unset. Raises SettingError when the file cannot be read."""
    return (first_line_named_by(SECRET_KEY_FILE) or "").strip()


def boolean(name: str, value: Any) -> bool:
    """A boolean setting's value: True or False, 1 or 0, or a word of BOOLEAN_WORDS in any
    case. Raises SettingError for anything else ("maybe", 2, a list)."""
    if isinstance(value, bool):
        return value
    if type(value) is int and value in (0, 1):
        return bool(value)
    if isinstance(value, str) and value.strip().lower() in BOOLEAN_WORDS:
        return BOOLEAN_WORDS[value.strip().lower()]
    raise SettingError(
        N_("%(name)s must be true or false (1/0, yes/no, on/off), not %(value)s"),
        name=f"SCOREKEEPER_{name}",
        value=repr(value)[:40],
    )


def database_path(db: str | None = None) -> str:
    """The database file a command works on: --db, else as the server would open it."""
    return db or str(settings()["DATABASE"])


def base_url(given: str | None = None) -> str:
    """The server's public address as configured (--url, SCOREKEEPER_BASE_URL), or ""."""
    return str(given or settings().get("BASE_URL") or "").strip().rstrip("/")
