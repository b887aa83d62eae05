"""The table confirms, through the web: the read-only link writes answers and nothing else."""

from __future__ import annotations

import json
import re
import subprocess

from flask import Flask

from scorekeeper.store import Store

from ..harness import Web

PLAYERS = ["Anna", "Boris", "Vera", "Dmitri"]


def _allpass(web: Web, token: str, tricks: tuple[int, int, int] = (2, 4, 4)) -> None:
    """An all-pass: the dealer sits out (four at the table), the three others take tricks."""
    done = len(web.client.get(f"/g/{token}/game.json").get_json()["deals"])
    playing = [p for i, p in enumerate(PLAYERS) if i != done % len(PLAYERS)]
    web.play(token, PLAYERS, "allpass", tricks=dict(zip(playing, tricks, strict=True)))


def _follower(app: Flask, view: str):
    """Another phone: its own cookie jar, a ticket to answer with."""
    client = app.test_client()
    page = client.get(f"/v/{view}")
    assert page.status_code == 200
    ticket = client.get(f"/v/{view}/confirm/key")
    assert ticket.status_code == 200 and ticket.headers["Cache-Control"] == "no-store"
    return client, ticket.get_json(), page.get_data(as_text=True)


def _asked(html: str) -> list[tuple[int, int]]:
    """The (deal, revision) pairs a follower's page can ask about."""
    return [
        (int(d), int(r)) for d, r in re.findall(r'data-deal="(\d+)" data-revision="(\d+)"', html)
    ]


def _answer(client, view: str, ticket: dict, deal: object, revision: object, **kw: object):
    data = {
        "csrf_token": ticket["csrf_token"],
        "request_key": kw.pop("key", ticket["request_key"]),
        "deal": str(deal),
        "revision": str(revision),
        "player": "Boris",
        "verdict": "right",
        "note": "",
        **kw,
    }
    return client.post(f"/v/{view}/confirm", data=data)


def test_followers_confirm_and_the_scorer_sees_who(web: Web, app: Flask, store: Store) -> None:
    token = web.new_game(PLAYERS)
    _allpass(web, token)
    _allpass(web, token)
    record = store.get_game(token)
    view = record.view_token
    scorer = web.get(f"/g/{token}").html
    assert 'id="confirmations"' not in scorer and 'id="confirm"' not in scorer
    assert "confirm.js" not in scorer  # the scorer's page carries nothing of it
    before = json.loads(web.get(f"/v/{view}/version").html)

    answers = {"Boris": ("right", ""), "Vera": ("right", ""), "Dmitri": ("wrong", "Vera had 5")}
    for player, (verdict, note) in answers.items():
        client, ticket, page = _follower(app, view)
        assert 'id="confirm"' in page and "confirm.js" in page
        assert f'data-iam="{player}"' in page
        deal, revision = _asked(page)[-1]
        assert deal == record.deals[-1].id
        said = _answer(
            client, view, ticket, deal, revision, player=player, verdict=verdict, note=note
        )
        assert said.status_code == 200, said.get_data(as_text=True)
        assert said.get_json()["ok"] is True and said.get_json()["request_key"]

    # The game's version is untouched (a Save in progress is not refused); `seen` moved on.
    after = json.loads(web.get(f"/v/{view}/version").html)
    assert after["version"] == before["version"] == store.get_game(token).version
    assert after["seen"] > before["seen"]
    page = web.get(f"/g/{token}")
    card = page.html[page.html.index('id="confirmations"') :]
    card = card[: card.index("</section>")]
    assert "Deal 2, disputed:" in card and "Vera had 5" in card and "Dmitri" in card
    assert re.search(r"Entries confirmed:\s*<bdi>Anna</bdi> 0 · <bdi>Boris</bdi> 1", card)
    assert f"/g/{token}/deal/{record.deals[-1].id}/edit" in card  # one tap to fix it
    assert f'data-seen="{after["version"]}.{after["seen"]}"' in page.html
    # The follower's kept page is drawn anew with the answers in it.
    follower = web.get(f"/v/{view}", headers={"X-Follow": "1"}).html
    assert "Vera had 5" in follower and "&#34;Dmitri&#34;" in follower
    # The log says who confirmed each deal.
    log = web.get(f"/g/{token}/log").html
    assert "✗ <bdi>Dmitri</bdi>: <bdi>“Vera had 5”</bdi>" in log
    assert 'data-seen="' in log
    # A change clears the deal's answers.
    edit, form = web.deal_form(token, record.deals[-1].id)
    web.fill_deal(form, PLAYERS, "allpass", tricks={"Anna": 4, "Vera": 2, "Dmitri": 4})
    checked = web.check(edit, form)
    saved = web.save(checked, checked.form("deal-form"))
    assert saved.status == 302, saved.errors()
    page = web.get(f"/g/{token}")
    assert "Vera had 5" not in page.html and "disputed:" not in page.html
    assert "Entries confirmed:" in page.html  # the table confirms: the counts stay in view


def test_the_pdf_counts_the_confirmed_deals(web: Web, app: Flask, store: Store) -> None:
    token = web.new_game(PLAYERS)
    _allpass(web, token)
    view = store.get_game(token).view_token
    plain = web.client.get(f"/g/{token}/pulka.pdf")
    assert "confirmed" not in _text(plain.get_data())
    client, ticket, page = _follower(app, view)
    deal, revision = _asked(page)[-1]
    assert _answer(client, view, ticket, deal, revision, player="Vera").status_code == 200
    again = web.client.get(
        f"/g/{token}/pulka.pdf", headers={"If-None-Match": plain.headers["ETag"]}
    )
    assert again.status_code == 200  # not the copy the phone holds
    text = " ".join(_text(again.get_data()).split())
    assert "Entries confirmed at the table" in text and "Vera 1" in text and "Anna 0" in text


def _text(pdf: bytes) -> str:
    return subprocess.run(
        ["pdftotext", "-", "-"], input=pdf, capture_output=True, check=True
    ).stdout.decode()


def test_refusals_are_4xx_with_a_message(web: Web, app: Flask, store: Store) -> None:
    token = web.new_game(PLAYERS)
    _allpass(web, token)
    view = store.get_game(token).view_token
    client, ticket, page = _follower(app, view)
    deal, revision = _asked(page)[-1]

    def refused(status: int, **kw: str) -> str:
        args: dict[str, object] = {"deal": deal, "revision": revision, **kw}
        answer = _answer(client, view, ticket, args.pop("deal"), args.pop("revision"), **args)
        assert answer.status_code == status, answer.get_data(as_text=True)
        body = answer.get_json()
        assert body["error"] and "ok" not in body
        return str(body["error"])

    assert "does not play" in refused(400, player="Zoe")
    assert refused(400, verdict="maybe")
    assert refused(409, revision=str(revision + 1000))
    assert refused(400, deal="1e3")
    assert refused(400, note="x" * 200).startswith("A note holds at most 140")
    assert "session" in refused(400, csrf_token="forged")
    # Without the session's cookie the token is worth nothing.
    stranger = app.test_client()
    answer = stranger.post(
        f"/v/{view}/confirm",
        data={
            "csrf_token": ticket["csrf_token"],
            "request_key": "k",
            "deal": str(deal),
            "revision": str(revision),
            "player": "Boris",
            "verdict": "right",
        },
    )
    assert answer.status_code == 400
    # A key used for one answer is not used for another.
    assert _answer(client, view, ticket, deal, revision).status_code == 200
    assert _answer(client, view, ticket, deal, revision).status_code == 200  # sent again
    assert "already sent" in refused(409, verdict="wrong")
    # The read-only link writes nothing else.
    assert client.post(f"/v/{view}/finish").status_code in (400, 404, 405)
    assert not store.get_game(token).finished
    # A link that is no game's.
    assert client.get(f"/v/{'x' * 30}/confirm/key").status_code == 404
    assert store.get_game(token).version == store.get_game(view).version


def test_a_russian_follower_is_asked_in_russian(web: Web, app: Flask, store: Store) -> None:
    token = web.new_game(PLAYERS)
    _allpass(web, token)
    view = store.get_game(token).view_token
    page = app.test_client().get(f"/v/{view}", headers={"Accept-Language": "ru"})
    html = page.get_data(as_text=True)
    assert "Я — Anna" in html or "Я Anna" in html
    assert "не так" in html
