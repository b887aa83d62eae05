"""The long poll of the deploy's server: a following page holds one request that is answered
when the game changes (a Save, an answer of the table), with what the version endpoint and
the page itself say; and the watch behind it, on a real database file."""

from __future__ import annotations

import asyncio
import http.client
import json
import re
import signal
import socket
import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from flask import Flask

from scorekeeper.longpoll import Watch
from scorekeeper.serving import listening_socket
from scorekeeper.store import Store

from .harness import START_SECONDS, Web, run_in_its_own_thread, wait_for_text, wait_until_read
from .served import (
    GUNICORN,
    Phone,
    Reply,
    Server,
    checked,
    correction,
    follow_of,
    new_game,
    view_of,
)


def waiting(phone: Phone, url: str) -> tuple[threading.Thread, list[Reply]]:
    """A phone's held request, in a thread of its own: (the thread, its answer once in)."""
    answer: list[Reply] = []
    thread = threading.Thread(target=lambda: answer.append(phone.get(url)), daemon=True)
    thread.start()
    return thread, answer


def test_a_saved_deal_answers_the_waiting_follower_with_the_versions_of_the_page(
    deploy: Server,
) -> None:
    scorer, follower = Phone(deploy.port), Phone(deploy.port)
    token = new_game(scorer)
    view = view_of(scorer, token)
    shown = follow_of(follower.get(f"/v/{view}").html)
    assert shown["data-wait"] == f"/v/{view}/wait"
    thread, answer = waiting(follower, f"{shown['data-wait']}?since={shown['data-seen']}")
    thread.join(1.0)
    assert thread.is_alive(), "answered before anything changed"
    fields = checked(scorer, token, **correction("a deal the table follows"))
    assert scorer.post(f"/g/{token}/deal/new", fields).status == 302
    thread.join(10)
    assert answer and answer[0].status == 200, answer and answer[0].html
    assert answer[0].headers["Cache-Control"] == "no-store"
    said = json.loads(answer[0].body)
    # The same as the version endpoint and the page the follower swaps in.
    assert said == json.loads(follower.get(f"/v/{view}/version").body)
    fresh = follow_of(follower.get(f"/v/{view}").html)
    assert f"{said['version']}.{said['seen']}" == fresh["data-seen"]
    assert int(fresh["data-version"]) == int(shown["data-version"]) + 1


def test_an_answer_of_the_table_reaches_the_scorers_waiting_page(deploy: Server) -> None:
    scorer, follower = Phone(deploy.port), Phone(deploy.port)
    token = new_game(scorer)
    fields = checked(scorer, token, **correction("to be confirmed"))
    assert scorer.post(f"/g/{token}/deal/new", fields).status == 302
    page = scorer.get(f"/g/{token}").html
    shown = follow_of(page)
    assert "data-idle-max" not in shown  # the scorer's page waits like a follower's
    view = view_of(scorer, token)
    card = follower.get(f"/v/{view}").html
    deal, revision = re.findall(r'data-deal="(\d+)" data-revision="(\d+)"', card)[-1]
    thread, answer = waiting(scorer, f"{shown['data-wait']}?since={shown['data-seen']}")
    ticket = json.loads(follower.get(f"/v/{view}/confirm/key").body)
    body = {k: [v] for k, v in ticket.items()}
    body |= {"deal": [deal], "revision": [revision], "player": ["Anna"], "verdict": ["right"]}
    assert follower.post(f"/v/{view}/confirm", body).status == 200
    thread.join(10)
    assert answer and answer[0].status == 200
    said = json.loads(answer[0].body)
    assert said["version"] == int(shown["data-version"])  # an answer is no new version
    assert f"{said['version']}.{said['seen']}" != shown["data-seen"]
    assert (
        f"{said['version']}.{said['seen']}"
        == follow_of(scorer.get(f"/g/{token}").html)["data-seen"]
    )


def test_a_wrong_link_is_404_and_a_malformed_wait_400(deploy: Server) -> None:
    phone = Phone(deploy.port)
    gone = phone.get("/v/nosuchgameatall0123456789abcdef/wait?since=1.0")
    assert gone.status == 404 and json.loads(gone.body) == {"error": "game"}
    assert phone.get("/v/nosuchgame/wait?since=one").status == 400
    assert phone.get("/v/nosuchgame/wait").status == 400


def _held(port: int, path: str) -> tuple[http.client.HTTPConnection, Callable[[], Reply]]:
    """A follower's held request, sent and read by the server: (its connection, a call that
    reads its answer)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=START_SECONDS)
    conn.request("GET", path)
    assert conn.sock is not None
    wait_until_read(port, int(conn.sock.getsockname()[1]))

    def answer() -> Reply:
        response = conn.getresponse()
        return Reply(response.status, response.headers, response.read())

    return conn, answer


@pytest.mark.parametrize("args", [(), ("--workers", "2")], ids=["serve", "workers-2"])
def test_serve_holds_a_followers_request_until_a_save(
    tmp_path: Path, args: tuple[str, ...]
) -> None:
    """`scorekeeper serve` on a laptop (uvicorn) and `serve --workers 2` (gunicorn with
    uvicorn's worker) serve the deploy's app: a follower's page holds one request, which
    stays open while the table only reads, and is answered by the Save. Between the page and
    the change the follower asked once (the access log counts it): nothing polled."""
    server = Server(tmp_path / "games.sqlite", tmp_path / "server.log", args=args).start()
    try:
        scorer, follower = Phone(server.port), Phone(server.port)
        token = new_game(scorer)
        view = view_of(scorer, token)
        shown = follow_of(follower.get(f"/v/{view}").html)
        assert shown["data-wait"] == f"/v/{view}/wait" and "data-watch" not in shown
        fields = checked(scorer, token, **correction("a deal the laptop's table follows"))
        conn, answer = _held(server.port, f"{shown['data-wait']}?since={shown['data-seen']}")
        try:
            for path in (f"/g/{token}", f"/v/{view}", f"/g/{token}/log"):  # the table reads
                assert scorer.get(path).status == 200
            assert "GET /v/***/wait" not in server.logged()  # still held: nothing answered it
            assert scorer.post(f"/g/{token}/deal/new", fields).status == 302
            said = answer()
        finally:
            conn.close()
        assert said.status == 200
        assert json.loads(said.body)["version"] == int(shown["data-version"]) + 1
        wait_for_text(server.log, "GET /v/***/wait")  # its line, written once it was answered
        assert server.logged().count("GET /v/***/wait") == 1
    finally:
        server.stop()


@pytest.mark.parametrize(
    "args", [(), ("--workers", "2"), GUNICORN], ids=["serve", "workers-2", "deploy"]
)
def test_sigterm_answers_the_held_requests_and_serve_exits_0(
    tmp_path: Path, args: tuple[str, ...]
) -> None:
    """A stopping server answers its followers' held requests at once ("no change": they ask
    again) and exits 0; its access log has the line."""
    server = Server(tmp_path / "games.sqlite", tmp_path / "server.log", args=args).start()
    try:
        phone = Phone(server.port)
        token = new_game(phone)
        shown = follow_of(phone.get(f"/g/{token}").html)
        conn, answer = _held(server.port, f"{shown['data-wait']}?since={shown['data-seen']}")
        try:
            assert server.process is not None
            server.process.send_signal(signal.SIGTERM)
            said = answer()
        finally:
            conn.close()
        assert said.status == 200
        assert f"{json.loads(said.body)['version']}.0" == shown["data-seen"]
        assert server.process.wait(timeout=START_SECONDS) == 0
        assert 'GET /v/***/wait HTTP/1.1" 200' in server.log.read_text()
    finally:
        server.stop()


# -- the watch, on a database file ---------------------------------------------------------------


def test_the_watch_holds_while_nothing_changes_and_answers_a_write_from_another_connection(
    web: Web, app: Flask, db_path: Path
) -> None:
    token = web.new_game(["Anna", "Boris", "Vera"])
    view = view_of_store(db_path, token)
    watch = Watch(lambda: Store(db_path, create=False))

    async def night() -> tuple[object, object, object]:
        watch.start(asyncio.get_running_loop())
        try:
            same = await watch.wait(view, "1.0", hold=0.6)  # nothing written: "the same"
            later = asyncio.ensure_future(watch.wait(view, "1.0", hold=START_SECONDS))
            await asyncio.sleep(0.4)
            assert not later.done()
            # Another process or host writes: this Store is not the watch's.
            tricks = {"Anna": 2, "Boris": 4, "Vera": 4}
            await asyncio.to_thread(
                web.play, token, ["Anna", "Boris", "Vera"], "allpass", tricks=tricks
            )
            changed = await later
            gone = await watch.wait("nosuchtoken", "1", hold=START_SECONDS)
            return same, changed, gone
        finally:
            watch.stop()

    same, changed, gone = run_in_its_own_thread(night)
    assert same == (1, 0)
    assert changed == (2, 0)
    assert gone is None
    assert watch.reads >= 2


def test_a_watch_whose_loop_closed_under_it_ends_quietly_and_closes_its_store(
    web: Web, app: Flask, db_path: Path
) -> None:
    """A server that stops its event loop without stopping the watch (a test's loop ending,
    a worker torn down): the reader's next answer has no loop to go to. It ends its thread,
    closing its database connection, instead of dying with "Event loop is closed" and
    leaving the connection to the garbage collector (seen in a full run: both reported
    against later tests)."""
    view = view_of_store(db_path, web.new_game(["Anna", "Boris", "Vera"]))
    entered, gate = threading.Event(), threading.Event()
    closed: list[bool] = []
    failures: list[BaseException | None] = []
    reader: list[threading.Thread] = []

    def open_store() -> Store:
        entered.set()
        gate.wait(START_SECONDS)  # held until the loop is gone
        store = Store(db_path, create=False)
        closing = store.close
        store.close = lambda: (closed.append(True), closing())[-1]  # type: ignore[method-assign]
        return store

    watch = Watch(open_store)

    async def night() -> None:
        before = set(threading.enumerate())
        watch.start(asyncio.get_running_loop())
        reader.extend(t for t in threading.enumerate() if t not in before)
        asyncio.ensure_future(watch.wait(view, "0.0", hold=START_SECONDS))  # a state to answer
        await asyncio.to_thread(entered.wait, START_SECONDS)

    previous = threading.excepthook
    threading.excepthook = lambda hook: failures.append(hook.exc_value)
    try:
        run_in_its_own_thread(night)  # its loop closed, the watch never told to stop
        gate.set()
        (thread,) = reader
        thread.join(START_SECONDS)
    finally:
        threading.excepthook = previous
    assert not thread.is_alive()
    assert failures == []
    assert closed == [True]


def view_of_store(db_path: Path, token: str) -> str:
    with Store(db_path, create=False) as store:
        return store.get_game(token).view_token


def test_the_socket_serve_listens_on_turns_nagle_off_for_each_phone() -> None:
    """asyncio turns Nagle's algorithm off only on connections of a socket that says it is
    TCP: with it on, each answer (uvicorn writes its head and its body apart) waited for the
    phone's delayed ACK."""
    sock = listening_socket("127.0.0.1", 0)
    port = sock.getsockname()[1]

    async def accept_one() -> int:
        accepted: asyncio.Future[int] = asyncio.get_running_loop().create_future()

        def connected(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            conn = writer.get_extra_info("socket")
            accepted.set_result(conn.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
            writer.close()

        server = await asyncio.start_server(connected, sock=sock)
        async with server:
            _, writer = await asyncio.open_connection("127.0.0.1", port)
            nodelay = await asyncio.wait_for(accepted, START_SECONDS)
            writer.close()
            return nodelay

    assert run_in_its_own_thread(accept_one) != 0


def test_a_tournaments_board_holds_its_request_until_a_table_saves(tmp_path: Path) -> None:
    """A tournament's pages follow it the same way (`/tv/<token>/wait`): the board holds one
    request, answered when a deal is saved at one of its tables, with the state the board
    drawn after it shows."""
    from .served import new_tournament, table_tokens

    db = tmp_path / "games.sqlite"
    server = Server(db, tmp_path / "server.log").start()
    try:
        director = Phone(server.port)
        token = new_tournament(director)
        view = re.search(r"/tv/([A-Za-z0-9_-]+)", director.get(f"/t/{token}").html)
        assert view is not None
        board = f"/tv/{view.group(1)}/board"
        shown = follow_of(director.get(board).html)
        assert shown["data-wait"] == f"/tv/{view.group(1)}/wait" and "data-watch" not in shown
        assert shown["data-seen"] == shown["data-version"]
        table = table_tokens(db, token)[0]
        scorer = Phone(server.port)
        fields = checked(scorer, table, **correction("a deal the board follows"))
        conn, answer = _held(server.port, f"{shown['data-wait']}?since={shown['data-seen']}")
        try:
            assert scorer.post(f"/g/{table}/deal/new", fields).status == 302
            said = answer()
        finally:
            conn.close()
        assert said.status == 200
        body = json.loads(said.body)
        assert "only" not in body  # a tournament's page is drawn whole again
        assert (
            f"{body['version']}.{body['seen']}" == follow_of(director.get(board).html)["data-seen"]
        )
        assert f"{body['version']}.{body['seen']}" != shown["data-seen"]
    finally:
        server.stop()


def test_every_answer_of_serve_has_one_date(tmp_path: Path) -> None:
    """The server writes the Date; the app's (werkzeug adds one to a conditional answer: a
    static file, the version) is not sent too: two Dates read as none, and a phone whose
    clock is wrong was never told (the clock note reads the Date)."""
    server = Server(tmp_path / "games.sqlite", tmp_path / "server.log").start()
    try:
        phone = Phone(server.port)
        token = new_game(phone)
        for path in ("/static/app.js", f"/g/{token}/version", f"/g/{token}", "/healthz"):
            conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=START_SECONDS)
            try:
                conn.request("HEAD" if path.startswith("/static") else "GET", path)
                response = conn.getresponse()
                response.read()
                assert response.status == 200, path
                assert len(response.headers.get_all("Date") or []) == 1, path
            finally:
                conn.close()
    finally:
        server.stop()


def test_the_page_gives_up_a_held_request_only_after_the_server_would_have_answered_it() -> None:
    """app.js's bound on a held request is the server's longest hold and the 20 s any
    answer is waited for: a page never gives up a request the server still holds."""
    from scorekeeper import longpoll

    script = (Path(__file__).resolve().parent.parent / "static" / "app.js").read_text()
    bound = re.search(r"const HELD_MAX_MS = (\d+);", script)
    answer = re.search(r"const ANSWER_WAIT_MS = (\d+);", script)
    assert bound and answer
    assert int(bound.group(1)) == longpoll.HOLD_SECONDS * 1000 + int(answer.group(1))
