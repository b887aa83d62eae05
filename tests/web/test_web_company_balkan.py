"""A company of Balkan evenings (docs/balkan.md, "Result and money"): made with its family,
preset and options; its evenings are Balkan partije; its standings, balance and CSV add up
exactly each evening's own results and money; it never takes a Russian game, nor changes its
family once it has evenings. Through the Flask test client on an SQLite file, and once on
PostgreSQL."""

from __future__ import annotations

import csv
import io
import json
from decimal import Decimal
from fractions import Fraction

from flask.testing import FlaskClient

from scorekeeper import games
from scorekeeper.store import Store
from scorekeeper.store.companies import Companies
from scorekeeper.web import create_app

from ..flows import new_company, start_evening
from ..harness import Page, Web

ROSTER = ("Ana", "Boža", "Ceca", "Dule")
TABLE = ["Ana", "Boža", "Ceca"]


def _tap(web: Web, token: str, **taps: str | list[str] | None) -> Page:
    """Open the game's deal form, tap these choices, Save."""
    page = web.get(f"/g/{token}/deal/new")
    saved = web.submit(page, page.form("deal-form").set(**taps, action="save"))
    assert saved.status == 302, saved.errors() or saved.text()[:1500]
    return saved


def _balkan_company(web: Web) -> str:
    return new_company(
        web, roster=ROSTER, family="balkan", balkan_preset="club", bk_bule="20", bk_stake="0.1"
    )


def _two_evenings(web: Web, store: Store, token: str) -> list[str]:
    """Two partije of the company, each ended by a write-off after a played deal."""
    first = start_evening(web, store, token, TABLE)
    a, b, c = store.get_game(first).players
    made = {f"tricks.{a}": "6", f"tricks.{b}": "2"}  # c's 2 is the pad's complement
    _tap(web, first, declarer=a, contract="tref", followers=[b, c], **made)
    _tap(web, first, type="writeoff", left="-")
    second = start_evening(web, store, token, TABLE)
    a, b, c = store.get_game(second).players
    _tap(web, second, declarer=b, contract="sans", followers=None)  # nobody follows: b −14
    _tap(web, second, type="writeoff", left=c)
    return [first, second]


def _expected(store: Store, tokens: list[str]) -> tuple[dict[str, int], dict[str, Decimal]]:
    """Each player's results (as the partije show them) and money, summed from each
    evening's own settlement."""
    results: dict[str, int] = {}
    money: dict[str, Decimal] = {}
    for token in tokens:
        loaded = games.load(store.get_game(token))
        assert loaded.sheet.ended
        settled = loaded.family.settle(loaded.sheet)
        for p in settled.players:
            results[p] = results.get(p, 0) + settled.shown_result[p]
            money[p] = money.get(p, Decimal(0)) + settled.money[p]
    return results, money


def _standings_csv(client: FlaskClient, token: str) -> dict[str, dict[str, str]]:
    rows = csv.DictReader(io.StringIO(client.get(f"/c/{token}/standings.csv").text))
    return {r["Player"]: r for r in rows}


def _adds_up(web: Web, client: FlaskClient, store: Store, token: str) -> None:
    """The company's CSV and page: each player's result and money the evenings' sums."""
    tokens = _two_evenings(web, store, token)
    results, money = _expected(store, tokens)
    assert any(results.values()) and any(money.values())
    rows = _standings_csv(client, token)
    assert {p: Fraction(r["Result"]) for p, r in rows.items() if p in results} == results
    assert {p: Decimal(r["Money"]) for p, r in rows.items() if p in money} == money
    assert rows["Dule"]["Evenings"] == "0" and sum(Decimal(r["Money"]) for r in rows.values()) == 0
    page = web.get(f"/c/{token}").text()
    assert "Balkan rules" in page and "Bule at the start: 20" in page
    assert "Times whisted" not in page  # the Russian play figures are not a Balkan company's
    company = Companies(store).get(token)
    assert [g.game.id for g in company.games] == [store.get_game(t).id for t in tokens]


def test_a_balkan_company_sums_its_evenings_results_and_money(
    web: Web, client: FlaskClient, store: Store
) -> None:
    token = _balkan_company(web)
    company = Companies(store).get(token)
    assert company.convention == "club" and company.options["family"] == "balkan"
    assert company.options["bule"] == 20 and company.options["refe_max"] == 2
    two = "&".join(f"player={p.id}" for p in company.roster[:2])
    picked = web.get(f"/c/{token}/evening?{two}", status=None)
    assert picked.status == 302  # no Hussar evening in a Balkan company: back, with why
    _adds_up(web, client, store, token)
    for game in Companies(store).get(token).games:
        assert game.game.options["family"] == "balkan" and game.game.options["bule"] == 20
        assert game.game.convention == "club"


def test_a_balkan_company_on_postgresql_adds_up_the_same(pg_url: str, catalogues: None) -> None:
    app = create_app({"TESTING": True, "DATABASE": pg_url, "SECRET_KEY": "test secret"})
    client = app.test_client()
    web = Web(client)
    with Store(pg_url) as store:
        _adds_up(web, client, store, _balkan_company(web))


def test_a_balkan_company_takes_no_russian_game_and_keeps_its_family(
    web: Web, store: Store
) -> None:
    token = _balkan_company(web)
    russian = web.new_game(["Ana", "Boža", "Ceca"])
    page = web.get(f"/c/{token}")
    refused = web.submit(page, page.form("/attach").set(link=russian))
    assert refused.status == 422
    assert any("Russian rules" in e for e in refused.errors()), refused.errors()
    start_evening(web, store, token, TABLE)
    rules = web.get(f"/c/{token}/rules")
    kept = web.submit(rules, rules.form("company-rules").set(family="russian"))
    assert kept.status == 422
    assert any("played by the Balkan rules" in e for e in kept.errors()), kept.errors()
    assert Companies(store).get(token).options["family"] == "balkan"


def test_the_rules_page_shows_and_keeps_a_balkan_company_s_options(web: Web, store: Store) -> None:
    token = _balkan_company(web)
    rules = web.get(f"/c/{token}/rules")
    form = rules.form("company-rules")
    assert form.value("family") == "balkan" and form.value("bk_bule") == "20"
    kept = web.submit(rules, form.set(balkan_preset="savez", bk_bule="", bk_stake=""))
    assert kept.status == 302, kept.errors()
    company = Companies(store).get(token)
    assert company.convention == "savez" and company.options["bule"] == 400


def test_a_balkan_company_refuses_a_bad_option_next_to_its_field(web: Web) -> None:
    page = web.get("/company/new")
    form = page.form("new-company").set(
        name="Petak", roster="Ana\nBoža\nCeca", family="balkan", bk_bule="3"
    )
    refused = web.submit(page, form)
    assert refused.status == 422 and refused.errors()


def test_a_balkan_company_file_opens_again_with_the_same_standings(
    web: Web, client: FlaskClient, store: Store
) -> None:
    token = _balkan_company(web)
    _two_evenings(web, store, token)
    exported = client.get(f"/c/{token}/company.json")
    data = json.loads(exported.data)
    assert data["options"]["family"] == "balkan" and data["convention"] == "club"
    assert all(g["game"]["family"] == "balkan" for g in data["games"])
    upload = web.get("/company/import")
    form = upload.form("import-company").data()
    body = io.BytesIO(exported.data)
    opened = client.post("/company/import", data={**form, "file": (body, "company.json")})
    assert opened.status_code == 302, opened.get_data(as_text=True)[:800]
    copy = opened.headers["Location"].rsplit("/", 1)[-1].split("#")[0]
    assert _standings_csv(client, copy) == _standings_csv(client, token)
    data["options"] = {"family": "balkan", "bule": 20}
    data["convention"] = "sochi"
    bad = client.post(
        "/company/import",
        data={**form, "file": (io.BytesIO(json.dumps(data).encode()), "company.json")},
    )
    assert bad.status_code == 400 and "unknown Balkan preset" in bad.get_data(as_text=True)
