"""Only the table's answers changed: the long poll says so ("only": "answers"), and the page
fetches only the parts that show them (games.routes.answers), not the whole sheet; any
other change is the whole change, and the whole page."""

from __future__ import annotations

import asyncio
import html
import json
import re
from pathlib import Path
from typing import Any

from flask import Flask

from scorekeeper.longpoll import Router, Watch, answers_only
from scorekeeper.store import Store

from ..harness import START_SECONDS, Web, run_in_its_own_thread
from ..served import follow_of
from .test_web_confirm import PLAYERS, _allpass, _answer, _asked, _follower

PART = re.compile(r'<div id="answers-part" data-version="(\d+)" data-seen="([\d.]+)">')


async def _wait(router: Router, view: str, since: str) -> dict[str, Any]:
    """A phone's held request to the deploy's server (its ASGI app), answered when it is."""
    sent: list[dict[str, Any]] = []
    never: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()

    async def receive() -> dict[str, Any]:
        return await asyncio.shield(never)  # the phone stays: no disconnect

    async def send(message: Any) -> None:
        sent.append(dict(message))

    scope = {
        "type": "http",
        "method": "GET",
        "path": f"/v/{view}/wait",
        "query_string": f"since={since}".encode(),
        "headers": [],
        "client": ("127.0.0.1", 1),
    }
    await router(scope, receive, send)
    assert sent[0]["status"] == 200, sent
    body: dict[str, Any] = json.loads(sent[1]["body"])
    return body


def test_the_wait_says_answers_only_when_only_the_tables_answers_changed(
    web: Web, app: Flask, db_path: Path
) -> None:
    token = web.new_game(PLAYERS)
    _allpass(web, token)
    with Store(db_path, create=False) as store:
        view = store.get_game(token).view_token
    client, ticket, page = _follower(app, view)
    shown = follow_of(page)
    deal, revision = _asked(page)[-1]
    watch = Watch(lambda: Store(db_path, create=False))
    router = Router(app, watch, threads=1, log=lambda *_: None)

    async def night() -> tuple[dict[str, Any], dict[str, Any]]:
        watch.start(asyncio.get_running_loop())
        try:
            held = asyncio.ensure_future(_wait(router, view, shown["data-seen"]))
            await asyncio.sleep(0.4)
            assert not held.done(), "answered before anything changed"
            said = await asyncio.to_thread(_answer, client, view, ticket, deal, revision)
            assert said.status_code == 200
            answered = await asyncio.wait_for(held, START_SECONDS)
            since = f"{answered['version']}.{answered['seen']}"
            held = asyncio.ensure_future(_wait(router, view, since))
            await asyncio.sleep(0.4)
            await asyncio.to_thread(_allpass, web, token)  # a deal: the whole change
            return answered, await asyncio.wait_for(held, START_SECONDS)
        finally:
            watch.stop()

    answered, dealt = run_in_its_own_thread(night)
    assert answered["only"] == "answers"
    assert answered["version"] == int(shown["data-version"])
    assert "only" not in dealt and dealt["version"] == answered["version"] + 1
    # A page that does not show the answers ("12"), or one that missed a deal: the whole.
    assert not answers_only("12", (12, 3))
    assert not answers_only("11.2", (12, 3))
    assert answers_only("12.2", (12, 3)) and not answers_only("12.3", (12, 3))


def test_the_game_page_offers_its_answer_parts_and_they_show_the_new_answers(
    web: Web, app: Flask, db_path: Path
) -> None:
    token = web.new_game(PLAYERS)
    _allpass(web, token)
    with Store(db_path, create=False) as store:
        view = store.get_game(token).view_token
    client, ticket, page = _follower(app, view)
    shown = follow_of(page)
    assert shown["data-answers"] == f"/v/{view}/answers"
    assert 'class="confirmations-none" hidden' in page  # where the card comes
    scorer_page = web.client.get(f"/g/{token}").get_data(as_text=True)
    assert follow_of(scorer_page)["data-answers"] == f"/g/{token}/answers"
    # Pages other than the game's take the whole page.
    assert "data-answers" not in follow_of(client.get(f"/v/{view}/log").get_data(as_text=True))

    deal, revision = _asked(page)[-1]
    assert _answer(client, view, ticket, deal, revision).status_code == 200
    part = client.get(f"/v/{view}/answers")
    assert part.status_code == 200 and part.headers["Cache-Control"] == "no-store"
    text = part.get_data(as_text=True)
    found = PART.search(text)
    assert found is not None, text
    fresh = follow_of(client.get(f"/v/{view}").get_data(as_text=True))
    assert found.group(1) == shown["data-version"]
    assert found.group(2) == fresh["data-seen"] != shown["data-seen"]
    assert 'id="confirmations"' in text and "✓ <bdi>Boris</bdi>" in text
    assert 'id="confirm"' in text and "confirmations-none" not in text
    assert "<html" not in text and 'id="follow"' not in text  # the parts, not the page
    # A follower's parts are the same for every follower: kept, the same bytes.
    other = app.test_client().get(f"/v/{view}/answers").get_data(as_text=True)
    assert other == text

    # The scorer's: the card with the seats' release forms (this session's token), no ask.
    mine = web.client.get(f"/g/{token}/answers").get_data(as_text=True)
    found = PART.search(mine)
    assert found is not None and found.group(2) == fresh["data-seen"]
    assert "release-seat" in mine and 'name="csrf_token"' in mine
    assert 'id="confirm"' not in mine
    assert html.unescape(mine).count("Boris") >= 1
