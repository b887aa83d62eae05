"""A rematch asked by hand of a tournament table's game (the page offers none) is refused by
the server mid-tour and after it: no game is made outside the tournament (issue 50, item 9)."""

from __future__ import annotations

import re

from scorekeeper.store import Store

from ..flows import new_tournament, play_tour, seat, tables
from ..harness import Web


def _rematch(web: Web, token: str) -> tuple[int, str]:
    # The table's page offers no rematch: the session's token from a page that has a form.
    found = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', web.get("/new").html)
    assert found is not None
    csrf = found.group(1)
    response = web.client.post(f"/g/{token}/rematch", data={"csrf_token": csrf})
    return response.status_code, response.get_data(as_text=True)


def test_a_rematch_of_a_tournament_table_is_refused(web: Web, store: Store) -> None:
    token = new_tournament(web, rounds="1")
    seat(web, token)
    table = tables(store, token, 1)[0]
    games = store.engine.value("SELECT COUNT(*) FROM games")
    assert 'id="rematch"' not in web.get(f"/g/{table.game.edit_token}").html
    status, said = _rematch(web, table.game.edit_token)
    assert status == 403 and "no rematch here" in said, said[:400]
    play_tour(web, store, token, 1)  # the table's tour played out: still no rematch
    status, said = _rematch(web, table.game.edit_token)
    assert status == 403 and "The director seats the next tour" in said
    assert store.engine.value("SELECT COUNT(*) FROM games") == games
    # An ordinary game's rematch is as before.
    game = web.new_game()
    assert _rematch(web, game)[0] == 302
