"""Following under a path prefix (SCOREKEEPER_PREFIX) on each engine: a follower's held
request, passed on by a proxy with the prefix or stripped of it, is answered after a write
with the page riding along, its addresses under the prefix, in the follower's language
(its cookie rides with the held request)."""

from __future__ import annotations

from pathlib import Path

from scorekeeper.store import Store

from ..served import Server, follow_of
from ..store.test_store import SEVEN_SPADES
from ..store.test_store import new_game as store_game
from .test_follow_both_engines import Follower


def test_under_a_prefix_the_page_rides_in_the_followers_language(
    store_location: str, tmp_path: Path
) -> None:
    env = {"SCOREKEEPER_PREFIX": "/pulka"}
    server = Server(Path(store_location), tmp_path / "server.log", env=env)
    server.db = store_location  # type: ignore[assignment]  # a URL is passed as it is
    server.start()
    try:
        with Store(store_location, create=False) as store:
            game = store_game(store)
        follower = Follower(server.port, game.view_token, prefix="/pulka")
        follower.phone.get(f"/pulka/v/{game.view_token}?lang=ru")  # the language chosen
        for version, stripped in ((game.version, False), (game.version + 1, True)):
            follower.hold(stripped)
            with Store(store_location, create=False) as store:
                store.add_deal(game.edit_token, SEVEN_SPADES, base_version=version)
            page = follower.new_page()
            assert follow_of(page)["data-wait"] == f"/pulka/v/{game.view_token}/wait"
            assert '<html lang="ru">' in page
    finally:
        server.stop()
