"""Club tournaments: the director's pages, the board, the downloads."""

from .routes import bp

__all__ = ["bp"]
