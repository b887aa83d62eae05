"""What a follower's page needs after a change rides with the answer of its held request
(longpoll.py's `page=` and `answers=`): a follower learns of a Save and shows it, and of an
answer of the table and shows it, with one request each, counted by the phone and by the
server's access log."""

from __future__ import annotations

import json
import re
import threading
import urllib.parse
from pathlib import Path

from scorekeeper.store import Store

from .harness import until
from .served import Phone, Reply, Server, checked, correction, follow_of, new_game, view_of
from .store.test_store import new_game as store_game

ANSWERS_PART = re.compile(r'<div id="answers-part" data-version="(\d+)" data-seen="([\d.]+)">')


class CountedPhone(Phone):
    """A phone that counts its own requests by path."""

    def __init__(self, port: int) -> None:
        super().__init__(port)
        self.asked: list[str] = []

    def request(self, method: str, path: str, body: bytes = b"", kind: str = "") -> Reply:
        self.asked.append(f"{method} {urllib.parse.urlsplit(path).path}")
        return super().request(method, path, body, kind)


def rides(shown: dict[str, str], page: str) -> str:
    """The wait's address as static/app.js asks it: what the page shows, and what it would
    fetch after a change."""
    url = f"{shown['data-wait']}?since={urllib.parse.quote(shown['data-seen'])}"
    url += "&answers=" + urllib.parse.quote(shown["data-answers"], safe="")
    return url + "&page=" + urllib.parse.quote(page, safe="")


def held(phone: Phone, url: str) -> tuple[threading.Thread, list[Reply]]:
    answer: list[Reply] = []
    thread = threading.Thread(target=lambda: answer.append(phone.get(url)), daemon=True)
    thread.start()
    return thread, answer


def answered(thread: threading.Thread, answer: list[Reply]) -> Reply:
    thread.join(30)
    assert answer, "the held request was not answered"
    return answer[0]


def answer_deal(phone: Phone, view: str, page: str) -> None:
    """A follower says the last deal of the page is right."""
    deal, revision = re.findall(r'data-deal="(\d+)" data-revision="(\d+)"', page)[-1]
    ticket = json.loads(phone.get(f"/v/{view}/confirm/key").body)
    body = {k: [v] for k, v in ticket.items()}
    body |= {"deal": [deal], "revision": [revision], "player": ["Anna"], "verdict": ["right"]}
    assert phone.post(f"/v/{view}/confirm", body).status == 200


def test_a_follower_learns_of_a_save_and_of_an_answer_with_one_request_each(
    deploy: Server,
) -> None:
    scorer, other = Phone(deploy.port), Phone(deploy.port)
    token = new_game(scorer)
    view = view_of(scorer, token)
    follower = CountedPhone(deploy.port)
    shown = follow_of(follower.get(f"/v/{view}").html)
    follower.asked.clear()
    # A Save: the wait's answer is the follower's new page, the JSON in its X-Wait header.
    thread, answer = held(follower, rides(shown, f"/v/{view}"))
    fields = checked(scorer, token, **correction("a deal the follower sees at once"))
    assert scorer.post(f"/g/{token}/deal/new", fields).status == 302
    page = answered(thread, answer)
    said = json.loads(page.headers["X-Wait"])
    assert page.status == 200 and page.headers["Cache-Control"] == "no-store"
    assert said["version"] == int(shown["data-version"]) + 1 and "only" not in said
    fresh = follow_of(page.html)
    assert fresh["data-seen"] == f"{said['version']}.{said['seen']}"
    assert "deal the follower sees at once" in page.html
    assert follower.asked == [f"GET /v/{view}/wait"]  # the one request: no swap fetched after
    # An answer of the table: the wait's answer is the part that shows the answers.
    follower.asked.clear()
    thread, answer = held(follower, rides(fresh, f"/v/{view}"))
    answer_deal(other, view, page.html)
    part = answered(thread, answer)
    said = json.loads(part.headers["X-Wait"])
    assert said["only"] == "answers" and said["version"] == int(fresh["data-version"])
    found = ANSWERS_PART.search(part.html)
    assert found is not None
    assert found.groups() == (fresh["data-version"], f"{said['version']}.{said['seen']}")
    assert follower.asked == [f"GET /v/{view}/wait"]  # the one request: no part fetched after
    # The server's log: each held request one line, what rode with it one line of its own.
    # (written once each answer is sent, by either process: waited for as events)
    until(lambda: deploy.log.read_text().count("GET /v/***/wait") >= 2, "the waits' lines")
    until(lambda: "GET /v/***/answers" in deploy.log.read_text(), "the ridden part's line")
    logged = deploy.logged()
    assert logged.count("GET /v/***/wait") == 2
    assert logged.count("GET /v/***/answers") == 1


def test_a_wait_names_only_a_games_own_addresses_to_ride(deploy: Server) -> None:
    """A page= or answers= that is no game page or part, or one the app does not answer with
    200: the wait answers its JSON alone, as without a ride."""
    scorer, follower = Phone(deploy.port), Phone(deploy.port)
    token = new_game(scorer)
    view = view_of(scorer, token)
    shown = follow_of(follower.get(f"/v/{view}").html)
    for page in ("/new", f"/v/{view}/log", f"/v/{view}/wait", "/v/nosuchgame0123456789abcdef"):
        url = rides(shown, page).replace("since=" + shown["data-seen"], "since=0.0")
        reply = follower.get(url)
        assert reply.status == 200 and "X-Wait" not in reply.headers, page
        assert json.loads(reply.body)["version"] == int(shown["data-version"])


def test_under_a_path_prefix_the_page_rides_whether_the_proxy_passes_the_prefix_or_not(
    tmp_path: Path,
) -> None:
    """Served under /pulka (SCOREKEEPER_PREFIX): the page names its addresses with the
    prefix; a proxy that passes the prefix on and one that strips it both get the page."""
    env = {"SCOREKEEPER_PREFIX": "/pulka"}
    server = Server(tmp_path / "games.sqlite", tmp_path / "server.log", env=env).start()
    try:
        with Store(str(tmp_path / "games.sqlite"), create=False) as store:
            view = store_game(store).view_token
        follower = Phone(server.port)
        shown = follow_of(follower.get(f"/pulka/v/{view}").html)
        assert shown["data-wait"] == f"/pulka/v/{view}/wait"
        behind = rides(shown, f"/pulka/v/{view}").replace(
            "since=" + shown["data-seen"], "since=0.0"
        )
        for url in (behind, behind.removeprefix("/pulka")):  # passed on, stripped
            reply = follower.get(url)
            assert reply.status == 200 and "X-Wait" in reply.headers, url
            assert follow_of(reply.html)["data-wait"] == f"/pulka/v/{view}/wait"
    finally:
        server.stop()
