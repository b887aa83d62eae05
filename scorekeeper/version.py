"""The app's version (pyproject.toml's), for `scorekeeper --version` and the health check."""

__version__ = "0.1.0"
