"""A page following its game in Chromium, on the deploy's server and on a laptop's `serve`
(the same long poll): the scorer's sheet shows a follower's answer without asking each
second, and a page that was hidden (a phone asleep) asks again at once when shown, and shows
what changed meanwhile."""

from __future__ import annotations

import json
import re
from typing import Any

from ..browser import SMALL_PHONE, WAIT_MS, shot
from ..served import Phone, Server, checked, correction, new_game


def save(phone: Phone, token: str, reason: str) -> None:
    assert (
        phone.post(f"/g/{token}/deal/new", checked(phone, token, **correction(reason))).status
        == 302
    )


def first_deal(port: int, players: list[str] | None = None) -> tuple[Phone, str, str]:
    """A game with its first deal saved by the scorer's phone: (that phone, the edit token,
    the read-only token)."""
    scorer = Phone(port)
    token = new_game(scorer, players) if players else new_game(scorer)
    save(scorer, token, "the first deal")
    found = re.search(r"/v/([A-Za-z0-9_-]+)", scorer.get(f"/g/{token}").html)
    assert found is not None
    return scorer, token, found.group(1)


def answer(port: int, view: str, player: str) -> None:
    """A follower's phone says the last deal is right (confirm.js's two requests)."""
    follower = Phone(port)
    card = follower.get(f"/v/{view}").html
    deal, revision = re.findall(r'data-deal="(\d+)" data-revision="(\d+)"', card)[-1]
    ticket = json.loads(follower.get(f"/v/{view}/confirm/key").body)
    body = {k: [v] for k, v in ticket.items()}
    body |= {"deal": [deal], "revision": [revision], "player": [player], "verdict": ["right"]}
    assert follower.post(f"/v/{view}/confirm", body).status == 200


def test_the_scorers_page_waits_shows_answers_and_catches_up_after_sleeping(
    deploy: Server, chromium: Any
) -> None:
    scorer = Phone(deploy.port)
    token = new_game(scorer)
    save(scorer, token, "the first deal")
    view = re.search(r"/v/([A-Za-z0-9_-]+)", scorer.get(f"/g/{token}").html)
    assert view is not None
    context = chromium.new_context(viewport=SMALL_PHONE)
    page = context.new_page()
    asked: list[str] = []
    page.on(
        "request",
        lambda r: asked.append(r.url) if "/wait" in r.url or "/version" in r.url else None,
    )
    try:
        page.goto(f"http://127.0.0.1:{deploy.port}/g/{token}")
        page.wait_for_function("() => performance.getEntriesByType('resource').length > 0")
        answer(deploy.port, view.group(1), "Anna")
        page.wait_for_selector("#confirmations", timeout=WAIT_MS)
        assert "Anna" in page.inner_text("#confirmations")
        page.wait_for_timeout(3000)  # a quiet table: the page holds one request, asks nothing
        assert not [u for u in asked if "/version" in u], asked
        held = len(asked)
        assert 1 <= held <= 3, asked
        shot(page, "follow-scorer-answer")

        # The phone sleeps: the page stops asking; a deal saved meanwhile is not shown...
        page.evaluate(
            "() => { Object.defineProperty(document, 'hidden', {configurable: true, get: () => true});"
            " document.dispatchEvent(new Event('visibilitychange')); }"
        )
        before = page.get_attribute("#follow", "data-version")
        save(scorer, token, "saved while the phone slept")
        page.wait_for_timeout(1500)
        assert page.get_attribute("#follow", "data-version") == before
        assert len(asked) == held, asked[held:]
        # ...and woken, it asks at once and shows it.
        page.evaluate(
            "() => { Object.defineProperty(document, 'hidden', {configurable: true, get: () => false});"
            " document.dispatchEvent(new Event('visibilitychange')); }"
        )
        page.wait_for_function(
            "v => document.getElementById('follow').getAttribute('data-version') === v",
            arg=str(int(before or 0) + 1),
            timeout=WAIT_MS,
        )
        assert len(asked) > held
    finally:
        context.close()
