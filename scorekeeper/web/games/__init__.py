"""A game's pages: the sheet, the log, the settlement, its files; finishing and reopening."""

from flask import Blueprint

bp = Blueprint("games", __name__)

from . import links, routes  # noqa: E402,F401  (routes register themselves on bp)
