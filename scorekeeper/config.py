"""Where the instance folder and the database are, and the settings of a server or a command.

The web app and the CLI read the same settings from here, so a command finds the database
the server uses without building the web app: defaults, then instance/config.py, then the
SCOREKEEPER_* environment (SCOREKEEPER_DB names the database file), then --db on top.
"""

from __future__ import annotations

import errno
import json
import os
import pathlib
import sys
import types
from pathlib import Path
from typing import Any

#: Settings read as typed from the environment (a password "1234" is not a number).
TEXT_SETTINGS = ("DB", "PASSWORD", "SECRET_KEY", "BASE_URL", "TRUSTED_PROXY")
DATABASE_NAME = "scorekeeper.sqlite"


def instance_path() -> Path:
    """The instance folder (database, secret key, TLS certificate, config.py).

    SCOREKEEPER_INSTANCE if set; else instance/ beside a checkout, or
    <prefix>/var/scorekeeper.web-instance for an installed copy (where Flask puts it).
    """
    given = os.environ.get("SCOREKEEPER_INSTANCE")
    if given:
        return Path(given).resolve()
    package_path = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    prefix = _install_prefix(package_path)
    if prefix is None:
        return Path(package_path) / "instance"
    return Path(prefix) / "var" / "scorekeeper.web-instance"


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


def settings(instance: Path | str | None = None) -> dict[str, Any]:
    """The configured settings: instance/config.py, then the SCOREKEEPER_* environment.

    DATABASE is always set: the default file in the instance folder unless configured.
    """
    folder = Path(instance) if instance is not None else instance_path()
    found: dict[str, Any] = {"DATABASE": os.path.join(folder, DATABASE_NAME)}
    found.update(_pyfile(folder / "config.py"))
    found.update(_prefixed_env("SCOREKEEPER"))
    for key in TEXT_SETTINGS:
        if f"SCOREKEEPER_{key}" in os.environ:
            found[key] = os.environ[f"SCOREKEEPER_{key}"]
    if found.get("DB"):
        found["DATABASE"] = found["DB"]
    return found


def database_path(db: str | None = None) -> str:
    """The database file a command works on: --db, else as the server would open it."""
    return db or str(settings()["DATABASE"])


def base_url(given: str | None = None) -> str:
    """The server's public address as configured (--url, SCOREKEEPER_BASE_URL), or ""."""
    return str(given or settings().get("BASE_URL") or "").strip().rstrip("/")


def _pyfile(path: Path) -> dict[str, Any]:
    """The upper-case names a config.py sets; nothing if there is no such file."""
    module = types.ModuleType("config")
    module.__file__ = str(path)
    try:
        with open(path, "rb") as source:
            exec(compile(source.read(), str(path), "exec"), module.__dict__)  # noqa: S102
    except OSError as error:
        if error.errno in (errno.ENOENT, errno.EISDIR, errno.ENOTDIR):
            return {}
        error.strerror = f"Unable to load configuration file ({error.strerror})"
        raise
    return {k: v for k, v in vars(module).items() if k.isupper()}


def _prefixed_env(prefix: str) -> dict[str, Any]:
    """SCOREKEEPER_X=value as X, the value read as JSON when it is JSON (as Flask reads it)."""
    found: dict[str, Any] = {}
    start = f"{prefix}_"
    for key in sorted(os.environ):
        if not key.startswith(start):
            continue
        raw = os.environ[key]
        value: Any
        try:
            value = json.loads(raw)
        except Exception:
            value = raw
        name = key[len(start) :]
        if "__" not in name:
            found[name] = value
            continue
        current = found
        *parts, tail = name.split("__")
        for part in parts:
            current = current.setdefault(part, {})
        current[tail] = value
    return found
