"""The app as a WSGI server loads it: `gunicorn ... scorekeeper.wsgi:app` (docs/deploy.md).

Its configuration comes from the instance folder and the SCOREKEEPER_* environment; the
database file is made if it does not exist; each request is a line of the access log.
"""

from scorekeeper.serving import AccessLog
from scorekeeper.web import create_app

app = AccessLog(create_app())
