"""The director's flows by taps (the test client on a temp-file database): the end of the
tournament, undoing a seating, reopening a tour, a table that may not finish itself early,
"New scorer link" asked first, "A player leaves" explained, the PDF, and an early-closed
table marked as docs/tournament.md says."""

from __future__ import annotations

import re
import subprocess

from scorekeeper.store import Store
from scorekeeper.store.tournaments import Tournaments

from ..flows import close, downloaded, new_tournament, play, play_tour, seat, tables
from ..harness import NINE, Web


def test_after_the_last_tour_the_tournament_is_over(web: Web, store: Store) -> None:
    token = new_tournament(web, tours="2")
    for tour in (1, 2):
        page = seat(web, token)
        assert f"Tour {tour} of 2" in page.text()
        play_tour(web, store, token, tour)
        close(web, token)
    page = web.get(f"/t/{token}")
    assert (
        "The tournament is over" in page.text() and "The last planned tour is played" in page.text()
    )
    assert not page.has_form("/seat") and "Seat tour 3" not in page.text()
    winners = re.findall(r'data-winner="(\d)"><strong>\d\.</strong> <bdi>([^<]+)</bdi>', page.html)
    record = Tournaments(store).get(token)
    first = [row for row in page.html.split('data-place="1"')[1:]]
    assert winners and winners[0][0] == "1" and first
    # a tour 3 sent anyway (a form left open) is refused: nothing seated
    refused = web.client.post(
        f"/t/{token}/seat", data=page.form("/reopen").data(), follow_redirects=True
    )
    assert "The tournament is over" in refused.get_data(as_text=True)
    assert Tournaments(store).get(token).tours_seated == 2 == record.tours_seated
    board = web.get(f"/tv/{record.view_token}/board")
    assert "The tournament is over" in board.text() and 'data-winner="1"' in board.html
    # reopening the last tour undoes the end
    page = web.get(f"/t/{token}")
    form = page.form("/reopen").set(confirm="y")
    assert web.submit(page, form).status == 302
    page = web.get(f"/t/{token}")
    assert "The tournament is over" not in page.text() and page.has_form("/close")


def test_a_seating_without_deals_can_be_undone(web: Web, store: Store) -> None:
    token = new_tournament(web)
    page = seat(web, token)
    old = [t.game.edit_token for t in tables(store, token, 1)]
    undo = page.form("/unseat")
    assert web.submit(page, undo).status == 302  # not ticked: asked, nothing done
    assert Tournaments(store).get(token).tours_seated == 1
    page = web.get(f"/t/{token}")
    assert web.submit(page, page.form("/unseat").set(confirm="y")).status == 302
    record = Tournaments(store).get(token)
    assert record.tours_seated == 0 and record.tours_closed == 0
    for token_ in old:  # the old scorer links no longer open a table
        assert web.client.get(f"/g/{token_}").status_code in (404, 410) or (
            "was deleted" in web.client.get(f"/g/{token_}").get_data(as_text=True)
        )
    page = seat(web, token)  # seated again, new tables
    assert {t.game.edit_token for t in tables(store, token, 1)}.isdisjoint(old)
    # once a table has saved a deal the seating stays
    play(web, store, tables(store, token, 1)[0].game.edit_token, 1)
    page = web.get(f"/t/{token}")
    assert not page.has_form("/unseat")
    sent = web.client.post(
        f"/t/{token}/unseat", data={**undo.data(), "confirm": ["y"]}, follow_redirects=True
    )
    assert Tournaments(store).get(token).tours_seated == 1
    assert sent.status_code == 200


def test_a_closed_tour_can_be_reopened_while_the_next_has_no_deals(web: Web, store: Store):
    token = new_tournament(web)
    seat(web, token)
    first = tables(store, token, 1)
    play(web, store, first[0].game.edit_token, 1)  # table 1 under way, the others not started
    close(web, token, early=True)
    director = web.get(f"/t/{token}")
    assert director.text().count("closed early") == 3
    data = downloaded(web, token)
    assert all(t["finished"] for t in data["tours"][0]["tables"])  # reading 2 of the docs
    seat(web, token)  # tour 2 seated, no deal yet
    page = web.get(f"/t/{token}")
    assert not page.has_form("/reopen")  # undo the seating first
    assert web.submit(page, page.form("/unseat").set(confirm="y")).status == 302
    page = web.get(f"/t/{token}")
    assert web.submit(page, page.form("/reopen")).status == 302  # not ticked: nothing
    assert Tournaments(store).get(token).tours_closed == 1
    page = web.get(f"/t/{token}")
    assert web.submit(page, page.form("/reopen").set(confirm="y")).status == 302
    record = Tournaments(store).get(token)
    assert record.tours_closed == 0 and record.tours_seated == 1
    assert not any(t.game.finished for t in record.tour(1))
    play(web, store, first[0].game.edit_token, 2)  # the table plays on
    assert len(store.get_game(first[0].game.edit_token).deals) == 3


def test_a_table_cannot_finish_itself_early_and_says_the_tour_is_played(web: Web, store):
    token = new_tournament(web)
    seat(web, token)
    table = tables(store, token, 1)[0].game.edit_token
    play(web, store, table, 1)
    page = web.get(f"/g/{table}")
    assert not page.has_form("/finish") and 'id="table-ends"' in page.html
    settlement = web.get(f"/g/{table}/settlement")
    assert not settlement.has_form("/finish")
    form = web.get(f"/g/{table}/deal/new").form("deal-form").data()
    sent = {k: form[k] for k in ("csrf_token", "request_key", "base_version")}
    refused = web.client.post(f"/g/{table}/finish", data={**sent, "confirm": ["yes"]})
    assert refused.status_code == 403
    assert "the director closes the tour early" in refused.get_data(as_text=True)
    assert not store.get_game(table).finished
    play(web, store, table, 2)  # the tour's three deals
    page = web.get(f"/g/{table}")
    text = page.text()
    assert "The tour's deals at this table are played" in text
    assert "The end rule was met" not in text and 'id="rematch"' not in page.html
    assert not page.has_form("/extend") and "/tournament/of/" in page.html


def test_the_director_page_asks_before_a_new_scorer_link_and_explains_leaving(web: Web, store):
    token = new_tournament(web)
    page = seat(web, token)
    assert not any("/revoke" in f.action for f in __import__("tests.harness").harness.forms_of(
        page.html))  # fmt: skip
    assert "this opens when the tour is closed" in page.text()
    assert not page.has_form("/withdraw")
    close(web, token, early=True)
    page = web.get(f"/t/{token}")
    assert page.has_form("/withdraw") and "this opens when" not in page.text()


def test_the_pdf_marks_the_withdrawn_prints_the_points_rule_and_lines_up_the_whists(
    web: Web, store: Store
) -> None:
    roster = [*NINE, "Yaroslav Kovalenko-Zadniprovsky", "Li", "Bo"]
    token = new_tournament(web, roster=roster, bands_preset="cup")
    seat(web, token)
    play_tour(web, store, token, 1)
    close(web, token)
    page = web.get(f"/t/{token}")
    assert web.submit(page, page.form("/withdraw").set(player="Li")).status == 302
    response = web.client.get(f"/t/{token}/tournament.pdf")
    text = subprocess.run(
        ["pdftotext", "-layout", "-", "-"], input=response.data, capture_output=True, check=True
    ).stdout.decode()
    flat = " ".join(text.split())
    assert "Tournament points: up to 200: × 1; up to 650: × 1/10; above: × 0" in flat
    assert "Li — withdrew after tour 1" in flat
    # the whists column of every table ends at the same place on the page (word boxes)
    boxes = subprocess.run(
        ["pdftotext", "-bbox", "-", "-"], input=response.data, capture_output=True, check=True
    ).stdout.decode()
    words = re.findall(
        r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)"[^>]*>([^<]*)<', boxes
    )
    lines: dict[float, list[tuple[float, float, str]]] = {}
    tours_at = next(float(y) for x, y, _, w in words if w == "Tour")  # the tables come after
    for x_min, y_min, x_max, word in words:
        if float(y_min) > tours_at:
            lines.setdefault(round(float(y_min)), []).append((float(x_min), float(x_max), word))
    ends = set()
    for line in lines.values():
        line.sort()
        numbers = [w for w in line if re.fullmatch(r"[+−]\d[\d⅓⅔½]*|0", w[2])]
        if line[0][2] in {n.split()[0] for n in roster} and len(numbers) == 2:
            ends.add(round(numbers[0][1]))
    assert len(ends) == 1, ends


def test_a_player_joins_before_tour_one_by_the_name_rule(web: Web, store: Store) -> None:
    token = new_tournament(web, roster=NINE[:5])
    page = web.get(f"/t/{token}")
    refused = web.submit(page, page.form("/join").set(name="ANNA"))
    assert refused.status == 400 and "ANNA is on the roster already" in refused.errors()
    refused = web.submit(page, page.form("/join").set(name="Zed\u200b"))
    assert refused.status == 400 and refused.errors()
    assert web.submit(page, page.form("/join").set(name="Lev")).status == 302
    assert Tournaments(store).get(token).roster == [*NINE[:5], "Lev"]
    page = seat(web, token)
    assert len(tables(store, token, 1)) == 2  # six players: two tables of three
    assert not page.has_form("/join") and "join between tours" in page.text()
    close(web, token, early=True)
    page = web.get(f"/t/{token}")
    assert page.has_form("/join")  # a late player now (test_tournament_late_web.py)


def test_the_store_runs_the_tour_guard_inside_the_write_after_a_resent_key(web: Web, store):
    """The guard (store.tournaments.refuse_closed_table, through games.writes) is called in
    the write's transaction: after the close it refuses a new write whatever was checked
    before, and a key that already wrote still gets its first answer."""
    from scorekeeper.games import load, writes
    from scorekeeper.store.tournaments import TableClosed, refuse_closed_table

    token = new_tournament(web)
    seat(web, token)
    game = tables(store, token, 1)[0].game
    loaded = load(store.get_game(game.edit_token))
    active = loaded.sheet.next_active
    deal = {"type": "contract", "declarer": active[0], "contract": "6S",
            "answers": {active[1]: "pass", active[2]: "pass"}}  # fmt: skip
    first = writes.add_deal(store, loaded, deal, base_version=loaded.record.version,
                            request_key="a" * 32)  # fmt: skip
    close(web, token, early=True)
    version = store.get_game(game.edit_token).version
    try:
        store.add_deal(game.edit_token, deal, base_version=version, guard=refuse_closed_table)
    except TableClosed as closed:
        assert (closed.tour, closed.table_no) == (1, 1)
    else:
        raise AssertionError("the guard let a write to a closed tour's table through")
    again = store.add_deal(
        game.edit_token, deal, base_version=1, request_key="a" * 32, guard=refuse_closed_table
    )
    assert again[2] is False and again[1].id == first.deal_id
    assert store.get_game(game.edit_token).version == version
