"""One Save flow: the same endpoint answers the script with a small JSON (saved, the deal's
number, the page to go to) and a form without the script with a redirect; the page it names
says "Deal N saved" with Change and Undo beside it, and Back to the form never doubles a deal."""

from __future__ import annotations

import re

import pytest

from scorekeeper.store import Store

from ..harness import Web

PLAYERS = ["Anna", "Boris", "Vera"]
SEVEN = dict(
    declarer="Anna",
    contract="7S",
    answers={"Boris": "whist", "Vera": "pass"},
    tricks={"Anna": 7, "Boris": 2, "Vera": 1},
)
EIGHT = {**SEVEN, "contract": "8S", "tricks": {"Anna": 8, "Boris": 1, "Vera": 1}}
SCRIPT = {"X-Save": "json"}


@pytest.fixture
def token(web: Web) -> str:
    return web.new_game(PLAYERS, first_dealer=2)


def save(web: Web, token: str, headers: dict[str, str]) -> dict:  # type: ignore[type-arg]
    page, form = web.deal_form(token)
    web.fill_deal(form, PLAYERS, "contract", **SEVEN)
    answer = web.client.post(
        f"/g/{token}/deal/new", data=form.set(action="save").data(), headers=headers
    )
    assert answer.status_code == 200, answer.get_data(as_text=True)[:500]
    return answer.get_json()  # type: ignore[no-any-return]


def test_the_script_gets_a_small_answer_naming_the_page_to_load(
    web: Web, store: Store, token: str
) -> None:
    answer = save(web, token, {**SCRIPT, "Accept-Language": "ru"})
    # No page inside the answer: the deal's number and where to go, nothing more.
    assert answer == {"saved": True, "deal": 1, "next": f"/g/{token}"}
    assert len(store.get_game(token).deals) == 1
    russian = {"Accept-Language": "ru"}
    page = web.get(answer["next"], headers=russian)
    assert "Раздача 1 записана." in page.html  # the Save's message, on the page it names ...
    assert f'data-version="{store.get_game(token).version}"' in page.html
    assert "Раздача 1 записана." not in web.get(f"/g/{token}", headers=russian).html  # ... once


def test_without_the_script_the_same_endpoint_redirects(web: Web, store: Store, token: str) -> None:
    page, form = web.deal_form(token)
    web.fill_deal(form, PLAYERS, "contract", **SEVEN)
    checked = web.check(page, form)
    saved = web.save(checked, checked.form("deal-form"))
    assert saved.status == 302 and saved.response.headers["Location"] == f"/g/{token}"
    assert "Deal 1 saved." in web.get(f"/g/{token}").html


def test_saved_carries_change_and_undo_one_tap_each(web: Web, store: Store, token: str) -> None:
    save(web, token, SCRIPT)
    deal = store.get_game(token).deals[0]
    page = web.get(f"/g/{token}")
    message = re.search(r'<section class="saved".*?</section>', page.html, flags=re.S)
    assert message and "Deal 1 saved." in message.group(0)
    assert f'href="/g/{token}/deal/{deal.id}/edit"' in message.group(0)
    undo = page.form(f"/g/{token}/undo")
    done = web.submit(page, undo)  # one tap: no confirmation page between
    assert done.status == 302 and store.get_game(token).deals == []
    assert "Deal 1 undone." in web.get(f"/g/{token}").html


def test_a_change_returns_to_the_sheet_with_next_deal(web: Web, store: Store, token: str) -> None:
    save(web, token, SCRIPT)
    deal = store.get_game(token).deals[0]
    page, form = web.deal_form(token, deal.id)
    web.fill_deal(form, PLAYERS, "contract", **EIGHT)
    answer = web.client.post(
        f"/g/{token}/deal/{deal.id}/edit", data=form.set(action="save").data(), headers=SCRIPT
    ).get_json()
    assert answer == {"saved": True, "deal": 1, "next": f"/g/{token}"}
    assert [d.data["contract"] for d in store.get_game(token).deals] == ["8S"]
    sheet = web.get(answer["next"])
    assert "Deal 1 changed." in sheet.html and 'id="next-deal"' in sheet.html


def test_back_to_a_saved_form_leads_to_that_deal_never_to_a_new_one(
    web: Web, store: Store, token: str
) -> None:
    # "Next deal" opens the form under an address carrying its one-time key.
    sheet = web.get(f"/g/{token}")
    href = re.search(r'id="next-deal" href="([^"]+)"', sheet.html)
    assert href and "?k=" in href.group(1)
    url = href.group(1).replace("&amp;", "&")
    page = web.get(url)
    form = page.form("deal-form")
    assert form.value("request_key") == url.rsplit("=", 1)[1]
    web.fill_deal(form, PLAYERS, "contract", **SEVEN)
    checked = web.submit(page, form, button=("action", "check"))
    assert web.save(checked, checked.form("deal-form")).status == 302
    # Back: the browser opens that address again, fresh. It leads to the saved deal's
    # change form, not to a blank form that would become deal 2.
    back = web.client.get(url)
    deal = store.get_game(token).deals[0]
    assert back.status_code == 302
    assert back.headers["Location"] == f"/g/{token}/deal/{deal.id}/edit"
    change = web.get(back.headers["Location"])
    assert "Deal 1 is saved: change it here" in change.html
    form = change.form("deal-form")
    web.fill_deal(form, PLAYERS, "contract", **EIGHT)
    checked = web.submit(change, form, button=("action", "check"))
    assert web.save(checked, checked.form("deal-form")).status == 302
    assert [d.data["contract"] for d in store.get_game(token).deals] == ["8S"]


def test_a_conflict_is_one_answer_for_both(web: Web, store: Store, token: str) -> None:
    page, form = web.deal_form(token)
    web.fill_deal(form, PLAYERS, "contract", **SEVEN)
    save(web, token, SCRIPT)  # another phone saves first
    stale = form.set(action="save").data()
    as_script = web.client.post(f"/g/{token}/deal/new", data=stale, headers=SCRIPT)
    body = as_script.get_json()
    assert as_script.status_code == 409 and body["saved"] is False
    assert body["refused"].startswith("Another phone changed this game")
    assert body["base_version"] == store.get_game(token).version  # a fresh form, input kept
    assert body["request_key"] != stale["request_key"][0]
    # Two phones, one deal (issue 30 item 8): what the other phone saved, and the numbers as
    # they are now (this form's deal would be deal 2).
    assert body["latest"]["name"] == "Deal 1"
    assert body["latest"]["title"] == "Anna 7♠"
    assert body["headings"]["deal"] == "Deal 2" and body["headings"]["correction"] == "Correction 1"
    plain = web.client.post(f"/g/{token}/deal/new", data=stale)
    assert plain.status_code == 409
    html = plain.get_data(as_text=True)
    assert "Another phone saved a deal in the meantime" in html
    assert 'id="same-deal-discard"' in html and 'id="same-deal-save"' in html
    assert ">Deal 2<" in html
    assert len(store.get_game(token).deals) == 1


def test_a_save_no_resend_can_fix_is_a_final_refusal(web: Web, store: Store, token: str) -> None:
    """Issue 30 item 2: the reason code, a translated message and a proper status; without
    the script, the form again with why (what was typed kept)."""
    page, form = web.deal_form(token)
    web.fill_deal(form, PLAYERS, "contract", **SEVEN)
    sent = form.set(action="save").data()
    record = store.get_game(token)
    store.set_finished(token, True, base_version=record.version)
    over = web.client.post(f"/g/{token}/deal/new", data=sent, headers=SCRIPT)
    assert over.status_code == 409
    assert over.get_json()["final"] == "game_over"
    assert over.get_json()["refused"].startswith("The game is finished")
    plain = web.client.post(f"/g/{token}/deal/new", data=sent)
    assert plain.status_code == 409
    assert "The game is finished" in plain.get_data(as_text=True)
    chosen = re.search(r'name="contract" value="7S"[^>]*>', plain.get_data(as_text=True))
    assert chosen and "checked" in chosen.group(0), chosen
    # In Russian, with the link replaced: the message in the page's language, 404.
    new = store.replace_token(token, "edit").edit_token
    web.get("/?lang=ru")
    gone = web.client.post(f"/g/{token}/deal/new", data=sent, headers=SCRIPT)
    assert gone.status_code == 404
    assert gone.get_json()["final"] == "link_gone"
    assert gone.get_json()["refused"].startswith("По этой ссылке")
    # A game deleted: 410.
    web.get("/?lang=en")
    store.delete_game(new)
    deleted = web.client.post(f"/g/{new}/deal/new", data=sent, headers=SCRIPT)
    assert deleted.status_code == 410 and deleted.get_json()["final"] == "game_deleted"
    assert store.deleted_game(new) is not None


def test_the_chart_follows_the_page_in_its_own_request(web: Web, token: str) -> None:
    answer = save(web, token, SCRIPT)
    chart_url = f"/g/{token}/chart.svg"
    html = web.get(answer["next"]).html
    assert f'data-chart="{chart_url}"' in html and "chart-line" not in html
    assert f'<noscript><img src="{chart_url}"' in html  # without the script: an image
    chart = web.client.get(chart_url)
    assert chart.status_code == 200 and chart.mimetype == "image/svg+xml"
    svg = chart.get_data(as_text=True)
    assert svg.startswith("<svg") and svg.count("chart-line") >= 3
    again = web.client.get(chart_url, headers={"If-None-Match": chart.headers["ETag"]})
    assert again.status_code == 304


def test_a_followers_refresh_leaves_the_chart_to_its_own_request(
    web: Web, store: Store, token: str
) -> None:
    save(web, token, SCRIPT)
    view = store.get_game(token).view_token
    refresh = web.client.get(f"/v/{view}", headers={"X-Follow": "1"}).get_data(as_text=True)
    assert f'data-chart="/v/{view}/chart.svg"' in refresh and "chart-line" not in refresh
    chart = web.client.get(f"/v/{view}/chart.svg").get_data(as_text=True)
    assert chart.count("chart-line") >= 3
    opened = web.client.get(f"/v/{view}").get_data(as_text=True)  # opened as usual: the same
    assert f'data-chart="/v/{view}/chart.svg"' in opened and "chart-line" not in opened


def test_the_forms_problems_are_tied_to_their_fields(web: Web, token: str) -> None:
    """Issue 30 (keyboard): a field the form finds fault with is aria-invalid and described
    by the message next to it (the id it names is on the page, once)."""
    page, form = web.deal_form(token)
    form.set(kind="contract", declarer="0")
    checked = web.check(page, form)
    assert checked.status == 422
    html = checked.html
    described = set(re.findall(r'aria-invalid="true" aria-describedby="([^"]+)"', html))
    assert described, "no field is marked invalid"
    for target in described:
        assert html.count(f'id="{target}"') == 1, target
    assert 'id="-errors"' not in html
