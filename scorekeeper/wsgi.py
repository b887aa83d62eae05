"""The app as a WSGI server loads it: `gunicorn ... scorekeeper.wsgi:app` (docs/deploy.md).

Its configuration comes from the instance folder and the SCOREKEEPER_* environment; the
database file is made if it does not exist; each request is a line of the access log. Under
a server that has not set up logging (gunicorn does, from scorekeeper.gunicorn_config), the
log goes to stderr with every token masked, as under `scorekeeper serve`.
"""

import logging

from scorekeeper.serverlog import configure_logging
from scorekeeper.serving import AccessLog
from scorekeeper.web import create_app

if not logging.getLogger().handlers:
    configure_logging()

app = AccessLog(create_app())
