"""Opening the game a request is about (by its token, for reading or for writing): a wrong
link ends the request with its redirect or its refusal (web/errors.py)."""

from __future__ import annotations

import dataclasses

from flask import Flask, abort, g, redirect, request, url_for
from werkzeug.routing import BaseConverter, IntegerConverter
from werkzeug.wrappers import Response

from scorekeeper import gamefile
from scorekeeper.games import Loaded, load
from scorekeeper.rules.problems import N_
from scorekeeper.store import GameNotFound, GameRecord
from scorekeeper.store.tournaments import TableOf
from scorekeeper.tournament.service import table_of

from . import recent, table_names
from .errors import read_only_game, tour_closed_message, tour_closed_said
from .flashes import Said, flash_said, said, shown
from .i18n import words
from .storage import get_store


class TokenConverter(BaseConverter):
    """A game token as the store makes them (URL-safe base64): never holds a dot."""

    regex = r"[A-Za-z0-9_-]{8,100}"


class RowIdConverter(IntegerConverter):
    """A row's id in a path (a deal, a payment, a player): ASCII digits, at most 18 of them,
    so it fits SQLite's integer. werkzeug's own takes "٣" (read as 3) and any length (a 19-digit
    id overflowed in the store): those paths are 404s now."""

    regex = r"[0-9]{1,18}"


def open_game(mode: str, token: str) -> Loaded:
    """The game for a page: /g/ with the edit token, /v/ always read-only.

    A view token under /g/ is redirected to /v/ (the request ends here, with the redirect);
    an edit token under /v/ shows the game read-only, exactly as a follower sees it.
    """
    record = _get_game(token, mode)
    if mode == "g" and record.access != "edit":
        args = request.view_args or {}
        abort(redirect(url_for(request.endpoint or "games.show", **{**args, "mode": "v"})))
    if mode == "v" and record.access == "edit":
        record = dataclasses.replace(record, access="view", edit_token="")
    elif mode == "g" and len(record.deals) > gamefile.MAX_DEALS:
        # Stored before the deal limit: shown as its followers see it, with the reason.
        record = dataclasses.replace(record, access="view", edit_token="")
        flash_said(over_limit_said(len(record.deals)))
    elif mode == "g" and (closed := _closed_tour(record)) is not None:
        # A table of a closed tour: its result counts in the standings, it no longer changes.
        record = dataclasses.replace(record, access="view", edit_token="")
        flash_said(tour_closed_said(*closed))
    loaded = g.loaded = _load_named(record)
    recent.remember(token)
    return loaded


def edit_game(token: str) -> Loaded:
    """The game for a write: 403 unless opened with its edit token."""
    record = _get_game(token, "g")
    if record.access != "edit":
        abort(403)
    # Its links can still be replaced and the game deleted; its deals and rules cannot change.
    if len(record.deals) > gamefile.MAX_DEALS and request.endpoint not in _LINK_PAGES:
        abort(read_only_game(over_limit_message(len(record.deals)), "read_only"))
    closed = _closed_tour(record)
    if closed is not None and request.endpoint not in _CLOSED_LINK_PAGES and not _resent(record):
        abort(read_only_game(tour_closed_message(*closed), "tour_closed"))
    loaded = g.loaded = _load_named(record)
    return loaded


def _load_named(record: GameRecord) -> Loaded:
    """The game, a tournament table's named in this page's language (web/table_names.py):
    the state is kept with the stored name (its game file's), the page gets its own."""
    return _named(load(record))


def _named(loaded: Loaded) -> Loaded:
    """The state with a tournament table's name in this page's language."""
    record = loaded.record
    if not table_names.may_be_composed(record.name):
        return loaded  # no table's name: its tournament is not asked
    named = table_names.in_language(record, tour_table_of(record.id), words())
    if named == record.name:
        return loaded
    return load(dataclasses.replace(record, name=named))  # the same state, kept: no replay


def listed(records: list[GameRecord]) -> list[GameRecord]:
    """Games a page lists (home's recent games), a tournament table's named in this page's
    language as its own pages name it (its tournament asked only for a name that may be a
    table's)."""
    return [_listed(record) for record in records]


def _listed(record: GameRecord) -> GameRecord:
    if not table_names.may_be_composed(record.name):
        return record
    table = table_of(get_store(), record.id)
    return dataclasses.replace(record, name=table_names.in_language(record, table, words()))


def remember_loaded(loaded: Loaded) -> Loaded:
    """The game this request shows from now on (after a write: its new state; after a
    refused one: the state the service found), a table's named in this page's language as
    the game's pages name it; returned to draw the page with."""
    named = g.loaded = _named(loaded)
    return named


_LINK_PAGES = frozenset(
    {"games.links", "games.replace_link", "games.delete_game", "games.restore_game"}
)


_CLOSED_LINK_PAGES = frozenset({"games.links", "games.replace_link"})
"""What a table of a closed tour still allows: its links (deleting it would take a table
out of the tournament)."""


def _closed_tour(record: GameRecord) -> tuple[int, int] | None:
    """(tour, table) when the game is a table of a closed tournament tour, else None."""
    table = tour_table_of(record.id)
    return (table.tour, table.table_no) if table is not None and table.closed else None


def tour_table_of(game_id: int) -> TableOf | None:
    """The tournament the game is a table of, looked up once per request: the check of a
    closed tour and the page drawn after it ask the same."""
    found: tuple[int, TableOf | None] | None = g.get("tour_table")
    if found is None or found[0] != game_id:
        found = g.tour_table = (game_id, table_of(get_store(), game_id))
    return found[1]


def _remember_around(record: GameRecord) -> None:
    """What the game's look-up read beside it (store/around.py): the tournament it is a table
    of is then not asked again in this request."""
    if record.around is not None:
        g.tour_table = (record.id, record.around.table)


def _resent(record: GameRecord) -> bool:
    """The write's one-time key already wrote on this game (a deal saved before the close,
    sent again by its phone): it goes on to get its first answer, and writes nothing."""
    key = request.form.get("request_key", "") if request.method == "POST" else ""
    return bool(key) and get_store().used_key(record.edit_token, key) is not None


def over_limit_message(count: int) -> str:
    """Why a game stored before the deal limit is read-only, and what can be done."""
    return shown(over_limit_said(count))


def over_limit_said(count: int) -> Said:
    """Why a game stored before the deal limit is read-only, to say in the page's language."""
    return said(
        N_(
            "This game has %(count)s deals, more than the %(limit)s one game holds now: it "
            "is shown read-only. Its game file downloads whole; start a new game to play on."
        ),
        count=count,
        limit=gamefile.MAX_DEALS,
    )


class GameDeleted(GameNotFound):
    """The edit token of a deleted (not yet purged) game: its page offers to restore it."""

    def __init__(self, token: str, name: str, deleted_at: str) -> None:
        super().__init__("this game was deleted")
        self.token, self.name, self.deleted_at = token, name, deleted_at


class LinkReplaced(GameNotFound):
    """A game's link that the scorer replaced by a new one: its page says so (nothing of the
    game); a link that never was says only that it opens no game."""


class ViewDeleted(GameNotFound):
    """The read-only token of a deleted (not yet purged) game: its page says so, nothing
    more (the game's name and its restore are the edit link's)."""


def _get_game(token: str, mode: str) -> GameRecord:
    """The game of a token; under /g/ a deleted game's edit token raises GameDeleted, under
    /v/ its view token ViewDeleted."""
    store = get_store()
    try:
        record = store.get_game(token)
    except GameNotFound:
        deleted = store.deleted_game(token, view=mode != "g")
        if deleted is not None and mode == "g":
            raise GameDeleted(token, *deleted) from None
        if deleted is not None:
            raise ViewDeleted("this game was deleted") from None
        if store.replaced_link(token):
            raise LinkReplaced("this link was replaced") from None
        raise
    _remember_around(record)
    return record


def forms_not_stored(response: Response) -> Response:
    """A page with a form is never stored by the browser (Cache-Control: no-store): its
    one-time key and CSRF token are this request's, and Back or a restart must ask the
    server again (a form restored from the browser's cache would be sent twice).

    Registered on a blueprint (web/games) so that it runs before the answer is compressed.
    """
    if (
        response.mimetype == "text/html"
        and not response.is_streamed
        and not response.direct_passthrough
        and b"<form" in response.get_data()
    ):
        response.headers["Cache-Control"] = "no-store"
    return response


def init_app(app: Flask) -> None:
    """Register the token converters."""
    app.url_map.converters["tok"] = TokenConverter
    app.url_map.converters["int"] = RowIdConverter
    app.after_request(recent.send_drops)
