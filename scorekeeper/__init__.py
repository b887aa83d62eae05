"""scorekeeper: an electronic pulka for Preferans played with real cards."""

__version__ = "0.1.0"


def create_app(test_config=None):  # type: ignore[no-untyped-def]
    """Create the Flask app (imported lazily so the rules and the CLI start fast)."""
    from scorekeeper.web import create_app as _create_app

    return _create_app(test_config)
