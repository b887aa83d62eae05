"""Entering, checking, editing, deleting, undoing and restoring deals."""

from flask import Blueprint

bp = Blueprint("deals", __name__)

from . import routes  # noqa: E402,F401  (routes register themselves on bp)
