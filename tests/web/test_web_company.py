"""The company pages through the test client on a temp-file database, as a phone uses them."""

from __future__ import annotations

import csv
import io
import json
from decimal import Decimal
from fractions import Fraction

from scorekeeper.store.companies import Companies

from ..flows import finish, new_company, play_some, start_evening
from ..harness import Web
from ..helpers import count, money_of


def test_an_evening_started_from_the_company_takes_its_rules_and_counts_once_over(web, store):
    # Another table's game, made first and with other rules: never the source of defaults.
    web.new_game(["Xena", "Yuri", "Zoya"], convention="sochi", pool_target=30)
    token = new_company(
        web, convention="leningrad", rendered_preset="sochi", opt_pool_target="12", opt_stake="0.5"
    )
    game_token = start_evening(web, store, token, ["Anna", "Boris", "Vera"])
    game = store.get_game(game_token)
    assert game.convention == "leningrad"
    assert game.options["pool_target"] == 12 and game.options["stake"] == "0.5"
    assert sorted(game.players) == ["Anna", "Boris", "Vera"]
    play_some(web, store, game_token)
    page = web.get(f"/c/{token}")
    assert "No finished evening" in page.text()  # not over yet: it is only "playing now"
    assert "Playing now" in page.text()
    finish(web, game_token)
    page = web.get(f"/c/{token}")
    expected = money_of(store, token)
    assert sum(expected.values()) == 0 and any(expected.values())
    for name in ("Anna", "Boris", "Vera"):
        row = page.html.split(f'data-player="{name}"')[1].split("</tr>")[0]
        assert f"{abs(expected[name]):.2f}" in row
    table = page.html.split('class="standings"')[1].split("</table>")[0]
    assert 'data-player="Gleb"' not in table  # did not play
    assert 'data-player="Gleb"' not in page.html.split('class="chart-box"')[1]


def test_paid_mark_moves_the_balance_and_nothing_else(web, store):
    token = new_company(web, roster=("Anna", "Boris", "Vera"))
    game_token = start_evening(web, store, token, ["Anna", "Boris", "Vera"])
    play_some(web, store, game_token)
    finish(web, game_token)
    page = web.get(f"/c/{token}")
    standings_before = page.html.split('id="standings"')[1].split("</section>")[0]
    companies = Companies(store)
    assert companies.get(token).payments == []
    paid = page.form("/pay")  # the first of the fewest payments, one tap
    result = web.submit(page, paid)
    assert result.status == 302
    again = web.submit(page, paid)  # the same tap sent twice records it once
    assert again.status == 302
    company = companies.get(token)
    assert len(company.payments) == 1
    after = web.get(f"/c/{token}")
    assert after.html.split('id="standings"')[1].split("</section>")[0] == standings_before
    names = {p.id: p.name for p in company.roster}
    pay = company.payments[0]
    expected = money_of(store, token)
    expected[names[pay.payer]] += Decimal(pay.amount)
    expected[names[pay.payee]] -= Decimal(pay.amount)
    balance = after.html.split('id="balance"')[1].split("</table>")[0]
    for name, value in expected.items():
        row = balance.split(f"<bdi>{name}</bdi>")[1].split("</tr>")[0]
        assert f"{abs(value):.2f}" in row
    assert sum(expected.values()) == 0


def test_a_typed_payment_with_a_bad_amount_writes_nothing(web, store):
    token = new_company(web, roster=("Anna", "Boris", "Vera"))
    page = web.get(f"/c/{token}")
    form = page.form("payment-form")
    form.set(amount="1e9")
    result = web.submit(page, form, follow=True)
    assert "Write an amount above zero" in result.text()
    assert Companies(store).get(token).payments == []
    form.set(amount="12,5", payer=form.value("payer"), payee=form.value("payer"))
    result = web.submit(page, form, follow=True)
    assert "must be two different players" in result.text()
    assert Companies(store).get(token).payments == []


def test_read_only_link_refuses_writes_and_game_link_does_not_open_the_company(web, store, client):
    token = new_company(web, roster=("Anna", "Boris", "Vera"))
    company = Companies(store).get(token)
    view = company.view_token
    assert web.get(f"/c/{view}", status=302).response.headers["Location"].endswith(f"/cv/{view}")
    page = web.get(f"/cv/{view}")
    assert token not in page.html
    assert not page.has_form("/pay") and not page.has_form("evening")
    edit_page = web.get(f"/c/{token}")
    csrf = edit_page.form("/pay").value("csrf_token")
    for url in (f"/c/{view}/pay", f"/c/{view}/players", f"/c/{view}/attach"):
        assert client.post(url, data={"csrf_token": csrf, "name": "X"}).status_code == 403
    assert web.get(f"/c/{view}/rules", status=403)
    assert web.get(f"/c/{view}/evening?player=1", status=403)
    game_token = start_evening(web, store, token, ["Anna", "Boris", "Vera"])
    web.get(f"/c/{game_token}", status=404)
    web.get(f"/cv/{game_token}", status=404)
    game_page = web.get(f"/g/{game_token}")
    assert token not in game_page.html  # the company's edit token never shows on a game
    assert f"/cv/{view}" in game_page.html
    follower = web.get(f"/v/{store.get_game(game_token).view_token}")
    assert view not in follower.html and token not in follower.html  # a follower sees no company


def test_home_lists_only_the_companies_this_browser_knows(web, app, store):
    token = new_company(web)
    start_evening(web, store, token, ["Anna", "Boris", "Vera"])
    assert "Fridays" in web.get("/").text()
    fresh = Web(app.test_client())
    home = fresh.get("/")
    assert "Fridays" not in home.text() and token not in home.html
    new = fresh.get("/new")
    assert "Anna" not in new.html  # a fresh phone sees no other table's players either


def test_roster_rename_keeps_the_history(web, store):
    token = new_company(web, roster=("Anna", "Boris", "Vera"))
    game_token = start_evening(web, store, token, ["Anna", "Boris", "Vera"])
    play_some(web, store, game_token)
    finish(web, game_token)
    before = money_of(store, token)
    company = Companies(store).get(token)
    anna = next(p for p in company.roster if p.name == "Anna")
    page = web.get(f"/c/{token}")
    form = page.form(f"/players/{anna.id}").set(name="Anya")
    assert web.submit(page, form).status == 302
    page = web.get(f"/c/{token}")
    form = page.form("add-player").set(name="Dima")
    assert web.submit(page, form).status == 302
    after = money_of(store, token)
    assert after["Anya"] == before["Anna"] and after["Dima"] == 0
    assert 'data-player="Anya"' in web.get(f"/c/{token}").html


def test_attach_a_game_by_its_edit_link_maps_names_to_the_roster(web, store):
    token = new_company(web, roster=("Anna", "Boris"))
    game_token = web.new_game(["Anna", "Boris", "Vera"])
    page = web.get(f"/c/{token}")
    view_token = store.get_game(game_token).view_token
    form = page.form("/attach").set(link=f"http://table.local/v/{view_token}")
    result = web.submit(page, form)
    assert result.status == 422 and "read-only link" in " ".join(result.errors())
    form.set(link=f"http://table.local/g/{game_token}")
    assert web.submit(page, form).status == 302
    company = Companies(store).get(token)
    assert [p.name for p in company.roster] == ["Anna", "Boris", "Vera"]
    ids = {p.name: p.id for p in company.roster}
    assert company.games[0].players == ids
    other = new_company(web, roster=("Anna", "Boris", "Vera"))
    page = web.get(f"/c/{other}")
    form = page.form("/attach").set(link=game_token)
    result = web.submit(page, form)
    assert result.status == 422 and "another company" in " ".join(result.errors())


def test_company_file_round_trips_and_standings_csv_adds_up(web, store, client):
    token = new_company(web, roster=("Anna", "Boris", "Vera"))
    for _ in range(2):
        game_token = start_evening(web, store, token, ["Anna", "Boris", "Vera"])
        play_some(web, store, game_token)
        finish(web, game_token)
    page = web.get(f"/c/{token}")
    web.submit(page, page.form("/pay"))
    exported = client.get(f"/c/{token}/company.json")
    assert exported.status_code == 200
    data = json.loads(exported.data)
    assert data["format"] == "scorekeeper-company/1"
    assert len(data["games"]) == 2 and len(data["payments"]) == 1
    upload = web.get("/company/import")
    form = upload.form("import-company")
    response = client.post(
        "/company/import",
        data={**form.data(), "file": (io.BytesIO(exported.data), "company.json")},
    )
    assert response.status_code == 302, response.get_data(as_text=True)[:800]
    copy_token = response.headers["Location"].rsplit("/", 1)[-1]
    assert copy_token != token
    again = json.loads(client.get(f"/c/{copy_token}/company.json").data)
    assert again == data
    rows = list(csv.DictReader(io.StringIO(client.get(f"/c/{token}/standings.csv").text)))
    expected = money_of(store, token)
    assert {r["Player"]: Decimal(r["Money"]) for r in rows} == expected
    assert sum(Fraction(r["Net whists"]) for r in rows) == 0


def test_a_broken_company_file_says_why_and_creates_nothing(web, store, client):
    upload = web.get("/company/import")
    form = upload.form("import-company")
    bad = {
        "format": "scorekeeper-company/1",
        "players": [{"id": 1, "name": "A"}],
        "games": [{"played_on": "2026-13-01", "players": {}, "game": {}}],
    }
    response = client.post(
        "/company/import",
        data={**form.data(), "file": (io.BytesIO(json.dumps(bad).encode()), "c.json")},
    )
    assert response.status_code == 400
    assert "game 1" in response.get_data(as_text=True)
    assert count(store, "companies") == 0


def test_company_pages_speak_russian_and_ukrainian(web, store):
    from ..i18n.words import UNTRANSLATED, latin_words

    token = new_company(web, roster=("Anna", "Boris", "Vera"))
    game_token = start_evening(web, store, token, ["Anna", "Boris", "Vera"])
    play_some(web, store, game_token)
    finish(web, game_token)
    page = web.get(f"/c/{token}")
    web.submit(page, page.form("/pay"))
    view = Companies(store).get(token).view_token
    ids = "&".join(f"player={p.id}" for p in Companies(store).get(token).roster)
    names = {"Anna", "Boris", "Vera", "Fridays", "CSV"}
    names |= set(store.get_game(game_token).name.split())  # dated in English when made
    for lang in ("ru", "uk"):
        web.get(f"/?lang={lang}")
        for url in (
            "/",
            "/company/new",
            "/company/import",
            f"/c/{token}",
            f"/cv/{view}",
            f"/c/{token}/rules",
            f"/c/{token}/evening?{ids}",
            f"/g/{game_token}",
        ):
            left = latin_words(web.get(url).html) - UNTRANSLATED - names
            assert not left, (lang, url, left)


def test_house_rules_changed_on_the_company_start_the_next_evening(web, store):
    token = new_company(web, roster=("Anna", "Boris", "Vera"))
    page = web.get(f"/c/{token}/rules")
    form = page.form("company-rules").set(opt_pool_target="30", opt_stake="2")
    assert web.submit(page, form).status == 302
    bad = page.form("company-rules").set(opt_pool_target="-5")
    refused = web.submit(page, bad)
    assert refused.status == 422 and refused.errors()
    game = store.get_game(start_evening(web, store, token, ["Anna", "Boris", "Vera"]))
    assert (game.options["pool_target"], game.options["stake"]) == (30, "2")


def test_every_company_page_carries_the_headers_and_no_inline_code(web, store, app):
    from ..hygiene import assert_hygienic, crawl

    token = new_company(web, roster=("Anna", "Boris", "Vera"))
    game_token = start_evening(web, store, token, ["Anna", "Boris", "Vera"])
    play_some(web, store, game_token)
    finish(web, game_token)
    start_evening(web, store, token, ["Anna", "Boris", "Vera"])  # one still playing
    page = web.get(f"/c/{token}")
    web.submit(page, page.form("/pay"))
    view = Companies(store).get(token).view_token
    ids = "&".join(f"player={p.id}" for p in Companies(store).get(token).roster)
    starts = [f"/c/{token}", f"/cv/{view}", f"/c/{token}/evening?{ids}", "/company/import"]
    starts += [f"/c/{token}?period={p}" for p in ("month", "year", "all", "junk")]
    pages = crawl(app.test_client(), starts)
    assert {
        f"/c/{token}/rules",
        f"/cv/{view}/company.json",
        f"/cv/{view}/standings.csv?period=all",
    } <= set(pages)
    for url, response in pages.items():
        assert response.status_code in (200, 302), url
        assert_hygienic(response, url)


def test_every_company_form_refuses_a_post_without_its_csrf_token(web, store, app):
    token = new_company(web, roster=("Anna", "Boris", "Vera"))
    game_token = start_evening(web, store, token, ["Anna", "Boris", "Vera"])
    play_some(web, store, game_token)
    finish(web, game_token)
    page = web.get(f"/c/{token}")
    web.submit(page, page.form("/pay"))
    company = Companies(store).get(token)
    pid, payment = company.roster[0].id, company.payments[0].id
    ids = "&".join(f"player={p.id}" for p in company.roster)
    exported = web.client.get(f"/c/{token}/company.json").data

    def form(url: str, which: str):
        return lambda: web.get(url).form(which).data()

    sources = {
        "company.new": form("/company/new", "new-company"),
        "company.import_company": lambda: {
            **web.get("/company/import").form("import-company").data(),
            "file": (io.BytesIO(exported), "company.json"),
        },
        "company.rules": form(f"/c/{token}/rules", "company-rules"),
        "company.add_player": lambda: {**form(f"/c/{token}", "add-player")(), "name": ["Dima"]},
        "company.rename_player": form(f"/c/{token}", f"/players/{pid}"),
        "company.evening": form(f"/c/{token}/evening?{ids}", "evening-form"),
        "company.attach": lambda: {**form(f"/c/{token}", "/attach")(), "link": [game_token]},
        "company.pay": form(f"/c/{token}", "payment-form"),
        "company.delete_payment": form(f"/c/{token}", f"/payments/{payment}/delete"),
    }
    values = {"token": token, "player_id": pid, "payment_id": payment}
    before = web.client.get(f"/c/{token}/company.json").data
    routes = [r for r in app.url_map.iter_rules() if r.endpoint.startswith("company.")]
    for rule in [r for r in routes if "POST" in (r.methods or ())]:
        assert rule.endpoint in sources, f"{rule.rule}: add it to this test"
        url = rule.build(values, append_unknown=False)[1]
        for sent in (None, "", "forged"):
            data = sources[rule.endpoint]()
            data.pop("csrf_token")
            if sent is not None:
                data["csrf_token"] = sent
            response = web.client.post(url, data=data)
            assert response.status_code == 400, (url, sent)
    assert web.client.get(f"/c/{token}/company.json").data == before
    assert count(store, "companies") == 1


def test_a_game_attached_after_it_was_shown_names_its_company_at_once(web, store):
    """Attaching a game to a company does not change the game's state, whose drawn parts are
    kept: the company line is asked for each request, so the scorer sees it on the next
    page, not after the next deal."""
    token = new_company(web, roster=("Anna", "Boris"))
    game_token = web.new_game(["Anna", "Boris", "Vera"])
    assert "An evening of the company" not in web.get(f"/g/{game_token}").html
    page = web.get(f"/c/{token}")
    form = page.form("/attach").set(link=f"http://table.local/g/{game_token}")
    assert web.submit(page, form).status == 302
    html = web.get(f"/g/{game_token}").html
    assert "An evening of the company" in html
    view_token = Companies(store).get(token).view_token
    assert f'href="/cv/{view_token}"' in html
    # the followers' page names no company (its link would lead a guest to the company)
    follower = web.get(f"/v/{store.get_game(game_token).view_token}").html
    assert "An evening of the company" not in follower
