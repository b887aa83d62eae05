"""Behind a reverse proxy: whose forwarded headers are believed, and the path prefix.

- `X-Forwarded-For`, `-Proto`, `-Host` and `-Port` are believed only from a peer listed in
  SCOREKEEPER_TRUSTED_PROXY (addresses or networks, comma-separated; `*` for any peer, only
  where nothing but the proxy can reach the app). SCOREKEEPER_PROXY=1 alone trusts the
  loopback addresses (a proxy on the same machine). From anyone else they are removed before
  the app sees them, whatever the server and with or without `--https`.
- The path prefix (the app served under `/pulka/`, say) comes only from configuration,
  SCOREKEEPER_PREFIX or `serve --prefix`; an `X-Forwarded-Prefix` is always removed, from
  whomever it comes: a client could otherwise point every link of a page at another site.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import Any

from flask import Flask
from werkzeug.middleware.proxy_fix import ProxyFix

IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network
LOOPBACK = "127.0.0.1, ::1"
_FORWARDED = (
    "HTTP_X_FORWARDED_FOR",
    "HTTP_X_FORWARDED_PROTO",
    "HTTP_X_FORWARDED_HOST",
    "HTTP_X_FORWARDED_PORT",
    "HTTP_X_FORWARDED_PREFIX",
    "HTTP_FORWARDED",
)


@lru_cache(maxsize=16)
def trusted_networks(setting: str) -> tuple[IPNetwork, ...] | None:
    """The networks a TRUSTED_PROXY setting names (None: any peer). Raises ValueError on an
    address that is not one."""
    names = [n.strip() for n in setting.replace(" ", ",").split(",") if n.strip()]
    if "*" in names:
        return None
    return tuple(ipaddress.ip_network(n, strict=False) for n in names)


def trusted_setting(config: Any) -> str:
    """The TRUSTED_PROXY in force: as configured, loopback under PROXY=1 alone, else none."""
    given = str(config.get("TRUSTED_PROXY") or "").strip()
    if given:
        return given
    return LOOPBACK if config.get("PROXY") else ""


def prefix_setting(config: Any) -> str:
    """The configured path prefix, as SCRIPT_NAME wants it: "/pulka" (or "")."""
    prefix = str(config.get("PREFIX") or "").strip().strip("/")
    return f"/{prefix}" if prefix else ""


def _is_trusted(peer: str, setting: str) -> bool:
    if not setting or not peer:
        return False
    networks = trusted_networks(setting)
    if networks is None:
        return True
    try:
        address = ipaddress.ip_address(peer.split("%", 1)[0])
    except ValueError:
        return False
    return any(address in network for network in networks)


PASSED_ON = "scorekeeper.passed_on"
"""The environ key that says a request came with a proxy's forwarded headers."""


class Forwarded:
    """WSGI middleware: the forwarded headers of a trusted proxy applied (werkzeug's
    ProxyFix, one proxy, no prefix), anyone else's removed; the configured prefix set."""

    def __init__(self, app: Callable[..., Iterable[bytes]], config: Any) -> None:
        self.app = app
        self.config = config
        self.fix = ProxyFix(app, x_for=1, x_proto=1, x_host=1, x_port=1, x_prefix=0)

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        prefix = prefix_setting(self.config)
        path = environ.get("PATH_INFO", "")
        if prefix and (path == prefix or path.startswith(prefix + "/")):
            path = path[len(prefix) :] or "/"  # a proxy that passes the prefix on
        environ["PATH_INFO"] = path
        environ["SCRIPT_NAME"] = prefix  # never what a client sent
        environ.pop("HTTP_X_FORWARDED_PREFIX", None)
        # Whether a proxy passed the request on, whoever's it is (/metrics is for loopback
        # clients themselves, never for someone a proxy on this machine passes on).
        environ[PASSED_ON] = any(header in environ for header in (*_FORWARDED, "HTTP_FORWARDED"))
        if _is_trusted(environ.get("REMOTE_ADDR", ""), trusted_setting(self.config)):
            return self.fix(environ, start_response)
        for header in _FORWARDED:
            environ.pop(header, None)
        return self.app(environ, start_response)


def init_app(app: Flask) -> None:
    """Put the middleware in front of the app; a TRUSTED_PROXY that is not a list of
    addresses stops the start (better than trusting nobody, or everybody, silently)."""
    trusted_networks(trusted_setting(app.config))
    app.wsgi_app = Forwarded(app.wsgi_app, app.config)  # type: ignore[method-assign]
