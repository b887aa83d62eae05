"""A tournament in a club's season (docs/season.md, "The club on the web"): its date is
the day tour 1 was seated (not the day of its earliest first deal), and a stored tournament
that fails its own file's checks counts nowhere, on the page as in the season file, so the
downloaded file is one `scorekeeper season` reads back to what the page shows. Through the
Flask test client on an SQLite file."""

from __future__ import annotations

import datetime
import json
import random
import sqlite3
from pathlib import Path
from typing import Any

from scorekeeper.club.season import build
from scorekeeper.season import file as season_file
from scorekeeper.season.compute import report
from scorekeeper.store import Store
from scorekeeper.store.clubs import Clubs
from scorekeeper.tournament import service as tournaments
from scorekeeper.tournament.sample import random_tournament

from ..flows import new_club, post
from ..harness import Web

SEATED = "2026-11-01T21:30:00+00:00"  # tour 1 seated late in the evening
PLAYED = "2026-11-02T00:10:00+00:00"  # its first deals after midnight, tour 2 the next day


def _cup(web: Web, store: Store, db_path: Path) -> tuple[str, Any]:
    """A club holding a tournament of two tours whose tour 1 was seated the day before any
    of its tables' first deal."""
    data = random_tournament(
        random.Random(21), players=6, tours=2, table_size=3, round_limit=1, convention="sochi"
    )
    cup = tournaments.import_file(store, data)
    conn = sqlite3.connect(db_path)
    with conn:
        for table in cup.tables:
            made = SEATED if table.tour == 1 else PLAYED
            conn.execute("UPDATE games SET created_at = ? WHERE id = ?", (made, table.game.id))
            conn.execute(
                "UPDATE deals SET created_at = ? WHERE game_id = ?", (PLAYED, table.game.id)
            )
    conn.close()
    token = new_club(web)
    assert post(web, token, "attach", link=cup.edit_token)[0] == 302
    return token, cup


def _file(web: Web, store: Store, token: str) -> dict[str, Any]:
    club = Clubs(store).get(token)
    response = web.get(f"/kv/{club.view_token}/season.json").response
    return dict(json.loads(response.get_data()))


def test_a_tournament_is_dated_the_day_its_first_tour_was_seated(
    web: Web, store: Store, db_path: Path
) -> None:
    token, _ = _cup(web, store, db_path)
    (held,) = build(store, Clubs(store).get(token)).held
    assert held.tournament is not None
    assert held.played_on == datetime.date(2026, 11, 1)
    (event,) = _file(web, store, token)["events"]
    assert event["played_on"] == "2026-11-01" and "tournament" in event


def test_a_stored_tournament_that_fails_its_checks_is_in_neither_the_page_nor_the_file(
    web: Web, store: Store, db_path: Path
) -> None:
    token, cup = _cup(web, store, db_path)
    club = Clubs(store).get(token)
    assert build(store, club).held  # counted while it checks
    sits = cup.tour(2)[0].game.players[0]
    conn = sqlite3.connect(db_path)  # as a stored tournament may fail a later release's checks
    with conn:
        conn.execute(
            "UPDATE tournaments SET withdrawals = ?, version = version + 1 WHERE id = ?",
            (json.dumps([{"player": sits, "after_tour": 1}]), cup.id),
        )
    conn.close()
    assert tournaments.overview(tournaments.tournaments(store).get(cup.edit_token)).report is None
    built = build(store, Clubs(store).get(token))
    assert built.held == ()
    file = _file(web, store, token)
    assert file["events"] == []
    read = report(season_file.parse(file))  # `scorekeeper season` takes the file
    assert read == built.report()
    page = web.get(f"/k/{token}").html  # the director is told why, beside the tournament
    assert (
        'class="errors left-out"><li>Counts nowhere: its tournament file fails its checks' in page
    )
    assert 'class="club-tournaments"' not in page
    ru = web.get(f"/k/{token}?lang=ru").html
    assert "Нигде не учитывается: файл турнира не проходит проверку" in ru
