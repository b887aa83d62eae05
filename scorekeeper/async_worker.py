"""gunicorn's worker for the deploy: uvicorn's (an event loop per process, HTTP parsed by
httptools), serving scorekeeper.asgi; the access log is scorekeeper.access's, not uvicorn's."""

from typing import Any

from uvicorn_worker import UvicornWorker  # type: ignore[import-untyped]


class Worker(UvicornWorker):  # type: ignore[misc]
    CONFIG_KWARGS: dict[str, Any] = {
        "loop": "asyncio",
        "http": "httptools",
        "ws": "none",
        "lifespan": "on",
        "access_log": False,
        "server_header": False,
        "date_header": True,
    }
