"""A company sums money in its own currency only: a game in another cannot join it, and one
already there (from an older version, or a company file) is shown apart, never summed."""

from __future__ import annotations

from scorekeeper.company.currency import currency_problem
from scorekeeper.company.table import overview
from scorekeeper.store import Store
from scorekeeper.store.companies import Companies

from ..flows import finish, new_company, play_some
from ..harness import Web


def test_two_currencies_are_the_same_only_when_they_read_the_same() -> None:
    assert currency_problem({"currency": "₽"}, {"currency": " ₽ "}) is None
    assert currency_problem({"currency": "EUR"}, {"currency": "eur"}) is None
    assert currency_problem({}, {"currency": ""}) is None
    assert currency_problem({"currency": "₽"}, {"currency": "грн"}) == {
        "game": "грн",
        "company": "₽",
    }
    assert currency_problem({"currency": "₽"}, {}) == {"game": "—", "company": "₽"}


def test_a_game_in_another_currency_is_not_attached_and_says_why(web: Web, store: Store) -> None:
    token = new_company(web, roster=("Anna", "Boris", "Vera"), opt_currency="₽")
    game = web.new_game(["Anna", "Boris", "Vera"], currency="грн")
    web.get("/?lang=ru")
    page = web.get(f"/c/{token}")
    said = web.submit(page, page.form("/attach").set(link=game))
    assert said.status == 422
    assert "Деньги этой игры — в грн, а компании — в ₽" in " ".join(said.errors())
    assert Companies(store).get(token).games == []
    same = web.new_game(["Anna", "Boris", "Vera"], currency="₽")
    page = web.get(f"/c/{token}")
    assert web.submit(page, page.form("/attach").set(link=same)).status == 302
    assert len(Companies(store).get(token).games) == 1


def test_a_game_already_in_another_currency_is_shown_apart_and_not_summed(
    web: Web, store: Store
) -> None:
    import datetime

    token = new_company(web, roster=("Anna", "Boris", "Vera"), opt_currency="₽")
    game = web.new_game(["Anna", "Boris", "Vera"], currency="грн", name="Kyiv")
    play_some(web, store, game)
    finish(web, game)
    companies = Companies(store)
    record = store.get_game(game)
    company = companies.get(token)
    ids = {p.name: p.id for p in company.roster}
    # As an older version let it in: attached straight in the store.
    companies.attach(token, record.id, {n: ids[n] for n in record.players})
    view = overview(companies.get(token), "all", datetime.date.today())
    assert [g.game.name for g in view.apart] == ["Kyiv"]
    assert view.evenings == [] and view.playing == []
    assert all(v == 0 for v in view.owed.values())
    web.get("/?lang=uk")
    text = web.get(f"/c/{token}").text()
    assert "В іншій валюті" in text and "Kyiv" in text and "грн" in text
