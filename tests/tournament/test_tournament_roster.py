"""What the new tournament form takes, the tournament file takes back: the one name rule
for the roster (names equal after case folding and NFKC are one player), the most bands a
file holds, and a file the app wrote always imports, whatever was typed."""

from __future__ import annotations

import io
import json
import random

from scorekeeper.store import Store
from scorekeeper.store.tournaments import Tournaments
from scorekeeper.tournament import file as tfile

from ..flows import downloaded, new_tournament, play, seat, tables
from ..harness import NINE, Web
from ..helpers import count


def _import(web: Web, data: object) -> str:
    page = web.get("/tournament/import")
    form = page.form("import-tournament").data()
    form["file"] = [(io.BytesIO(json.dumps(data).encode()), "cup.json")]
    response = web.client.post("/tournament/import", data=form, content_type="multipart/form-data")
    assert response.status_code == 302, response.get_data(as_text=True)[:1500]
    return response.headers["Location"].rsplit("/", 1)[-1]


def test_one_player_written_two_ways_is_refused_next_to_the_roster(web: Web, store: Store):
    for first, second in [("Anna", "anna"), ("Anna", "ANNA"), ("Anna", "Ａｎｎａ")]:
        page = web.get("/tournament/new")
        form = page.form("new-tournament")
        form.set(name="Twins", roster="\n".join([first, "Boris", "Vera", second]), rounds="1")
        refused = web.submit(page, form)
        assert refused.status == 200
        assert f"“{second}” and “{first}” are one name" in " ".join(refused.errors())
    form.set(roster="Straße\nBoris\nSTRASSE")  # one player twice: two names left, too few
    refused = web.submit(page, form)
    errors = " ".join(refused.errors())
    assert "“STRASSE” and “Straße” are one name" in errors and "at least three" in errors
    assert Tournaments(store).for_tokens([]) == []
    assert count(store, "tournaments") == 0


def test_a_typed_seating_finds_the_roster_names_in_other_capitals(web: Web, store: Store):
    token = new_tournament(web, roster=NINE[:6])
    page = web.get(f"/t/{token}")
    form = page.form("/seat").set(seating="anna, BORIS, Vera\nGleb, dasha, Egor")
    assert web.submit(page, form).status == 302
    seated = [t.game.players for t in tables(store, token, 1)]
    assert seated == [["Anna", "Boris", "Vera"], ["Gleb", "Dasha", "Egor"]]


def _bands(count: int) -> str:
    lines = [f"{50 * n} {'1' if n == 1 else f'1/{n}'}" for n in range(1, count)]
    return "\n".join([*lines, "* 0"])


def test_the_bands_a_file_holds_are_the_bands_the_form_takes(web: Web, store: Store):
    page = web.get("/tournament/new")
    form = page.form("new-tournament")
    form.set(roster="\n".join(NINE), rounds="1", bands_preset="custom", bands_text=_bands(21))
    refused = web.submit(page, form)
    assert refused.status == 200
    assert f"At most {tfile.MAX_BANDS} bands" in refused.errors()
    assert count(store, "tournaments") == 0
    token = new_tournament(web, bands_preset="custom", bands_text=_bands(tfile.MAX_BANDS))
    seat(web, token)
    exported = downloaded(web, token)
    assert len(exported["scale"]["bands"]) == tfile.MAX_BANDS
    assert downloaded(web, _import(web, exported)) == exported


ALPHABETS = [
    ["Анна", "Борис", "Віра", "Глеб", "Дарʼя", "Єгор", "Зоя", "Іван", "Клара", "Лев"],
    ["Åsa", "Zoë", "Łukasz", "Ðorðe", "Ægir", "Øystein", "Straße", "Çelik", "Ñandu", "Ōta"],
    ["Ann", "Anna", "Anne", "Anya", "Ana", "Annie", "Anka", "Anni", "Annette", "Aina"],
]


def test_a_file_the_app_wrote_always_imports(web: Web, store: Store):
    """Tournaments made through the form, from any roster it takes, any bands it takes, a
    tour played and closed early, a withdrawal, the next one seated: the download imports
    as a new tournament and downloads again the same."""
    for seed in range(6):
        rng = random.Random(seed)
        roster = rng.sample(ALPHABETS[seed % len(ALPHABETS)], rng.randint(5, 10))
        bands = _bands(rng.randint(1, tfile.MAX_BANDS))
        token = new_tournament(
            web,
            roster=roster,
            name=f"Cup «{seed}» — ünïcode",
            table_size=rng.choice(["3", "4"]),
            bands_preset="custom",
            bands_text=bands,
        )
        seat(web, token)
        first = tables(store, token, 1)[0]
        play(web, store, first.game.edit_token, 1)
        page = web.get(f"/t/{token}")
        assert web.submit(page, page.form("/close").set(early="y")).status == 302
        if len(roster) > 6:
            page = web.get(f"/t/{token}")
            leaving = page.form("/withdraw").set(player=roster[0])
            assert web.submit(page, leaving).status == 302
        seat(web, token)
        exported = downloaded(web, token)
        tfile.parse_tournament(exported)  # the file checks as the CLI reads it
        copy = _import(web, exported)
        assert downloaded(web, copy) == exported, seed
