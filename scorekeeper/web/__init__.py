"""The web pulka: a Flask app that works without JavaScript on a phone at the card table."""

from __future__ import annotations

import os
import secrets
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from flask import Flask, send_file

from scorekeeper import config
from scorekeeper.paths import STATIC, TEMPLATES, TRANSLATIONS

from . import context, errors, i18n, metrics, security, storage, templating, wire
from .extensions import babel, csrf


def create_app(
    test_config: Mapping[str, Any] | None = None, *, create_database: bool = True
) -> Flask:
    """Build the app: defaults, then test_config or instance/config.py and SCOREKEEPER_* env.

    The database file is created here if it does not exist yet (create_database); later
    requests never create one (a vanished file is a 503).
    """
    # The instance folder (database, secret key, TLS certificate, config.py): see config.
    moved = config.move_old_instance() if test_config is None else None
    app = Flask(
        __name__,
        instance_path=str(config.instance_path()),
        instance_relative_config=True,
        template_folder=str(TEMPLATES),
        static_folder=str(STATIC),
    )
    if moved is not None:
        app.logger.warning("moved the data of an earlier install from %s to %s", *moved)
    _configure(app, test_config)
    _register(app)
    if create_database:
        storage.prepare_database(app)
    return app


def _configure(app: Flask, test_config: Mapping[str, Any] | None) -> None:
    """The defaults, then test_config or instance/config.py and SCOREKEEPER_* env."""
    from scorekeeper.company import file as company_file

    from .company.routes import IMPORT_PATH

    app.config.from_mapping(
        DATABASE=os.path.join(app.instance_path, "scorekeeper.sqlite"),
        PASSWORD="",
        HTTPS=False,
        # Behind a proxy (web/proxy.py): whose forwarded headers are believed, the path prefix.
        TRUSTED_PROXY="",
        PROXY=False,
        PREFIX="",
        WTF_CSRF_TIME_LIMIT=None,
        # Over HTTPS Flask-WTF also demands a same-site Referer, which browsers never send
        # here (Referrer-Policy: no-referrer keeps the game tokens private): every form would
        # fail behind a TLS proxy or under `serve --https`. The CSRF token, bound to the
        # SameSite=Lax session cookie, is the protection.
        WTF_CSRF_SSL_STRICT=False,
        MAX_CONTENT_LENGTH=2 * 1024 * 1024,
        # Paths that take a larger body than any form: every company file the server writes
        # opens at /company/import, up to the format's largest and the form around it. The
        # server (longpoll.Router) reads a body up to the limit of its path.
        BODY_LIMITS={IMPORT_PATH: company_file.MAX_BYTES + 1024 * 1024},
        BABEL_DEFAULT_LOCALE="en",
        BABEL_TRANSLATION_DIRECTORIES=str(TRANSLATIONS),
        # Downloads (the PDF, the game file) change with the game: not cached. Static files
        # get their lifetimes in wire.py (a year at a versioned URL).
        SEND_FILE_MAX_AGE_DEFAULT=None,
    )
    if test_config is None:
        # instance/config.py, SCOREKEEPER_* (as the CLI reads them: scorekeeper.config)
        app.config.from_mapping(config.settings(app.instance_path))
    else:
        app.config.from_mapping(test_config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _instance_secret(app)


def _register(app: Flask) -> None:
    """The extensions, the request hooks and the blueprints."""
    babel.init_app(app, locale_selector=i18n.get_locale)
    csrf.init_app(app)
    i18n.init_app(app)
    security.init_app(app)
    storage.init_app(app)
    errors.init_app(app)
    templating.init_app(app)
    context.init_app(app)
    wire.init_app(app)
    metrics.init_app(app)

    from .club import bp as club_bp
    from .company import bp as company_bp
    from .confirm import bp as confirm_bp
    from .deals import bp as deals_bp
    from .games import bp as games_bp
    from .main import bp as main_bp
    from .tournament import bp as tournament_bp

    app.register_blueprint(main_bp)
    app.register_blueprint(games_bp)
    app.register_blueprint(deals_bp)
    app.register_blueprint(company_bp)
    app.register_blueprint(confirm_bp)
    app.register_blueprint(tournament_bp)
    app.register_blueprint(club_bp)


def _instance_secret(app: Flask) -> str:
    """A secret key kept in the instance folder, so cookies survive a restart."""
    path = Path(app.instance_path) / "secret_key"
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        pass
    key = secrets.token_hex(32)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as out:
            out.write(key)
    except FileExistsError:  # another process wrote it first
        return path.read_text().strip()
    except OSError:  # read-only instance folder: this run's cookies are still signed
        app.logger.warning("cannot keep the secret key in %s; sessions end on restart", path)
    return key


def offer_certificate(app: Flask, cert_path: Path, url: str) -> None:
    """Serve the TLS certificate of `serve --https` (public by nature) at `url`, as a phone
    downloads it to trust it."""

    def download() -> Any:
        return send_file(cert_path, mimetype="application/x-x509-ca-cert", max_age=0)

    app.add_url_rule(url, "certificate", download)
