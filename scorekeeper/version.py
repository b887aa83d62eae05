"""The app's version, for `scorekeeper --version`, the health check and the first line a
server writes. Kept in step with pyproject.toml's (tests/serving/test_serve_logs.py checks
it); every release has its own (docs/deploy.md, "Upgrading")."""

__version__ = "0.4.0"
