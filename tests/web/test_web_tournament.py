"""A club tournament through the test client on a temp-file database, as a director and
the tables' scorers use it: create, seat, score, standings, close, Swiss, files, links."""

from __future__ import annotations

import csv
import io
import json
import subprocess
from fractions import Fraction

from scorekeeper.games import load
from scorekeeper.store import Store
from scorekeeper.store.tournaments import Tournaments
from scorekeeper.tournament import file as tfile

from ..flows import downloaded, new_tournament, play, play_tour, seat, tables
from ..harness import NINE, Web
from ..helpers import count


def test_a_tournament_from_creation_to_the_second_tour(web: Web, store: Store) -> None:
    token = new_tournament(web, bands_preset="cup")
    record = Tournaments(store).get(token)
    assert record.roster == NINE and record.table_size == 3
    assert record.options["round_limit"] == 1
    assert record.bands == [[200, "1"], [650, "1/10"], [None, "0"]]

    page = seat(web, token)
    first = tables(store, token, 1)
    assert [len(t.game.players) for t in first] == [3, 3, 3]
    assert sorted(p for t in first for p in t.game.players) == sorted(NINE)
    for table in first:
        assert table.game.convention == "sochi" and table.game.options["round_limit"] == 1
        assert table.game.first_dealer in table.game.players
        # each table's scorer code and link on the director's screen
        assert f"/g/{table.game.edit_token}" in page.html
    assert page.html.count("<svg") >= 3
    assert "deal 1 of 3" in page.text()
    assert not page.has_form("/seat")  # the tour is being played

    # a table scores exactly as an ordinary game; the standings move as deals are saved
    play(web, store, first[0].game.edit_token, 1)
    page = web.get(f"/t/{token}")
    assert "deal 2 of 3" in page.text()
    report = tfile.report(tfile.parse_tournament(downloaded(web, token)))
    leader = report["standings"][0]
    assert f'data-player="{leader["player"]}" data-place="1"' in page.html

    play(web, store, first[0].game.edit_token, 2, shift=1)
    for table in first[1:]:
        play(web, store, table.game.edit_token, 3, shift=table.table_no)
    page = web.get(f"/t/{token}")
    assert page.text().count("finished") >= 3
    closed = web.submit(page, page.form("/close"))
    assert closed.status == 302
    assert Tournaments(store).get(token).tours_closed == 1

    # tour 2 follows the standings after tour 1 (§4)
    expected = tfile.report(tfile.parse_tournament(downloaded(web, token)))["next_tour"]
    seat(web, token)
    second = tables(store, token, 2)
    assert [sorted(t.game.players) for t in second] == [sorted(t) for t in expected]
    order = [
        row["player"]
        for row in tfile.report(tfile.parse_tournament(downloaded(web, token)))["standings"]
    ]
    assert set(second[0].game.players) == set(expected[0])
    assert expected[0][0] in order[:3]

    # the page's standings are those of the downloaded file, place by place
    report = tfile.report(tfile.parse_tournament(downloaded(web, token)))
    page = web.get(f"/tv/{record.view_token}")
    for row in report["standings"]:
        assert (
            f'data-player="{row["player"]}" data-place="{row["place"]}" '
            f'data-points="{row["points"]}"' in page.html
        )


def test_close_early_asks_and_settles_the_tables_now(web: Web, store: Store) -> None:
    token = new_tournament(web)
    seat(web, token)
    first = tables(store, token, 1)
    play(web, store, first[0].game.edit_token, 1)
    page = web.get(f"/t/{token}")
    refused = web.submit(page, page.form("/close"), follow=True)
    assert "3 tables have not finished" in refused.text()
    assert Tournaments(store).get(token).tours_closed == 0
    form = page.form("/close")
    form.set(early="y")
    assert web.submit(page, form).status == 302
    record = Tournaments(store).get(token)
    assert record.tours_closed == 1
    assert all(t.game.finished and t.game.finished_snapshot for t in record.tour(1))
    # a resent close finds the tournament moved on and writes nothing
    again = web.submit(page, form, follow=True)
    assert "changed meanwhile" in again.text() or "No tour is being played" in again.text()


def test_withdraw_between_tours_and_the_roster_before_tour_one(web: Web, store: Store) -> None:
    token = new_tournament(web, roster=[*NINE, "Lev"], table_size="3")
    page = web.get(f"/t/{token}")
    form = page.form("/withdraw")
    form.set(player="Lev")
    assert web.submit(page, form).status == 302
    assert "Lev" not in Tournaments(store).get(token).roster
    seat(web, token)
    page = web.get(f"/t/{token}")
    assert not page.has_form("/withdraw")  # not while a tour is being played
    play_tour(web, store, token, 1)
    page = web.get(f"/t/{token}")
    web.submit(page, page.form("/close"))
    page = web.get(f"/t/{token}")
    form = page.form("/withdraw")
    form.set(player="Anna")
    assert web.submit(page, form).status == 302
    record = Tournaments(store).get(token)
    assert record.withdrawals == [{"player": "Anna", "after_tour": 1}]
    seat(web, token)
    second = tables(store, token, 2)
    seated = sorted(p for t in second for p in t.game.players)
    assert "Anna" not in seated and len(seated) == 8
    assert [len(t.game.players) for t in second] == [4, 4]  # floor(8 / 3) = 2 tables
    page = web.get(f"/t/{token}")
    assert "withdrew" in page.text()
    board = web.get(f"/tv/{record.view_token}/board")
    assert "Anna withdrew" in board.text()


def test_downloads_csv_pdf_and_the_file(web: Web, store: Store) -> None:
    token = new_tournament(web, bands_preset="halves", roster=["=Anna", *NINE[1:]])
    seat(web, token)
    play_tour(web, store, token, 1)
    report = tfile.report(tfile.parse_tournament(downloaded(web, token)))

    english = web.client.get(f"/t/{token}/standings.csv").get_data(as_text=True)
    rows = list(csv.reader(io.StringIO(english)))
    assert rows[0] == ["Place", "Player", "Tournament points", "Whists", "Tours", "Table wins"]
    assert [r[1] for r in rows[1:]] == [
        ("'" + s["player"]) if s["player"].startswith("=") else s["player"]
        for s in report["standings"]
    ]
    assert "'=Anna" in english  # a formula is never run by the spreadsheet
    for cells, standing in zip(rows[1:], report["standings"], strict=True):
        points = Fraction(standing["points"])
        shown = str(points) if points.denominator == 1 else f"{float(points):.2f}"
        assert cells[2] == shown  # whole, or to the hundredth

    web.client.get("/?lang=ru")
    russian = web.client.get(f"/t/{token}/standings.csv").get_data()
    assert russian.startswith("\ufeff".encode())
    rows = list(csv.reader(io.StringIO(russian.decode("utf-8-sig")), delimiter=";"))
    assert rows[0][0] == "Место"
    fractional = [r for r in rows[1:] if "," in r[2]]
    for row in fractional:
        assert "." not in row[2]

    web.client.get("/?lang=en")
    response = web.client.get(f"/t/{token}/tournament.pdf")
    assert response.status_code == 200 and response.data.startswith(b"%PDF")
    text = subprocess.run(
        ["pdftotext", "-", "-"], input=response.data, capture_output=True, check=True
    ).stdout.decode()
    assert "December cup" in text and "Tour 1" in text and "Table 3" in text
    for name in NINE[1:]:
        assert name in text


def test_import_restores_the_tournament_exactly(web: Web, store: Store) -> None:
    token = new_tournament(web, bands_preset="cup")
    seat(web, token)
    play_tour(web, store, token, 1)
    page = web.get(f"/t/{token}")
    web.submit(page, page.form("/close"))
    seat(web, token)
    second = tables(store, token, 2)
    play(web, store, second[0].game.edit_token, 2)
    exported = downloaded(web, token)

    page = web.get("/tournament/import")
    form = page.form("import-tournament")
    data = form.data()
    data["file"] = [(io.BytesIO(json.dumps(exported).encode()), "cup.json")]
    response = web.client.post("/tournament/import", data=data, content_type="multipart/form-data")
    assert response.status_code == 302, response.get_data(as_text=True)[:800]
    copy = response.headers["Location"].rsplit("/", 1)[-1]
    assert copy != token
    assert downloaded(web, copy) == exported
    record = Tournaments(store).get(copy)
    assert record.tours_closed == 1 and record.tours_seated == 2  # tour 2 is still being played
    assert tfile.report(tfile.parse_tournament(exported)) == tfile.report(
        tfile.parse_tournament(downloaded(web, copy))
    )

    # a broken file is refused with its problems, nothing written
    broken = dict(exported, table_size=7)
    before = len(Tournaments(store).for_tokens([copy, token]))
    data = page.form("import-tournament").data()
    data["file"] = [(io.BytesIO(json.dumps(broken).encode()), "bad.json")]
    response = web.client.post("/tournament/import", data=data, content_type="multipart/form-data")
    assert response.status_code == 400
    assert "table_size" in response.get_data(as_text=True)
    assert len(Tournaments(store).for_tokens([copy, token])) == before


def test_bad_input_is_refused_next_to_the_field(web: Web, store: Store) -> None:
    page = web.get("/tournament/new")
    form = page.form("new-tournament")
    form.set(
        name="Cup",
        roster="Anna\nBoris\nAnna",
        rounds="",
        bands_preset="custom",
        bands_text="200 1\n100 1/2",
    )
    result = web.submit(page, form)
    assert result.status == 200
    errors = result.errors()
    assert "Two players cannot have the same name" in errors
    assert "Write at least three names" in errors
    assert any("whole number" in e for e in errors)
    html = result.html
    assert 'id="roster-errors"' in html and 'id="rounds-errors"' in html
    assert count(store, "tournaments") == 0

    form = result.form("new-tournament")
    form.set(roster="\n".join(NINE), rounds="2")
    result = web.submit(result, form)
    assert result.status == 200
    assert 'id="bands_text-errors"' in result.html
    assert any("higher than the one before" in e for e in result.errors())
    form = result.form("new-tournament")
    form.set(bands_text="200 1\n650 1/10\n* 0", convention="hussar")
    result = web.submit(result, form)
    assert result.status == 200  # hussar is not a tournament convention
    assert count(store, "tournaments") == 0
    form = result.form("new-tournament")
    form.set(convention="leningrad", rendered_preset="leningrad")
    result = web.submit(result, form)
    assert result.status == 302
    token = result.response.headers["Location"].rsplit("/", 1)[-1]
    record = Tournaments(store).get(token)
    assert record.bands == [[200, "1"], [650, "1/10"], [None, "0"]]
    assert record.convention == "leningrad" and record.options["round_limit"] == 2


def test_links_read_only_board_and_revoked_scorer_link(web: Web, store: Store) -> None:
    token = new_tournament(web)
    record = Tournaments(store).get(token)
    view = record.view_token
    page = web.get(f"/tv/{view}")
    assert not page.has_form("/seat") and token not in page.html
    assert web.get(f"/t/{view}", status=302)  # a read-only token under /t/ goes to /tv/
    seat_form = web.get(f"/t/{token}").form("/seat").data()
    assert web.client.post(f"/t/{view}/seat", data=seat_form).status_code == 403

    seat(web, token)
    first = tables(store, token, 1)
    board = web.get(f"/tv/{view}/board")
    assert "<form" not in board.html and token not in board.html
    for table in first:
        assert table.game.edit_token not in board.html
    assert 'id="follow"' in board.html and "board.css" in board.html
    assert board.text().count("deal 1 of 3") == 3
    reader = web.get(f"/tv/{view}")
    for table in first:
        assert table.game.edit_token not in reader.html
        assert f"/v/{table.game.view_token}" in reader.html

    # the board's version moves when a table saves a deal
    before = web.client.get(f"/tv/{view}/version").get_json()["version"]
    play(web, store, first[0].game.edit_token, 1)
    after = web.client.get(f"/tv/{view}/version").get_json()["version"]
    assert after != before
    assert "deal 2 of 3" in web.get(f"/tv/{view}/board").text()

    # revoking a table's scorer link: the old one opens nothing, the new one is shown
    old = first[1].game.edit_token
    page = web.get(f"/t/{token}")
    assert f'/t/{token}/tables/{first[1].game.id}/revoke"' in page.html  # a link: asks first
    asked = web.get(f"/t/{token}/tables/{first[1].game.id}/revoke")
    assert "A new scorer link for table 2?" in asked.text()
    web.get(f"/g/{old}")  # asking changed nothing
    assert web.submit(asked, asked.form(f"/tables/{first[1].game.id}/revoke")).status == 302
    web.get(f"/g/{old}", status=404)
    new = tables(store, token, 1)[1].game.edit_token
    assert new != old and f"/g/{new}" in web.get(f"/t/{token}").html

    # replacing the read-only link
    page = web.get(f"/t/{token}")
    assert web.submit(page, page.form("/links"), button=("which", "view")).status == 302
    web.get(f"/tv/{view}", status=404)
    web.get(f"/tv/{view}/board", status=404)

    # the home page lists the tournament and offers a new one
    home = web.get("/")
    assert "December cup" in home.text() and "/tournament/new" in home.html


def test_tables_of_four_and_the_sizes_of_section_four(web: Web, store: Store) -> None:
    """Ten players at tables of four: 4, 3, 3, table 1 the largest; a four-player table
    plays by the four-player rules (the dealer sits out)."""
    token = new_tournament(web, roster=[*NINE, "Lev"], table_size="4", rounds="1")
    seat(web, token)
    first = tables(store, token, 1)
    assert [len(t.game.players) for t in first] == [4, 3, 3]
    play(web, store, first[0].game.edit_token, 4)
    page = web.get(f"/t/{token}")
    assert page.html.count('<span class="progress">finished</span>') == 1
    assert page.html.count('<span class="progress">Round 1 of 1, deal 1 of 3</span>') == 2


def test_every_tournament_page_carries_the_headers_and_no_inline_code(web, store, app) -> None:
    from ..hygiene import assert_hygienic, crawl

    token = new_tournament(web)
    seat(web, token)
    first = tables(store, token, 1)
    play(web, store, first[0].game.edit_token, 1)
    view = Tournaments(store).get(token).view_token
    starts = [f"/t/{token}", f"/tv/{view}", f"/tv/{view}/board", f"/t/{token}/board"]
    starts += ["/tournament/new", "/tournament/import", f"/tv/{view}/version"]
    pages = crawl(app.test_client(), starts)
    assert {
        f"/tv/{view}/tournament.json",
        f"/tv/{view}/standings.csv",
        f"/t/{token}/tournament.pdf",
        f"/g/{first[0].game.edit_token}",
    } <= set(pages)
    for url, response in pages.items():
        assert response.status_code in (200, 302), url
        assert_hygienic(response, url)


def test_every_tournament_form_refuses_a_post_without_its_csrf_token_or_the_edit_link(
    web, store, app
) -> None:
    token = new_tournament(web)
    seat(web, token)
    record = Tournaments(store).get(token)
    game_id = record.tour(1)[0].game.id
    page = web.get(f"/t/{token}")
    sources = {
        "tournament.seat": lambda: page.form("/close").data(),
        "tournament.close": lambda: page.form("/close").data(),
        "tournament.withdraw": lambda: page.form("/close").data(),
        "tournament.revoke": lambda: (
            web.get(f"/t/{token}/tables/{game_id}/revoke").form("/revoke").data()
        ),
        "tournament.unseat": lambda: page.form("/unseat").data(),
        "tournament.join": lambda: {**page.form("/close").data(), "name": ["Zed"]},
        "tournament.reopen": lambda: page.form("/close").data(),
        "tournament.links": lambda: {**page.form("/links").data(), "which": ["view"]},
        "tournament.new": lambda: web.get("/tournament/new").form("new-tournament").data(),
        "tournament.import_tournament": lambda: (
            web.get("/tournament/import").form("import-tournament").data()
        ),
    }
    values = {"token": token, "game_id": game_id}
    before = web.client.get(f"/t/{token}/tournament.json").data
    routes = [r for r in app.url_map.iter_rules() if r.endpoint.startswith("tournament.")]
    for rule in [r for r in routes if "POST" in (r.methods or ())]:
        assert rule.endpoint in sources, f"{rule.rule}: add it to this test"
        url = rule.build(values, append_unknown=False)[1]
        for sent in (None, "", "forged"):
            data = sources[rule.endpoint]()
            data.pop("csrf_token")
            if sent is not None:
                data["csrf_token"] = [sent]
            assert web.client.post(url, data=data).status_code == 400, (url, sent)
        if "token" in rule.arguments:  # the read-only link writes nothing
            url = rule.build({**values, "token": record.view_token}, append_unknown=False)[1]
            assert web.client.post(url, data=sources[rule.endpoint]()).status_code == 403, url
    assert web.client.get(f"/t/{token}/tournament.json").data == before
    assert Tournaments(store).get(token).version == record.version
    assert count(store, "tournaments") == 1


def test_random_tournament_files_come_back_exactly(web: Web, store: Store) -> None:
    """Files of every convention and band form, with withdrawals and tours closed early,
    opened through the import form: the download is the file, byte for byte in JSON."""
    import random

    from scorekeeper.tournament import sample

    for seed in range(4):
        rng = random.Random(seed)
        data = sample.random_tournament(
            rng, players=rng.randint(5, 13), tours=3, withdrawals=1, early=0.3
        )
        if seed == 0:
            del data["name"]
        page = web.get("/tournament/import")
        form = page.form("import-tournament").data()
        form["file"] = [(io.BytesIO(json.dumps(data).encode()), "cup.json")]
        response = web.client.post(
            "/tournament/import", data=form, content_type="multipart/form-data"
        )
        assert response.status_code == 302, response.get_data(as_text=True)[:800]
        token = response.headers["Location"].rsplit("/", 1)[-1]
        assert downloaded(web, token) == data
        view = web.get(f"/t/{token}")
        assert "<h1>" + (data.get("name") or "Tournament") + "</h1>" in view.html
        report = tfile.report(tfile.parse_tournament(data))
        for row in report["standings"]:
            assert f'data-player="{row["player"]}" data-place="{row["place"]}"' in view.html


def test_the_director_may_type_the_seating_of_tour_one(web: Web, store: Store) -> None:
    token = new_tournament(web, roster=[*NINE, "Lev"], table_size="4")
    page = web.get(f"/t/{token}")
    form = page.form("/seat")
    form.set(seating="Anna, Boris, Vera\nGleb, Dasha, Egor, Zoya\nIvan; Klara; Anna")
    refused = web.submit(page, form)
    assert refused.status == 400  # shown again with what was typed and what is wrong
    errors = refused.errors()
    assert "Anna sits at two tables" in errors and "Lev sits at no table" in errors
    assert "The tables must seat 4, 3, 3 players, in this order" in errors
    assert 'id="seating-errors"' in refused.html and "Ivan; Klara; Anna" in refused.html
    assert Tournaments(store).get(token).tours_seated == 0
    form = refused.form("/seat")
    form.set(seating="Gleb, Dasha, Egor, Zoya\nAnna, Boris, Vera\nIvan, Klara, Lev")
    assert web.submit(refused, form).status == 302
    seated = [t.game.players for t in tables(store, token, 1)]
    assert seated == [
        ["Gleb", "Dasha", "Egor", "Zoya"],
        ["Anna", "Boris", "Vera"],
        ["Ivan", "Klara", "Lev"],
    ]


def test_a_tables_game_names_its_tour_and_leads_to_the_tournament(web: Web, store: Store) -> None:
    token = new_tournament(web)
    seat(web, token)
    table = tables(store, token, 1)[0]
    line = "Tour 1, table 1 of “December cup”"
    link = f'href="/tournament/of/{table.game.view_token}"'
    for url in (f"/g/{table.game.edit_token}", f"/v/{table.game.view_token}"):
        page = web.get(url)
        assert line in page.text() and link in page.html
    assert (
        "Тур 1, стол 1 турнира «December cup»"
        in web.get(f"/g/{table.game.edit_token}?lang=ru").text()
    )
    web.client.get("/?lang=en")
    # the link leads to the read-only page, even after that link was replaced (the game's
    # page is kept with the game's state, which a new tournament link does not change)
    view = Tournaments(store).get(token).view_token
    assert web.client.get(f"/tournament/of/{table.game.view_token}").location == f"/tv/{view}"
    page = web.get(f"/t/{token}")
    assert web.submit(page, page.form("/links"), button=("which", "view")).status == 302
    new_view = Tournaments(store).get(token).view_token
    assert new_view != view
    assert link in web.get(f"/v/{table.game.view_token}").html
    assert web.client.get(f"/tournament/of/{table.game.view_token}").location == f"/tv/{new_view}"
    web.get(f"/tv/{new_view}")
    # an ordinary game names no tournament; an unknown token leads nowhere
    game = web.new_game()
    assert "/tournament/of/" not in web.get(f"/g/{game}").html
    web.get(f"/tournament/of/{store.get_game(game).view_token}", status=404)


def test_the_tables_of_a_closed_tour_no_longer_change(web: Web, store: Store) -> None:
    from scorekeeper.games import writes

    token = new_tournament(web)
    seat(web, token)
    first, second = tables(store, token, 1)[:2]
    play(web, store, first.game.edit_token, 3)  # table 1 plays its tour's three deals
    play(web, store, second.game.edit_token, 1)
    finished = web.get(f"/g/{first.game.edit_token}")
    reopen = finished.form("/finish")  # "Record the settlement", left open on its phone
    deal_page, deal_form = web.deal_form(second.game.edit_token)
    page = web.get(f"/t/{token}")
    close = page.form("/close")
    close.set(early="y")
    assert web.submit(page, close).status == 302
    before = {t.game.id: (t.game.version, len(t.game.deals)) for t in tables(store, token, 1)}

    # the scorer's link shows the game read-only, saying why
    page = web.get(f"/g/{first.game.edit_token}")
    said = "Tour 1 is closed: the game of table 1 counts in the tournament's standings"
    assert said in page.text()
    assert not page.has_form("/finish") and 'id="next-deal"' not in page.html
    # forms opened before the tour closed are refused, with the reason; nothing is written
    refused = web.submit(finished, reopen)
    assert refused.status == 403 and said in refused.text()
    players = list(second.game.players)
    active = load(store.get_game(second.game.edit_token)).sheet.next_active
    web.fill_deal(
        deal_form,
        players,
        "contract",
        declarer=active[0],
        contract="6S",
        answers={active[1]: "pass", active[2]: "pass"},
    )
    refused = web.save(deal_page, deal_form)
    assert refused.status == 403 and "Tour 1 is closed" in refused.text()
    # the deal form's script gets a refusal it can show (not a page it would send again)
    script = web.client.post(
        deal_form.action or deal_page.url,
        data={**deal_form.data(), "action": ["save"]},
        headers={"X-Save": "json"},
    )
    assert script.status_code == 403
    assert (
        script.get_json()["saved"] is False and "Tour 1 is closed" in script.get_json()["refused"]
    )
    web.get(f"/g/{second.game.edit_token}/deal/new", status=403)
    web.get(f"/g/{second.game.edit_token}/delete", status=403)
    web.get(f"/g/{second.game.edit_token}/links")  # its links can still be replaced
    after = {t.game.id: (t.game.version, len(t.game.deals)) for t in tables(store, token, 1)}
    assert after == before

    # the service refuses too (the CLI, a tour closed while a form was open) ...
    loaded = load(store.get_game(second.game.edit_token))
    data = loaded.record.deals[0].data
    version = loaded.record.version
    for write in (
        lambda: writes.add_deal(store, loaded, data, base_version=version, request_key="k" * 32),
        lambda: writes.set_finished(
            store, loaded, False, base_version=version, request_key="r" * 32
        ),
        lambda: writes.undo_last(store, loaded, base_version=version, request_key="u" * 32),
    ):
        try:
            write()
        except writes.TourClosed as closed:
            assert (closed.tour, closed.table) == (1, 2)
        else:
            raise AssertionError("a table of a closed tour was changed")
    try:  # a table's game is never deleted from its scorer link, closed or not
        writes.delete_game(store, loaded)
    except writes.TournamentTable as table:
        assert (table.tour, table.table) == (1, 2)
    else:
        raise AssertionError("a tournament table's game was deleted")
    # ... but a tap sent again after the close (its key already wrote) is answered as before
    key = store.engine.rows(
        "SELECT request_key FROM request_keys WHERE game_id = ? AND action = 'add_deal'",
        [loaded.record.id],
    )[0]["request_key"]
    again = writes.add_deal(store, loaded, data, base_version=version - 1, request_key=key)
    assert not again.changed
    assert {
        t.game.id: (t.game.version, len(t.game.deals)) for t in tables(store, token, 1)
    } == before

    # the director's page shows the standings, no problems
    director = web.get(f"/t/{token}")
    assert "cannot be scored" not in director.text() and not director.errors()
    assert Tournaments(store).get(token).tours_closed == 1


def test_a_file_that_leaves_the_pool_out_shows_the_pool_its_tables_play_to(
    web: Web, store: Store
) -> None:
    """A file's options may leave out pool_target (§5 requires only round_limit): the
    director's page and the PDF say the convention's pool, not "pool to" and nothing."""
    exported = {
        "format": "scorekeeper-tournament/1", "name": "Short file", "convention": "sochi",
        "options": {"round_limit": 1}, "table_size": 3, "players": NINE[:6], "withdrawn": [],
        "tours": [],
    }  # fmt: skip
    page = web.get("/tournament/import")
    data = page.form("import-tournament").data()
    data["file"] = [(io.BytesIO(json.dumps(exported).encode()), "short.json")]
    response = web.client.post("/tournament/import", data=data, content_type="multipart/form-data")
    assert response.status_code == 302, response.get_data(as_text=True)[:800]
    token = response.headers["Location"].rsplit("/", 1)[-1]
    seat(web, token)
    game = load(store.get_game(tables(store, token, 1)[0].game.edit_token))
    target = game.sheet.options.pool_target
    head = web.get(f"/t/{token}").text()
    assert f"pool to {target} ·" in head
    pdf = web.client.get(f"/t/{token}/tournament.pdf")
    text = subprocess.run(
        ["pdftotext", "-", "-"], input=pdf.data, capture_output=True, check=True
    ).stdout.decode()
    assert f"pool to {target} ·" in text
