"""The long poll: each page that follows a game holds one request, answered when the game
changed (a Save, an edit, an answer of the table) or after HOLD_SECONDS with no change.

`GET /v/<view token>/wait?since=12.5` asks with what the page shows: the game's version and,
on a page that shows the table's answers, their stamp ("12.5"; "12" without). The answer is
the version endpoint's JSON (`{"version": 13, "seen": 5}`), with `"only": "answers"` when the
game's version is the one the page shows and only the table's answers changed (the page then
fetches only the part that shows them: games.routes.answers); 404 for a link that names no
live game, 400 for a malformed one. A tournament's pages (its page, the board) wait the same
way on `GET /tv/<view token>/wait?since=3.41`: the tournament's version and its tables'
(`Tournaments.states_of`), answered when a deal is saved at any table.

What the page would fetch after a change rides with the answer, so a change costs a phone
one request: a game's page names its answers part (`&answers=/v/<token>/answers`) and, if it
swaps itself in, its own address (`&page=/v/<token>`). When the game changed, the Router asks
the Flask app for the one the change calls for (the answers part when only they changed,
else the page, as the follow asks it: X-Follow) with the phone's own headers (its cookies,
language, encodings), in the pool of the pages, and answers with it: its status, headers and
(compressed) body, the JSON in an `X-Wait` header. Only a game's page or part rides, asked
under the wait's own path prefix; anything else, or an answer other than 200, and the wait
answers its JSON alone (the page then fetches what it needs, as it did before).

Nothing is kept per host that another host's write could make stale: one thread per process
looks every LOOK_SECONDS whether anyone committed anything (SQLite's data_version of the
file, PostgreSQL's notification sent by every write as it commits), and after a commit
reads the state of every game a phone is waiting on, in one query (a few hundred tokens
each), at most every READ_SECONDS; a phone is answered only from a read that began after its
request arrived. So a change written through any process, or any host on the same database,
reaches every waiting phone within about READ_SECONDS, and a phone that waits costs nothing
in between: no request, no thread, no page, and while nothing is written, no read. On
PostgreSQL a Save's or an answer's notification names its game (Engine.changed): only that
game is read, at the next look (at most every NAMED_SECONDS), so its phones learn of it
within about LOOK_SECONDS to NAMED_SECONDS.
"""

from __future__ import annotations

import asyncio
import datetime
import io
import json
import logging
import random
import re
import threading
import time
from collections.abc import Awaitable, Callable, Mapping, MutableMapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Literal
from urllib.parse import parse_qs

from scorekeeper import serverlog
from scorekeeper.metrics import long_poll
from scorekeeper.store import Store, StoreError
from scorekeeper.store.confirmations import Confirmations
from scorekeeper.store.tournaments import Tournaments

HOLD_SECONDS = 50.0
"""A waiting request is answered "no change" after 40 to 50 s (spread): under every proxy's
read timeout (nginx's is 60 s, Caddy's none), and soon enough that a connection a phone lost
while asleep is noticed. Every renewal is a request: at 25 s they were half of all the
requests of a club night."""
LOOK_SECONDS = 0.04
"""How often the reader looks whether anyone committed anything (SQLite's data_version, a
PostgreSQL notification: no table is read), while phones wait."""
READ_SECONDS = 0.25
"""Every waited-on game is read again at most this often, and only after a commit: a change
reaches a waiting phone within this, a look and one read. Under 1,000 tables something is
committed every few ms, so the games are read four times a second (each read of a thousand
games costs a few ms, of 3,000 three times that: at 0.1 s, a tenth of a core per process);
with nothing committed, never."""
NAMED_SECONDS = 0.1
"""The games commits named (PostgreSQL) are read at most this often: a burst of answers at
one table wakes its phones once, not once each."""
SURE_SECONDS = 5.0
"""Every waited-on game is read at least this often, whatever the looks say."""
PATH = re.compile(r"/(v|tv)/([A-Za-z0-9_-]{1,64})/wait\Z")
"""A game's held request (`/v/`), or a tournament's (`/tv/`: its pages, the board)."""
RIDE = re.compile(r"/(?:g|v)/[A-Za-z0-9_-]{1,64}(?:/answers)?\Z")
"""What may ride with a game's wait answer: the page (`page=`) or its answers part
(`answers=`), a game's own addresses only, asked under the wait's own path prefix."""
TOURNAMENT = "tv:"
"""What a tournament's token is waited on as (a game's token is waited on as it is)."""
SINCE = re.compile(r"[0-9]{1,12}(\.[0-9]{1,12})?\Z")
LOG = logging.getLogger("scorekeeper.longpoll")

State = tuple[int, int]
"""(version, stamp of the table's answers) of a game."""
Scope = MutableMapping[str, Any]
Answer = tuple[int, list[tuple[bytes, bytes]], bytes]
"""An HTTP answer: status, headers (lower-case names), body."""
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]


def shown(state: State, with_stamp: bool) -> str:
    """What a page shows of a state, as its `since` names it."""
    return f"{state[0]}.{state[1]}" if with_stamp else str(state[0])


@dataclass(eq=False)
class _Waiter:
    token: str
    since: str
    arrived: float
    answer: asyncio.Future[State | None] = field(repr=False)


class Watch:
    """The phones of one process waiting on games, and the thread that reads their state."""

    def __init__(self, open_store: Callable[[], Store]) -> None:
        self._open_store = open_store
        self._waiting: dict[str, set[_Waiter]] = {}
        self._came: list[_Waiter] = []  # since the reader last took them
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._stopped = False
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self.reads = 0

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._thread = threading.Thread(target=self._run, name="longpoll", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Answer every waiting phone now ("no change": it asks again) and end the reader."""
        self._stopped = True
        self._wake.set()
        for waiters in list(self._waiting.values()):
            for waiter in waiters:
                if not waiter.answer.done():
                    waiter.answer.set_result(_parse(waiter.since))

    async def wait(self, token: str, since: str, hold: float = HOLD_SECONDS) -> State | None:
        """The game's state once it differs from `since` (read after this call began), or
        `since` itself after `hold` seconds; None if no live game has this token."""
        if self._stopped:  # the server is stopping: no request is held any more
            return _parse(since)
        loop = asyncio.get_running_loop()
        waiter = _Waiter(token, since, time.monotonic(), loop.create_future())
        with self._lock:
            self._waiting.setdefault(token, set()).add(waiter)
            self._came.append(waiter)
        self._wake.set()
        long_poll(+1)
        try:
            return await asyncio.wait_for(asyncio.shield(waiter.answer), hold)
        except TimeoutError:
            return _parse(since)
        finally:
            long_poll(-1)
            with self._lock:
                waiters = self._waiting.get(token)
                if waiters is not None:
                    waiters.discard(waiter)
                    if not waiters:
                        del self._waiting[token]

    def _run(self) -> None:
        store: Store | None = None
        reader: _Reader | None = None
        while not self._stopped:
            with self._lock:
                tokens = list(self._waiting)
                came, self._came = self._came, []
            if not tokens:
                self._wake.wait()
                self._wake.clear()
                continue
            try:
                if store is None or reader is None:
                    store = self._open_store()
                    reader = _Reader(store)
                began, states = reader.next(tokens, came)
            except Exception as error:  # phones hold on; they are answered once it reads
                # (any error: a reader that ended would leave every phone told "no change")
                LOG.warning(
                    "the long poll cannot read the games: %s",
                    error,
                    exc_info=not isinstance(error, StoreError),
                )
                if reader is not None:
                    reader.close()
                if store is not None:
                    store.close()
                store = reader = None
                time.sleep(1.0)
                continue
            if states is None:
                continue
            self.reads += 1
            assert self._loop is not None
            try:
                self._loop.call_soon_threadsafe(self._answer, list(states), states, began)
            except RuntimeError:  # its event loop closed without stopping this watch first
                break
        if reader is not None:
            reader.close()
        if store is not None:
            store.close()

    def _answer(self, tokens: list[str], states: dict[str, State | None], began: float) -> None:
        """In the event loop: answer each phone whose game now differs from what it shows."""
        for token in tokens:
            state = states.get(token)
            for waiter in list(self._waiting.get(token, ())):
                if waiter.arrived > began or waiter.answer.done():
                    continue  # this read began before the phone asked: the next one decides
                if state is None:
                    waiter.answer.set_result(None)
                elif shown(state, "." in waiter.since) != waiter.since:
                    waiter.answer.set_result(state)


class _Reader:
    """The reads of the watch's thread. When anyone committed anything that did not say
    what it changed (every commit on SQLite), every waited-on game is read, at most every
    READ_SECONDS; when the commits named their games (PostgreSQL: a Save, an answer), only
    those of them that phones wait on are read, at most every NAMED_SECONDS (and the
    tournaments waited on, which the named games may be tables of, at most every
    READ_SECONDS). Else only the games of phones that came to wait since the last read and
    show something else than it found. Every phone is answered only from a read that began
    after it came to wait (a phone that comes with what it just fetched is never told of an
    older state)."""

    def __init__(self, store: Store) -> None:
        self._confirmations = Confirmations(store)
        self._tournaments = Tournaments(store)
        self._changes = store.engine.changes()
        self._changes.wait(0.0)  # the first look (PostgreSQL: LISTEN), before the first read
        self._known: dict[str, State | None] = {}  # by token, as of the last read of it
        self._read_at = -SURE_SECONDS  # when the last read of all began
        self._changed = True  # a commit that named nothing came since that read
        self._named: set[str] = set()  # the games commits named since the last read of them
        self._named_at = -SURE_SECONDS  # when the last read of named games began
        self._tours_due = False  # a named game may be a table: its tournament is read too
        self._tours_at = -SURE_SECONDS  # when the tournaments were last read
        self._came: set[str] = set()  # the games of phones that came since that read

    def next(
        self, tokens: list[str], came: list[_Waiter]
    ) -> tuple[float, dict[str, State | None] | None]:
        """Look, and read what must be read: (when the read began, the states of the games
        whose phones must be looked at; None when nothing needed reading this time).
        `came`: the phones that came to wait since the last call.

        After a read of every game, only the games it found changed, and those of phones
        that came since the read before, are looked at: every other phone was already
        looked at against the state it still has (looking at every phone after every read
        was most of the event loop's work for the long poll under 1,000 tables)."""
        if self._changed:  # a read is due already: no look until it is read
            time.sleep(max(0.0, min(LOOK_SECONDS, self._read_at + READ_SECONDS - time.monotonic())))
        else:
            heard = self._changes.wait(LOOK_SECONDS)
            if heard is True:
                self._changed = True
            elif heard:
                self._named.update(heard)
                self._tours_due = True
        self._came.update(waiter.token for waiter in came)
        now = time.monotonic()
        if now - self._read_at >= SURE_SECONDS or (
            self._changed and now - self._read_at >= READ_SECONDS
        ):
            self._changed = self._tours_due = False  # a commit from here on is the next read's
            self._named.clear()
            began = time.monotonic()
            found = self._states(tokens)
            before, self._known = self._known, {t: found.get(t) for t in tokens}
            look = {
                t: s for t, s in self._known.items() if t in self._came or before.get(t, 0) != s
            }
            self._read_at = self._tours_at = began
            self._came = set()
            return began, look
        due = self._due(tokens, now)
        unsure = {
            waiter.token
            for waiter in came
            if waiter.token not in self._known or _shows_else(self._known, waiter)
        }
        if not due and not unsure:
            return now, None
        began = time.monotonic()
        found = self._states(sorted(due | unsure))
        self._known.update((t, found.get(t)) for t in due)
        return began, {t: found.get(t) for t in due | unsure}

    def _due(self, tokens: list[str], now: float) -> set[str]:
        """The waited-on games that commits named, read now (at most every NAMED_SECONDS),
        and the tournaments waited on, which they may be tables of (every READ_SECONDS)."""
        due: set[str] = set()
        if self._named and now - self._named_at >= NAMED_SECONDS:
            due = self._named.intersection(tokens)
            for token in self._named - due:  # nobody waits on it: a phone that comes reads it
                self._known.pop(token, None)
            self._named.clear()
            if due:
                self._named_at = now
        if self._tours_due and now - self._tours_at >= READ_SECONDS:
            due.update(t for t in tokens if t.startswith(TOURNAMENT))
            self._tours_due, self._tours_at = False, now
        return due

    def _states(self, tokens: list[str]) -> dict[str, State]:
        """The state of each waited-on game and tournament (one statement each)."""
        games = [t for t in tokens if not t.startswith(TOURNAMENT)]
        found = self._confirmations.versions_seen(games) if games else {}
        tours = [t[len(TOURNAMENT) :] for t in tokens if t.startswith(TOURNAMENT)]
        for token, state in self._tournaments.states_of(tours).items():
            found[TOURNAMENT + token] = state
        return found

    def close(self) -> None:
        self._changes.close()


def _shows_else(known: dict[str, State | None], waiter: _Waiter) -> bool:
    """The phone shows another state than the last read found (or its game is gone)."""
    state = known[waiter.token]
    return state is None or shown(state, "." in waiter.since) != waiter.since


def answers_only(since: str, state: State) -> bool:
    """Only the table's answers changed since what the page shows (no deal added, changed
    or removed: the game's version is the same): the page fetches only the part that shows
    them (`"only": "answers"` in the wait's answer), not the whole sheet."""
    shows = _parse(since)
    return "." in since and state[0] == shows[0] and state[1] != shows[1]


def _parse(since: str) -> State:
    version, _, stamp = since.partition(".")
    return int(version), int(stamp or 0)


WRITERS = 2
"""Threads of each process for requests that write (a Save, an answer): its own pool, so
a Save never queues behind the pages the followers fetch after a change."""
BODY_LIMIT = 2 * 1024 * 1024
"""The app's MAX_CONTENT_LENGTH (scorekeeper.web), unless the Router is told another: a body
declared longer is not read at all (Flask answers 413 from the declared length alone, and
the connection closes after it, since the rest of the body is still on it); one sent in
chunks is cut short past it, and Flask refuses what it has."""


class Threaded:
    """The WSGI app (Flask) in a pool of threads, with one hand-over each way: the request's
    body is read in the event loop, the app runs whole in a thread (its answer collected:
    pages and downloads are small), then the loop sends it. (a2wsgi's adapter hands every
    body read and every chunk sent to the loop and waits for it: measured under 1,000
    tables, a quarter of the worker's samples were threads waiting so.)"""

    def __init__(
        self,
        app: Any,
        threads: int,
        name: str,
        limit: int = BODY_LIMIT,
        larger: Mapping[str, int] | None = None,
    ) -> None:
        self.app = app
        self.pool = ThreadPoolExecutor(threads, thread_name_prefix=name)
        self.limit = limit
        self.larger = dict(larger or {})

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        from a2wsgi.wsgi import build_environ

        body = bytearray()
        limit = self.larger.get(scope.get("path", ""), self.limit)
        too_long = _declared_length(scope) > limit
        more = not too_long
        while more and len(body) <= limit:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body += message.get("body", b"")
            more = message.get("more_body", False)
        environ: dict[str, Any] = dict(build_environ(scope, io.BytesIO(bytes(body))))  # type: ignore[arg-type]
        environ[WAITING] = True
        loop = asyncio.get_running_loop()
        status, headers, data = await loop.run_in_executor(self.pool, self._answer, environ)
        if too_long:  # the unread body is still on the connection: it cannot carry another
            headers = [h for h in headers if h[0] != b"connection"] + [(b"connection", b"close")]
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": data})

    async def fetch(self, scope: Scope, path: str, follow: bool) -> Answer:
        """A GET of `path` by the app, as the phone of `scope` (its cookies, language and
        encodings) would ask it (`follow`: as a follow swaps a page in, X-Follow)."""
        from a2wsgi.wsgi import build_environ

        headers = [h for h in scope.get("headers", ()) if h[0] != b"x-follow"]
        if follow:
            headers.append((b"x-follow", b"1"))
        asked = {**scope, "path": path, "raw_path": path.encode(), "query_string": b""}
        asked["headers"] = headers
        environ: dict[str, Any] = dict(build_environ(asked, io.BytesIO()))  # type: ignore[arg-type]
        environ[WAITING] = True
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.pool, self._answer, environ)

    def _answer(self, environ: dict[str, Any]) -> Answer:
        started: list[tuple[str, list[tuple[str, str]]]] = []
        chunks: list[bytes] = []

        def start_response(status: str, headers: list[tuple[str, str]], *_: Any) -> Any:
            started[:] = [(status, headers)]
            return chunks.append

        result = self.app(environ, start_response)
        try:
            chunks.extend(result)
        finally:
            close = getattr(result, "close", None)
            if close is not None:
                close()
        status, headers = started[0]
        # The server writes the Date itself (uvicorn, hypercorn): the app's (werkzeug's
        # make_conditional adds one) would be a second, which a browser reads as no date.
        encoded = [
            (k.lower().encode("latin-1"), v.encode("latin-1"))
            for k, v in headers
            if k.lower() != "date"
        ]
        return int(status.split(" ", 1)[0]), encoded, b"".join(chunks)


def _declared_length(scope: Scope) -> int:
    """The body's length as the request declares it (0 when it does not)."""
    for name, value in scope.get("headers", ()):
        if name == b"content-length":
            text = value.decode("latin-1").strip()
            if text.isascii() and text.isdigit():
                return int(text) if len(text) < 16 else 10**16
    return 0


class Router:
    """The ASGI app: the long poll answered here, in the event loop; every other request
    goes to the WSGI app (Flask): a GET in a pool of `threads` threads, a POST in a pool of
    WRITERS of its own. A body is read up to `limit`, or up to `larger`'s limit for its
    path (the app's config BODY_LIMITS: a company file may be larger than any form)."""

    def __init__(
        self,
        wsgi: Any,
        watch: Watch,
        threads: int,
        log: Callable[..., None],
        limit: int = BODY_LIMIT,
        larger: Mapping[str, int] | None = None,
    ) -> None:
        self.watch = watch
        self.log = log
        self.wsgi = Threaded(wsgi, threads, "pages", limit, larger)
        self.writes = Threaded(wsgi, WRITERS, "writes", limit, larger)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self._lifespan(receive, send)
            return
        if scope["type"] == "http" and scope["method"] == "GET":
            found = PATH.search(scope["path"])
            if found is not None:
                kind, token = found.groups()
                await self._wait(
                    TOURNAMENT + token if kind == "tv" else token, scope, receive, send
                )
                return
        if scope["type"] == "http" and scope["method"] not in ("GET", "HEAD"):
            await self.writes(scope, receive, send)
            return
        await self.wsgi(scope, receive, send)

    def stop_waiting(self) -> None:
        """The server stops: every held request is answered now, and none is held after
        (uvicorn_server.Server, serving.TLSServer call it before they wait for the rest)."""
        self.watch.stop()

    async def _lifespan(self, receive: Receive, send: Send) -> None:
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                self.watch.start(asyncio.get_running_loop())
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                self.watch.stop()
                serverlog.drain_access_log()
                await send({"type": "lifespan.shutdown.complete"})
                return

    async def _wait(self, token: str, scope: Scope, receive: Receive, send: Send) -> None:
        started, when = time.perf_counter(), datetime.datetime.now().astimezone()
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        since = (query.get("since") or [""])[0]
        body: dict[str, object]
        ridden: Answer | None = None
        if not SINCE.match(since):
            status, body = 400, {"error": "since"}
        else:
            state = await self._held(token, since, receive)
            if state is False:  # the phone went away: nobody to answer
                return
            if state is None:
                status, body = 404, {"error": "game"}
            else:
                status, body = 200, {"version": state[0], "seen": state[1]}
                if answers_only(since, state) and not token.startswith(TOURNAMENT):
                    body["only"] = "answers"
                if shown(state, "." in since) != since and not token.startswith(TOURNAMENT):
                    ridden = await self._ridden(scope, query, "only" in body)
        data = json.dumps(body).encode()
        if ridden is None:
            await _send(send, (status, [(b"content-type", b"application/json")], data))
        else:  # the JSON rides too, in a header
            status, data = ridden[0], ridden[2]
            await _send(send, ridden, ((b"x-wait", json.dumps(body).encode()),))
        self.log(_environ(scope), when, str(status), len(data), time.perf_counter() - started)

    async def _held(
        self, token: str, since: str, receive: Receive
    ) -> State | None | Literal[False]:
        """The watch's answer (None: no such game), or False when the phone went away."""
        # Spread over a fifth of the hold: phones that began together do not ask together.
        hold = HOLD_SECONDS * random.uniform(0.8, 1.0)
        waiting = asyncio.ensure_future(self.watch.wait(token, since, hold))
        gone = asyncio.ensure_future(_disconnected(receive))
        await asyncio.wait({waiting, gone}, return_when=asyncio.FIRST_COMPLETED)
        gone.cancel()
        if not waiting.done():
            waiting.cancel()
            return False
        return waiting.result()

    async def _ridden(
        self, scope: Scope, query: dict[str, list[str]], only_answers: bool
    ) -> Answer | None:
        """What the page fetches next, fetched here and sent as the wait's answer (the JSON
        in its X-Wait header): the answers part when only they changed and the page named
        it (`answers=`), else the page itself as a follow swaps it in (`page=`). None when
        the page named nothing, or the app did not answer 200 (a game gone): the page
        then fetches what it needs itself, as without a ride."""
        part = "answers" if only_answers and "answers" in query else "page"
        path = (query.get(part) or [""])[0]
        ride, wait = RIDE.search(path), PATH.search(scope["path"])
        if ride is None or wait is None or (part == "answers") != path.endswith("/answers"):
            return None
        # Under the wait's own prefix, whatever the page named (a proxy may pass it or not).
        asked = scope["path"][: wait.start()] + ride.group(0)
        answer = await self.wsgi.fetch(scope, asked, follow=part == "page")
        return answer if answer[0] == 200 else None


_OWN = (b"cache-control", b"x-content-type-options", b"referrer-policy")


async def _send(send: Send, answer: Answer, more: tuple[tuple[bytes, bytes], ...] = ()) -> None:
    """Send an answer of the long poll: never kept by a cache on its way, and framed."""
    status, headers, data = answer
    headers = [h for h in headers if h[0] not in (*_OWN, b"content-length")]
    headers += [
        *more,
        (b"content-length", str(len(data)).encode()),
        *zip(_OWN, (b"no-store", b"nosniff", b"no-referrer"), strict=True),
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": data})


async def _disconnected(receive: Receive) -> None:
    while (await receive())["type"] != "http.disconnect":
        pass


def _environ(scope: Scope) -> dict[str, Any]:
    """What a log line names of a request, as a WSGI environ would."""
    client = scope.get("client") or ("-", 0)
    headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope.get("headers", [])}
    return {
        "REQUEST_METHOD": scope["method"],
        "SCRIPT_NAME": scope.get("root_path", ""),
        "PATH_INFO": scope["path"],
        "SERVER_PROTOCOL": f"HTTP/{scope.get('http_version', '1.1')}",
        "REMOTE_ADDR": client[0],
        "HTTP_REFERER": headers.get("referer", ""),
        "HTTP_USER_AGENT": headers.get("user-agent", ""),
    }


WAITING = "scorekeeper.wait"
"""Set in the environ of every request this server passes to the app: its pages may ask the
phones to wait (data-wait) instead of polling."""
