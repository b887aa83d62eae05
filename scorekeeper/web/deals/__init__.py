"""Entering, checking, editing, deleting, undoing and restoring deals."""

from .routes import bp

__all__ = ["bp"]
