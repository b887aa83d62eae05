"""Following where it meets the rest, on each engine (an SQLite file, then PostgreSQL),
through the real server (`scorekeeper serve`: the ASGI Router, its long poll and the page
that rides with a held request's answer): a follower of a Russian game and of a Balkan
partija is answered with its new page after a Save, an edit, an undo and the end, with the
answers part after an answer of the table, and with 404 once the game is deleted (its page
then 410)."""

from __future__ import annotations

import json
import re
import threading

from ..balkan.helpers import petak_file
from ..served import Phone, Reply, Server, checked, correction, follow_of, new_game, view_of
from ..test_longpoll_rides import ANSWERS_PART, rides


class Follower:
    """A follower's phone showing a game's page, asking as static/app.js does."""

    def __init__(self, port: int, view: str, prefix: str = "") -> None:
        self.phone = Phone(port)
        self.view = view
        self.prefix = prefix  # the server's SCOREKEEPER_PREFIX
        self.page = self.phone.get(f"{prefix}/v/{view}").html
        self._answer: list[Reply] = []
        self._thread: threading.Thread | None = None

    def hold(self, stripped: bool = False) -> None:
        """Hold the wait as the page asks it (`stripped`: by a proxy that strips the
        prefix)."""
        url = rides(follow_of(self.page), f"{self.prefix}/v/{self.view}")
        if stripped:
            url = url.removeprefix(self.prefix)
        self._answer = []
        self._thread = threading.Thread(
            target=lambda: self._answer.append(self.phone.get(url)), daemon=True
        )
        self._thread.start()

    def told(self) -> tuple[Reply, dict[str, object]]:
        """The held request's answer, and its JSON (from X-Wait when something rode)."""
        assert self._thread is not None
        self._thread.join(60)
        assert self._answer, "the held request was not answered"
        reply = self._answer[0]
        said = reply.headers.get("X-Wait")
        return reply, json.loads(said if said is not None else reply.body)

    def new_page(self) -> str:
        """The page that rode with the answer: now the one shown."""
        reply, said = self.told()
        assert reply.status == 200 and "only" not in said, (reply.status, said)
        assert "X-Wait" in reply.headers, "nothing rode with the answer"
        shown = follow_of(reply.html)
        assert shown["data-seen"] == f"{said['version']}.{said['seen']}"
        self.page = reply.html
        return reply.html


def _deal_ids(page: str) -> list[str]:
    return [d for d, _ in re.findall(r'data-deal="(\d+)" data-revision="(\d+)"', page)]


def _edited(scorer: Phone, token: str, deal: str, reason: str) -> None:
    url = f"/g/{token}/deal/{deal}/edit"
    form = scorer.get(url).form("deal-form").set(reason=reason)
    checked_page = scorer.post(url, {**form.data(), "action": ["check"]})
    assert checked_page.status == 200, checked_page.html[:800]
    fields = {**checked_page.form("deal-form").data(), "action": ["save"]}
    assert scorer.post(url, fields).status == 302


def _undone(scorer: Phone, token: str) -> None:
    confirm = scorer.get(f"/g/{token}/undo")
    assert scorer.post(f"/g/{token}/undo", confirm.form("").data()).status == 302


def _finished(scorer: Phone, token: str) -> None:
    fields = scorer.get(f"/g/{token}").form("/finish").data()
    asked = scorer.post(f"/g/{token}/finish", fields)
    if asked.status == 200:  # it asks first (a Balkan partija, a game not at its end)
        asked = scorer.post(f"/g/{token}/finish", asked.form("finish-confirm").data())
    assert asked.status == 302, asked.html[:800]


def _deleted(scorer: Phone, token: str) -> None:
    confirm = scorer.get(f"/g/{token}/delete")
    assert scorer.post(f"/g/{token}/delete", confirm.form("").data()).status == 302


def _gone(follower: Follower) -> None:
    reply, said = follower.told()
    assert reply.status == 404 and said == {"error": "game"}, (reply.status, said)
    assert follower.phone.get(f"/v/{follower.view}").status == 410


def _answers_part(follower: Follower, answerer: Phone, player: str) -> None:
    """A player says the last deal is right: the follower is answered with the part."""
    deal, revision = re.findall(r'data-deal="(\d+)" data-revision="(\d+)"', follower.page)[-1]
    ticket = json.loads(answerer.get(f"/v/{follower.view}/confirm/key").body)
    body = {k: [v] for k, v in ticket.items()} | {"deal": [deal], "revision": [revision]}
    body |= {"player": [player], "verdict": ["right"]}
    assert answerer.post(f"/v/{follower.view}/confirm", body).status == 200
    reply, said = follower.told()
    assert said.get("only") == "answers", said
    found = ANSWERS_PART.search(reply.html)
    assert found is not None and found.group(2) == f"{said['version']}.{said['seen']}"


def _answered_ended_deleted(
    follower: Follower, scorer: Phone, token: str, answerer: Phone, player: str
) -> None:
    """An answer of the table (the part rides), Finish (the page with its end card rides),
    the game deleted (404, then its page 410)."""
    follower.hold()
    _answers_part(follower, answerer, player)
    follower.page = follower.phone.get(f"/v/{follower.view}").html
    follower.hold()
    _finished(scorer, token)
    assert 'class="card finished' in follower.new_page()
    follower.hold()
    _deleted(scorer, token)
    _gone(follower)


def test_a_follower_of_a_russian_game_is_answered_with_each_change(served: Server) -> None:
    scorer, other = Phone(served.port), Phone(served.port)
    token = new_game(scorer)
    follower = Follower(served.port, view_of(scorer, token))
    follower.hold()
    fields = checked(scorer, token, **correction("Saved-first"))
    assert scorer.post(f"/g/{token}/deal/new", fields).status == 302
    assert "Saved-first" in follower.new_page()
    follower.hold()
    fields = checked(scorer, token, **correction("Saved-second"))
    assert scorer.post(f"/g/{token}/deal/new", fields).status == 302
    assert "Saved-second" in follower.new_page()
    follower.hold()
    _edited(scorer, token, _deal_ids(follower.page)[0], "Edited-first")
    assert "Edited-first" in follower.new_page()
    follower.hold()
    _undone(scorer, token)
    page = follower.new_page()
    assert "Saved-second" not in page and len(_deal_ids(page)) == 1
    _answered_ended_deleted(follower, scorer, token, other, "Anna")


def _balkan(scorer: Phone, deals: int) -> str:
    data = petak_file()
    data["deals"] = data["deals"][:deals]
    fields = scorer.get("/import").form("").data()
    reply = scorer.upload("/import", fields, "file", json.dumps(data).encode())
    assert reply.status == 302, reply.html[:800]
    return reply.location.rsplit("/", 1)[-1]


def test_a_follower_of_a_balkan_partija_is_answered_with_each_change(served: Server) -> None:
    scorer, other = Phone(served.port), Phone(served.port)
    token = _balkan(scorer, 2)
    follower = Follower(served.port, view_of(scorer, token))
    before = len(_deal_ids(follower.page))
    follower.hold()
    sheet = scorer.get(f"/g/{token}")
    dalje = {**sheet.form("bk-next").data(), "dalje": ["1"]}
    assert scorer.post(sheet.form("bk-next").action, dalje).status == 302
    assert len(_deal_ids(follower.new_page())) == before + 1
    follower.hold()
    _undone(scorer, token)
    assert len(_deal_ids(follower.new_page())) == before
    _answered_ended_deleted(follower, scorer, token, other, "Ana")
