"""A tournament table's game is named in the words of the page that shows it: the director
seats the tour in Russian, a table reading English sees "December cup — tour 1, table 2",
on its page and its PDF; the stored name (the game file's, the CLI's) is the director's. A
stored name that is no such composition (an older release's, a renamed tournament's) is
shown as stored. Through the Flask test client on an SQLite file."""

from __future__ import annotations

import html
import re
import sqlite3
import subprocess
from pathlib import Path

from scorekeeper.store import Store
from scorekeeper.store.tournaments import Tournaments

from ..flows import new_tournament
from ..harness import Web

ROSTER = ["Anna", "Boris", "Vera", "Gleb", "Dasha", "Egor"]


def _seated_in_russian(web: Web, store: Store) -> tuple[str, list[str]]:
    token = new_tournament(web, roster=ROSTER, name="December cup")
    page = web.get(f"/t/{token}?lang=ru")
    assert web.submit(page, page.form("/seat")).status == 302
    games = [t.game.edit_token for t in Tournaments(store).get(token).tour(1)]
    return token, games


def _h1(page: str) -> str:
    found = re.search(r"<h1>(.*?)</h1>", page, re.S)
    assert found, page[:400]
    return html.unescape(found.group(1).strip())


def test_a_table_sees_its_name_in_its_own_language(web: Web, store: Store) -> None:
    _, games = _seated_in_russian(web, store)
    second = games[1]
    assert store.get_game(second).name == "December cup — тур 1, стол 2"  # the director's
    assert _h1(web.get(f"/g/{second}?lang=en").html) == "December cup — tour 1, table 2"
    assert _h1(web.get(f"/g/{second}?lang=uk").html) == "December cup — тур 1, стіл 2"
    assert _h1(web.get(f"/g/{second}?lang=hr").html) == "December cup — kolo 1, stol 2"
    view = store.get_game(second).view_token
    assert _h1(web.get(f"/v/{view}?lang=en").html) == "December cup — tour 1, table 2"
    history = web.get(f"/g/{second}/history?lang=en").text()
    assert "December cup — tour 1, table 2" in history and "тур 1" not in history
    # the game file keeps the stored name, whatever the page's language
    download = web.client.get(f"/g/{second}/game.json?lang=en").get_data(as_text=True)
    assert '"name": "December cup — тур 1, стол 2"' in download


def test_the_pdf_of_a_table_names_it_in_the_readers_language(
    web: Web, store: Store, tmp_path: Path
) -> None:
    _, games = _seated_in_russian(web, store)
    web.get(f"/g/{games[0]}?lang=ru")  # the state is first drawn in the director's language
    response = web.client.get(f"/g/{games[0]}/pulka.pdf?lang=en")
    assert response.status_code == 200
    path = tmp_path / "table.pdf"
    path.write_bytes(response.get_data())
    text = subprocess.run(
        ["pdftotext", "-enc", "UTF-8", str(path), "-"], capture_output=True, check=True
    ).stdout.decode()
    assert "December cup — tour 1, table 1" in " ".join(text.split())


def test_a_stored_name_of_another_kind_is_shown_as_stored(
    web: Web, store: Store, db_path: Path
) -> None:
    _, games = _seated_in_russian(web, store)
    first = games[0]
    old = "Декабрьский кубок, первый стол"  # an older release's wording: kept
    conn = sqlite3.connect(db_path)
    with conn:
        conn.execute("UPDATE games SET name = ? WHERE edit_token = ?", (old, first))
    conn.close()
    assert _h1(web.get(f"/g/{first}?lang=en").html) == old
