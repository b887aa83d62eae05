"""gunicorn's settings for scorekeeper, as the Docker image and the systemd unit run it:

    gunicorn --config python:scorekeeper.gunicorn_config

serves scorekeeper.asgi:app with scorekeeper.async_worker: each process an event loop that
holds every following phone's long poll (thousands of them cost no thread) and runs the
Flask app in a pool of threads. `scorekeeper serve --workers N` runs the same settings, the
same worker and the same app (serving.followed), built by the command.
Environment: SCOREKEEPER_WORKERS (processes, default 2: one per core, docs/capacity.md),
SCOREKEEPER_THREADS (per process, for the pages: 4, scorekeeper.asgi), SCOREKEEPER_BIND
(default 0.0.0.0:8000).
The master makes the database before it starts the workers (`on_starting`).
"""

from __future__ import annotations

import os
import tempfile
from typing import Any

from scorekeeper.serverlog import GRACE_SECONDS, LOGGING

DEFAULT_WORKERS = 2
DEFAULT_THREADS = 8


ASYNC_WORKER = "scorekeeper.async_worker.Worker"
ASGI_APP = "scorekeeper.asgi:app"


def settings(*, workers: int, threads: int) -> dict[str, Any]:
    """The settings, by gunicorn's names: the deploy's and `serve --workers`'s."""
    return {
        **metrics_settings(),
        "worker_class": ASYNC_WORKER,
        "workers": workers,
        "threads": threads,
        # A phone asks again as soon as its held request is answered: an idle connection
        # kept open saves a new one.
        "keepalive": 20,
        # Each following phone holds one connection (its long poll): 3,000 phones of 1,000
        # tables over two processes, with room.
        "worker_connections": 10000,
        "timeout": 60,
        "graceful_timeout": GRACE_SECONDS,
        # Forwarded headers are the app's to believe or not (SCOREKEEPER_TRUSTED_PROXY):
        # gunicorn takes neither a scheme nor a SCRIPT_NAME from any client.
        "forwarded_allow_ips": "",
        "forwarder_headers": "",
        "secure_scheme_headers": {},
        # One line per request comes from scorekeeper.access (masked), not gunicorn's.
        "accesslog": None,
        "errorlog": "-",
        "logconfig_dict": LOGGING,
        "control_socket_disable": True,  # no socket under $HOME (a service has none)
        "proc_name": "scorekeeper",
        "pre_request": close_after_too_large,
    }


def metrics_settings() -> dict[str, Any]:
    """With metrics on (scorekeeper/metrics.py), the workers count into files of one folder
    that any of them adds up when scraped: PROMETHEUS_MULTIPROC_DIR, made here (in the
    master, before any worker imports prometheus_client) unless given; a worker's files are
    marked dead when it exits."""
    from scorekeeper import metrics

    if not metrics.enabled():
        return {}
    if not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(prefix="scorekeeper-metrics-")
    return {"child_exit": _worker_gone}


def _worker_gone(server: Any, worker: Any) -> None:
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(worker.pid)  # type: ignore[no-untyped-call]


MAX_BODY = 2 * 1024 * 1024
"""The app's MAX_CONTENT_LENGTH (scorekeeper.web): a longer body is answered 413 unread."""


def close_after_too_large(worker: Any, req: Any) -> None:
    """Before gunicorn answers a request: one whose body is over the app's limit gets its
    413 without the body being read, so the connection must close after it, and the answer
    must say so (gunicorn otherwise says "keep-alive" and then closes, and the phone's next
    request on that connection fails)."""
    for name, value in req.headers:
        if name == "CONTENT-LENGTH" and value.isascii() and value.isdigit():
            if len(value) > 12 or int(value) > MAX_BODY:
                req.must_close = True


def _env_int(name: str, default: int) -> int:
    try:
        return max(1, int(os.environ.get(name, default)))
    except ValueError:
        return default


_settings = settings(
    workers=_env_int("SCOREKEEPER_WORKERS", DEFAULT_WORKERS),
    threads=_env_int("SCOREKEEPER_THREADS", DEFAULT_THREADS),
)
wsgi_app = ASGI_APP
bind = [os.environ.get("SCOREKEEPER_BIND", "0.0.0.0:8000")]
worker_class = _settings["worker_class"]
workers = _settings["workers"]
threads = _settings["threads"]
keepalive = _settings["keepalive"]
worker_connections = _settings["worker_connections"]
timeout = _settings["timeout"]
graceful_timeout = _settings["graceful_timeout"]
forwarded_allow_ips = _settings["forwarded_allow_ips"]
forwarder_headers = _settings["forwarder_headers"]
secure_scheme_headers = _settings["secure_scheme_headers"]
accesslog = _settings["accesslog"]
errorlog = _settings["errorlog"]
logconfig_dict = _settings["logconfig_dict"]
control_socket_disable = _settings["control_socket_disable"]
proc_name = _settings["proc_name"]
pre_request = _settings["pre_request"]
if "child_exit" in _settings:
    child_exit = _settings["child_exit"]


def on_starting(server: Any) -> None:
    """In gunicorn's master, before any worker is forked: say which version starts, and make
    the database file once. Each worker would otherwise make it as it starts, and a worker
    that found the other's file still empty (0 bytes) took it for a damaged database."""
    from scorekeeper import config
    from scorekeeper.store import Store, StoreError
    from scorekeeper.store.location import printable
    from scorekeeper.version import __version__

    database = config.database_path()
    server.log.info("scorekeeper %s, database %s", __version__, printable(database))
    try:
        Store(database).close()
    except StoreError as error:  # the workers answer 503 and log why; say it once here too
        server.log.error("storage unavailable at start-up: %s", error)
