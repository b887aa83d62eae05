"""The company pages: a table of regulars, its evenings, standings and who owes whom."""

from .routes import bp

__all__ = ["bp"]
