"""The company pages: a table of regulars, its evenings, standings and who owes whom."""

from flask import Blueprint

bp = Blueprint("company", __name__)

from . import routes  # noqa: E402,F401  (routes register themselves on bp)
