"""A Save sent by the script may carry the next page in its answer (one round trip, not two)."""

from __future__ import annotations

import re

import pytest

from scorekeeper.store import Store

from .harness import Web, forms_of

PLAYERS = ["Anna", "Boris", "Vera"]
SEVEN = dict(declarer="Anna", contract="7S", answers={"Boris": "whist", "Vera": "pass"},
             tricks={"Anna": 7, "Boris": 2, "Vera": 1})


@pytest.fixture
def token(web: Web) -> str:
    return web.new_game(PLAYERS, first_dealer=2)


def save(web: Web, token: str, headers: dict[str, str]) -> dict:  # type: ignore[type-arg]
    page, form = web.deal_form(token)
    web.fill_deal(form, PLAYERS, "contract", **SEVEN)
    answer = web.client.post(f"/g/{token}/deal/new", data=form.set(action="save").data(),
                             headers=headers)
    assert answer.status_code == 200, answer.get_data(as_text=True)[:500]
    return answer.get_json()  # type: ignore[no-any-return]


def test_a_save_asking_for_the_page_gets_the_game_page_with_the_new_deal(
    web: Web, store: Store, token: str
) -> None:
    answer = save(web, token, {"X-Save": "json", "X-Save-Page": "1", "Accept-Language": "ru"})
    assert answer["saved"] is True and answer["url"] == f"/g/{token}"
    page = answer["page"]
    assert len(store.get_game(token).deals) == 1
    assert 'id="follow"' in page
    assert f'data-version="{store.get_game(token).version}"' in page  # the sheet after the deal
    assert "Раздача 1 записана." in page  # the Save's message is shown on that page ...
    assert "Раздача 1 записана." not in web.client.get(f"/g/{token}").get_data(as_text=True)
    # ... and the language links lead to the game page, not to the form that was sent.
    links = re.findall(r'href="([^"]*lang=[a-z]+)"', page)
    assert links and all(link.startswith(f"/g/{token}?lang=") for link in links), links


def test_the_forms_of_the_page_in_the_answer_are_fresh_and_work(
    web: Web, store: Store, token: str
) -> None:
    page, form = web.deal_form(token)
    web.fill_deal(form, PLAYERS, "contract", **SEVEN)
    data = form.set(action="save").data()
    answer = web.client.post(f"/g/{token}/deal/new", data=data,
                             headers={"X-Save": "json", "X-Save-Page": "1"}).get_json()
    finish = [f for f in forms_of(answer["page"]) if f.action == f"/g/{token}/finish"]
    assert finish, "the game page offers Finish now"
    # Not the deal form's key and version: its own, for the game as it is now.
    assert finish[0].value("request_key") != data["request_key"][0]
    assert finish[0].value("base_version") == str(store.get_game(token).version)
    done = web.client.post(f"/g/{token}/finish", data=finish[0].data())
    assert done.status_code in (200, 302), done.get_data(as_text=True)[:300]
    assert "already used" not in done.get_data(as_text=True)


def test_the_chart_follows_the_page_in_its_own_request(web: Web, token: str) -> None:
    answer = save(web, token, {"X-Save": "json", "X-Save-Page": "1"})
    page = answer["page"]
    chart_url = f"/g/{token}/chart.svg"
    assert f'data-chart="{chart_url}"' in page
    assert "chart-line" not in page  # not drawn into the answer: fetched once it is shown
    chart = web.client.get(chart_url)
    assert chart.status_code == 200 and chart.mimetype == "image/svg+xml"
    svg = chart.get_data(as_text=True)
    assert svg.startswith("<svg") and svg.count("chart-line") >= 3
    again = web.client.get(chart_url, headers={"If-None-Match": chart.headers["ETag"]})
    assert again.status_code == 304
    # The game page loaded as usual leaves it to its own request too (the sheet paints
    # sooner: the chart is over half of a long evening's page); without the script it is
    # an image of the same drawing.
    html = web.client.get(f"/g/{token}").get_data(as_text=True)
    assert f'data-chart="{chart_url}"' in html and "chart-line" not in html
    assert f'<noscript><img src="{chart_url}"' in html


def test_a_followers_refresh_leaves_the_chart_to_its_own_request(
    web: Web, store: Store, token: str
) -> None:
    save(web, token, {"X-Save": "json"})
    view = store.get_game(token).view_token
    refresh = web.client.get(f"/v/{view}", headers={"X-Follow": "1"}).get_data(as_text=True)
    assert f'data-chart="/v/{view}/chart.svg"' in refresh and "chart-line" not in refresh
    chart = web.client.get(f"/v/{view}/chart.svg").get_data(as_text=True)
    assert chart.count("chart-line") >= 3
    opened = web.client.get(f"/v/{view}").get_data(as_text=True)  # opened as usual: the same
    assert f'data-chart="/v/{view}/chart.svg"' in opened and "chart-line" not in opened


def test_without_asking_the_answer_stays_small(web: Web, token: str) -> None:
    answer = save(web, token, {"X-Save": "json"})
    assert answer == {"saved": True, "url": f"/g/{token}"}


def test_an_edit_leads_to_the_log_and_brings_no_page(
    web: Web, store: Store, token: str
) -> None:
    save(web, token, {"X-Save": "json"})
    deal = store.get_game(token).deals[0]
    page, form = web.deal_form(token, deal.id)
    eight = {**SEVEN, "contract": "8S", "tricks": {"Anna": 8, "Boris": 1, "Vera": 1}}
    web.fill_deal(form, PLAYERS, "contract", **eight)
    answer = web.client.post(f"/g/{token}/deal/{deal.id}/edit",
                             data=form.set(action="save").data(),
                             headers={"X-Save": "json", "X-Save-Page": "1"})
    body = answer.get_json()
    assert body["saved"] is True and "/log" in body["url"] and "page" not in body
    assert [d.data["contract"] for d in store.get_game(token).deals] == ["8S"]
