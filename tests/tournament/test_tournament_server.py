"""A club tournament against the real server (`scorekeeper serve`, its own process): the
tables' phones saving while the director closes the tour, a resent Save after the close, a
table's scorer trying to delete the table's game.

The phones fill the real forms (CSRF token, request key, version) as a browser does; the
database is opened directly only to see what was written.
"""

from __future__ import annotations

import json
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

from scorekeeper.store import Store
from scorekeeper.store.tournaments import Tournaments

from ..harness import CLI, START_SECONDS, until
from ..helpers import count
from ..served import NET_ERRORS, Phone, Server, by_script, correction, new_tournament, table_tokens


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

    def tried_after(self, moment: float) -> int:
        """How many answers this phone got for what it sent after the moment."""
        return sum(1 for when, _, _ in list(self.answers) if when > moment)

    def finish(self) -> None:
        self.stop.set()
        self.thread.join(timeout=START_SECONDS)
        assert not self.thread.is_alive()
        if self.failure is not None:
            raise self.failure


def _until_each_tried_after(tables: list[TablePhone], moment: float) -> None:
    """Until every table's phone has had two answers after the moment (or has stopped): an
    event, not a pause, however busy the machine."""
    until(
        lambda: all(t.tried_after(moment) >= 2 or not t.thread.is_alive() for t in tables),
        "every table's phone answered twice after the close",
        0.02,
    )


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
        return store.engine.rows(
            f"SELECT game_id, at FROM deal_revisions WHERE game_id IN ({marks}) AND at > ?",
            [*ids, record.updated_at],
        )


def test_saves_racing_close_tour_never_land_after_the_close(tmp_path: Path) -> None:
    """Three tables save as fast as they can while the director closes the tour early, five
    times over: in every round not one edit is stored after the close, every Save after it
    is refused with the reason, and a deal saved before it and sent again gets its first
    answer."""
    server = Server(tmp_path / "games.sqlite", tmp_path / "server.log").start()
    try:
        raced = 0  # Saves refused after the close (the page's check or the write's own)
        for round_ in range(5):
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
            _until_each_tried_after(tables, closed_at)  # the phones keep trying
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


def test_a_tables_scorer_cannot_delete_its_game_and_a_deleted_one_never_blocks_close(
    tmp_path: Path,
) -> None:
    server = Server(tmp_path / "games.sqlite", tmp_path / "server.log").start()
    try:
        director = Phone(server.port)
        token = new_tournament(director)
        first, second, _third = table_tokens(server.db, token)
        scorer = Phone(server.port)
        links = scorer.get(f"/g/{first}/links")
        assert links.status == 200
        assert f"/g/{first}/delete" not in links.html
        assert "table 1 of tour 1" in links.html and "cannot be deleted" in links.html
        asked = scorer.get(f"/g/{first}/delete")
        assert asked.status == 403 and "cannot be deleted" in asked.html
        form = links.form(f"/g/{first}/links/view").data()  # a CSRF token of this phone
        sent = scorer.post(f"/g/{first}/delete", form)
        assert sent.status == 403 and "cannot be deleted" in sent.html
        assert scorer.get(f"/g/{first}").status == 200  # still there
        # A table's game deleted by an older release: Close still closes the tour, and
        # brings the table back (its deals count).
        with Store(server.db) as store:
            store.delete_game(second)
        assert Phone(server.port).get(f"/g/{second}").status != 200
        _close_early(director, token)
        with Store(server.db) as store:
            record = Tournaments(store).get(token)
            assert record.tours_closed == 1
            assert all(t.game.finished for t in record.tour(1))
        assert Phone(server.port).get(f"/g/{second}").status == 200
        page = director.get(f"/t/{token}")
        assert page.status == 200 and "cannot be scored" not in page.html
    finally:
        server.stop()


ONE_PLAYER = [("Anna", "anna"), ("Anna", "ANNA"), ("Anna", "Ａｎｎａ"), ("Straße", "STRASSE")]


def test_a_roster_with_one_player_twice_is_refused_up_front_on_the_web_and_in_the_cli(
    tmp_path: Path,
) -> None:
    """Names equal after case folding and NFKC are one player: the new tournament form says
    so next to the roster and writes nothing; the tournament file and `scorekeeper
    tournament` refuse them too (exit 2, one line)."""
    server = Server(tmp_path / "games.sqlite", tmp_path / "server.log").start()
    try:
        director = Phone(server.port)
        for first, second in ONE_PLAYER:
            form = director.get("/tournament/new").form("new-tournament")
            roster = [first, "Boris", "Vera", second, "Gleb"]
            form.set(name="Twins", roster="\n".join(roster), rounds="1")
            refused = director.post("/tournament/new", form.data())
            assert refused.status == 200, refused.status
            field = refused.html.split('id="roster"', 1)[1].split("</div>", 1)[0]
            said = f"“{second}” and “{first}” are one name"
            assert said in field or said.replace("“", "&#8220;") in field, field[:600]
        with Store(server.db) as store:
            assert count(store, "tournaments") == 0
    finally:
        server.stop()
    for first, second in ONE_PLAYER:
        data = {
            "format": "scorekeeper-tournament/1",
            "convention": "sochi",
            "options": {"pool_target": 10, "round_limit": 1},
            "table_size": 3,
            "players": [first, "Boris", "Vera", second, "Gleb", "Dasha"],
            "tours": [],
        }
        path = tmp_path / "twins.json"
        path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
        done = subprocess.run(
            [CLI, "tournament", str(path)], capture_output=True, text=True, timeout=60
        )
        assert done.returncode == 2, done.stdout
        assert done.stdout == ""
        assert "is the same name as" in done.stderr and len(done.stderr.splitlines()) == 1
