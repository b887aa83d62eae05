"""A game's pages: the sheet, the log, the settlement, its files; finishing and reopening."""

from . import links  # noqa: F401  (its pages register themselves on bp)
from .routes import bp

__all__ = ["bp"]
