"""A page following its game in Chromium, on the deploy's server and on a laptop's `serve`
(the same long poll): the scorer's sheet shows a follower's answer without asking each
second, and a page that was hidden (a phone asleep) asks again at once when shown, and shows
what changed meanwhile."""

from __future__ import annotations

import json
import re
from typing import Any

from ..browser import SMALL_PHONE, WAIT_MS, held_requests, pumped, shot
from ..harness import until
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


def test_a_held_request_that_hangs_is_given_up_and_the_page_follows_on(
    real_server: Any, chromium: Any
) -> None:
    """A held request the server would answer within 50 s hangs on a stuck connection (held
    here by routing; Playwright's clock runs the page's timers): 20 s beyond the server's
    hold the page gives it up, says it is not connected, asks again, and shows the next deal
    saved on another phone. The notice goes as soon as the server answers again."""
    scorer, token, _ = first_deal(real_server.port)
    context = chromium.new_context(viewport=SMALL_PHONE)
    page = context.new_page()
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if "/wait?" in r.url else None)
    held = held_requests(page, "**/wait?*", first=True)
    try:
        page.clock.install()
        page.goto(f"{real_server.url}/g/{token}")
        page.clock.run_for(100)
        until(pumped(page, lambda: bool(held)), "the page's held request sent")
        page.clock.run_for(69_000)
        assert len(asked) == 1, asked
        assert page.is_hidden("#netstate")
        page.clock.run_for(2_000)  # 70 s: given up
        page.wait_for_selector("#netstate:not([hidden])")
        page.clock.run_for(1_500)  # asked again a second later
        until(pumped(page, lambda: len(asked) >= 2), "the page asking again")
        # ...as a page that has seen nothing, which the server answers at once: the notice
        # goes as soon as the connection is back, not after a hold with no change.
        assert "since=0&" in asked[1], asked
        page.wait_for_selector("#netstate", state="hidden")
        until(pumped(page, lambda: len(asked) >= 3), "the page holding its request again")
        assert "since=0&" not in asked[2], asked
        before = page.get_attribute("#follow", "data-version")
        save(scorer, token, "saved after the stuck request")
        page.wait_for_function(
            "v => document.getElementById('follow').getAttribute('data-version') === v",
            arg=str(int(before or 0) + 1),
            timeout=WAIT_MS,
        )
        assert page.is_hidden("#netstate")
    finally:
        context.close()
