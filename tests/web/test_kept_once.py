"""Followers woken by the same change ask for the same page at the same moment (it rides
with their held requests' answers): one thread of the process draws it, the others wait for
that drawing and are sent the same bytes."""

from __future__ import annotations

import re
import threading
from typing import Any

from flask import Flask, template_rendered

from ..harness import Web

FOLLOWERS = 6


def asked_together(app: Flask, path: str, headers: dict[str, str]) -> list[bytes]:
    """The answers of FOLLOWERS phones that ask for `path` at the same moment."""
    start = threading.Barrier(FOLLOWERS)
    bodies: list[bytes] = []

    def phone() -> None:
        client = app.test_client()
        start.wait()
        reply = client.get(path, headers=headers)
        assert reply.status_code == 200
        bodies.append(reply.data)

    threads = [threading.Thread(target=phone) for _ in range(FOLLOWERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return bodies


def test_followers_asking_together_get_one_drawing_of_the_page_and_part(
    app: Flask, web: Web
) -> None:
    token = web.new_game(["Anna", "Boris", "Vera"])
    found = re.search(r"/v/([A-Za-z0-9_-]+)", web.get(f"/g/{token}").html)
    assert found is not None
    view = found.group(1)
    drawn: list[str] = []

    def record(sender: Any, template: Any, context: Any, **extra: Any) -> None:
        drawn.append(template.name)

    with template_rendered.connected_to(record, app):
        pages = asked_together(app, f"/v/{view}", {"X-Follow": "1", "Accept-Encoding": ""})
        parts = asked_together(app, f"/v/{view}/answers", {"Accept-Encoding": ""})
    assert len(pages) == FOLLOWERS and len(set(pages)) == 1
    assert len(parts) == FOLLOWERS and len(set(parts)) == 1
    assert drawn.count("game.html") == 1, drawn
    assert drawn.count("game/_answers.html") == 1, drawn
