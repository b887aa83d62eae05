"""A database setting (--db, SCOREKEEPER_DB, copy-db's source and target) read once, in one
place: which engine it names, the form it may be printed in, and the secrets never to print.

A setting is one of:

- a PostgreSQL URL, ``postgresql://`` or ``postgres://``: the password in its netloc
  (``user:password@host``) or in its query (``?password=…``), or neither;
- a libpq ``key=value`` string (``host=db user=scorekeeper dbname=scorekeeper``);
- a path: an SQLite file.

Anything else (``mysql://…``, a URL libpq cannot read such as a missing ``]``) is refused
with BadLocation, whose message names the setting in its printable form only.

The password need not be in the setting at all, so it never has to be on a command line:
libpq reads PGPASSWORD and ~/.pgpass itself, and SCOREKEEPER_DB_PASSWORD_FILE names a file
holding it (as Docker secrets are given to a container).
"""

from __future__ import annotations

import contextlib
import functools
import os
import re
import urllib.parse
from typing import Any, Literal

from scorekeeper import config

from .errors import StorageUnavailable

Kind = Literal["sqlite", "postgresql"]

PASSWORD_FILE = "SCOREKEEPER_DB_PASSWORD_FILE"
_URL = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")
_PG_SCHEMES = ("postgresql://", "postgres://")
#: The keywords that make a setting a libpq key=value string (libpq's own list, in part:
#: enough that no file name is taken for one and no such string for a file name).
_KEYWORDS = (
    "host|hostaddr|port|dbname|user|password|passfile|service|sslmode|sslpassword|"
    "connect_timeout|options|application_name|target_session_attrs|channel_binding|"
    "keepalives|tcp_user_timeout|sslrootcert|sslcert|sslkey|gssencmode|krbsrvname"
)
_KEY_VALUE = re.compile(rf"(?:^|\s)(?:{_KEYWORDS})\s*=", re.IGNORECASE)
_SECRET_KEYS = ("password", "sslpassword")
_UNREADABLE = "(a database setting that cannot be read)"


class BadLocation(StorageUnavailable):
    """A database setting that names no database this release can use (a server answers
    503, a command exits 2). `template` and `params` say why in English (params hold only
    the printable form)."""

    def __init__(self, template: str, **params: Any) -> None:
        super().__init__(template % params, "the database could not be used")
        self.template = template
        self.params = params


def N_(message: str) -> str:
    return message


def kind(setting: str | os.PathLike[str]) -> Kind:
    """Which engine a setting names; raises BadLocation for one that names none."""
    text = os.fspath(setting)
    if _is_postgresql(text):
        _parsed(text)
        return "postgresql"
    if _URL.match(text):
        raise BadLocation(
            N_(
                "%(db)s is not a database this release can use: give a postgresql:// URL "
                "or the path of an SQLite file"
            ),
            db=_scheme_only(text),
        )
    return "sqlite"


def is_postgresql(setting: object) -> bool:
    """Whether a setting is meant for PostgreSQL (a URL or a key=value string), whether or
    not libpq can read it (kind() says that)."""
    return isinstance(setting, str) and _is_postgresql(setting)


def _is_postgresql(text: str) -> bool:
    return text.lower().startswith(_PG_SCHEMES) or bool(_KEY_VALUE.search(text))


def _scheme_only(text: str) -> str:
    return text.split("://", 1)[0][:20] + "://…"


def _parsed(text: str) -> dict[str, str]:
    """What libpq reads in a setting (a new dict each time: callers take items out of it)."""
    return dict(_parsed_once(text))


@functools.lru_cache(maxsize=64)
def _parsed_once(text: str) -> tuple[tuple[str, str], ...]:
    """_parsed's items, parsed once per setting: every request on PostgreSQL names its
    database (its engine's printable name, its kind) and libpq's parse costs a host CPU."""
    from psycopg import ProgrammingError
    from psycopg.conninfo import conninfo_to_dict

    try:
        found = conninfo_to_dict(text)
    except ProgrammingError:
        # libpq's message quotes the whole setting, password and all: never shown.
        raise BadLocation(
            N_(
                "the database setting %(db)s cannot be read (a PostgreSQL URL or "
                "key=value string, as libpq reads them): check its brackets, quotes and @"
            ),
            db=_scheme_only(text) if _URL.match(text) else "key=value",
        ) from None
    return tuple((k, str(v)) for k, v in found.items() if v is not None)


def printable(setting: str | os.PathLike[str]) -> str:
    """The setting as every line that names the database shows it: a path as it is; a
    PostgreSQL setting as a URL with its password replaced by ***; one that cannot be read
    as its scheme alone. Never raises."""
    return _printable(os.fspath(setting))


@functools.lru_cache(maxsize=64)
def _printable(text: str) -> str:
    """printable's answer, made once per setting (each request's engine names its database)."""
    if not _is_postgresql(text):
        return _scheme_only(text) if _URL.match(text) else text
    try:
        found = _parsed(text)
    except BadLocation:
        return _scheme_only(text) if _URL.match(text) else _UNREADABLE
    return _as_url(found)


def _as_url(found: dict[str, str]) -> str:
    user = urllib.parse.quote(found.pop("user", ""), safe="")
    secret = any(found.pop(key, None) is not None for key in _SECRET_KEYS)
    hosts = found.pop("host", "").split(",")
    ports = found.pop("port", "").split(",")
    dbname = urllib.parse.quote(found.pop("dbname", ""), safe="")
    ports += [ports[-1]] * (len(hosts) - len(ports))  # one port for every host, as libpq
    netloc = ",".join(_host(host, port) for host, port in zip(hosts, ports, strict=False))
    if hosts[0].startswith("/"):  # a Unix socket's folder goes in the query, as libpq reads it
        found["host"], netloc = ",".join(hosts), ""
    if user or secret:
        netloc = f"{user}{':***' if secret else ''}@{netloc}"
    query = urllib.parse.urlencode(sorted(found.items()), safe="/,")
    return f"postgresql://{netloc}/{dbname}" + (f"?{query}" if query else "")


def _host(host: str, port: str) -> str:
    shown = f"[{host}]" if ":" in host else host
    return f"{shown}:{port}" if port else shown


def password_from_file() -> str | None:
    """The password in SCOREKEEPER_DB_PASSWORD_FILE (its first line, as written), or None
    when unset; raises BadLocation when the file cannot be read."""
    try:
        return config.first_line_named_by(PASSWORD_FILE)
    except config.SettingError as refused:
        raise BadLocation(refused.template, **refused.params) from None


def connect_settings(setting: str) -> dict[str, Any]:
    """What psycopg is given beside the setting itself: the password from
    SCOREKEEPER_DB_PASSWORD_FILE when the setting has none."""
    if "password" in _parsed(setting):
        return {}
    password = password_from_file()
    return {} if password is None else {"password": password}


def secrets(setting: str) -> set[str]:
    """Every password that may show in a library's message about this setting, as given
    and as written in a URL."""
    found: set[str] = set()
    with contextlib.suppress(BadLocation):
        parsed = _parsed(setting)
        found |= {parsed[k] for k in _SECRET_KEYS if parsed.get(k)}
    with contextlib.suppress(BadLocation):
        found.add(password_from_file() or "")
    found.add(os.environ.get("PGPASSWORD", ""))
    found |= {urllib.parse.quote(s, safe="") for s in found}
    return {s for s in found if len(s) >= 2}


def scrubbed(text: str, setting: str) -> str:
    """A message about the database with every password of its setting replaced by ***."""
    for secret in sorted(secrets(setting), key=len, reverse=True):
        text = text.replace(secret, "***")
    return text
