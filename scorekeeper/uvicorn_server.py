"""uvicorn as scorekeeper runs it: under `scorekeeper serve` (one process, here) and as
gunicorn's worker (async_worker.py, `serve --workers N` and the deploy). The app is the
long poll's Router (longpoll.py): the phones that follow a game hold one request each.

Asked to stop, the server first answers every held request ("no change": the phone asks
again, elsewhere or later), then the requests in flight finish (a Save is answered), then
it ends. uvicorn alone would wait for the held requests as for any other, up to their hold.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
from collections.abc import Iterator
from typing import Any

import uvicorn

from scorekeeper.serverlog import GRACE_SECONDS

CONFIG: dict[str, Any] = {
    "loop": "asyncio",
    "http": "httptools",
    "ws": "none",
    "lifespan": "on",
    "access_log": False,  # scorekeeper.access has the line
    "server_header": False,
    "date_header": True,
}
"""uvicorn's settings, the same in every process: an event loop, HTTP parsed by httptools,
no websockets, the Router's lifespan (it starts the watch of the held requests)."""


class Server(uvicorn.Server):
    """uvicorn's server; at its stop the app's held requests are answered first. As one of
    gunicorn's workers (`parent`: the master's process id) it stops, as gunicorn's own workers
    do, once that master is gone (killed, so it could not stop its workers): a worker left
    behind would go on serving the port and holding the database with no one to stop it."""

    parent: int | None = None

    async def on_tick(self, counter: int) -> bool:
        if self.parent is not None and counter % 10 == 0 and os.getppid() != self.parent:
            self.should_exit = True
        return bool(await super().on_tick(counter))

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        stop = getattr(self.config.app, "stop_waiting", None)
        if stop is not None:
            stop()
        await super().shutdown(sockets)


class Foreground(Server):
    """The server of `scorekeeper serve`, in its own process: SIGTERM or Ctrl+C stop it and
    `run` returns (the command says "stopped" and exits 0; uvicorn alone raises the signal
    again once stopped, and the process would end by it)."""

    def __init__(self, app: Any, sock: socket.socket) -> None:
        config = uvicorn.Config(
            app,
            **CONFIG,
            log_config=None,  # serverlog's handlers: access on stdout, the rest on stderr
            proxy_headers=False,  # the app decides whose forwarded headers to believe
            timeout_keep_alive=20,  # phones ask again at once: an open connection saves one
            timeout_graceful_shutdown=GRACE_SECONDS,
        )
        super().__init__(config)
        self.sock = sock

    def run(self, sockets: list[socket.socket] | None = None) -> None:
        try:
            super().run(sockets=[self.sock])
        finally:
            with contextlib.suppress(OSError):
                self.sock.close()

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        handled = (signal.SIGTERM, signal.SIGINT)
        before = {number: signal.signal(number, self.handle_exit) for number in handled}
        try:
            yield
        finally:
            for number, handler in before.items():
                signal.signal(number, handler)
