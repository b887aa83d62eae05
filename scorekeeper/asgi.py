"""The app as the deploy serves it: `gunicorn --config python:scorekeeper.gunicorn_config`
(the Dockerfile, the systemd unit), with scorekeeper.async_worker: each process runs an event
loop that holds the phones' long polls (longpoll.py) and passes every other request to the
Flask app in a pool of SCOREKEEPER_THREADS threads (4), each a line of the access log.
"""

import logging
import os

from scorekeeper.longpoll import Router, Watch
from scorekeeper.serverlog import configure_logging
from scorekeeper.serving import AccessLog
from scorekeeper.store import Store
from scorekeeper.web import create_app

if not logging.getLogger().handlers:
    configure_logging()

flask_app = create_app()
_access = AccessLog(flask_app)


def _store() -> Store:
    return Store(flask_app.config["DATABASE"], create=False)


watch = Watch(_store)
THREADS = 4
"""Threads per process for the pages, unless SCOREKEEPER_THREADS says otherwise: Flask's
work holds the GIL, so more threads add no speed, and each one more takes the GIL from the
event loop that answers the held requests (measured under 1,000 tables with 8 + 4: the
loop fell so far behind that gunicorn took a worker for hung and restarted it)."""

app = Router(
    _access,
    watch,
    int(os.environ.get("SCOREKEEPER_THREADS", THREADS)),
    _access.write,
    flask_app.config["MAX_CONTENT_LENGTH"],
)
