"""The app as the deploy serves it: `gunicorn --config python:scorekeeper.gunicorn_config`
(the Dockerfile, the systemd unit), with scorekeeper.async_worker: the same app as every
`scorekeeper serve` runs (serving.followed): each process runs an event loop that holds the
phones' long polls (longpoll.py) and passes every other request to the Flask app in a pool
of SCOREKEEPER_THREADS threads (4), each a line of the access log.
"""

import logging
import os

from scorekeeper.serverlog import configure_logging
from scorekeeper.serving import AccessLog, followed
from scorekeeper.web import create_app

if not logging.getLogger().handlers:
    configure_logging()

flask_app = create_app()
THREADS = 4
"""Threads per process for the pages, unless SCOREKEEPER_THREADS says otherwise: Flask's
work holds the GIL, so more threads add no speed, and each one more takes the GIL from the
event loop that answers the held requests (measured under 1,000 tables with 8 + 4: the
loop fell so far behind that gunicorn took a worker for hung and restarted it)."""

app = followed(
    AccessLog(flask_app),
    flask_app.config,
    int(os.environ.get("SCOREKEEPER_THREADS", THREADS)),
)
