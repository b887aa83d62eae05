"""Web hygiene: security headers on every response, cookies, proxies (proxy.py), oversized
input."""

from __future__ import annotations

from flask import Flask, Response
from flask.sessions import SecureCookieSessionInterface
from flask_babel import _
from flask_wtf.csrf import CSRFError
from itsdangerous import URLSafeTimedSerializer
from werkzeug.exceptions import RequestEntityTooLarge

from . import proxy
from .cookies import cookies_secure
from .errors import error_page
from .wire import current_style

CSP = (
    "default-src 'self'; img-src 'self' data:; style-src 'self'{style}; script-src 'self'; "
    "frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
)
"""Nothing inline but the app's own stylesheet, allowed by its hash (wire.py: a phone that has
not cached it yet gets it inside the page)."""


class _SessionInterface(SecureCookieSessionInterface):
    """The signed cookie session, Secure whenever the connection is (proxy included)."""

    _kept: tuple[object, URLSafeTimedSerializer | None] | None = None

    def get_cookie_secure(self, app: Flask) -> bool:
        return cookies_secure(app)

    def get_signing_serializer(self, app: Flask) -> URLSafeTimedSerializer | None:
        """Flask's, made once per set of keys rather than for every request (every request
        reads the cookie; a key rotated in the settings makes a new one)."""
        keys = (app.secret_key, tuple(app.config.get("SECRET_KEY_FALLBACKS") or ()))
        kept = self._kept
        if kept is None or kept[0] != keys:
            kept = self._kept = (keys, super().get_signing_serializer(app))
        return kept[1]


def _headers(response: Response) -> Response:
    style = current_style()
    response.headers["Content-Security-Policy"] = CSP.format(
        style=f" {style.source}" if style else ""
    )
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["X-Frame-Options"] = "DENY"
    return response


def _too_large(_error: RequestEntityTooLarge) -> tuple[str, int]:
    return error_page(
        413,
        _("Too much at once"),
        _("What was sent is too large for a score sheet. Shorten it and try again."),
    )


def _csrf(_error: CSRFError) -> tuple[str, int]:
    return error_page(
        400,
        _("The form has expired"),
        _("This form was opened in another session. Go back, reload the page and try again."),
    )


def init_app(app: Flask) -> None:
    """Add the headers, apply the proxy and cookie settings, register the error pages."""
    proxy.init_app(app)  # forwarded headers from the trusted proxy only; the prefix
    app.config.update(SESSION_COOKIE_HTTPONLY=True, SESSION_COOKIE_SAMESITE="Lax")
    app.session_interface = _SessionInterface()
    app.after_request(_headers)
    app.register_error_handler(RequestEntityTooLarge, _too_large)
    app.register_error_handler(CSRFError, _csrf)
