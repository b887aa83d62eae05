"""Loopback ports for the servers the tests start, handed out once across the suite's
processes."""

from __future__ import annotations

import fcntl
import json
import socket
import tempfile
import time
from pathlib import Path

_LEDGER = Path(tempfile.gettempdir()) / "scorekeeper-test-ports.json"
_KEPT_SECONDS = 120.0


def free_port() -> int:
    """A TCP port nobody listens on now, and that no test process was handed in the last two
    minutes. A port probed free stays free only until somebody binds it: the suite runs in
    several processes (pytest-xdist), and two of them handed the same port before either
    server bound it would each talk to whichever server won it (a plain HTTP phone answered
    "Client sent an HTTP request to an HTTPS server" by another test's server)."""
    with open(_LEDGER.with_suffix(".lock"), "a+") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        now = time.time()
        try:
            given = {
                int(port): at
                for port, at in json.loads(_LEDGER.read_text()).items()
                if now - at < _KEPT_SECONDS
            }
        except (OSError, ValueError):
            given = {}
        while True:
            with socket.socket() as s:
                s.bind(("127.0.0.1", 0))
                port = int(s.getsockname()[1])
            if port not in given:
                break
        given[port] = now
        _LEDGER.write_text(json.dumps(given))
    return port
