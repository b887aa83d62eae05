"""A late player on the director's page (issue 31; docs/tournament.md readings 12 and 13), by
the test client on a temp-file database: "A player joins" between tours by the roster's name
rule, the next tour seats him by the standings with zeros for the tour he missed, every page,
the file and the PDF say when he joined, and undo and reopen keep the file valid."""

from __future__ import annotations

import io
import json
import subprocess

from scorekeeper.store import Store
from scorekeeper.store.tournaments import Tournaments
from scorekeeper.tournament import file as tfile

from ..flows import close, downloaded, new_tournament, play_tour, seat, tables
from ..harness import NINE, Web

SIX = NINE[:6]


def join(web: Web, token: str, name: str):
    page = web.get(f"/t/{token}")
    return web.submit(page, page.form("/join").set(name=name))


def after_tour_one(web: Web, store: Store, **fields: str) -> str:
    """Six players, tour 1 played and closed; the tournament's edit token."""
    token = new_tournament(web, roster=SIX, **fields)
    seat(web, token)
    play_tour(web, store, token, 1)
    close(web, token)
    return token


def test_a_player_joins_after_tour_one_and_tour_two_seats_him(web: Web, store: Store) -> None:
    token = new_tournament(web, roster=SIX)
    seat(web, token)
    page = web.get(f"/t/{token}")
    assert not page.has_form("/join") and "join between tours" in page.text()
    sent = web.client.post(
        f"/t/{token}/join", data={**page.form("/close").data(), "name": ["Lev"]}
    )  # a form left open while the tour is played: refused, nothing written
    assert sent.status_code == 302 and "Lev" not in Tournaments(store).get(token).roster
    play_tour(web, store, token, 1)
    close(web, token)

    page = web.get(f"/t/{token}")
    assert "sits from tour 2 on" in page.text()
    assert join(web, token, "Lev").status == 302
    record = Tournaments(store).get(token)
    assert record.roster == [*SIX, "Lev"]
    assert record.joined == [{"player": "Lev", "before_tour": 2}]
    # the roster's name rule: equal after case folding and NFKC is one player, refused
    for same in ("LEV", "ＬＥＶ", "anna"):
        refused = join(web, token, same)
        assert refused.status == 400
        assert f"{same} is on the roster already" in refused.errors()
    assert Tournaments(store).get(token).roster == [*SIX, "Lev"]

    exported = downloaded(web, token)
    assert exported["joined"] == [{"player": "Lev", "before_tour": 2}]
    report = tfile.report(tfile.parse_tournament(exported))
    lev = next(s for s in report["standings"] if s["player"] == "Lev")
    assert (lev["points"], lev["whists"], lev["tours"], lev["table_wins"]) == ("0", "0", 0, 0)
    seat(web, token)
    second = tables(store, token, 2)
    # §4 for the seven present, in the order of the standings with Lev's zeros (reading 12)
    assert [sorted(t.game.players) for t in second] == [sorted(t) for t in report["next_tour"]]
    assert [len(t.game.players) for t in second] == [4, 3]
    assert "Lev" in {p for t in second for p in t.game.players}
    play_tour(web, store, token, 2)
    close(web, token)
    done = tfile.parse_tournament(downloaded(web, token))
    assert next(s.tours for s in done.standings() if s.player == "Lev") == 1
    assert all(s.tours == 2 for s in done.standings() if s.player != "Lev")


def test_every_page_the_file_and_the_pdf_say_when_he_joined(web: Web, store: Store) -> None:
    token = after_tour_one(web, store)
    assert join(web, token, "Lev").status == 302
    view = Tournaments(store).get(token).view_token
    for url in (f"/t/{token}", f"/tv/{view}", f"/tv/{view}/board"):
        assert "joined before tour 2" in web.get(url).text(), url
    board = web.get(f"/tv/{view}/board").html
    assert 'class="gone late"' in board
    pdf = web.client.get(f"/t/{token}/tournament.pdf")
    text = subprocess.run(
        ["pdftotext", "-layout", "-", "-"], input=pdf.data, capture_output=True, check=True
    ).stdout.decode()
    assert "Lev — joined before tour 2" in " ".join(text.split())


def test_the_join_is_undone_by_taking_the_name_off_and_reopen_waits_for_it(web, store) -> None:
    token = after_tour_one(web, store)
    assert join(web, token, "Lev").status == 302
    # reading 13: tour 1 is not reopened while Lev waits to join tour 2
    page = web.get(f"/t/{token}")
    refused = web.submit(page, page.form("/reopen").set(confirm="y"))
    assert refused.status == 302
    shown = web.get(f"/t/{token}").text()
    assert "Lev joined before tour 2: take the name off first, then reopen." in shown
    assert Tournaments(store).get(token).tours_closed == 1
    # undoing the seating of tour 2 leaves him waiting for it, the file valid
    seat(web, token)
    page = web.get(f"/t/{token}")
    assert web.submit(page, page.form("/unseat").set(confirm="y")).status == 302
    record = Tournaments(store).get(token)
    assert record.tours_seated == 1 and record.joined == [{"player": "Lev", "before_tour": 2}]
    tfile.parse_tournament(downloaded(web, token))
    # before his first tour, "A player leaves" takes the name off the roster: nothing to keep
    page = web.get(f"/t/{token}")
    assert web.submit(page, page.form("/withdraw").set(player="Lev")).status == 302
    record = Tournaments(store).get(token)
    assert "Lev" not in record.roster and record.joined == [] and record.withdrawals == []
    assert "joined" not in downloaded(web, token)  # the file is as before the join
    page = web.get(f"/t/{token}")
    assert web.submit(page, page.form("/reopen").set(confirm="y")).status == 302
    assert Tournaments(store).get(token).tours_closed == 0


def test_a_file_with_a_late_player_opens_again_exactly(web: Web, store: Store) -> None:
    token = after_tour_one(web, store)
    assert join(web, token, "Lev").status == 302
    seat(web, token)
    exported = downloaded(web, token)
    page = web.get("/tournament/import")
    data = page.form("import-tournament").data()
    data["file"] = [(io.BytesIO(json.dumps(exported).encode()), "cup.json")]
    response = web.client.post("/tournament/import", data=data, content_type="multipart/form-data")
    assert response.status_code == 302, response.get_data(as_text=True)[:800]
    copy = response.headers["Location"].rsplit("/", 1)[-1]
    assert downloaded(web, copy) == exported
    assert Tournaments(store).get(copy).joined == [{"player": "Lev", "before_tour": 2}]


def test_a_tournament_without_late_players_downloads_no_joined_key(web, store) -> None:
    token = after_tour_one(web, store)
    exported = downloaded(web, token)
    assert "joined" not in exported
    assert list(exported) == [
        "format", "name", "convention", "options", "table_size", "scale", "players",
        "withdrawn", "tours",
    ]  # fmt: skip
