"""The deal form: errors next to the field, nothing written on error, check before save,
exactly once, and no silent overwrite when another phone changed the game."""

from __future__ import annotations

import json
import re

import pytest

from scorekeeper.store import Store

from ..harness import Web

PLAYERS = ["Anna", "Boris", "Vera"]


@pytest.fixture
def token(web: Web) -> str:
    return web.new_game(PLAYERS, first_dealer=2)


def deals_of(store: Store, token: str) -> list[dict]:  # type: ignore[type-arg]
    return [d.data for d in store.get_game(token).deals]


SEVEN = dict(
    declarer="Anna",
    contract="7S",
    answers={"Boris": "whist", "Vera": "pass"},
    tricks={"Anna": 7, "Boris": 2, "Vera": 1},
)

A7 = {"kind": "contract", "declarer": "Anna", "contract": "7S"}
"""Anna declares 7♠; the cases below add what is (not) said next."""


@pytest.mark.parametrize(
    ("deal", "field", "message"),
    [
        ({"kind": "contract"}, "declarer", "Choose the declarer"),
        ({"kind": "contract", "declarer": "Anna"}, "contract", "Choose the contract"),
        ({**A7}, "answer_1", "Boris has not answered (whist or pass)"),
        (
            {**A7, "answers": {"Boris": "whist", "Vera": "pass"}},
            "tricks_0",
            "tricks missing: Anna",
        ),
        (
            {
                **A7,
                "answers": {"Boris": "whist", "Vera": "whist"},
                "tricks": {"Anna": 7, "Boris": 2, "Vera": 2},
            },
            "tricks",
            "tricks add up to 11, not 10",
        ),
        (
            {**A7, "contract": "8S", "answers": {"Boris": "pass", "Vera": "half-whist"}},
            "answer_2",
            "Vera: no half-whist on 8 in this game",
        ),
        (
            {**A7, "answers": {"Boris": "half-whist", "Vera": "pass"}},
            "answer_1",
            "Boris: only the second defender, after the first passed, may half-whist",
        ),
        ({"kind": "misere"}, "declarer", "Choose the declarer"),
        ({"kind": "misere", "declarer": "Vera"}, "tricks_2", "tricks missing: Vera"),
        (
            {"kind": "allpass", "tricks": {"Anna": 1, "Boris": 1}},
            "tricks_2",
            "tricks missing: Vera",
        ),
        (
            {"kind": "correction", "entries": [("Anna", "pool", None, "2")]},
            "reason",
            "Say why the correction is made",
        ),
        (
            {"kind": "correction", "reason": "x", "entries": [("Anna", "pool", None, "lots")]},
            "corr_0",
            "Write an amount from −1,000,000 to 1,000,000 whists, e.g. 10, −4 or 2.5 (no exponents)",
        ),
        (
            {"kind": "correction", "reason": "x", "entries": [("Anna", "whists", None, "4")]},
            "corr_0",
            "Choose whom the whists are written on",
        ),
        (
            {"kind": "correction", "reason": "x", "entries": [("Anna", "whists", "Anna", "4")]},
            "corr_0",
            "correction entry 1: Anna cannot write whists on their own name",
        ),
        ({"kind": "correction", "reason": "x"}, "entries", "Write at least one amount"),
        ({"kind": "redeal"}, "kind", "Choose what to record"),
    ],
)
def test_errors_are_shown_next_to_their_field_and_nothing_is_written(
    web: Web,
    store: Store,
    token: str,
    deal: dict,
    field: str,
    message: str,  # type: ignore[type-arg]
) -> None:
    page, form = web.deal_form(token)
    kind = deal.pop("kind")
    web.fill_deal(form, PLAYERS, kind, **deal)
    checked = web.check(page, form)
    assert checked.status == 422
    assert message in checked.errors()
    if field in ("tricks", "entries"):
        # Under the section: the tricks' fieldset, the corrections' after their rows' button.
        if field == "tricks":
            assert message in checked.html.split('class="tricks')[1].split("</fieldset>")[0]
        else:
            assert message in checked.html.split('id="more-rows"')[1].split("</fieldset>")[0]
    elif field.startswith("corr_"):
        # The row's message, before the next row begins.
        row = checked.html.split(f'data-row="{field[5:]}"')[1].split('class="corr-row')[0]
        assert message in row
    else:
        assert f'id="{field}-errors"' in checked.html
        assert message in checked.html.split(f'id="{field}-errors"')[1].split("</ul>")[0]
    assert not checked.form("deal-form").value("checked")
    assert re.search(r'id="save-button"[^>]*hidden', checked.html)
    # Saving anyway (a forged "save") writes nothing either.
    forced = web.save(checked, checked.form("deal-form").set(checked="0" * 32))
    assert forced.status == 422
    assert deals_of(store, token) == []


def test_check_shows_in_words_what_will_be_written_then_save_writes_it(
    web: Web, store: Store, token: str
) -> None:
    page, form = web.deal_form(token)
    web.fill_deal(form, PLAYERS, "contract", **SEVEN)
    checked = web.check(page, form)
    assert checked.status == 200
    assert "What will be written:" in checked.text()
    assert not re.search(r'id="save-button"[^>]*hidden', checked.html)
    assert "Anna: pool +4 (7♠ made)" in checked.text()
    assert "Boris writes 12 whists on Anna (whists: 3 tricks × 4)" in checked.text()
    assert deals_of(store, token) == []  # checking writes nothing
    saved = web.save(checked, checked.form("deal-form"))
    assert saved.status == 302
    assert saved.response.headers["Location"].endswith(f"/g/{token}")
    assert deals_of(store, token) == [
        {
            "type": "contract",
            "declarer": "Anna",
            "contract": "7S",
            "answers": {"Boris": "whist", "Vera": "pass"},
            "tricks": {"Anna": 7, "Boris": 2, "Vera": 1},
        }
    ]


def test_save_writes_only_what_was_checked(web: Web, store: Store, token: str) -> None:
    page, form = web.deal_form(token)
    web.fill_deal(form, PLAYERS, "contract", **SEVEN)
    checked = web.check(page, form)
    changed = checked.form("deal-form").set(contract="8S")  # changed after the check
    again = web.save(checked, changed)
    assert again.status == 200  # shown again, checked anew, not saved
    assert "Anna: hill +6 (remise, one down: 1 × 6)" in again.text()
    assert deals_of(store, token) == []
    web.save(again, again.form("deal-form"))
    assert deals_of(store, token)[0]["contract"] == "8S"


def test_fields_not_relevant_to_the_kind_are_ignored(web: Web, store: Store, token: str) -> None:
    page, form = web.deal_form(token)
    # A misère with leftovers of a contract the scorer started to enter.
    web.fill_deal(
        form,
        PLAYERS,
        "misere",
        declarer="Vera",
        contract="9H",
        answers={"Anna": "whist"},
        tricks={"Vera": 0},
    )
    form.set(reason="left over", corr_amount_0="5", corr_player_0="1")
    checked = web.check(page, form)
    web.save(checked, checked.form("deal-form"))
    assert deals_of(store, token) == [{"type": "misere", "declarer": "Vera", "tricks": {"Vera": 0}}]


def test_both_pass_ignores_the_tricks(web: Web, store: Store, token: str) -> None:
    web.play(
        token,
        PLAYERS,
        "contract",
        declarer="Anna",
        contract="6D",
        answers={"Boris": "pass", "Vera": "pass"},
        tricks={"Anna": 6},
    )
    assert deals_of(store, token)[0] == {
        "type": "contract",
        "declarer": "Anna",
        "contract": "6D",
        "answers": {"Boris": "pass", "Vera": "pass"},
    }


def test_the_same_request_key_twice_writes_one_deal(web: Web, store: Store, token: str) -> None:
    page, form = web.deal_form(token)
    web.fill_deal(form, PLAYERS, "contract", **SEVEN)
    checked = web.check(page, form)
    first = web.save(checked, checked.form("deal-form"))
    second = web.save(checked, checked.form("deal-form"))  # the phone resends the tap
    assert first.status == second.status == 302
    assert second.response.headers["Location"] == first.response.headers["Location"]
    assert len(deals_of(store, token)) == 1
    assert store.get_game(token).version == 2


def test_every_form_render_has_a_fresh_request_key(web: Web, token: str) -> None:
    keys = {web.deal_form(token)[1].value("request_key") for _ in range(3)}
    assert len(keys) == 3
    assert all(k and len(k) == 32 for k in keys)


def test_a_stale_version_shows_the_conflict_and_keeps_the_input(
    web: Web, store: Store, token: str
) -> None:
    page, form = web.deal_form(token)
    web.fill_deal(form, PLAYERS, "contract", **SEVEN)
    checked = web.check(page, form)
    # Meanwhile another phone enters an all-pass (Vera deals; everyone plays).
    web.play(token, PLAYERS, "allpass", tricks={"Anna": 2, "Boris": 4, "Vera": 4})
    conflict = web.save(checked, checked.form("deal-form"))
    assert conflict.status == 409
    # A new deal: the deal the other phone saved is shown beside this one (issue 30 item 8).
    assert "Another phone saved a deal in the meantime" in conflict.text()
    assert "It is the same deal" in conflict.text() and "Save as the next deal" in conflict.text()
    again = conflict.form("deal-form")
    assert again.value("base_version") == "2"
    assert again.value("request_key") != checked.form("deal-form").value("request_key")
    assert again.value("declarer") == "0" and again.value("contract") == "7S"
    assert again.value("tricks_1") == "2"
    assert len(deals_of(store, token)) == 1  # only the other phone's deal
    # Checked against the sheet as it is now, it can be saved straight away.
    assert again.value("checked")
    saved = web.save(conflict, again)
    assert saved.status == 302
    assert [d["type"] for d in deals_of(store, token)] == ["allpass", "contract"]


def test_live_preview_endpoint(web: Web, store: Store, token: str) -> None:
    page, form = web.deal_form(token)
    web.fill_deal(form, PLAYERS, "contract", **SEVEN)
    response = web.client.post(f"/g/{token}/deal/check", data=form.data())
    body = json.loads(response.get_data(as_text=True))
    assert body["ok"] is True
    assert "Anna: pool +4 (7♠ made)" in body["entries"]
    assert len(body["checked"]) == 32
    form.set(tricks_0=None)
    body = web.client.post(f"/g/{token}/deal/check", data=form.data()).get_json()
    assert body["ok"] is False and body["checked"] == ""
    assert body["errors"]["tricks_0"] == ["tricks missing: Anna"]
    assert deals_of(store, token) == []


def test_without_csrf_token_nothing_is_written(web: Web, store: Store, token: str) -> None:
    page, form = web.deal_form(token)
    web.fill_deal(form, PLAYERS, "contract", **SEVEN)
    checked = web.check(page, form)
    data = checked.form("deal-form").set(csrf_token=None, action="save").data()
    response = web.client.post(f"/g/{token}/deal/new", data=data)
    assert response.status_code == 400
    assert deals_of(store, token) == []


def test_the_form_offers_only_the_active_players_and_legal_answers(web: Web, token: str) -> None:
    _, form = web.deal_form(token)
    assert form.radios["kind"] == ["contract", "misere", "allpass", "penalty", "correction"]
    assert form.radios["declarer"] == ["0", "1", "2"]
    assert form.radios["contract"][:6] == ["6S", "6C", "6D", "6H", "6NT", "7S"]
    assert len(form.radios["contract"]) == 25
    assert form.radios["tricks_0"] == [str(n) for n in range(11)]
    # The returned whist (§4.8) wherever a half-whist is allowed: the first defender's tap.
    assert form.radios["answer_0"] == ["whist", "pass", "half-whist", "whist-returned"]
    for field in ("kind", "declarer", "contract", "tricks_0", "reason", "corr_amount_5"):
        assert field in form.names or field in form.radios


def test_no_half_whist_choice_when_the_game_has_none(web: Web) -> None:
    token = web.new_game(PLAYERS, half_whist=None)
    _, form = web.deal_form(token)
    assert form.radios["answer_0"] == ["whist", "pass"]


def test_a_finished_game_takes_no_new_deal(web: Web, store: Store, token: str) -> None:
    game = web.get(f"/g/{token}")
    asked = web.submit(game, game.form("/finish"))
    web.submit(asked, asked.form("finish-confirm"))
    assert store.get_game(token).finished
    page = web.get(f"/g/{token}")
    assert "Next deal</a>" not in page.html
    response = web.client.get(f"/g/{token}/deal/new")
    assert response.status_code == 302
    assert "reopen it to add a deal" in web.get(f"/g/{token}").text()


def test_a_resent_save_lands_on_the_sheet_even_when_the_deal_now_reads_wrong(
    web: Web, store: Store
) -> None:
    # Four players, Anna deals: Boris (next to deal) declares. Once written, Boris deals
    # the next deal, so the same deal checked again would be wrong; only the key tells.
    players = ["Anna", "Boris", "Vera", "Gleb"]
    token = web.new_game(players, first_dealer=0)
    page, form = web.deal_form(token)
    web.fill_deal(
        form,
        players,
        "contract",
        declarer="Boris",
        contract="6S",
        answers={"Vera": "pass", "Gleb": "pass"},
    )
    checked = web.check(page, form)
    first = web.save(checked, checked.form("deal-form"))
    again = web.save(checked, checked.form("deal-form"))
    assert first.status == again.status == 302
    assert again.response.headers["Location"].endswith(f"/g/{token}")
    assert len(deals_of(store, token)) == 1


def test_a_resent_delete_or_undo_lands_quietly(web: Web, store: Store, token: str) -> None:
    web.play(token, PLAYERS, "misere", declarer="Anna", tricks={"Anna": 0})
    web.play(token, PLAYERS, "misere", declarer="Boris", tricks={"Boris": 0})
    first = store.get_game(token).deals[0]
    confirm = web.get(f"/g/{token}/deal/{first.id}/delete")
    assert web.submit(confirm, confirm.form()).status == 302
    again = web.submit(confirm, confirm.form())
    assert again.status == 302 and again.response.headers["Location"].endswith("/log")
    undo = web.get(f"/g/{token}/undo")
    assert web.submit(undo, undo.form()).status == 302
    again = web.submit(undo, undo.form())
    assert again.status == 302
    assert deals_of(store, token) == []
    assert store.get_game(token).version == 5  # create, two deals, delete, undo
    # A stale form with a new key is a conflict, and writes nothing.
    web.play(token, PLAYERS, "misere", declarer="Vera", tricks={"Vera": 0})
    stale = undo.form().set(request_key="f" * 32)
    refused = web.submit(undo, stale, follow=True)
    assert "Another phone changed this game" in refused.text()
    assert len(deals_of(store, token)) == 1


def test_back_after_save_then_a_change_is_refused_and_kept(
    web: Web, store: Store, token: str
) -> None:
    page, form = web.deal_form(token)
    web.fill_deal(form, PLAYERS, "contract", **SEVEN)
    checked = web.check(page, form)
    saved = web.save(checked, checked.form("deal-form"))
    assert saved.status == 302
    # Back: the same page with the same one-time key; the scorer changes the contract.
    changed = checked.form("deal-form").set(contract="8S", action="check")
    rechecked = web.check(checked, changed)
    again = web.save(rechecked, rechecked.form("deal-form"))
    assert again.status == 409
    assert "already saved as deal 1" in again.text()
    kept = again.form("deal-form")
    assert kept.value("contract") == "8S"
    assert kept.value("request_key") != changed.value("request_key")
    assert [d["contract"] for d in deals_of(store, token)] == ["7S"]
    # One more tap turns the saved deal into what the form says.
    button = [b for b in kept.buttons if b == ("action", "save")]
    assert button
    edit = web.client.post(
        f"/g/{token}/deal/{store.get_game(token).deals[0].id}/edit",
        data=kept.set(action="save").data(),
    )
    assert edit.status_code == 302
    assert [d["contract"] for d in deals_of(store, token)] == ["8S"]


def test_the_script_saves_in_one_request_and_a_resend_lands_once(
    web: Web, store: Store, token: str
) -> None:
    page, form = web.deal_form(token)
    web.fill_deal(form, PLAYERS, "contract", **SEVEN)
    data = form.set(action="save").data()
    headers = {"X-Save": "json"}
    first = web.client.post(f"/g/{token}/deal/new", data=data, headers=headers)
    assert first.status_code == 200 and first.get_json()["saved"] is True
    second = web.client.post(f"/g/{token}/deal/new", data=data, headers=headers)
    assert second.get_json()["saved"] is True  # the answer to the first was lost: sent again
    assert len(deals_of(store, token)) == 1
    bad = form.set(contract=None, request_key="0" * 32).data()
    refused = web.client.post(f"/g/{token}/deal/new", data=bad, headers=headers)
    assert refused.status_code == 422
    assert refused.get_json()["errors"]["contract"] == ["Choose the contract"]
    assert len(deals_of(store, token)) == 1


def test_after_a_refusal_the_defenders_stay_in_answer_order(web: Web, token: str) -> None:
    page, form = web.deal_form(token)
    web.fill_deal(form, PLAYERS, "contract", declarer="Boris", contract="7H")
    refused = web.check(page, form)
    assert refused.status == 422
    order = re.findall(r'<fieldset class="taps answer[^"]*"[^>]*id="(answer_\d)"', refused.html)
    assert order == ["answer_2", "answer_0", "answer_1"]  # Vera, Anna; Boris's own row last
