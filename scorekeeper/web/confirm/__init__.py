"""The table confirms: a follower's phone says a deal is right or not so (its only write)."""

from .routes import bp

__all__ = ["bp"]
