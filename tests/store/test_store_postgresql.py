"""PostgreSQL as the store's second engine: the schema, the guard against a newer release,
the CLI on a URL, the real server, and a database that goes away and comes back."""

from __future__ import annotations

import http.cookiejar
import json
import os
import subprocess
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest

from scorekeeper.store import SchemaTooNew, StorageUnavailable, Store
from scorekeeper.store.engine import close_pools
from scorekeeper.store.location import printable
from scorekeeper.store.schema import STEPS, TABLES, step_names
from scorekeeper.store.store import forget_migrated

from ..harness import CLI, Web
from ..helpers import newest_game
from ..pg import Server, wait_for

GAME = {
    "format": "scorekeeper-game/1",
    "name": "Friday",
    "convention": "sochi",
    "players": ["Anna", "Boris", "Vera"],
    "deals": [{"type": "misere", "declarer": "Anna", "tricks": {"Anna": 0}}],
}


def _schema(url: str) -> list[tuple[Any, ...]]:
    """Every column, constraint and index of the public schema, as pg_catalog says."""
    with psycopg.connect(url) as conn:
        columns = conn.execute(
            "SELECT table_name, column_name, data_type, is_nullable, column_default,"
            " is_identity, identity_generation FROM information_schema.columns"
            " WHERE table_schema = 'public' AND table_name <> 'scorekeeper_migrations'"
            " ORDER BY 1, 2"
        ).fetchall()
        constraints = conn.execute(
            "SELECT conrelid::regclass::text, contype, pg_get_constraintdef(oid)"
            " FROM pg_constraint WHERE connamespace = 'public'::regnamespace ORDER BY 1, 2, 3"
        ).fetchall()
        indexes = conn.execute(
            "SELECT tablename, indexname, indexdef FROM pg_indexes"
            " WHERE schemaname = 'public' AND tablename <> 'scorekeeper_migrations'"
            " ORDER BY 1, 2"
        ).fetchall()
    return [*columns, *constraints, *indexes]


def test_a_database_migrated_step_by_step_ends_like_a_new_one(pg_server: Server) -> None:
    new = pg_server.new_database(migrated=False)
    Store(new).close()
    old = pg_server.new_database(migrated=False)
    # An early release's database: the first two steps only, with a game and a deal in it.
    with psycopg.connect(old, autocommit=True) as conn:
        conn.execute(
            "CREATE TABLE scorekeeper_migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)"
        )
        for step in STEPS[:2]:
            for statement in step.statements("postgresql"):
                conn.execute(statement)  # type: ignore[call-overload]
            conn.execute("INSERT INTO scorekeeper_migrations VALUES (%s, 'then')", [step.name])
        game_id = conn.execute(
            "INSERT INTO games (name, convention, options, players, first_dealer, finished,"
            " created_at, updated_at, version, edit_token, view_token) VALUES ('Old', 'sochi',"
            " '{}', '[\"Anna\", \"Boris\", \"Vera\"]', 'Anna', 0, 'then', 'then', 1, 'e1', 'v1')"
            " RETURNING id"
        ).fetchone()[0]  # type: ignore[index]
        conn.execute(
            "INSERT INTO deals (game_id, seq, data, created_at, updated_at)"
            " VALUES (%s, 0, '{\"type\": \"redeal\"}', 'then', 'then')",
            [game_id],
        )
    with Store(old) as store:
        game = store.get_game("e1")
        assert [d.data for d in game.deals] == [{"type": "redeal"}]
        store.add_deal("e1", {"type": "redeal", "n": 2}, base_version=1)
    assert _schema(old) == _schema(new)
    assert len(_schema(new)) > 100
    with psycopg.connect(old) as conn:
        steps = [r[0] for r in conn.execute("SELECT name FROM scorekeeper_migrations")]
        tables = {
            r[0]
            for r in conn.execute(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'"
            )
        }
    assert sorted(steps) == sorted(step_names())
    assert tables - {"scorekeeper_migrations"} == set(TABLES)


def test_the_database_refuses_what_the_schema_forbids(pg_url: str) -> None:
    with Store(pg_url) as store:
        game, other = (
            store.create_game(
                name="F", convention="sochi", options={}, players=["A", "B", "C"], first_dealer="A"
            )
            for _ in range(2)
        )
    with psycopg.connect(pg_url) as conn:
        for bad in (
            "INSERT INTO deals (game_id, seq, data, created_at, updated_at)"
            " VALUES (999999, 0, '{}', 'x', 'x')",  # no such game
            f"UPDATE games SET view_token = '{game.view_token}' WHERE id = {other.id}",
            f"UPDATE games SET name = NULL WHERE id = {game.id}",
        ):
            with pytest.raises(psycopg.IntegrityError):
                conn.execute(bad)  # type: ignore[call-overload]
            conn.rollback()


@pytest.mark.parametrize("how", ["step", "release"])
def test_a_release_refuses_a_database_a_newer_one_wrote(
    store_location: str, how: str, tmp_path: Path
) -> None:
    Store(store_location).close()
    if store_location.startswith("postgresql"):
        with psycopg.connect(store_location, autocommit=True) as conn:
            if how == "step":
                conn.execute(
                    "INSERT INTO scorekeeper_migrations VALUES ('m999_from_the_future', 'x')"
                )
            else:
                conn.execute("UPDATE schema_release SET release = '99.0.0'")
        close_pools()
        forget_migrated()  # as a release started afresh
    else:
        import sqlite3

        conn = sqlite3.connect(store_location)
        with conn:
            if how == "step":
                conn.execute(
                    "INSERT INTO _sqlite_migrations (migration_set, name, applied_at)"
                    " VALUES ('scorekeeper', 'm999_from_the_future', 'x')"
                )
            else:
                conn.execute("UPDATE schema_release SET release = '99.0.0'")
        conn.close()
        forget_migrated()
    with pytest.raises(SchemaTooNew, match="newer than this release"):
        Store(store_location)
    result = subprocess.run(
        [CLI, "export", "nosuchtoken", "--db", store_location, "--out", str(tmp_path / "x.pdf")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2, result.stderr
    assert "newer than this release" in result.stderr and "Traceback" not in result.stderr
    assert ("m999_from_the_future" in result.stderr) == (how == "step")
    served = subprocess.run(
        [CLI, "serve", "--port", "0", "--db", store_location],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert served.returncode == 2 and "newer than this release" in served.stderr


def test_the_cli_never_prints_a_urls_password(pg_server: Server, pg_url: str) -> None:
    parts = urllib.parse.urlsplit(pg_url)
    secret = "s3cr%40t-pw"
    with_password = urllib.parse.urlunsplit(
        parts._replace(netloc=f"nobody:{secret}@{parts.hostname}:{parts.port}")
    )
    shown = printable(with_password)
    assert shown.count("***") == 1 and "s3cr" not in shown
    result = subprocess.run(
        [CLI, "export", "tok", "--db", with_password], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 2  # a database that cannot be used, as a bad setting
    assert "s3cr" not in result.stderr + result.stdout and "***" in result.stderr
    backup = subprocess.run(
        [CLI, "backup", "/tmp/never.sqlite", "--db", with_password],
        capture_output=True,
        text=True,
        timeout=60,
    )
    # backup on a URL is an SQLite file (i29-ops); a server refusing the user says why.
    assert backup.returncode == 2 and 'role "nobody" does not exist' in backup.stderr
    assert "s3cr" not in backup.stderr + backup.stdout and "***" in backup.stderr
    assert not Path("/tmp/never.sqlite").exists()


def test_import_and_export_on_a_url(pg_url: str, tmp_path: Path) -> None:
    file = tmp_path / "game.json"
    file.write_text(json.dumps(GAME))
    result = subprocess.run(
        [CLI, "import", str(file), "--db", pg_url], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    token = [x for x in result.stdout.split() if x.startswith("/g/")][0].rsplit("/", 1)[-1]
    with Store(pg_url) as store:
        assert store.get_game(token).name == "Friday"
    pdf = tmp_path / "friday.pdf"
    exported = subprocess.run(
        [CLI, "export", token, "--db", pg_url, "--out", str(pdf)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert exported.returncode == 0, exported.stderr
    assert pdf.read_bytes().startswith(b"%PDF")


# -- the real server -------------------------------------------------------------------------


class _Response:
    def __init__(self, status: int, headers: Any, body: bytes) -> None:
        self.status_code = status
        self.headers = headers
        self._body = body

    def get_data(self, as_text: bool = False) -> Any:
        return self._body.decode() if as_text else self._body


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


class HttpClient:
    """What tests/harness.Web needs of a client, over real HTTP to a running server."""

    def __init__(self, base: str) -> None:
        self.base = base.rstrip("/")
        jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(jar), _NoRedirect()
        )

    def _open(self, request: urllib.request.Request) -> _Response:
        try:
            with self.opener.open(request, timeout=30) as response:
                return _Response(response.status, response.headers, response.read())
        except urllib.error.HTTPError as error:
            return _Response(error.code, error.headers, error.read())

    def get(self, url: str, **_kw: Any) -> _Response:
        return self._open(urllib.request.Request(self.base + url))

    def post(self, url: str, data: Any = None, **_kw: Any) -> _Response:
        body = urllib.parse.urlencode(
            [(k, v) for k, values in (data or {}).items() for v in values]
        ).encode()
        return self._open(urllib.request.Request(self.base + url, data=body, method="POST"))


@pytest.fixture
def served(pg_url: str, tmp_path: Path) -> Iterator[tuple[str, str]]:
    from ..ports import free_port

    port = free_port()
    server = subprocess.Popen(
        [CLI, "serve", "--host", "127.0.0.1", "--port", str(port), "--db", pg_url],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "SCOREKEEPER_INSTANCE": str(tmp_path)},
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(base + "/healthz", timeout=2).close()
                break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError(server.communicate()[1][-2000:]) from None
                time.sleep(0.1)
        yield base, pg_url
    finally:
        server.terminate()
        out, err = server.communicate(timeout=20)
    assert "Traceback" not in err, err[-3000:]


def test_serve_on_postgresql_serves_a_game(served: tuple[str, str]) -> None:
    base, url = served
    web = Web(HttpClient(base))  # type: ignore[arg-type]
    token = web.new_game()
    page = web.play(token, ["Anna", "Boris", "Vera"], "misere", declarer="Anna", tricks={"Anna": 0})
    assert page.status in (200, 302, 303), page.text()[:500]
    game = web.get(f"/g/{token}")
    assert "Anna" in game.text() and "Friday" in game.text()
    with Store(url) as store:
        record = store.get_game(token)
    assert [d.data["type"] for d in record.deals] == ["misere"]
    assert record.version == 2


@pytest.fixture
def stoppable(pg_server: Server) -> Iterator[tuple[Server, str]]:
    """A server this test may stop and start, with a database on it: the session's when
    this session started it, else one started for the test alone (SCOREKEEPER_TEST_PG's
    server is somebody else's to stop)."""
    server = pg_server if pg_server.ours else Server(own=True)
    url = server.new_database()
    try:
        yield server, url
    finally:
        close_pools()
        if server is pg_server:
            server.drop(url)
        else:
            server.close()


def test_the_database_going_away_is_a_503_and_saves_work_again_after(
    stoppable: tuple[Server, str], catalogues: None
) -> None:
    pg_server, pg_url = stoppable
    assert pg_server.ours
    from scorekeeper.web import create_app

    app = create_app({"TESTING": True, "DATABASE": pg_url, "SECRET_KEY": "k"})
    web = Web(app.test_client())
    token = web.new_game()
    web.play(token, ["Anna", "Boris", "Vera"], "misere", declarer="Anna", tricks={"Anna": 0})
    pg_server.stop("fast")  # every connection is cut; no crash recovery to wait for
    try:
        down = web.get(f"/g/{token}", status=None)
        assert down.status == 503 and down.response.headers["Retry-After"]
        assert "cannot be reached" in down.text()
    finally:
        pg_server.start_again()
        wait_for(pg_url, 120)
    time.sleep(0.5)  # the pool drops the dead connections it finds
    for _ in range(20):
        again = web.get(f"/g/{token}", status=None)
        if again.status == 200:
            break
        time.sleep(0.25)
    assert again.status == 200
    web.play(token, ["Anna", "Boris", "Vera"], "misere", declarer="Boris", tricks={"Boris": 0})
    with Store(pg_url) as store:
        assert len(store.get_game(token).deals) == 2


def test_a_dead_database_at_open_is_storage_unavailable(pg_server: Server) -> None:
    with pytest.raises(StorageUnavailable, match="cannot be reached"):
        Store("postgresql://nobody@127.0.0.1:1/none", busy_timeout_ms=1000)


def test_no_request_purges_the_background_does(store_location: str, catalogues: None) -> None:
    """get_store() never writes: the purge runs at start and then in a thread of its own."""

    from scorekeeper.games import purging
    from scorekeeper.web import create_app

    app = create_app({"TESTING": True, "DATABASE": store_location, "SECRET_KEY": "k"})
    web = Web(app.test_client())
    token = web.new_game()
    with Store(store_location) as store:
        game = store.get_game(token)
        store.delete_game(token)
        store.engine.update("games", game.id, {"deleted_at": "2000-01-01T00:00:00+00:00"})
    for url in ("/", f"/g/{token}", f"/g/{token}/version", "/healthz"):
        web.get(url, status=None)
    with Store(store_location) as store:
        assert store.deleted_game(token) is not None  # no page purged it
    # the background purge of this process runs
    assert "scorekeeper-purge" in [thread.name for thread in threading.enumerate()]
    purging.purge(store_location)
    with Store(store_location) as store:
        assert store.deleted_game(token) is None
        assert store.engine.value("SELECT count(*) FROM games") == 0


def test_two_hosts_starting_at_once_migrate_once(pg_server: Server) -> None:
    """Hosts starting together on a new database: one applies the steps under the lock,
    the others wait for it and find nothing to do."""
    import threading

    from scorekeeper.store import schema

    url = pg_server.new_database(migrated=False)
    barrier = threading.Barrier(4)
    errors: list[BaseException] = []

    def start() -> None:
        barrier.wait()
        try:
            engine = _engine(url)
            try:
                schema.migrate(engine)
            finally:
                engine.close()
        except BaseException as error:  # noqa: BLE001 - collected and asserted below
            errors.append(error)

    threads = [threading.Thread(target=start) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    with psycopg.connect(url) as conn:
        steps = [r[0] for r in conn.execute("SELECT name FROM scorekeeper_migrations")]
        releases = conn.execute("SELECT count(*) FROM schema_release").fetchone()
    assert sorted(steps) == sorted(step_names())
    assert releases == (1,)


def _engine(url: str) -> Any:
    from scorekeeper.store.engine import PostgresEngine

    return PostgresEngine(url, busy_timeout_ms=20000)


def test_a_deadlock_is_tried_once_more_then_refused_clearly(pg_url: str) -> None:
    """A real deadlock (PostgreSQL picks this write as its victim): the write is run again
    and lands once; a write that keeps failing so is refused with the reason."""
    import threading

    from scorekeeper.store.engine import Contention

    with Store(pg_url) as store:
        a, b = (
            store.create_game(
                name=n, convention="sochi", options={}, players=["A", "B", "C"], first_dealer="A"
            )
            for n in "ab"
        )
    other = psycopg.connect(pg_url)
    # PostgreSQL's victim is the side whose deadlock check runs first: the partner checks
    # only after 30 s, so the Store (1 s, the default) is always the one refused.
    other.execute("SET deadlock_timeout = '30s'")
    other.execute("SELECT id FROM games WHERE id = %s FOR UPDATE", [b.id])  # holds b
    calls: list[int] = []
    failed: list[BaseException] = []

    def partner() -> None:
        try:
            with psycopg.connect(pg_url, autocommit=True) as looking:
                for _ in range(600):  # until the Store holds a and waits for b
                    waiting = looking.execute(
                        "SELECT count(*) FROM pg_stat_activity"
                        " WHERE wait_event_type = 'Lock' AND pid <> pg_backend_pid()"
                        " AND datname = current_database()"  # not another test's wait
                    ).fetchone()
                    if waiting and waiting[0]:
                        break
                    time.sleep(0.05)
            other.execute("SELECT id FROM games WHERE id = %s FOR UPDATE", [a.id])
            other.commit()
        except BaseException as exc:  # seen by the test, not lost in the thread
            failed.append(exc)
            other.rollback()

    def guard(store: Store, game_id: int) -> None:
        calls.append(game_id)
        if len(calls) == 1:  # waits for `other`, who then waits for a -> deadlock
            store.engine.lock_row("games", b.id)
        # The run again does not ask for b: had it, it could grab a before `other` (woken by
        # the rollback) does and deadlock a second time, which is a different story.

    thread = threading.Thread(target=partner)
    thread.start()
    try:
        with Store(pg_url) as store:
            written = store.add_deal(a.edit_token, {"type": "redeal"}, base_version=1, guard=guard)
    finally:
        thread.join()
        other.close()
    assert failed == []
    assert written[2] is True and written[0].version == 2
    assert calls == [a.id, a.id]  # the first run was the deadlock's victim, the second landed
    with Store(pg_url) as store:
        assert len(store.get_game(a.edit_token).deals) == 1

        def always(store: Store, game_id: int) -> None:
            raise Contention("deadlock", "the database was busy with a conflicting change")

        with pytest.raises(StorageUnavailable) as refused:
            store.add_deal(a.edit_token, {"type": "redeal"}, base_version=2, guard=always)
        assert "conflicting change" in refused.value.reason
        assert store.get_game(a.edit_token).version == 2


def test_wrong_passwords_count_across_hosts_on_one_database(pg_url: str, catalogues: None) -> None:
    """Two hosts (two apps) on one PostgreSQL: the guesses made at one count at the other."""
    from scorekeeper.web import create_app
    from scorekeeper.web.attempts import LIMIT

    from ..web.test_password_attempts import _try_new

    hosts = [
        create_app({"TESTING": True, "DATABASE": pg_url, "SECRET_KEY": "one", "PASSWORD": "1234"})
        for _ in range(2)
    ]
    first, second = (Web(app.test_client()) for app in hosts)
    for guess in range(LIMIT):
        assert _try_new(first, f"{guess:04d}").status == 422
    blocked = _try_new(second, "1234")  # the other host knows of the guesses
    assert blocked.status == 429 and 50 <= int(blocked.response.headers["Retry-After"]) <= 60
    with Store(pg_url) as store:
        assert store.engine.value("SELECT count(*) FROM wrong_passwords") == LIMIT
        assert newest_game(store) is None
