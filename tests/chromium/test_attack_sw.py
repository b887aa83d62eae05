"""Issue 22, row 11: the offline shell forgets a game's pages when its link is replaced, when
the game is forgotten on this phone or deleted, and never keeps the links page (it shows the
edit link). Real headless Chromium trusting `scorekeeper serve --https` (as in
test_web_offline.py), reading the worker's Cache Storage.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Any

import pytest

from ..browser import worker_ready
from ..served import Browser, Served
from .test_web_offline import cached_urls


def paths(page: Any) -> set[str]:
    return {re.sub(r"^https://[^/]+", "", url) for url in cached_urls(page)}


def wait_for(page: Any, check: Callable[[set[str]], bool], what: str) -> set[str]:
    deadline = time.monotonic() + 15
    while True:
        found = paths(page)
        if check(found):
            return found
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}; kept: {sorted(found)}")
        page.wait_for_timeout(100)


def view_token(page: Any) -> str:
    href = page.get_attribute("a.view-link", "href") or ""
    return href.rstrip("/").rsplit("/", 1)[-1]


def test_replaced_forgotten_and_deleted_games_leave_the_offline_shell(
    serve: Callable[..., Served],
    trusting: Any,
) -> None:
    served = serve("--https")
    browser = Browser(served)
    token, other = browser.new_game(), browser.new_game()
    base = f"https://127.0.0.1:{served.port}"
    page = trusting.new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    page.goto(f"{base}/g/{token}")
    worker_ready(page)
    wait_for(page, lambda p: f"/g/{token}" in p, "the game page is kept")

    # The links page is never kept, however it is reached.
    page.goto(f"{base}/g/{token}/links")
    view = view_token(page)
    page.goto(f"{base}/v/{view}")
    kept = wait_for(page, lambda p: f"/v/{view}" in p, "the read-only page is kept")
    assert not any(p.endswith("/links") for p in kept), kept

    # Replace the edit link: the old edit pages go; the read-only ones stay.
    page.goto(f"{base}/g/{token}/links")
    page.click(f'form[action="/g/{token}/links/edit"] button')
    page.wait_for_url(re.compile(r"/g/[^/]+/links$"))
    new = page.url.rsplit("/", 2)[-2]
    assert new != token
    kept = wait_for(page, lambda p: f"/g/{token}" not in p, "the old edit link's page went")
    assert f"/v/{view}" in kept
    assert not any(p.endswith("/links") for p in kept), kept

    # Replace the read-only link: its pages go too.
    page.click(f'form[action="/g/{new}/links/view"] button')
    page.wait_for_url(re.compile(r"/links$"))
    wait_for(page, lambda p: f"/v/{view}" not in p, "the old read-only page went")

    # Forget the game on this phone: every page of it goes.
    page.goto(f"{base}/g/{new}")
    wait_for(page, lambda p: f"/g/{new}" in p, "the game page under the new link is kept")
    page.goto(f"{base}/")
    page.click(f'form.forget:has(input[value="{new}"]) button')
    page.wait_for_url(f"{base}/")
    wait_for(page, lambda p: not any(new in x for x in p), "the forgotten game's pages went")

    # Delete a game: its pages go.
    page.goto(f"{base}/g/{other}")
    wait_for(page, lambda p: f"/g/{other}" in p, "the other game is kept")
    page.goto(f"{base}/g/{other}/delete")
    page.click("form[method=post] button.danger")
    page.wait_for_load_state("load")
    wait_for(page, lambda p: f"/g/{other}" not in p, "the deleted game's page went")

    # Offline, none of the old links opens anything.
    trusting.set_offline(True)
    try:
        for gone in (f"/g/{token}", f"/v/{view}", f"/g/{new}", f"/g/{new}/links"):
            with pytest.raises(Exception, match="ERR_"):
                page.goto(f"{base}{gone}")
    finally:
        trusting.set_offline(False)
