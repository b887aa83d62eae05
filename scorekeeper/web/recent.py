"""The games this browser created or opened, kept in its signed session cookie.

Only tokens this browser already knows are kept, so the home page never lists games of
other people on the same server.
"""

from __future__ import annotations

import re

from flask import request, session
from werkzeug.wrappers import Response

KEY = "games"
LIMIT = 40  # a cookie holds about 4 KB; 40 tokens of 32 characters fit with room to spare


def remember(token: str, key: str = KEY, limit: int = LIMIT) -> None:
    """Put a game's token (or another list's: key="companies") first in this browser's list."""
    tokens = known(key)
    if tokens[:1] == [token]:
        return  # already first: the cookie is not signed and sent again on every page
    session[key] = [token, *(t for t in tokens if t != token)][:limit]


def forget(token: str, key: str = KEY) -> None:
    """Take a game off this browser's list."""
    session[key] = [t for t in known(key) if t != token]


def known(key: str = KEY) -> list[str]:
    """The tokens this browser knows, most recent first."""
    tokens = session.get(key, [])
    if not isinstance(tokens, list):
        return []
    return [t for t in tokens if isinstance(t, str)][:LIMIT]


DROPS = "offline_drops"
_TOKEN = re.compile(r"[A-Za-z0-9_-]{8,100}")  # as a game's links are made (and nothing else)
DROP_HEADER = "X-Drop-Pages"


def drop_offline(*tokens: str) -> None:
    """Have this browser's offline shell (static/sw.js) drop every page it keeps of these
    game tokens, edit or read-only: a replaced, forgotten or deleted link must not open
    offline. Sent with the next page (the X-Drop-Pages header, which the worker reads)."""
    prefixes = [
        f"/{mode}/{token}" for token in tokens if _TOKEN.fullmatch(token) for mode in ("g", "v")
    ]
    session[DROPS] = [*session.get(DROPS, []), *prefixes][-16:]


def send_drops(response: Response) -> Response:
    """After a request: the pages to drop go out with the next page (an HTML GET)."""
    # The session is read last: a static file or a download must not vary by cookie.
    if request.method == "GET" and response.mimetype == "text/html" and DROPS in session:
        response.headers[DROP_HEADER] = " ".join(session.pop(DROPS))
    return response
