"""A stored company: its standings and balance are the sums of its games' settlements, and
its file round-trips (Hypothesis over random companies of random valid games)."""

from __future__ import annotations

import datetime
import random
import tempfile
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper import gamefile
from scorekeeper.company import file as company_file
from scorekeeper.company.table import overview, period_bounds
from scorekeeper.rules import InvalidGame, score, settle
from scorekeeper.sample import random_game
from scorekeeper.store import GameNotFound, ReadOnlyAccess, Store, StoreError
from scorekeeper.store.companies import Companies, CompanyNotFound

ROSTER = ["Anna", "Boris", "Vera", "Gleb", "Dima"]
TODAY = datetime.date(2026, 11, 20)


def random_company(seed: int, games: int) -> dict:
    """A company file of random games, each seated from the roster under its own names."""
    rng = random.Random(seed)
    data: dict = {
        "format": company_file.FORMAT,
        "name": f"Table {seed}",
        "convention": "sochi",
        "options": {"stake": "0.10"},
        "players": [{"id": i + 1, "name": n} for i, n in enumerate(ROSTER)],
        "games": [],
        "payments": [],
    }
    for _ in range(games):
        game = random_game(rng, rng.randint(0, 20))
        game["finished"] = rng.random() < 0.8
        ids = rng.sample(range(1, len(ROSTER) + 1), len(game["players"]))
        day = TODAY - datetime.timedelta(days=rng.randint(0, 500))
        data["games"].append(
            {
                "played_on": day.isoformat(),
                "players": dict(zip(game["players"], ids, strict=True)),
                "game": gamefile.dump(gamefile.load(game)),
            }
        )
    data["games"].sort(key=lambda g: g["played_on"])  # a company lists its evenings by day
    for _ in range(rng.randint(0, 3)):
        payer, payee = rng.sample(range(1, len(ROSTER) + 1), 2)
        data["payments"].append(
            {
                "payer": payer,
                "payee": payee,
                "amount": f"{rng.randint(1, 9999) / 100:.2f}",
                "paid_on": TODAY.isoformat(),
                "game": rng.randrange(games) if games and rng.random() < 0.5 else None,
            }
        )
    return data


def independent_sums(data: dict, start=None, end=None):
    """Money and net per roster id, summed from each finished game's own settlement."""
    money = {i: Decimal(0) for i in range(1, len(ROSTER) + 1)}
    net = {i: Fraction(0) for i in money}
    for entry in data["games"]:
        sheet = score(gamefile.load(entry["game"]))
        day = datetime.date.fromisoformat(entry["played_on"])
        if not sheet.finished or (start and day < start) or (end and day > end):
            continue
        result = settle(sheet)
        for name, pid in entry["players"].items():
            money[pid] += result.money[name]
            net[pid] += result.net[name]
    return money, net


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 6), st.sampled_from(["month", "year", "all"]))
def test_stored_company_adds_up_its_settlements_and_round_trips(seed, games, period):
    data = random_company(seed, games)
    with tempfile.TemporaryDirectory() as where, Store(Path(where) / "db.sqlite") as store:
        record = company_file.create(store, company_file.load_file(data))
        view = overview(record, period, TODAY)
        ids = {p.name: str(p.id) for p in record.roster}
        start, end = period_bounds(period, TODAY)
        money, net = independent_sums(data, start, end)
        table = {s.player: s for s in view.standings}
        for i, name in enumerate(ROSTER, start=1):
            assert table[ids[name]].money == money[i]
            assert table[ids[name]].net == net[i]
        all_money, _ = independent_sums(data)
        for pay in data["payments"]:
            all_money[pay["payer"]] += Decimal(pay["amount"])
            all_money[pay["payee"]] -= Decimal(pay["amount"])
        assert {name: view.owed[ids[name]] for name in ROSTER} == {
            name: all_money[i] for i, name in enumerate(ROSTER, start=1)
        }
        assert sum(view.owed.values()) == 0
        dumped = company_file.dump(record)
        assert [g["players"] for g in dumped["games"]] == [g["players"] for g in data["games"]]
        assert dumped["payments"] == data["payments"]
        assert [g["game"]["deals"] for g in dumped["games"]] == [
            g["game"]["deals"] for g in data["games"]
        ]
        again = company_file.create(store, company_file.load_file(dumped))
        assert company_file.dump(again) == dumped
        assert company_file.dump(Companies(store).get(again.view_token)) == dumped


@pytest.fixture
def companies(store_location):
    """Companies on each engine: an SQLite file, then a PostgreSQL database."""
    with Store(store_location) as store:
        yield Companies(store)


def test_company_and_game_tokens_open_only_their_own_kind(companies):
    store = companies.store
    company = companies.create(
        name="Fridays", convention="sochi", options={"stake": "1"}, roster=["A", "B", "C"]
    )
    game = store.create_game(
        name="g", convention="sochi", options={}, players=["A", "B", "C"], first_dealer="C"
    )
    with pytest.raises(CompanyNotFound):
        companies.get(game.edit_token)
    with pytest.raises(GameNotFound):
        store.get_game(company.edit_token)
    view = companies.get(company.view_token)
    assert view.access == "view" and view.edit_token == ""
    with pytest.raises(ReadOnlyAccess):
        companies.add_player(company.view_token, "D")
    ids = [p.id for p in company.roster]
    companies.attach(company.edit_token, game.id, dict(zip("ABC", ids, strict=True)))
    # seen through the company's view link, its games carry no edit token either
    assert companies.get(company.view_token).games[0].game.edit_token == ""
    assert companies.of_game(game.id) == ("Fridays", company.view_token)


def test_a_game_belongs_to_one_company_and_a_payment_key_is_used_once(companies):
    store = companies.store
    one = companies.create(name="1", convention="sochi", options={}, roster=["A", "B", "C"])
    two = companies.create(name="2", convention="sochi", options={}, roster=["A", "B", "C"])
    game = store.create_game(
        name="g", convention="sochi", options={}, players=["A", "B", "C"], first_dealer="C"
    )
    ids = {p.name: p.id for p in one.roster}
    companies.attach(one.edit_token, game.id, ids)
    with pytest.raises(StoreError, match="another company"):
        companies.attach(two.edit_token, game.id, {p.name: p.id for p in two.roster})
    with pytest.raises(StoreError):
        companies.attach(one.edit_token, game.id, {"A": ids["A"], "B": ids["A"], "C": ids["C"]})
    for _ in range(2):
        record = companies.add_payment(
            one.edit_token,
            payer=ids["A"],
            payee=ids["B"],
            amount="3.50",
            paid_on="2026-11-20",
            game_id=game.id,
            request_key="k1",
        )
    assert [(p.amount, p.game_id) for p in record.payments] == [(Decimal("3.50"), game.id)]
    record = companies.delete_payment(one.edit_token, record.payments[0].id)
    assert record.payments == []


def test_a_deleted_game_leaves_the_standings_and_comes_back_when_restored(companies):
    store = companies.store
    company = companies.create(name="c", convention="sochi", options={}, roster=["A", "B", "C"])
    ids = {p.name: p.id for p in company.roster}
    data = random_game(random.Random(7), 12, convention="sochi", players=3)
    kept, dropped = (
        store.create_game(
            name=name,
            convention="sochi",
            options={},
            players=data["players"],
            first_dealer=data["players"][0],
            deals=data["deals"],
            finished=True,
        )
        for name in ("kept", "dropped")
    )
    for game in (kept, dropped):
        names = dict(zip(game.players, ids.values(), strict=True))
        companies.attach(company.edit_token, game.id, names)
    today = datetime.date.today()

    def standings(record):
        found = overview(record, "all", today)
        return [(s.player, s.evenings, s.money) for s in found.standings], found.owed

    both = standings(companies.get(company.edit_token))
    assert len(overview(companies.get(company.edit_token), "all", today).evenings) == 2
    store.delete_game(dropped.edit_token)
    one = companies.get(company.edit_token)
    assert [g.game.name for g in one.games] == ["kept"]
    assert len(overview(one, "all", today).evenings) == 1
    assert standings(one) != both  # one evening fewer for everybody
    store.restore_game(dropped.edit_token)
    assert standings(companies.get(company.edit_token)) == both


def test_a_rename_keeps_the_player_and_his_evenings(companies):
    company = companies.create(name="c", convention="sochi", options={}, roster=["A", "B", "C"])
    pid = company.roster[0].id
    renamed = companies.rename_player(company.edit_token, pid, "Anya")
    assert renamed.player(pid).name == "Anya"
    assert [p.id for p in renamed.roster] == [p.id for p in company.roster]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(format="scorekeeper-game/1"), "not a company file"),
        (lambda d: d["games"][0].update(played_on="2026-02-30"), "played_on"),
        (lambda d: d["games"][0]["players"].popitem(), "every seat"),
        (
            lambda d: d["payments"].append(
                {"payer": 1, "payee": 1, "amount": "1", "paid_on": "2026-01-01"}
            ),
            "payment 1",
        ),
        (lambda d: d["games"][0]["game"].update(players=["A"]), "game 1"),
    ],
)
def test_a_broken_company_file_names_what_is_wrong(change, message):
    data = random_company(1, 1)
    data["payments"] = []
    change(data)
    with pytest.raises(InvalidGame) as caught:
        company_file.load_file(data)
    assert message in "; ".join(str(p) for p in caught.value.problems)


def test_an_old_database_gets_the_company_tables(tmp_path):
    from scorekeeper.store.engine import SqliteEngine
    from scorekeeper.store.schema import migrate

    path = tmp_path / "old.sqlite"
    first_release = SqliteEngine(path, create=True, busy_timeout_ms=5000)
    migrate(first_release, upto="m001_games_deals_revisions")
    tables = "SELECT name FROM sqlite_master WHERE type = 'table'"
    assert "companies" not in {row["name"] for row in first_release.rows(tables)}
    first_release.close()
    with Store(path) as store:
        assert {"companies", "company_players", "company_games", "company_payments"} <= {
            row["name"] for row in store.engine.rows(tables)
        }
