"""A tournament followed while its tour is closed, on each engine, through the real server:
a table's follower holding its request gets the table's page with the close (the game
finished: its end card) riding with the answer; the board's held request is answered with
the state the board drawn after shows (a tournament's page rides nothing: it is drawn whole
again); a table's scorer page after the close says why it is read-only."""

from __future__ import annotations

import json
import re
import threading

from ..served import Phone, Reply, Server, follow_of, new_tournament, table_tokens, view_of
from .test_follow_both_engines import Follower


def test_a_closed_tour_answers_its_tables_followers_and_its_board(
    served: Server,
) -> None:
    director = Phone(served.port)
    token = new_tournament(director)
    table = table_tokens(served.db, token)[0]
    follower = Follower(served.port, view_of(director, table))
    assert 'class="card finished' not in follower.page
    found = re.search(r"/tv/([A-Za-z0-9_-]+)", director.get(f"/t/{token}").html)
    assert found is not None
    board = Follower(served.port, found.group(1))
    board.page = board.phone.get(f"/tv/{found.group(1)}/board").html
    shown = follow_of(board.page)
    board_answer: list[Reply] = []
    url = f"{shown['data-wait']}?since={shown['data-seen']}"
    waiting = threading.Thread(
        target=lambda: board_answer.append(board.phone.get(url)), daemon=True
    )
    waiting.start()
    follower.hold()
    form = director.get(f"/t/{token}").form("/close").set(early="y")
    assert director.post(f"/t/{token}/close", form.data()).status == 302
    assert 'class="card finished' in follower.new_page()
    waiting.join(60)
    assert board_answer, "the board's held request was not answered"
    said = board_answer[0]
    assert said.status == 200 and "X-Wait" not in said.headers
    body = json.loads(said.body)
    after = board.phone.get(f"/tv/{found.group(1)}/board").html
    assert f"{body['version']}.{body['seen']}" == follow_of(after)["data-seen"]
    assert follow_of(after)["data-seen"] != shown["data-seen"]
    scorer = director.get(f"/g/{table}/deal/new")
    assert scorer.status == 403 and "Tour 1 is closed" in scorer.html
