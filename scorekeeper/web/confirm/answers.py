"""What the pages show of the table's confirmations: the game's stamp of answers and the
answers themselves, asked once per request."""

from __future__ import annotations

from flask import g

from scorekeeper import confirmations
from scorekeeper.games import Loaded

from ..storage import get_store


def seen(token: str) -> int:
    """The game's confirmation stamp, asked once per request (the page drawn for it shows it)."""
    if "confirm_seen" not in g:
        loaded: Loaded | None = g.get("loaded")
        around = loaded.record.around if loaded is not None and loaded.token == token else None
        # read with the game when it was looked up: no second question
        g.confirm_seen = around.stamp if around else confirmations.stamp(get_store(), token)
    return int(g.confirm_seen)


def answers_of(loaded: Loaded) -> confirmations.TableAnswers:
    """What the table said about this game's deals (once per request)."""
    kept: tuple[Loaded, confirmations.TableAnswers] | None = g.get("confirm_answers")
    if kept is None or kept[0] is not loaded:
        if loaded.editable and not seen(loaded.token):
            table = confirmations.unused(loaded.record)  # the scorer's page: nothing to show
        else:
            table = confirmations.answers(get_store(), loaded.record)
        kept = (loaded, table)
        g.confirm_answers = kept
    return kept[1]
