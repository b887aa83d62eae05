"""Issue 32, item 12, against the real `scorekeeper serve`: anyone with the read-only link can
no longer answer as any seat or override an earlier answer.

A seat's answers come from the phone that answered for it first (a cookie-held id, its hash
stored); another phone's answer for it is refused (403, "claimed") and counted, the scorer's
page says the seat was claimed twice and can release it, and the next phone then claims it.
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Iterator

import pytest

from ..served import Phone, Server, checked, correction, new_game, save


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    where = tmp_path_factory.mktemp("seats")
    running = Server(where / "games.sqlite", where / "server.log")
    try:
        yield running.start()
    finally:
        running.stop()


def a_game_with_a_deal(served: Server) -> tuple[Phone, str, str]:
    scorer = Phone(served.port)
    token = new_game(scorer)
    save(scorer, token, checked(scorer, token, **correction("one deal to confirm")))
    view = re.search(r"/v/([A-Za-z0-9_-]+)", scorer.get(f"/g/{token}").html)
    assert view
    return scorer, token, view.group(1)


def answer(phone: Phone, view: str, player: str, verdict: str) -> tuple[int, dict[str, str]]:
    page = phone.get(f"/v/{view}").html
    deal = re.search(r'data-deal="([0-9]+)" data-revision="([0-9]+)"', page)
    assert deal, "no deal to confirm on the read-only page"
    key = json.loads(phone.get(f"/v/{view}/confirm/key").body)
    reply = phone.post(
        f"/v/{view}/confirm",
        {
            "deal": [deal.group(1)],
            "revision": [deal.group(2)],
            "player": [player],
            "verdict": [verdict],
            "note": [""],
            "request_key": [key["request_key"]],
            "csrf_token": [key["csrf_token"]],
        },
    )
    return reply.status, json.loads(reply.body)


def latest(served: Server, player: str) -> str:
    conn = sqlite3.connect(served.db)
    try:
        row = conn.execute(
            "SELECT verdict FROM deal_confirmations WHERE player = ? ORDER BY id DESC LIMIT 1",
            [player],
        ).fetchone()
    finally:
        conn.close()
    return str(row[0])


def test_a_seat_answers_only_from_the_phone_that_claimed_it(served: Server) -> None:
    scorer, token, view = a_game_with_a_deal(served)
    anna, guest = Phone(served.port), Phone(served.port)
    assert answer(anna, view, "Anna", "right")[0] == 200
    assert "pulka_phone" in anna.cookies
    seen = json.loads(scorer.get(f"/g/{token}/version").body)["seen"]
    status, body = answer(guest, view, "Anna", "wrong")  # overriding Anna's answer
    # The scorer's page, following the game, learns of the try (its "seen" changes).
    assert json.loads(scorer.get(f"/g/{token}/version").body)["seen"] != seen
    assert (status, body["reason"]) == (403, "claimed")
    assert "Anna" in body["error"]
    assert latest(served, "Anna") == "right"
    for _ in range(2):  # a phone that keeps no cookie is a new phone every time
        assert answer(Phone(served.port), view, "Anna", "wrong")[0] == 403
    assert latest(served, "Anna") == "right"
    assert answer(guest, view, "Boris", "right")[0] == 200  # a free seat is the guest's
    assert answer(anna, view, "Anna", "wrong")[0] == 200  # Anna changes her mind
    assert latest(served, "Anna") == "wrong"

    page = scorer.get(f"/g/{token}").html
    assert "Tries to answer from another phone: Anna — 3" in page
    release = next(
        f
        for f in re.findall(r"<form[^>]*release-seat.*?</form>", page, re.S)
        if 'value="Anna"' in f
    )
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', release)
    assert csrf
    reply = scorer.post(
        f"/g/{token}/release-seat", {"csrf_token": [csrf.group(1)], "player": ["Anna"]}
    )
    assert reply.status == 302
    assert answer(guest, view, "Anna", "right")[0] == 200  # now the guest's phone is Anna's
    assert answer(anna, view, "Anna", "wrong")[0] == 403
    assert latest(served, "Anna") == "right"


def test_only_the_edit_link_releases_a_seat(served: Server) -> None:
    scorer, token, view = a_game_with_a_deal(served)
    anna = Phone(served.port)
    assert answer(anna, view, "Anna", "right")[0] == 200
    key = json.loads(anna.get(f"/v/{view}/confirm/key").body)
    reply = anna.post(
        f"/g/{view}/release-seat", {"csrf_token": [key["csrf_token"]], "player": ["Anna"]}
    )
    assert reply.status in (302, 403, 404)
    assert answer(Phone(served.port), view, "Anna", "wrong")[0] == 403  # still Anna's phone's
