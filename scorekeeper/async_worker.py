"""gunicorn's worker for `serve --workers N` and the deploy: uvicorn's (an event loop per
process, HTTP parsed by httptools), serving the long poll's Router with uvicorn_server's
settings and Server (held requests answered first at a stop); the access log is
scorekeeper.access's, not uvicorn's."""

import sys
from typing import Any

from gunicorn.arbiter import Arbiter
from uvicorn_worker import UvicornWorker  # type: ignore[import-untyped]

from scorekeeper.uvicorn_server import CONFIG, Server


class Worker(UvicornWorker):  # type: ignore[misc]
    CONFIG_KWARGS: dict[str, Any] = CONFIG

    async def _serve(self) -> None:
        """UvicornWorker's own, with scorekeeper's Server."""
        self.config.app = self.wsgi
        server = Server(config=self.config)
        server.parent = self.ppid
        self._install_sigquit_handler()
        await server.serve(sockets=self.sockets)
        if not server.started:
            sys.exit(Arbiter.WORKER_BOOT_ERROR)
