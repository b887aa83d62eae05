"""A club tournament against the real server (`scorekeeper serve`, its own process): the
tables' phones saving while the director closes the tour, a resent Save after the close, a
table's scorer trying to delete the table's game.

The phones fill the real forms (CSRF token, request key, version) as a browser does; the
database is opened directly only to see what was written.
"""

from __future__ import annotations

import http.client
import json
import threading
import time
import urllib.parse
from pathlib import Path
from typing import Any

from scorekeeper.store import Store
from scorekeeper.store.tournaments import Tournaments

from .test_safety_server import NET_ERRORS, Phone, Server, correction

NINE = ["Anna", "Boris", "Vera", "Gleb", "Dasha", "Egor", "Zoya", "Ivan", "Klara"]


def new_tournament(phone: Phone, roster: list[str] = NINE) -> str:
    """Create a tournament through its form and seat tour 1; returns the edit token."""
    form = phone.get("/tournament/new").form("new-tournament")
    form.set(name="Race cup", roster="\n".join(roster), rounds="3")
    made = phone.post("/tournament/new", form.data())
    assert made.status == 302, made.html[:800]
    token = made.location.rsplit("/", 1)[-1]
    seated = phone.post(f"/t/{token}/seat", phone.get(f"/t/{token}").form("/seat").data())
    assert seated.status == 302, seated.html[:800]
    return token


def table_tokens(db: Path, token: str) -> list[str]:
    with Store(db) as store:
        return [t.game.edit_token for t in Tournaments(store).get(token).tour(1)]


def stored(db: Path, token: str) -> dict[str, tuple[int, int]]:
    """Each table game's (version, live deals) as the file holds them now."""
    with Store(db) as store:
        record = Tournaments(store).get(token)
        return {t.game.edit_token: (t.game.version, len(t.game.deals)) for t in record.tour(1)}


class TablePhone:
    """A table's phone entering corrections one after another until told to stop; keeps
    every answer's status and the fields of the last deal the server took."""

    def __init__(self, port: int, token: str) -> None:
        self.phone = Phone(port)
        self.token = token
        self.answers: list[tuple[float, int, str]] = []
        self.last_saved: dict[str, list[str]] | None = None
        self.saves: list[tuple[int, dict[str, Any]]] = []
        self.failure: BaseException | None = None
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run)

    def _run(self) -> None:
        n = 0
        try:
            while not self.stop.is_set():
                url = f"/g/{self.token}/deal/new"
                page = self.phone.get(url)
                if page.status == 200:  # (403 once the tour is closed: no form offered)
                    form = page.form("deal-form").set(**correction(f"deal {n}"))
                    page = self.phone.post(url, {**form.data(), "action": ["check"]})
                if page.status != 200:
                    self.answers.append((time.monotonic(), page.status, page.html))
                    time.sleep(0.02)
                    continue
                fields = {**page.form("deal-form").data(), "action": ["save"]}
                status, answer = by_script(self.phone, url, fields)
                self.answers.append((time.monotonic(), status, answer.get("refused", "")))
                self.saves.append((status, answer))
                if answer.get("saved"):
                    self.last_saved = fields
                n += 1
        except NET_ERRORS as error:
            self.failure = error
        except BaseException as error:  # noqa: BLE001 - handed to the test thread
            self.failure = error

    def finish(self) -> None:
        self.stop.set()
        self.thread.join(timeout=60)
        assert not self.thread.is_alive()
        if self.failure is not None:
            raise self.failure


def by_script(phone: Phone, url: str, fields: dict[str, list[str]]) -> tuple[int, Any]:
    """Send a Save as the deal form's script (and its offline queue) does, X-Save: json:
    the status and the JSON answer."""
    conn = http.client.HTTPConnection("127.0.0.1", phone.port, timeout=30)
    try:
        cookie = "; ".join(f"{k}={v}" for k, v in phone.cookies.items())
        body = urllib.parse.urlencode(fields, doseq=True)
        headers = {
            "Cookie": cookie,
            "X-Save": "json",
            "Content-Type": "application/x-www-form-urlencoded",
        }
        conn.request("POST", url, body=body, headers=headers)
        response = conn.getresponse()
        return response.status, json.loads(response.read())
    finally:
        conn.close()


def _close_early(director: Phone, token: str) -> None:
    form = director.get(f"/t/{token}").form("/close").set(early="y")
    closed = director.post(f"/t/{token}/close", form.data())
    assert closed.status == 302, closed.html[:800]


def _revisions_after(db: Path, token: str) -> list[Any]:
    """Deal revisions of the tour's tables written after the close committed (its time)."""
    with Store(db) as store:
        record = Tournaments(store).get(token)
        ids = [t.game.id for t in record.tour(1)]
        marks = ",".join("?" * len(ids))
        return store._rows(
            f"SELECT game_id, at FROM deal_revisions WHERE game_id IN ({marks}) AND at > ?",
            [*ids, record.updated_at],
        )


def test_saves_racing_close_tour_never_land_after_the_close(tmp_path: Path) -> None:
    """Three tables save as fast as they can while the director closes the tour early:
    in every round, not one edit is stored after the close, every Save after it is refused
    with the reason, and a deal saved before it and sent again gets its first answer."""
    server = Server(tmp_path / "games.sqlite", tmp_path / "server.log").start()
    try:
        raced = 0  # Saves refused after the close (the page's check or the write's own)
        for round_ in range(3):
            director = Phone(server.port)
            token = new_tournament(director)
            tables = [TablePhone(server.port, t) for t in table_tokens(server.db, token)]
            for table in tables:
                table.thread.start()
            while min(len(t.answers) for t in tables) < 2 + round_:
                time.sleep(0.01)
            _close_early(director, token)
            closed_at = time.monotonic()
            at_close = stored(server.db, token)
            time.sleep(0.8)  # the phones keep trying
            for table in tables:
                table.finish()
            assert stored(server.db, token) == at_close, f"round {round_}"
            assert _revisions_after(server.db, token) == [], f"round {round_}"
            later = [(s, html) for t in tables for when, s, html in t.answers if when > closed_at]
            assert later, "no Save was tried after the close"
            for status, _html in later:
                assert status in (200, 403), status
            refused = [html for status, html in later if status == 403]
            assert refused and all("Tour 1 is closed" in html for html in refused)
            raced += sum(1 for t in tables for status, _ in t.saves if status == 403)

            # a deal the server took before the close, sent again with its key: answered
            # as the first time (to the sheet), nothing written
            table = next(t for t in tables if t.last_saved is not None)
            assert table.last_saved is not None
            url = f"/g/{table.token}/deal/new"
            again = table.phone.post(url, table.last_saved)
            assert again.status == 302, (round_, again.html[-1500:])
            assert again.location == f"/g/{table.token}"
            status, answer = by_script(table.phone, url, table.last_saved)
            assert status == 200 and answer["saved"] is True, answer
            assert stored(server.db, token) == at_close
        print(f"{raced} Saves refused after the close")
    finally:
        server.stop()
