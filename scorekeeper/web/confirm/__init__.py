"""The table confirms: a follower's phone says a deal is right or not so (its only write)."""

from flask import Blueprint

bp = Blueprint("confirm", __name__)

from . import routes  # noqa: E402,F401  (routes register themselves on bp)
