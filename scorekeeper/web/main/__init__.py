"""Home page, new game, opening a game file, the web app manifest."""

from flask import Blueprint

bp = Blueprint("main", __name__)

from . import routes  # noqa: E402,F401  (routes register themselves on bp)
