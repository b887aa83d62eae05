"""The club pages: the director's page, the club page, the public page and their files."""

from .routes import bp

__all__ = ["bp"]
