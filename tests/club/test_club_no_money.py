"""season.md §1: "Money stays on the companies' pages: a club page never shows money" — not
the director's page, the members' page, the public page nor a player's page, though every
game of the club is played for a stake in a currency."""

from __future__ import annotations

import json
import random

from scorekeeper import gamefile, games
from scorekeeper.rules import score, settle
from scorekeeper.store import Store
from scorekeeper.store.clubs import Clubs

from ..club_sample import stored_game
from ..flows import new_club, post
from ..harness import Web

CURRENCY = "QQD"


def test_no_club_page_shows_money(web: Web, store: Store) -> None:
    rng = random.Random(11)
    token = new_club(web)
    amounts: set[str] = set()
    for names in (["Анна", "Борис", "Вера"], ["Анна", "Глеб", "Вера"]):
        game = stored_game(store, rng, names, deals=10)
        data = json.loads(json.dumps(gamefile.dump(games.load(game).game)))
        data["options"] = {**data.get("options", {}), "stake": "0.37", "currency": CURRENCY}
        priced = games.create_from_game(store, gamefile.load(data))
        money = settle(score(gamefile.load(data))).money.values()
        amounts |= {f"{abs(m):.2f}" for m in money if m} | {
            f"{abs(m):.2f}".replace(".", ",") for m in money if m
        }
        assert post(web, token, "attach", link=priced.edit_token)[0] == 302
    assert post(web, token, "player", player="Анна")[0] == 302
    assert post(web, token, "public", on="1")[0] == 302
    club = Clubs(store).get(token)
    anna = club.players[0].id
    pages = [f"/k/{token}", f"/kv/{club.view_token}", f"/kp/{club.public_token}"]
    pages += [f"/kv/{club.view_token}/player/{anna}"]
    for lang in ("en", "ru"):
        for url in pages:
            text = web.get(f"{url}?lang={lang}").text()
            assert "Анна" in text, url
            assert CURRENCY not in text, url
            assert not {a for a in amounts if a in text}, (url, amounts)
