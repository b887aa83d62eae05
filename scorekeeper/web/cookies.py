"""Whether the app's cookies (the session, the language) are marked Secure: one answer for
every cookie, asked by the session (security.py) and the language cookie (i18n.py)."""

from __future__ import annotations

from flask import Flask, has_request_context, request


def cookies_secure(app: Flask) -> bool:
    """Mark cookies Secure under SCOREKEEPER_HTTPS=1, or when this request came over HTTPS."""
    if app.config.get("HTTPS"):
        return True
    return has_request_context() and request.is_secure
