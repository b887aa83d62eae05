"""The real server (`scorekeeper serve`) as phones meet it: a deal answered is a deal kept.

Every test here talks HTTP to `scorekeeper serve` running as its own process on a loopback
port, filling the real forms (CSRF token, request key, version) as a browser does:
kill -9 in the middle of an evening loses no answered deal and doubles none; a Save sent
twice, in a row or at the same moment, lands once and both taps end on the sheet;
`scorekeeper backup` while tables write gives a sound copy; the password and HTTPS
settings taken from the environment are obeyed.
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import sqlite3
import subprocess
import threading
import time
import urllib.parse
import uuid
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from scorekeeper.web.options import preset_values

from ..harness import (
    ANSWER_SECONDS,
    ROOT,
    START_SECONDS,
    Form,
    forms_of,
    wait_for_start,
    wait_for_text,
)
from ..ports import free_port

CLI = str(ROOT / ".venv" / "bin" / "scorekeeper")
PLAYERS = ["Anna", "Boris", "Vera"]
FOUR = ["Anna", "Boris", "Vera", "Gleb"]
NET_ERRORS = (OSError, http.client.HTTPException)  # refused, reset, cut off mid-answer


# -- the server and the phones ---------------------------------------------------------------


class Server:
    """`scorekeeper serve` on a free loopback port, as its own process."""

    def __init__(
        self, db: Path, log: Path, env: dict[str, str] | None = None, args: tuple[str, ...] = ()
    ) -> None:
        self.db = db
        self.log = log
        self.args = list(args)
        # A fixed secret key: sessions and CSRF tokens stay valid across a restart, as they
        # do with the key kept in instance/; no password unless a test sets one.
        self.env = {
            **os.environ,
            "SCOREKEEPER_SECRET_KEY": "safety tests",
            "SCOREKEEPER_PASSWORD": "",
            **(env or {}),
        }
        self.process: subprocess.Popen[bytes] | None = None
        self.port = 0

    def start(self, port: int | None = None) -> Server:
        """Start it (on a free port unless told) and wait until it answers; fails with its
        output if it never does."""
        self.port = port or free_port()
        with self.log.open("ab") as out:
            command = [CLI, "serve", "--host", "127.0.0.1", "--port", str(self.port)]
            command += ["--db", str(self.db), *self.args]
            if self.args[:1] == ["gunicorn"]:  # the deploy's own command (the Dockerfile's)
                command = [str(ROOT / ".venv" / "bin" / "gunicorn"), *self.args[1:]]
                self.env |= {"SCOREKEEPER_DB": str(self.db)}
                self.env |= {"SCOREKEEPER_BIND": f"127.0.0.1:{self.port}"}
            self.process = subprocess.Popen(
                command,
                stdout=out,
                stderr=subprocess.STDOUT,
                env=self.env,
            )
        try:
            wait_for_start(
                lambda: Phone(self.port).get("/healthz").status == 200,
                self.process,
                self.log.read_text,
            )
        except AssertionError:
            self.stop()
            raise
        return self

    def logged(self) -> str:
        """The server's log once every request made before this call is in it: the access
        log is written by a thread of its own, a moment after the answer. A marker request
        is sent and waited for (failing, and saying so, if it never comes)."""
        marker = f"/logged-{time.monotonic_ns()}"
        Phone(self.port).get(marker)
        wait_for_text(self.log, marker)
        return self.log.read_text(errors="replace")

    def kill(self) -> None:
        """kill -9: no chance to finish a request, close a file or checkpoint the WAL."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=20)

    def stop(self) -> None:
        """Stop it (politely, then not)."""
        if self.process is None:
            return
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=20)
        self.process = None


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    """A running server on a fresh database file."""
    running = Server(tmp_path / "games.sqlite", tmp_path / "server.log")
    try:
        yield running.start()
    finally:
        running.stop()


class Reply:
    """An HTTP answer: status, headers and body as text."""

    def __init__(self, status: int, headers: http.client.HTTPMessage, body: bytes) -> None:
        self.status = status
        self.headers = headers
        self.body = body
        self.html = body.decode("utf-8", "replace")

    @property
    def location(self) -> str:
        return urllib.parse.urlsplit(self.headers.get("Location", "")).path

    def form(self, id_or_action: str) -> Form:
        for form in forms_of(self.html):
            if form.id == id_or_action or id_or_action in form.action:
                return form
        raise AssertionError(f"no form {id_or_action!r} in a {self.status} answer")


class Phone:
    """One browser: its own cookies, one HTTP connection per request, never a redirect
    followed (so a test sees each 302 the server sends)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.cookies: dict[str, str] = {}
        self.set_cookies: list[str] = []
        self._lock = threading.Lock()

    def request(self, method: str, path: str, body: bytes = b"", kind: str = "") -> Reply:
        headers = {"Connection": "close"}
        with self._lock:
            if self.cookies:
                headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if kind:
            headers["Content-Type"] = kind
        conn = self.connection()
        try:
            conn.request(method, path, body=body or None, headers=headers)
            response = conn.getresponse()
            reply = Reply(response.status, response.headers, response.read())
        finally:
            conn.close()
        with self._lock:
            for cookie in reply.headers.get_all("Set-Cookie") or []:
                self.set_cookies.append(cookie)
                name, _, value = cookie.split(";", 1)[0].partition("=")
                self.cookies[name.strip()] = value.strip()
        return reply

    def connection(self) -> http.client.HTTPConnection:
        """A new connection to the server (plain HTTP on loopback)."""
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=ANSWER_SECONDS)

    def get(self, path: str) -> Reply:
        return self.request("GET", path)

    def post(self, path: str, fields: dict[str, list[str]]) -> Reply:
        body = urllib.parse.urlencode(fields, doseq=True).encode()
        return self.request("POST", path, body, "application/x-www-form-urlencoded")

    def upload(self, path: str, fields: dict[str, list[str]], name: str, data: bytes) -> Reply:
        """Post a multipart form with one file, as the import page does."""
        boundary = uuid.uuid4().hex
        parts = [
            f'--{boundary}\r\nContent-Disposition: form-data; name="{key}"\r\n\r\n{value}\r\n'
            for key, values in fields.items()
            for value in values
        ]
        head = (
            f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; '
            f'filename="game.json"\r\nContent-Type: application/json\r\n\r\n'
        )
        body = "".join(parts).encode() + head.encode() + data + f"\r\n--{boundary}--\r\n".encode()
        return self.request("POST", path, body, f"multipart/form-data; boundary={boundary}")


def fill_new_game(form: Form, players: list[str], first_dealer: int = 0, **extra: str) -> Form:
    """Fill the new game form for a Sochi game of these players."""
    for field, value in preset_values("sochi").items():
        if isinstance(value, bool):
            form.set(**{field: "y" if value else None})
        else:
            form.set(**{field: value})
    form.set(name="Friday", convention="sochi", rendered_preset="sochi", first_dealer=first_dealer)
    for i in range(4):
        form.set(**{f"player_{i}": players[i] if i < len(players) else ""})
    return form.set(**extra)


def new_game(phone: Phone, players: list[str] = PLAYERS, first_dealer: int = 0) -> str:
    """Create a game through the new game form; returns its edit token."""
    form = fill_new_game(phone.get("/new").form("new-game"), players, first_dealer)
    reply = phone.post("/new", form.data())
    assert reply.status == 302, reply.html[:800]
    assert reply.location.startswith("/g/")
    return reply.location.rsplit("/", 1)[-1]


def checked(phone: Phone, token: str, **fields: str) -> dict[str, list[str]]:
    """Open the deal form, fill it, tap Check: the fields a tap on Save would send."""
    url = f"/g/{token}/deal/new"
    form = phone.get(url).form("deal-form").set(**fields)
    reply = phone.post(url, {**form.data(), "action": ["check"]})
    assert reply.status == 200, reply.html[:800]
    again = reply.form("deal-form")
    assert again.value("checked"), "the deal did not check"
    return {**again.data(), "action": ["save"]}


def correction(reason: str) -> dict[str, str]:
    """A correction writing one point of hill on Boris: valid whatever the sheet holds."""
    return {
        "kind": "correction",
        "reason": reason,
        "corr_player_0": "1",
        "corr_column_0": "hill",
        "corr_amount_0": "1",
    }


def save(phone: Phone, token: str, fields: dict[str, list[str]]) -> dict[str, list[str]]:
    """Tap Save until the server takes it; after a version conflict, save the form it shows
    again (re-checked against the sheet as it now is). Returns the fields it took."""
    for _ in range(200):
        reply = phone.post(f"/g/{token}/deal/new", fields)
        if reply.status == 302:
            assert reply.location == f"/g/{token}", reply.location
            return fields
        assert reply.status == 409, (reply.status, reply.html[:800])
        fields = {**reply.form("deal-form").data(), "action": ["save"]}
    raise AssertionError("two hundred conflicts in a row")


def game_file(phone: Phone, token: str) -> dict[str, Any]:
    """The game file the server hands out for download."""
    reply = phone.get(f"/g/{token}/game.json")
    assert reply.status == 200
    data: dict[str, Any] = json.loads(reply.body)
    return data


def reasons_of(phone: Phone, token: str) -> list[str]:
    """The reasons of the game's corrections, from its game file."""
    return [deal["reason"] for deal in game_file(phone, token)["deals"]]


def version_of(phone: Phone, token: str) -> int:
    reply = phone.get(f"/g/{token}/version")
    assert reply.status == 200
    return int(json.loads(reply.body)["version"])


def integrity(db: Path) -> str:
    conn = sqlite3.connect(db)
    try:
        return "\n".join(str(row[0]) for row in conn.execute("PRAGMA integrity_check"))
    finally:
        conn.close()


class Table:
    """One table entering corrections one after another in its own thread, until told to
    stop or until the server stops answering."""

    def __init__(self, number: int, port: int, token: str, answered: threading.Semaphore):
        self.number = number
        self.phone = Phone(port)
        self.token = token
        self.answered = answered  # released once per deal the server acknowledged
        self.acked: list[str] = []
        self.last_acked: dict[str, list[str]] | None = None
        self.in_flight: dict[str, list[str]] | None = None  # a Save sent, never answered
        self.in_flight_reason = ""
        self.failure: BaseException | None = None
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, name=f"table-{number}")

    def _run(self) -> None:
        try:
            n = 0
            while not self.stop.is_set():
                reason = f"table {self.number} deal {n} {uuid.uuid4().hex[:8]}"
                try:
                    fields = checked(self.phone, self.token, **correction(reason))
                except NET_ERRORS:
                    return  # the server is gone before Save was tapped: nothing was sent
                if not self._save(reason, fields):
                    return
                n += 1
        except BaseException as error:  # noqa: BLE001 - handed to the test thread
            self.failure = error

    def _save(self, reason: str, fields: dict[str, list[str]]) -> bool:
        for _ in range(200):
            self.in_flight, self.in_flight_reason = fields, reason
            try:
                reply = self.phone.post(f"/g/{self.token}/deal/new", fields)
            except NET_ERRORS:
                return False  # sent, and maybe written, but never answered
            self.in_flight = None
            if reply.status == 302:
                self.acked.append(reason)
                self.last_acked = fields
                self.answered.release()
                return True
            assert reply.status == 409, (reply.status, reply.html[:800])
            fields = {**reply.form("deal-form").data(), "action": ["save"]}
        raise AssertionError("two hundred conflicts in a row")

    def finish(self) -> None:
        self.stop.set()
        self.thread.join(timeout=START_SECONDS)
        assert not self.thread.is_alive()
        if self.failure is not None:
            raise self.failure


# -- durability: kill -9 in the middle of an evening --------------------------------------------


def test_every_answered_deal_survives_kill_9_exactly_once(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    server = Server(db, tmp_path / "server.log")
    tables: list[Table] = []
    try:
        server.start()
        token = new_game(Phone(server.port))
        answered = threading.Semaphore(0)
        tables = [Table(n, server.port, token, answered) for n in range(6)]
        for table in tables:
            table.thread.start()
        for _ in range(40):  # let forty deals be answered, with six tables still posting
            assert answered.acquire(timeout=START_SECONDS), "the tables stopped getting answers"
        server.kill()
        for table in tables:
            table.finish()

        assert integrity(db) == "ok"  # the file as kill -9 left it, WAL and all
        server.start()  # the same file, a new port; sessions and CSRF tokens still valid
        for table in tables:
            table.phone.port = server.port
            # The phone never heard back about its last Save: it sends it again, same key.
            if table.in_flight is not None:
                table.acked.append(table.in_flight_reason)
                save(table.phone, token, table.in_flight)
            # And a Save that was answered, sent once more, changes nothing.
            assert table.last_acked is not None
            resent = table.phone.post(f"/g/{token}/deal/new", table.last_acked)
            assert (resent.status, resent.location) == (302, f"/g/{token}")

        phone = tables[0].phone
        acked = Counter(reason for table in tables for reason in table.acked)
        assert sum(acked.values()) >= 40
        assert max(acked.values()) == 1  # each table sent each reason once
        assert Counter(reasons_of(phone, token)) == acked  # none lost, none doubled
        assert version_of(phone, token) == 1 + sum(acked.values())  # and nothing else written
    finally:
        for table in tables:
            table.stop.set()
        server.stop()
    assert integrity(db) == "ok"


# -- exactly once: the same Save twice ----------------------------------------------------------


def declarer_deals_next(number: int) -> dict[str, str]:
    """Deal `number` (0-based) of a four-handed game where Anna dealt first: the player who
    deals the next one declares 6♠ and both defenders pass. Checked again once it is
    written, the very same deal is wrong (that player now sits out), so only the request
    key can tell a resent Save from a new one."""
    dealer = number % 4
    declarer = (dealer + 1) % 4
    defenders = [seat for seat in range(4) if seat not in (dealer, declarer)]
    return {
        "kind": "contract",
        "declarer": str(declarer),
        "contract": "6S",
        **{f"answer_{seat}": "pass" for seat in defenders},
    }


def test_a_save_sent_twice_in_a_row_lands_once_and_both_end_on_the_sheet(
    server: Server,
) -> None:
    phone = Phone(server.port)
    token = new_game(phone, FOUR)
    for number in range(3):
        fields = checked(phone, token, **declarer_deals_next(number))
        first = phone.post(f"/g/{token}/deal/new", fields)
        again = phone.post(f"/g/{token}/deal/new", fields)  # no answer seen: tapped again
        assert (first.status, first.location) == (302, f"/g/{token}")
        assert (again.status, again.location) == (302, f"/g/{token}"), again.html[:600]
    assert version_of(phone, token) == 1 + 3
    deals = game_file(phone, token)["deals"]
    assert [deal["declarer"] for deal in deals] == ["Boris", "Vera", "Gleb"]


def test_a_save_sent_twice_at_the_same_moment_lands_once(server: Server) -> None:
    phone = Phone(server.port)
    token = new_game(phone, FOUR)
    rounds, taps = 6, 3
    barrier = threading.Barrier(taps)
    replies: list[Reply | BaseException] = []

    def tap(fields: dict[str, list[str]]) -> None:
        barrier.wait(timeout=START_SECONDS)
        try:
            replies.append(phone.post(f"/g/{token}/deal/new", fields))
        except BaseException as error:  # noqa: BLE001 - checked below
            replies.append(error)

    for number in range(rounds):
        fields = checked(phone, token, **declarer_deals_next(number))
        replies.clear()
        threads = [threading.Thread(target=tap, args=(fields,)) for _ in range(taps)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=START_SECONDS)
        answers = [(r.status, r.location) if isinstance(r, Reply) else r for r in replies]
        assert answers == [(302, f"/g/{token}")] * taps, (number, answers)
        assert version_of(phone, token) == 2 + number

    assert len(game_file(phone, token)["deals"]) == rounds


# -- several worker processes -----------------------------------------------------------------


def _workers_of(pid: int, wanted: int = 0) -> list[int]:
    """The server's worker processes; waits until there are `wanted` of them (gunicorn
    answers as soon as its first worker is up and forks the next ones just after), and fails
    saying how many there are if they never come."""
    started = time.monotonic()
    while True:
        found = [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
        if len(found) >= wanted:
            return found
        if time.monotonic() - started > START_SECONDS:
            raise AssertionError(f"{len(found)} of {wanted} workers after {START_SECONDS} s")
        time.sleep(0.05)


def test_two_worker_processes_keep_every_deal_once_and_stop_together(tmp_path: Path) -> None:
    """serve --workers 2 (gunicorn): two processes answer the phones; what one saves, the other shows
    at once; a Save tapped twice at the same moment on both still lands once; stopping the
    server stops both."""
    server = Server(tmp_path / "games.sqlite", tmp_path / "server.log", args=("--workers", "2"))
    tables: list[Table] = []
    try:
        server.start()
        assert server.process is not None
        workers = _workers_of(server.process.pid, wanted=2)
        assert len(workers) == 2
        token = new_game(Phone(server.port))
        answered = threading.Semaphore(0)
        tables = [Table(n, server.port, token, answered) for n in range(4)]
        for table in tables:
            table.thread.start()
        for _ in range(24):
            assert answered.acquire(timeout=START_SECONDS), "the tables stopped getting answers"
        for table in tables:
            table.finish()
        acked = Counter(reason for table in tables for reason in table.acked)
        # Every page, from whichever process answers it, shows every deal saved so far.
        for _ in range(6):
            phone = Phone(server.port)
            assert Counter(reasons_of(phone, token)) == acked
            assert version_of(phone, token) == 1 + sum(acked.values())

        phone = Phone(server.port)
        four = new_game(phone, FOUR)
        fields = checked(phone, four, **declarer_deals_next(0))
        replies: list[Reply | BaseException] = []
        barrier = threading.Barrier(4)

        def tap() -> None:
            barrier.wait(timeout=START_SECONDS)
            try:
                replies.append(phone.post(f"/g/{four}/deal/new", fields))
            except BaseException as error:  # noqa: BLE001 - checked below
                replies.append(error)

        taps = [threading.Thread(target=tap) for _ in range(4)]
        for thread in taps:
            thread.start()
        for thread in taps:
            thread.join(timeout=START_SECONDS)
        answers = [(r.status, r.location) if isinstance(r, Reply) else r for r in replies]
        assert answers == [(302, f"/g/{four}")] * 4, answers
        assert len(game_file(phone, four)["deals"]) == 1
    finally:
        for table in tables:
            table.stop.set()
        server.stop()
    for pid in workers:
        assert not Path(f"/proc/{pid}").exists(), f"worker {pid} outlived the server"
    assert integrity(tmp_path / "games.sqlite") == "ok"


def test_workers_are_for_plain_http(tmp_path: Path) -> None:
    done = subprocess.run(
        [CLI, "serve", "--https", "--workers", "2", "--db", str(tmp_path / "g.sqlite")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1
    assert "--workers needs plain HTTP" in done.stderr


# -- backups while the tables write --------------------------------------------------------------


def test_backup_of_the_running_server_while_it_writes_is_sound(
    server: Server, tmp_path: Path
) -> None:
    tokens = [new_game(Phone(server.port)) for _ in range(3)]
    answered = threading.Semaphore(0)
    tables = [Table(n, server.port, tokens[n], answered) for n in range(3)]
    copies: list[tuple[Path, dict[int, list[str]]]] = []
    try:
        for table in tables:
            table.thread.start()
        for n in range(3):
            for _ in range(5):  # a few more deals between two backups
                assert answered.acquire(timeout=START_SECONDS)
            before = {t.number: list(t.acked) for t in tables}  # answered before it starts
            copy = tmp_path / "backups" / f"copy-{n}.sqlite"
            result = subprocess.run(
                [CLI, "backup", str(copy), "--db", str(server.db)],
                capture_output=True,
                text=True,
                timeout=60,
                env=server.env,
            )
            assert result.returncode == 0, result.stderr
            assert result.stdout.startswith("backed up "), result.stdout
            copies.append((copy, before))
    finally:
        for table in tables:
            table.finish()

    for copy, before in copies:
        assert integrity(copy) == "ok"
        assert not list(copy.parent.glob(".*partial"))
        conn = sqlite3.connect(copy)
        try:
            assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"  # one file
            for table in tables:
                row = conn.execute(
                    "SELECT id, version FROM games WHERE edit_token = ?", [table.token]
                ).fetchone()
                assert row is not None, "a game is missing from the backup"
                game_id, version = row
                deals = [
                    _reason(text)
                    for (text,) in conn.execute(
                        "SELECT data FROM deals WHERE game_id = ? AND deleted = 0 ORDER BY seq",
                        [game_id],
                    )
                ]
                # One snapshot: the game's version agrees with its deals, which are what the
                # table entered, in order, at least up to what was answered before.
                assert version == 1 + len(deals)
                assert deals == table.acked[: len(deals)]
                assert len(deals) >= len(before[table.number])
        finally:
            conn.close()


def _reason(text: str) -> str:
    data: dict[str, Any] = json.loads(text)
    return str(data["reason"])


# -- settings from the environment -----------------------------------------------------------------


def test_password_and_https_settings_from_the_environment_are_obeyed(tmp_path: Path) -> None:
    server = Server(
        tmp_path / "games.sqlite",
        tmp_path / "server.log",
        env={"SCOREKEEPER_PASSWORD": "0.50", "SCOREKEEPER_HTTPS": "1"},
        args=("--workers", "1"),
    )
    try:
        server.start()
        stranger = Phone(server.port)
        form = fill_new_game(stranger.get("/new").form("new-game"), PLAYERS)
        assert "password" in form.names
        # Three wrong tries here and one on the import: fewer than the five a minute that
        # web/attempts.py allows one process before even the right password has to wait.
        for attempt in (None, "0.5", "0.50 "):
            refused = stranger.post("/new", form.set(password=attempt).data())
            assert refused.status == 422 and "Wrong password" in refused.html, attempt
        fields = stranger.get("/").form("/import").data()
        refused = stranger.upload("/import", fields, "file", _game_file())
        assert refused.status == 400 and "Wrong password" in refused.html
        assert stranger.get("/").status == 200
        conn = sqlite3.connect(server.db)
        try:
            assert conn.execute("SELECT count(*) FROM games").fetchone()[0] == 0
        finally:
            conn.close()

        # "0.50" stays text (not the number 0.5); cookies are Secure under HTTPS=1.
        accepted = stranger.post("/new", form.set(password="0.50").data())
        assert accepted.status == 302
        fields["password"] = ["0.50"]
        assert stranger.upload("/import", fields, "file", _game_file()).status == 302
        assert stranger.set_cookies
        for cookie in stranger.set_cookies:
            attributes = [a.strip().lower() for a in cookie.split(";")[1:]]
            assert {"secure", "httponly", "samesite=lax"} <= set(attributes), cookie
    finally:
        server.stop()


def _game_file() -> bytes:
    return json.dumps(
        {
            "format": "scorekeeper-game/1",
            "convention": "sochi",
            "players": PLAYERS,
            "first_dealer": "Anna",
            "deals": [],
        }
    ).encode()
