"""The long poll's watch on each engine (an SQLite file, then PostgreSQL): a write through
another Store (another process, another host) answers the waiting phone; nothing written,
the phone is told "the same" at the end of its hold; a link of no game is None."""

from __future__ import annotations

import asyncio

from scorekeeper.longpoll import Watch
from scorekeeper.store import Store
from scorekeeper.store.confirmations import Confirmations

from .test_longpoll import run_in_its_own_thread
from .test_store import SEVEN_SPADES, new_game


def test_the_watch_answers_a_write_from_another_store_on_each_engine(store_location: str) -> None:
    with Store(store_location) as store:
        game = new_game(store)
    view = game.view_token
    watch = Watch(lambda: Store(store_location, create=False))

    def write() -> None:
        with Store(store_location, create=False) as other:  # not the watch's connection
            other.add_deal(game.edit_token, SEVEN_SPADES, base_version=game.version)

    async def night() -> tuple[object, object, object]:
        watch.start(asyncio.get_running_loop())
        try:
            same = await watch.wait(view, f"{game.version}.0", hold=0.6)
            later = asyncio.ensure_future(watch.wait(view, f"{game.version}.0", hold=10))
            await asyncio.sleep(0.4)
            assert not later.done()
            await asyncio.to_thread(write)
            changed = await later
            gone = await watch.wait("nosuchtoken", "1", hold=10)
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
