"""The director's winners line writes the points as the standings do, decimals to hundredths,
never a fraction beside them ("+235 4/5" by "+235.8"; issue 50, item 9)."""

from __future__ import annotations

import re
from fractions import Fraction

from scorekeeper.store import Store
from scorekeeper.store.tournaments import Tournaments
from scorekeeper.web.i18n import words_for

from ..flows import close, new_tournament, play_tour, seat
from ..harness import Web


def test_the_winners_line_writes_points_as_the_standings(web: Web, store: Store) -> None:
    # A band of thirds: the points are fractions (a third of each whist past 1).
    token = new_tournament(web, tours="1", bands_preset="custom", bands_text="1 1\n* 1/3")
    seat(web, token)
    play_tour(web, store, token, 1)
    close(web, token)
    page = web.get(f"/t/{token}")
    winners = re.findall(
        r'data-winner="\d"><strong>\d\.</strong> <bdi>([^<]+)</bdi> · ([^<]+)</li>', page.html
    )
    assert len(winners) >= 3, page.text()[:400]
    points = dict(
        re.findall(r'data-player="([^"]+)" data-place="\d+" data-points="([^"]+)"', page.html)
    )
    for player, shown in winners:
        assert not re.search(r"[/⅓⅔¼¾⅕⅖⅗⅘]", shown) and shown == words_for("en").points(
            Fraction(points[player])
        )
    assert any(Fraction(p).denominator > 1 for p in points.values()), points
    assert Tournaments(store).get(token).tours_closed == 1
