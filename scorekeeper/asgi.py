"""The app as the deploy serves it: `gunicorn --config python:scorekeeper.gunicorn_config`
(the Dockerfile, the systemd unit), with scorekeeper.async_worker: each process runs an event
loop that holds the phones' long polls (longpoll.py) and passes every other request to the
Flask app in a pool of SCOREKEEPER_THREADS threads, each a line of the access log.
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
app = Router(_access, watch, int(os.environ.get("SCOREKEEPER_THREADS", "8")), _access.write)
