"""Every write to a company (scorekeeper.company.writes) on a real database file: what it
writes, what it refuses, and that a form sent again writes nothing twice."""

from __future__ import annotations

import datetime
import random
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path

import pytest

from scorekeeper.company import writes
from scorekeeper.rules import PRESETS
from scorekeeper.store import Store
from scorekeeper.store.companies import Companies, CompanyRecord
from scorekeeper.store.errors import RequestKeyReused

DAY = datetime.date(2026, 11, 20)
KEY = "0" * 32


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    with Store(tmp_path / "companies.sqlite") as opened:
        yield opened


@pytest.fixture
def company(store: Store) -> CompanyRecord:
    return writes.create(
        store,
        name="Thursdays",
        convention="sochi",
        options={"stake": "0.10", "currency": "€"},
        roster=["Anna", "Boris", "Vera", "Gleb"],
    )


def ids(company: CompanyRecord, *names: str) -> list[int]:
    by_name = {p.name: p.id for p in company.roster}
    return [by_name[n] for n in names]


def test_a_player_is_added_once_whatever_the_case_or_width(
    store: Store, company: CompanyRecord
) -> None:
    grown = writes.add_player(store, company, "Dima")
    assert [p.name for p in grown.roster][-1] == "Dima"
    for taken in ("dima", "DIMA", "Ｄｉｍａ", "Anna"):
        with pytest.raises(writes.NameTaken) as refused:
            writes.add_player(store, grown, taken)
        assert refused.value.name == taken
    assert len(writes.add_player(store, grown, "Eva").roster) == 6


def test_a_rename_keeps_the_player_and_refuses_another_s_name(
    store: Store, company: CompanyRecord
) -> None:
    (boris,) = ids(company, "Boris")
    renamed = writes.rename_player(store, company, boris, "Borya")
    assert renamed.player(boris).name == "Borya"
    assert writes.rename_player(store, renamed, boris, "BORYA").player(boris).name == "BORYA"
    with pytest.raises(writes.NameTaken):
        writes.rename_player(store, renamed, boris, "anna")


def test_an_evening_started_twice_with_one_key_is_one_game(
    store: Store, company: CompanyRecord
) -> None:
    seats = ids(company, "Vera", "Anna", "Gleb")
    first = writes.start_evening(
        store, company, seats=seats, first_dealer=1, name="Evening", request_key=KEY, played_on=DAY
    )
    assert (list(first.players), first.first_dealer) == (["Vera", "Anna", "Gleb"], "Anna")
    assert first.options == PRESETS["sochi"].to_json() | {"stake": "0.10", "currency": "€"}
    after = Companies(store).get(company.edit_token)
    again = writes.start_evening(
        store, after, seats=seats, first_dealer=0, name="Other", request_key=KEY, played_on=DAY
    )
    assert again.id == first.id
    (evening,) = Companies(store).get(company.edit_token).games
    assert evening.played_on == DAY.isoformat() and evening.players["Vera"] == seats[0]


def test_an_evening_of_two_is_hussar_with_the_company_s_money(
    store: Store, company: CompanyRecord
) -> None:
    game = writes.start_evening(
        store,
        company,
        seats=ids(company, "Anna", "Boris"),
        first_dealer=0,
        name="Two",
        request_key="1" * 32,
        played_on=DAY,
    )
    assert game.convention == "hussar"
    assert game.options["stake"] == "0.10" and game.options["currency"] == "€"
    assert game.options == PRESETS["hussar"].to_json() | {"stake": "0.10", "currency": "€"}


def test_a_payment_sent_again_is_written_once_and_other_values_are_refused(
    store: Store, company: CompanyRecord
) -> None:
    anna, boris = ids(company, "Anna", "Boris")
    form = {"payer": anna, "payee": boris, "amount": "12.50", "paid_on": DAY, "game_id": None}
    paid = writes.add_payment(store, company, **form, request_key=KEY)  # type: ignore[arg-type]
    (payment,) = paid.payments
    assert (payment.payer, payment.payee, payment.amount) == (anna, boris, Decimal("12.50"))
    again = writes.add_payment(store, paid, **form, request_key=KEY)  # type: ignore[arg-type]
    assert [p.id for p in again.payments] == [payment.id]
    with pytest.raises(RequestKeyReused):
        writes.add_payment(store, paid, **{**form, "amount": "13"}, request_key=KEY)  # type: ignore[arg-type]
    assert [p.amount for p in Companies(store).get(company.edit_token).payments] == [
        Decimal("12.50")
    ]
    gone = writes.delete_payment(store, again, payment.id)
    assert gone.payments == []
    assert writes.delete_payment(store, gone, payment.id).payments == []  # twice: harmless


def test_a_payment_for_a_game_of_another_company_is_kept_without_the_game(
    store: Store, company: CompanyRecord
) -> None:
    stranger = store.create_game(
        name="", convention="sochi", options={}, players=["X", "Y", "Z"], first_dealer="X"
    )
    anna, boris = ids(company, "Anna", "Boris")
    paid = writes.add_payment(
        store, company, payer=anna, payee=boris, amount="1", paid_on=DAY,
        game_id=stranger.id, request_key=KEY,
    )  # fmt: skip
    assert [p.game_id for p in paid.payments] == [None]


def _game(store: Store, players: list[str], currency: str = "€") -> str:
    options = {**PRESETS["sochi"].to_json(), "currency": currency}
    record = store.create_game(
        name="Friday",
        convention="sochi",
        options=options,
        players=players,
        first_dealer=players[0],
    )
    return record.edit_token


def test_a_game_attached_by_its_link_joins_the_roster_players_of_its_names(
    store: Store, company: CompanyRecord
) -> None:
    token = _game(store, ["anna", "Boris", "Zoya"])
    game = writes.attach_link(store, company, f"  https://x.example/g/{token}/ ", played_on=DAY)
    assert game.edit_token == token
    now = Companies(store).get(company.edit_token)
    assert [p.name for p in now.roster] == ["Anna", "Boris", "Vera", "Gleb", "Zoya"]
    assert [g.game.id for g in now.games] == [game.id]


@pytest.mark.parametrize(
    ("link", "refusal"),
    [
        ("not a link at all", writes.NoGameAtLink),
        ("https://x.example/g/NoSuchGameToken", writes.NoGameAtLink),
    ],
)
def test_a_link_that_names_no_game_is_refused(
    store: Store, company: CompanyRecord, link: str, refusal: type[Exception]
) -> None:
    with pytest.raises(refusal):
        writes.attach_link(store, company, link)


def test_a_read_only_link_another_currency_or_another_company_s_game_is_refused(
    store: Store, company: CompanyRecord
) -> None:
    token = _game(store, ["Anna", "Boris", "Vera"])
    view = store.get_game(token).view_token
    with pytest.raises(writes.ReadOnlyLink):
        writes.attach_link(store, company, f"/v/{view}")
    dollars = _game(store, ["Anna", "Boris", "Vera"], currency="$")
    with pytest.raises(writes.OtherCurrency) as other:
        writes.attach_link(store, company, dollars)
    assert (other.value.game, other.value.company) == ("$", "€")
    second = writes.create(
        store,
        name="Mondays",
        convention="sochi",
        options={"stake": "0.10", "currency": "€"},
        roster=["Anna"],
    )
    writes.attach_link(store, second, token)
    with pytest.raises(writes.InOtherCompany):
        writes.attach_link(store, company, token)
    assert Companies(store).get(company.edit_token).games == []


def test_an_evening_is_drawn_from_the_players_picked_of_the_roster(
    company: CompanyRecord,
) -> None:
    picked = [str(i) for i in ids(company, "Anna", "Boris", "Vera")]
    seats, dealer = writes.draw_evening(company, [*picked, "999"], random.Random(3))
    assert sorted(seats) == sorted(picked)  # a player not on the roster is left aside
    assert 0 <= dealer < 3
    with pytest.raises(writes.PlayersToPick) as refused:
        writes.draw_evening(company, picked[:1])
    assert refused.value.counts == (2, 3, 4, 5)  # Sochi seats 3 to 5; Hussar 2


@pytest.mark.parametrize(
    ("seats", "dealer", "refusal"),
    [
        (["Anna", "Anna", "Boris"], "0", writes.SeatsRefused),
        (["Anna", "Boris", "nobody"], "0", writes.SeatsRefused),
        (["Anna"], "0", writes.PlayersToPick),
        (["Anna", "Boris", "Vera"], "3", writes.DealerRefused),
        (["Anna", "Boris", "Vera"], "-1", writes.DealerRefused),
        (["Anna", "Boris", "Vera"], "x", writes.DealerRefused),
    ],
)
def test_an_evening_seated_wrongly_starts_nothing(
    store: Store, company: CompanyRecord, seats: list[str], dealer: str, refusal: type
) -> None:
    by_name = {p.name: str(p.id) for p in company.roster}
    with pytest.raises(refusal):
        writes.start_evening_at(
            store,
            company,
            seats=[by_name.get(s, s) for s in seats],
            first_dealer=dealer,
            name="Friday",
            request_key=KEY,
            played_on=DAY,
        )
    assert Companies(store).get(company.edit_token).games == []


@pytest.mark.parametrize(("dealer", "name"), [("2", "Gleb"), ("0", "Vera")])  # the ends
def test_an_evening_seated_as_the_form_sends_it_starts_with_that_dealer(
    store: Store, company: CompanyRecord, dealer: str, name: str
) -> None:
    seats = [str(i) for i in ids(company, "Vera", "Anna", "Gleb")]
    record = writes.start_evening_at(
        store,
        company,
        seats=seats,
        first_dealer=dealer,
        name="Friday",
        request_key=KEY,
        played_on=DAY,
    )
    assert (list(record.players), record.first_dealer) == (["Vera", "Anna", "Gleb"], name)


def test_a_payment_names_two_players_of_the_company_and_one_of_its_evenings(
    store: Store, company: CompanyRecord
) -> None:
    anna, boris = (str(i) for i in ids(company, "Anna", "Boris"))
    assert writes.payment_problems(company, anna, boris, "") == {}
    assert writes.payment_problems(company, anna, "999", None) == {"payer": "players"}
    assert writes.payment_problems(company, None, boris, None) == {"payer": "players"}
    assert writes.payment_problems(company, anna, anna, "") == {"payee": "same"}
    # an evening is named by its number; a game that is no evening of the company is refused
    game = writes.start_evening(
        store, company, seats=ids(company, "Anna", "Boris", "Vera"), first_dealer=0,
        name="Evening", request_key=KEY, played_on=DAY,
    )  # fmt: skip
    company = Companies(store).get(company.edit_token)
    assert writes.evening_of(company, f" {game.id} ") == game.id
    assert writes.payment_problems(company, anna, boris, str(game.id)) == {}
    problems = writes.payment_problems(company, anna, anna, str(game.id + 1))
    assert problems == {"payee": "same", "game": "evening"}
    assert writes.evening_of(company, "x1") is None


def test_a_payment_as_the_form_names_it_is_recorded_or_refused_with_every_problem(
    store: Store, company: CompanyRecord
) -> None:
    anna, boris = (str(i) for i in ids(company, "Anna", "Boris"))
    form = {"payer": anna, "payee": anna, "evening": "77", "paid_on": DAY, "request_key": KEY}
    with pytest.raises(writes.PaymentRefused) as refused:
        writes.pay(store, company, **form, amount="5")  # type: ignore[arg-type]
    assert refused.value.problems == {"payee": "same", "game": "evening"}
    with pytest.raises(writes.PaymentRefused) as refused:  # the amount unreadable: no payment
        writes.pay(store, company, **{**form, "payee": boris, "evening": ""}, amount=None)  # type: ignore[arg-type]
    assert refused.value.problems == {}
    assert Companies(store).get(company.edit_token).payments == []
    paid = writes.pay(store, company, **{**form, "payee": boris, "evening": ""}, amount="5")  # type: ignore[arg-type]
    assert [(p.payer, p.payee, p.amount) for p in paid.payments] == [
        (int(anna), int(boris), Decimal("5"))
    ]


def test_an_evening_of_three_keeps_every_house_rule_of_the_company(store: Store) -> None:
    """docs/company-format.md: `convention` and `options` are the house rules a new evening
    starts from, every one of them (an evening of two is Hussar with the company's money)."""
    company = writes.create(
        store,
        name="Fridays",
        convention="sochi",
        options={"stake": "0.10", "currency": "€", "pool_target": 30},
        roster=["Anna", "Boris", "Vera"],
    )
    game = writes.start_evening(
        store,
        company,
        seats=ids(company, "Anna", "Boris", "Vera"),
        first_dealer=0,
        name="Three",
        request_key="3" * 32,
        played_on=DAY,
    )
    assert game.convention == "sochi"
    assert game.options["pool_target"] == 30 and game.options["stake"] == "0.10"
