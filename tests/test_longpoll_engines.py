"""The long poll's watch on each engine (an SQLite file, then PostgreSQL): a write through
another Store (another process, another host) answers the waiting phone; nothing written,
the phone is told "the same" at the end of its hold; a link of no game is None."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from typing import Any

import pytest

from scorekeeper.longpoll import Watch
from scorekeeper.store import Store
from scorekeeper.store.confirmations import Confirmations

from .harness import START_SECONDS, run_in_its_own_thread
from .helpers import said
from .store.test_store import SEVEN_SPADES, new_game


def test_the_watch_answers_a_write_from_another_store_on_each_engine(store_location: str) -> None:
    with Store(store_location) as store:
        game = new_game(store)
    view = game.view_token
    watch = Watch(lambda: Store(store_location, create=False))

    async def night() -> tuple[object, object, object]:
        watch.start(asyncio.get_running_loop())
        try:
            same = await watch.wait(view, f"{game.version}.0", hold=0.6)
            later = asyncio.ensure_future(watch.wait(view, f"{game.version}.0", hold=START_SECONDS))
            await asyncio.sleep(0.4)
            assert not later.done()
            await asyncio.to_thread(write_a_deal, store_location, game)
            changed = await later
            gone = await watch.wait("nosuchtoken", "1", hold=START_SECONDS)
            return same, changed, gone
        finally:
            watch.stop()

    same, changed, gone = run_in_its_own_thread(night)
    assert same == (game.version, 0)
    assert changed == (game.version + 1, 0)
    assert gone is None
    with Store(store_location, create=False) as store:
        assert Confirmations(store).versions_seen([view, "nosuchtoken"]) == {
            view: (game.version + 1, 0)
        }


def test_the_watch_reads_no_game_while_nothing_is_written_on_each_engine(
    store_location: str,
) -> None:
    """Phones waiting on a game nobody writes to cost no read of the games after the first
    (the old reader read every game five times a second); a phone that comes showing another
    state than the game's is answered at once, from a read of its own game begun after it came;
    and the first write after the quiet answers the phone still waiting."""
    with Store(store_location) as store:
        game = new_game(store)
    view = game.view_token
    watch = Watch(lambda: Store(store_location, create=False))
    now = f"{game.version}.0"

    async def night() -> tuple[int, object, object, int]:
        watch.start(asyncio.get_running_loop())
        try:
            waiting = asyncio.ensure_future(watch.wait(view, now, hold=120))
            await until(lambda: watch.reads >= 1)  # the first read of every game
            await asyncio.sleep(1.5)  # quiet: 37 looks on a quiet machine, and no read
            quiet_reads = watch.reads
            behind = await asyncio.wait_for(watch.wait(view, "0.0", hold=120), START_SECONDS)
            assert not waiting.done()
            await asyncio.to_thread(write_a_deal, store_location, game)
            changed = await asyncio.wait_for(waiting, START_SECONDS)
            return quiet_reads, behind, changed, watch.reads
        finally:
            watch.stop()

    quiet_reads, behind, changed, reads = run_in_its_own_thread(night)
    assert quiet_reads == 1
    assert behind == (game.version, 0)  # told before its hold of 120 s ended, not at it
    assert changed == (game.version + 1, 0)
    assert reads <= 4  # the quiet read, the one game read for the phone behind, the write's


async def until(condition: Callable[[], bool]) -> None:
    """Until the condition holds: an event, however busy the machine; fails after
    START_SECONDS saying so."""

    async def held() -> None:
        while not condition():
            await asyncio.sleep(0.02)

    try:
        await asyncio.wait_for(held(), START_SECONDS)
    except TimeoutError:
        raise AssertionError(f"the watch never got there in {START_SECONDS} s") from None


def write_a_deal(store_location: str, game: Any) -> None:
    with Store(store_location, create=False) as other:  # not the watch's connection
        other.add_deal(game.edit_token, SEVEN_SPADES, base_version=game.version)


def test_every_postgresql_write_notifies_the_hosts_as_it_commits(pg_url: str) -> None:
    """A write through any host is announced on the channel the long poll listens to, once it
    commits: a Save and an answer name their game's read-only token, any other write names
    nothing (anything may have changed); a read, and a write rolled back, announce nothing."""
    import psycopg

    from scorekeeper.store.engine import CHANGES_CHANNEL

    with Store(pg_url) as store:
        game = new_game(store)
    with psycopg.connect(pg_url, autocommit=True) as listener:
        listener.execute(f"LISTEN {CHANGES_CHANNEL}")
        with Store(pg_url, create=False) as other:
            other.get_game(game.edit_token)
            assert list(listener.notifies(timeout=0.5)) == []
            try:
                with other.engine.writing():
                    other.engine.changed(game.view_token)
                    other.engine.execute("UPDATE games SET version = version WHERE id = ?", [0])
                    raise RuntimeError("rolled back")
            except RuntimeError:
                pass
            assert list(listener.notifies(timeout=0.5)) == []
            other.add_deal(game.edit_token, SEVEN_SPADES, base_version=game.version)
            saved = list(listener.notifies(timeout=5, stop_after=1))
            said(other, game.view_token, -1, "Anna", "right")
            answered = list(listener.notifies(timeout=5, stop_after=1))
            with other.engine.writing():
                other.engine.execute("UPDATE games SET version = version WHERE id = ?", [0])
            unnamed = list(listener.notifies(timeout=5, stop_after=1))
    heard = saved + answered + unnamed
    assert [n.channel for n in heard] == [CHANGES_CHANNEL] * 3
    assert [n.payload for n in heard] == [game.view_token, game.view_token, ""]


def test_on_postgresql_the_watch_reads_only_the_game_a_save_names(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Phones wait on three games; a Save of one, through another host, is read alone (its
    notification names it) and answers its phone; the phones of the other two still wait,
    their games not read again. A write that names nothing reads every waited-on game."""
    from scorekeeper import longpoll

    read: list[list[str]] = []
    real = longpoll._Reader._states

    def states(reader: Any, tokens: list[str]) -> Any:
        read.append(sorted(tokens))
        return real(reader, tokens)

    monkeypatch.setattr(longpoll._Reader, "_states", states)
    with Store(pg_url) as store:
        games = [new_game(store, name=f"Table {n}") for n in range(3)]
    views = sorted(g.view_token for g in games)
    saved = next(g for g in games if g.view_token == views[1])
    watch = Watch(lambda: Store(pg_url, create=False))

    async def night() -> tuple[list[object], list[list[str]], list[list[str]]]:
        watch.start(asyncio.get_running_loop())
        try:
            waiting = [
                asyncio.ensure_future(watch.wait(g.view_token, f"{g.version}.0", hold=120))
                for g in games
            ]
            await until(lambda: watch.reads >= 1 and read[-1] == views)  # the first read
            before = len(read)
            await asyncio.to_thread(write_a_deal, pg_url, saved)
            told = await asyncio.wait_for(waiting[games.index(saved)], START_SECONDS)
            after_save = read[before:]
            await asyncio.to_thread(write_naming_nothing, pg_url)
            others = [v for v in views if v != saved.view_token]
            await until(lambda: read[-1] == others)  # every game still waited on, read
            assert not any(w.done() for g, w in zip(games, waiting, strict=True) if g != saved)
            return [told], after_save, read
        finally:
            watch.stop()

    (told,), after_save, _ = run_in_its_own_thread(night)
    assert told == (saved.version + 1, 0)
    assert after_save == [[saved.view_token]]


def test_on_postgresql_a_phone_that_comes_after_its_games_save_is_told_at_once(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Save names a game nobody waits on just then (its phone left to fetch something); the
    phone comes back showing the state before the Save and is told of it by a read of its game
    alone, not left waiting for the read of every game every 5 s (the watch had kept the
    game's old state, and took the phone for one that shows what its game is)."""
    from scorekeeper import longpoll

    read: list[list[str]] = []
    looks = [0]
    real_states, real_next = longpoll._Reader._states, longpoll._Reader.next

    def states(reader: Any, tokens: list[str]) -> Any:
        read.append(sorted(tokens))
        return real_states(reader, tokens)

    def next_(reader: Any, tokens: list[str], came: list[Any]) -> Any:
        try:
            return real_next(reader, tokens, came)
        finally:
            looks[0] += 1

    monkeypatch.setattr(longpoll._Reader, "_states", states)
    monkeypatch.setattr(longpoll._Reader, "next", next_)
    monkeypatch.setattr(longpoll, "SURE_SECONDS", 3600.0)  # no read of every game but the first
    with Store(pg_url) as store:
        kept, saved = new_game(store, name="Table 1"), new_game(store, name="Table 2")
    watch = Watch(lambda: Store(pg_url, create=False))
    shows = f"{saved.version}.0"

    async def night() -> tuple[object, list[str]]:
        watch.start(asyncio.get_running_loop())
        try:
            other = asyncio.ensure_future(watch.wait(kept.view_token, f"{kept.version}.0", 120))
            left = asyncio.ensure_future(watch.wait(saved.view_token, shows, hold=120))
            both = sorted([kept.view_token, saved.view_token])
            await until(lambda: both in read)  # a read of every game: both states known
            left.cancel()
            await until(lambda: saved.view_token not in watch._waiting)
            await asyncio.to_thread(write_a_deal, pg_url, saved)
            heard = looks[0]
            await until(lambda: looks[0] >= heard + 5)  # the notification heard meanwhile
            before = len(read)
            told = await asyncio.wait_for(watch.wait(saved.view_token, shows, 120), START_SECONDS)
            assert not other.done()
            return told, read[before]
        finally:
            watch.stop()

    told, answered_by = run_in_its_own_thread(night)
    assert told == (saved.version + 1, 0)
    assert answered_by == [saved.view_token]


def write_naming_nothing(store_location: str) -> None:
    with Store(store_location, create=False) as other:
        with other.engine.writing():
            other.engine.execute("UPDATE games SET version = version WHERE id = ?", [0])


def test_no_phone_is_left_behind_or_told_of_an_older_state_on_each_engine(
    store_location: str,
) -> None:
    """Phones come to wait on three games, some showing what the game is, some behind, while
    other hosts write deals at random moments: each phone told anything is told a state at
    least as new as the game's when it came, never what it shows; once the writes stop, every
    phone still waiting shows what its game now is."""
    with Store(store_location) as store:
        games = [new_game(store, name=f"Table {n}") for n in range(3)]
    version = {g.view_token: g.version for g in games}
    edit = {g.view_token: g.edit_token for g in games}
    watch = Watch(lambda: Store(store_location, create=False))
    rng = random.Random(35)

    def write(view: str) -> None:
        with Store(store_location, create=False) as other:
            other.add_deal(edit[view], SEVEN_SPADES, base_version=version[view])
        version[view] += 1

    async def night() -> list[tuple[str, int, str, object]]:
        watch.start(asyncio.get_running_loop())
        phones: list[tuple[str, int, str, asyncio.Future[object]]] = []
        try:
            for _ in range(40):
                view = rng.choice(list(version))
                if rng.random() < 0.3:
                    await asyncio.to_thread(write, view)
                else:
                    shows = version[view] - rng.choice([0, 0, 0, 1])
                    since = f"{shows}.0"
                    phones.append(
                        (view, version[view], since, asyncio.ensure_future(watch.wait(view, since)))
                    )
                await asyncio.sleep(rng.uniform(0, 0.15))
            # Every phone shown an older state is told (a look, a read and an answer each).
            await until(lambda: all(f.done() for v, _, s, f in phones if s != f"{version[v]}.0"))
            return [(v, at, since, f.result() if f.done() else None) for v, at, since, f in phones]
        finally:
            watch.stop()

    for view, at_arrival, since, told in run_in_its_own_thread(night):
        if told is None:  # still waiting at the end: it must show what its game is
            assert since == f"{version[view]}.0"
        else:
            assert told[0] >= at_arrival and f"{told[0]}.{told[1]}" != since
