"""Home page, new game, opening a game file, the web app manifest."""

from .routes import bp

__all__ = ["bp"]
