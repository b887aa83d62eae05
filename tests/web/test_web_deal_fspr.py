"""The deal form under the ФСПР preset (issue 46 item 2), through the server: the returned
whist, the dealer's whist and the talon's quick tricks read from the form's fields, stored as
the rules read them, and a refusal shown next to the field it concerns."""

from __future__ import annotations

from scorekeeper.store import Store
from tests.harness import Page, Web

FOUR = ["Anna", "Boris", "Vera", "Gleb"]
# Anna deals the first deal: Boris, Vera and Gleb play; Boris declares, Vera answers first.


def _checked(web: Web, token: str, **fields: str) -> Page:
    page, form = web.deal_form(token)
    web.fill_deal(form, FOUR, "contract", declarer="Boris", contract="6S")
    form.set(**fields)
    return web.check(page, form)


def test_the_form_asks_the_talon_and_the_dealer_only_under_fspr(web: Web) -> None:
    fspr = web.deal_form(web.new_game(FOUR, convention="fspr"))[1]
    assert fspr.radios["talon_tricks"] == ["0", "1", "2", "3"]
    assert "whist-returned" in fspr.radios["answer_1"]
    assert "answer_0" in fspr.radios  # the dealer's row (shown by the script when allowed)
    plain = web.deal_form(web.new_game(FOUR, convention="leningrad"))[1]
    assert "talon_tricks" not in plain.radios


def test_a_returned_whist_with_quick_tricks_is_stored(web: Web, store: Store) -> None:
    token = web.new_game(FOUR, convention="fspr")
    checked = _checked(web, token, answer_2="whist-returned", answer_3="half-whist",
                       tricks_1="6", talon_tricks="2")  # fmt: skip
    assert checked.status == 200, checked.errors()
    preview = checked.text()
    assert "Boris" in preview
    saved = web.save(checked, checked.form("deal-form"))
    assert saved.status == 302, saved.errors()
    data = store.get_game(token).deals[-1].data
    assert data["answers"] == {"Vera": "whist-returned", "Gleb": "half-whist"}
    assert data["talon_tricks"] == 2


def test_the_dealers_whist_is_stored(web: Web, store: Store) -> None:
    token = web.new_game(FOUR, convention="fspr")
    checked = _checked(web, token, answer_2="pass", answer_3="half-whist", answer_0="whist",
                       tricks_1="6")  # fmt: skip
    saved = web.save(checked, checked.form("deal-form"))
    assert saved.status == 302, saved.errors()
    answers = store.get_game(token).deals[-1].data["answers"]
    assert answers == {"Vera": "pass", "Gleb": "half-whist", "Anna": "whist"}


def test_refusals_come_back_next_to_their_field(web: Web, store: Store) -> None:
    token = web.new_game(FOUR, convention="fspr")
    checked = _checked(web, token, answer_2="whist", answer_3="pass", tricks_1="6",
                       talon_tricks="7")  # fmt: skip
    html = checked.html
    assert 'invalid" id="talon_tricks"' in html  # the field itself is marked
    assert "0 to 3" in " ".join(checked.errors())
    checked = _checked(web, token, answer_2="whist", answer_3="pass", answer_0="whist",
                       tricks_1="6")  # fmt: skip
    assert any("Anna" in e for e in checked.errors()), "a dealer's whist after a whist"
    assert store.get_game(token).deals == []
