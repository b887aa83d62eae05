"""Opening the game a request is about: by its token, for reading or for writing."""

from __future__ import annotations

import dataclasses

from flask import Flask, abort, g, redirect, request, url_for
from werkzeug.routing import BaseConverter
from werkzeug.wrappers import Response

from . import recent
from .gamedata import Loaded, load
from .storage import get_store


class TokenConverter(BaseConverter):
    """A game token as the store makes them (URL-safe base64): never holds a dot."""

    regex = r"[A-Za-z0-9_-]{8,100}"


def open_game(mode: str, token: str) -> Loaded | Response:
    """The game for a page: /g/ with the edit token, /v/ always read-only.

    A view token under /g/ is redirected to /v/; an edit token under /v/ shows the game
    read-only, exactly as a follower sees it.
    """
    record = get_store().get_game(token)
    if mode == "g" and record.access != "edit":
        args = request.view_args or {}
        return redirect(url_for(request.endpoint or "games.show", **{**args, "mode": "v"}))
    if mode == "v" and record.access == "edit":
        record = dataclasses.replace(record, access="view", edit_token="")
    loaded = load(record)
    g.loaded = loaded
    recent.remember(token)
    return loaded


def edit_game(token: str) -> Loaded:
    """The game for a write: 403 unless opened with its edit token."""
    record = get_store().get_game(token)
    if record.access != "edit":
        abort(403)
    loaded = load(record)
    g.loaded = loaded
    return loaded


def init_app(app: Flask) -> None:
    """Register the token converter."""
    app.url_map.converters["tok"] = TokenConverter
