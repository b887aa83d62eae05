"""Browser tier: what a real evening still tripped on (issue 30 items 3, 7 and 8), each done
the way the table does it on the real server.

- Hussar started on a phone whose last game was of four: the seats the page hides are not
  sent (before, the last game's names in them were, and the game was refused).
- Counting: deals are deals; a penalty and a correction are named as such, with numbers of
  their own, on the form, the sheet's messages, the game-over card and the delete page.
- Two phones adding the same deal: the second is shown the deal just saved beside its own
  and chooses "it is the same deal" (nothing written) or "save as the next deal".
"""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper.store import Store

from .browser import (  # noqa: F401 (the store and phone fixtures)
    SMALL_PHONE,
    enter_deal,
    new_game,
    save_deal,
    served_store,
    shot,
    table_phone,
)

pytestmark = pytest.mark.browser

FOUR = ["Anna", "Boris", "Vera", "Gleb"]


def test_hussar_after_a_game_of_four_sends_only_the_two_seats_shown(
    phone: tuple[Any, str, list[str]], store: Store
) -> None:
    page, server, problems = phone
    four = new_game(page, server, FOUR)
    assert list(store.get_game(four).players) == FOUR
    # The same phone, the next game: the form offers the last game's four names again.
    page.goto(f"{server}/new")
    assert page.input_value("#player_3") == "Gleb"
    page.locator('#convention .tap[data-value="hussar"]').click()
    assert page.is_visible("#player_0") and page.is_visible("#player_1")
    assert not page.is_visible("#player_2") and not page.is_visible("#player_3")
    # The hidden seats can be reached by neither Tab nor a screen reader, and are not sent.
    assert page.is_disabled("#player_2") and page.is_disabled("#player_3")
    page.fill("#player_0", "Anna")
    page.fill("#player_1", "Boris")
    page.locator("#new-game button[type=submit]").click()
    page.wait_for_url(f"{server}/g/**")
    token = page.url.rsplit("/", 1)[-1].split("?")[0]
    game = store.get_game(token)
    assert list(game.players) == ["Anna", "Boris"]
    assert game.convention == "hussar"
    assert problems == []
