"""Where the ФСПР preset (issue 46) meets this round's other features: a company evening and
a tournament by ФСПР house rules (with the league's cap on deals per tour), a club season
holding them read back by `scorekeeper season`, the paper's totals typed under ФСПР, the game
file out and in, and PostgreSQL. The Flask test client on a real SQLite file; PostgreSQL by
tests/pg.py's fixtures."""

from __future__ import annotations

import dataclasses
import io
import json
import random
import re
from pathlib import Path
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import gamefile, sample
from scorekeeper.club.season import build
from scorekeeper.games import file_data, load
from scorekeeper.rules import replay, resolve_options
from scorekeeper.rules.settlement import settle
from scorekeeper.store import Store
from scorekeeper.store.clubs import Clubs
from scorekeeper.store.tournaments import Tournaments
from scorekeeper.web import create_app
from scorekeeper.web.options import preset_values

from ..flows import new_club, new_company, new_tournament, play, post, seat, start_evening
from ..harness import Web
from ..i18n.words import UNTRANSLATED, latin_words
from ..served import run_cli
from .test_seams_balkan import cli_json

EIGHT = ["Anna", "Boris", "Vera", "Gleb", "Dasha", "Egor", "Zoya", "Ivan"]
FOUR = ["Anna", "Boris", "Vera", "Gleb"]


def fspr_options() -> dict[str, Any]:
    """The ФСПР preset's options, as the store keeps a game's."""
    options, problems = resolve_options("fspr", {})
    assert problems == []
    return dict(options.to_json())


def fspr_file(seed: int, deals: int = 30) -> dict[str, Any]:
    """A random ФСПР game at four, with the round's new answers."""
    return sample.random_game(random.Random(seed), deals, convention="fspr", players=4, newest=True)


def upload(client: FlaskClient, url: str, data: dict[str, Any], name: str) -> str:
    """Post a file on an import page as its form does; where it leads."""
    page = client.get(url).get_data(as_text=True)
    csrf = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', page)
    assert csrf is not None
    body = io.BytesIO(json.dumps(data, ensure_ascii=False).encode())
    response = client.post(url, data={"csrf_token": csrf.group(1), "file": (body, name)})
    assert response.status_code == 302, response.get_data(as_text=True)[:800]
    return response.headers["Location"].rsplit("/", 1)[-1].split("#")[0]


def meaning(data: dict[str, Any]) -> Any:
    """A game file's meaning: the game read from it, its options resolved (a file may write
    every option or only the table's changes)."""
    return dataclasses.replace(gamefile.load(data), overrides={})


def report_of(data: dict[str, Any]) -> tuple[Any, Any]:
    """A game file's sheet and settlement as the rules score it."""
    sheet = replay(gamefile.load(data))[0]
    return sheet.players, settle(sheet)


# -- a company evening and a tournament by ФСПР house rules ------------------------------------


def test_a_company_s_evening_plays_by_fspr_and_its_file_comes_back(web: Web, store: Store) -> None:
    company = new_company(web, roster=FOUR, convention="fspr")
    evening = start_evening(web, store, company, FOUR)
    record = store.get_game(evening)
    assert record.convention == "fspr" and len(record.players) == 4
    assert dict(record.options) == fspr_options()
    play(web, store, evening, 6)
    assert len(store.get_game(evening).deals) == 6
    page = web.get(f"/c/{company}?lang=ru").text()
    assert "ФСПР" in page
    rules = web.get(f"/c/{company}/rules").form("")
    assert rules.value("convention") == "fspr"
    file = json.loads(web.client.get(f"/c/{company}/company.json").get_data(as_text=True))
    again = upload(web.client, "/company/import", file, "company.json")
    back = json.loads(web.client.get(f"/c/{again}/company.json").get_data(as_text=True))
    assert back["games"] == file["games"] and back.get("rules") == file.get("rules")
    for token in (company, again):
        csv = web.client.get(f"/c/{token}/standings.csv").get_data(as_text=True)
        assert csv == web.client.get(f"/c/{company}/standings.csv").get_data(as_text=True)


def test_a_fspr_tournament_caps_each_table_s_deals_at_its_deal_limit(
    web: Web, store: Store
) -> None:
    form = web.get("/tournament/new").form("new-tournament")
    assert "opt_deal_limit" in form.fields  # the league's cap is offered on the form
    cup = new_tournament(
        web, roster=EIGHT, convention="fspr", table_size="4", rounds="2", opt_deal_limit="5"
    )
    seat(web, cup)
    tables = Tournaments(store).get(cup).tour(1)
    assert len(tables) == 2
    game = tables[0].game
    assert game.convention == "fspr" and game.options["deal_limit"] == 5
    limits = ("deal_limit", "round_limit")
    assert {k: v for k, v in game.options.items() if k not in limits} == {
        k: v for k, v in fspr_options().items() if k not in limits
    }
    play(web, store, game.edit_token, 5)
    assert load(store.get_game(game.edit_token)).over_limit is False
    sixth = web.client.get(f"/g/{game.edit_token}/deal/new")
    assert sixth.status_code in (302, 409)  # the table is over: no sixth deal
    assert len(store.get_game(game.edit_token).deals) == 5
    file = json.loads(web.client.get(f"/t/{cup}/tournament.json").get_data(as_text=True))
    assert file["options"]["deal_limit"] == 5 and file["convention"] == "fspr"
    path = Path(store.location).parent / "cup.json"
    path.write_text(json.dumps(file, ensure_ascii=False), encoding="utf-8")
    printed = run_cli("tournament", str(path), "--format", "json")
    assert printed.returncode == 0, printed.stderr
    again = upload(web.client, "/tournament/import", file, "cup.json")
    back = json.loads(web.client.get(f"/t/{again}/tournament.json").get_data(as_text=True))
    assert back == file


# -- a club season holding them ----------------------------------------------------------------


def test_a_club_season_of_fspr_evenings_and_a_tournament_reads_back_as_its_page(
    web: Web, store: Store, tmp_path: Path
) -> None:
    company = new_company(web, roster=FOUR, convention="fspr")
    evening = start_evening(web, store, company, FOUR)
    play(web, store, evening, 8)
    cup = new_tournament(web, roster=EIGHT, convention="fspr", table_size="4", rounds="1")
    seat(web, cup)
    for table in Tournaments(store).get(cup).tour(1):
        play(web, store, table.game.edit_token, 4)
    club = new_club(web)
    for link in (company, cup):
        assert post(web, club, "attach", link=link)[0] == 302
    record = Clubs(store).get(club)
    file = json.loads(web.client.get(f"/kv/{record.view_token}/season.json").get_data())
    games = [e["game"] for e in file["events"] if "game" in e]
    assert games and all(g["convention"] == "fspr" for g in games)
    read = cli_json(tmp_path, file, "season", "--format", "json")
    assert read == build(store, record).report()
    for lang in ("en", "ru", "uk", "sr_Latn", "hr"):
        assert web.client.get(f"/k/{club}?lang={lang}").status_code == 200


# -- the paper's totals under ФСПР -------------------------------------------------------------


def test_a_fspr_game_s_final_sheet_typed_on_the_paper_page_settles_and_saves_as_it(
    web: Web, store: Store
) -> None:
    data = fspr_file(46)
    players, expected = report_of(data)
    sheet = replay(gamefile.load(data))[0]
    page = web.get("/paper")
    form = page.form("new-game")
    for field, value in preset_values("fspr").items():
        form.set(**{field: ("y" if value else None) if isinstance(value, bool) else value})
    form.set(convention="fspr", rendered_preset="fspr")
    for i, p in enumerate(players):
        form.set(
            **{f"player_{i}": p, f"pool_{i}": str(sheet.pool(p)), f"hill_{i}": str(sheet.hill(p))}
        )
        for j, q in enumerate(players):
            if q != p:
                form.set(**{f"whists_{i}_{j}": str(sheet.whists(p, q))})
    settled = web.submit(page, form, button=("action", "settle"))
    assert settled.status == 200, settled.errors() or settled.text()[:800]
    assert store.engine.value("SELECT COUNT(*) FROM games") == 0
    saved = web.client.post("/paper", data={**settled.form("new-game").data(), "action": ["save"]})
    assert saved.status_code == 302, saved.get_data(as_text=True)[:800]
    game = load(store.get_game(saved.location.rsplit("/", 1)[-1]))
    assert game.game.convention == "fspr"
    assert game.settlement is not None
    assert game.settlement.net == expected.net and game.settlement.money == expected.money


# -- the game file, out and in, on both engines ------------------------------------------------


def test_a_fspr_game_file_goes_out_and_in_on_postgresql_and_sqlite(
    pg_url: str, web: Web, tmp_path: Path, catalogues: None
) -> None:
    data = fspr_file(52)
    _, expected = report_of(data)
    pg_app = create_app({"TESTING": True, "DATABASE": pg_url, "SECRET_KEY": "test secret"})
    for client in (web.client, pg_app.test_client()):
        token = upload(client, "/import", data, "fspr.json")
        out = json.loads(client.get(f"/g/{token}/game.json").get_data(as_text=True))
        assert out["convention"] == "fspr"
        assert meaning(out) == meaning(data)
        assert report_of(out)[1] == expected
        assert client.get(f"/g/{token}/what-if?convention=leningrad").status_code == 200
    path = tmp_path / "fspr.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    done = run_cli("import", str(path), "--db", pg_url)
    assert done.returncode == 0, done.stderr
    token = re.search(r"/g/([\w-]+)", done.stdout)
    assert token is not None
    with Store(pg_url) as store:
        assert meaning(file_data(store.get_game(token.group(1)))) == meaning(data)


# -- a follower confirms ФСПР deals ------------------------------------------------------------


def test_a_follower_confirms_fspr_deals_with_the_new_answers_in_russian(
    app: Flask, web: Web, store: Store
) -> None:
    data = fspr_file(0, deals=40) | {"finished": False}
    kinds = {a for d in data["deals"] for a in (d.get("answers") or {}).values()}
    assert "whist-returned" in kinds  # the round's new answer is among the deals
    token = upload(web.client, "/import", data, "fspr.json")
    record = store.get_game(token)
    follower = app.test_client()
    page = follower.get(f"/v/{record.view_token}?lang=ru").get_data(as_text=True)
    ticket = follower.get(f"/v/{record.view_token}/confirm/key").get_json()
    asked = [int(d) for d in re.findall(r'data-deal="(\d+)" data-revision="\d+"', page)]
    returned = [
        deal.id
        for deal in record.deals
        if "whist-returned" in (deal.data.get("answers") or {}).values()
    ][-1]
    assert returned in asked  # a late follower is asked about every unconfirmed deal
    typed = set(record.players) | {"Random", "random", "fix", "fspr"}  # the sample file's data
    assert latin_words(page) - UNTRANSLATED - typed == set()
    pairs = dict(re.findall(r'data-deal="(\d+)" data-revision="(\d+)"', page))
    revision = pairs[str(returned)]
    said = follower.post(
        f"/v/{record.view_token}/confirm",
        data={
            "csrf_token": ticket["csrf_token"],
            "request_key": ticket["request_key"],
            "deal": str(returned),
            "revision": revision,
            "player": record.players[0],
            "verdict": "right",
            "note": "",
        },
    )
    assert said.status_code == 200 and said.get_json()["ok"] is True
    scorer = web.get(f"/g/{token}?lang=ru").html
    assert "Подтверждено записей:" in scorer
