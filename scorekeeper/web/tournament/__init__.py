"""The tournament pages: the director's page, the tables' scorer links, the board."""

from flask import Blueprint

bp = Blueprint("tournament", __name__)

from . import routes  # noqa: E402,F401  (routes register themselves on bp)
