"""Flask extensions, created here and bound to the app in create_app()."""

from __future__ import annotations

from flask_babel import Babel
from flask_wtf.csrf import CSRFProtect

babel = Babel()
csrf = CSRFProtect()
