"""The offline shell: over HTTPS a reload with no network shows the game as last seen.

Real headless Chromium against `scorekeeper serve --https`. Chromium is told to accept the
self-made certificate (`--ignore-certificate-errors`), as a phone does once its owner has
trusted it (README): with a certificate error a browser allows no service worker at all.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest

from ..browser import SMALL_PHONE, pumped, worker_ready
from ..harness import until
from ..served import Browser, Served


def cached_urls(page: Any) -> list[str]:
    urls: list[str] = page.evaluate(
        "() => caches.open('pulka-shell-2').then(c => c.keys()).then(rs => rs.map(r => r.url))"
    )
    return urls


def test_a_reload_without_network_shows_the_game_as_last_seen(
    serve: Callable[..., Served], trusting: Any
) -> None:
    served = serve("--https")
    token = Browser(served).new_game()
    base = f"https://127.0.0.1:{served.port}"
    page = trusting.new_page()
    page.goto(f"{base}/g/{token}")
    worker_ready(page)
    # The worker keeps the page and the shell files as they arrive: wait until all are in.
    # (A shared machine under the whole suite can take many seconds: the bound is only there so
    # a worker that never caches fails instead of hanging.)
    wanted = (f"{base}/g/{token}", "/static/app.css?v=", "/static/app.js?v=")
    deadline = time.monotonic() + 90
    while True:
        urls = cached_urls(page)
        if all(any(w in u for u in urls) for w in wanted) or time.monotonic() > deadline:
            break
        page.wait_for_timeout(200)
    assert f"{base}/g/{token}" in urls
    assert any("/static/app.css?v=" in u for u in urls)
    assert any("/static/app.js?v=" in u for u in urls)
    version = page.get_attribute("#follow", "data-version")
    sheet = page.inner_text("main")

    trusting.set_offline(True)
    page.reload()
    assert page.get_attribute("#follow", "data-version") == version
    shown = page.inner_text("main")
    assert sheet in shown  # the sheet as last seen, under the page's own offline notice
    assert "Offline" in shown
    assert all(name in sheet for name in ("Anna", "Boris", "Vera"))
    # Styled: the stylesheet came from the cache too.
    assert "system-ui" in page.evaluate("() => getComputedStyle(document.body).fontFamily")

    # A page never seen is not invented: the browser's own offline error.
    with pytest.raises(Exception, match="ERR_"):
        page.goto(f"{base}/g/{token}/log")
    trusting.set_offline(False)


def test_no_service_worker_over_plain_http(serve: Callable[..., Served], chromium: Any) -> None:
    served = serve()
    context = chromium.new_context(viewport=SMALL_PHONE)
    try:
        page = context.new_page()
        page.goto(f"http://127.0.0.1:{served.port}/")
        page.wait_for_load_state("load")
        page.wait_for_timeout(300)
        assert page.evaluate("() => navigator.serviceWorker.getRegistrations()") == []
    finally:
        context.close()


def test_a_shell_that_did_not_come_is_asked_for_again(
    serve: Callable[..., Served], trusting: Any
) -> None:
    """The worker's script and a shell file that failed to come (a connection lost) are asked
    for again by themselves: the page is still kept whole for a reload without network."""
    served = serve("--https")
    token = Browser(served).new_game()
    base = f"https://127.0.0.1:{served.port}"
    failed: list[str] = []

    def once(route: Any) -> None:
        """The first request of each of the two fails; later ones go through."""
        name = route.request.url.split("?")[0].rsplit("/", 1)[-1]
        if name not in failed and (name == "sw.js" or route.request.service_worker):
            failed.append(name)
            route.abort()
        else:
            route.continue_()

    trusting.route("**/sw.js", once)
    trusting.route("**/static/app.css?v=*", once)
    page = trusting.new_page()
    page.goto(f"{base}/g/{token}")
    worker_ready(page)
    assert "Failed" in (page.get_attribute("script[data-sw]", "data-sw-error") or "")
    until(pumped(page, lambda: any("/static/app.css?v=" in u for u in cached_urls(page))), "kept")
    assert failed == ["sw.js", "app.css"]
