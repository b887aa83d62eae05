"""The real server (`scorekeeper serve`) as phones meet it: a deal answered is a deal kept.

Every test here talks HTTP to `scorekeeper serve` running as its own process on a loopback
port, filling the real forms (CSRF token, request key, version) as a browser does:
kill -9 in the middle of an evening loses no answered deal and doubles none; a Save sent
twice, in a row or at the same moment, lands once and both taps end on the sheet;
`scorekeeper backup` while tables write gives a sound copy; the password and HTTPS
settings taken from the environment are obeyed.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import threading
import time
import uuid
from collections import Counter
from pathlib import Path
from typing import Any

from ..harness import CLI, START_SECONDS
from ..served import (
    FOUR,
    NET_ERRORS,
    PLAYERS,
    Phone,
    Reply,
    Server,
    checked,
    correction,
    fill_new_game,
    game_file,
    integrity,
    new_game,
    reasons_of,
    save,
    version_of,
)


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
