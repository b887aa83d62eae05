"""Where this round's features meet (issue 47 with the others): a Balkan partija through the
import and export, the command line's copies between engines, the PDF, the log and history,
an edit in the middle, the What if… and paper pages, a club and a company, every page in
every language; and a crawl of every GET route for each kind of thing, in each language.

The Flask test client on a real SQLite file; PostgreSQL by tests/pg.py's fixtures."""

from __future__ import annotations

import dataclasses
import io
import json
import random
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
from babel import Locale
from flask import Flask

from scorekeeper import balkan, gamefile_balkan, games, report_balkan, sample
from scorekeeper.club.season import build
from scorekeeper.store import Store
from scorekeeper.store.clubs import Clubs
from scorekeeper.store.companies import Companies
from scorekeeper.store.engine import close_pools
from scorekeeper.store.tournaments import Tournaments
from scorekeeper.web import create_app
from scorekeeper.wording import words_for

from ..balkan.helpers import PETAK, petak_file
from ..balkan.test_balkan_oracle import random_partija
from ..club_sample import stored_game
from ..flows import (
    new_club,
    new_company,
    new_tournament,
    play,
    play_some,
    post,
    seat,
    start_evening,
)
from ..harness import NINE, Web, forms_of
from ..hygiene import crawl
from ..i18n.words import UNTRANSLATED, catalogue, latin_words
from ..served import run_cli
from ..web.test_web_company_balkan import _balkan_company as balkan_company
from ..web.test_web_company_balkan import _two_evenings as two_evenings

LANGS = ("en", "ru", "uk", "sr_Latn", "sr_Cyrl", "hr")
BALKAN_NAMES = {"Ana", "Bo", "Ceca", "Petak", "renonce"}  # "Bo" of Boža: latin_words reads ASCII


def petak_data(upto: int | None = None) -> dict[str, Any]:
    data: dict[str, Any] = petak_file()
    if upto is not None:
        data["deals"] = data["deals"][:upto]
    return data


def scored(data: dict[str, Any]) -> dict[str, Any]:
    """`score`'s JSON of a Balkan file, with its settlement."""
    game = gamefile_balkan.loads_any(json.dumps(data))
    return report_balkan.score_report(balkan.replay(game)[0], with_settlement=True)


def sheet_of(store: Store, token: str) -> dict[str, Any]:
    """What the stored game scores to, as `score` prints it."""
    return scored(games.file_data(store.get_game(token)))


def import_file(web: Web, data: dict[str, Any], url: str = "/import") -> str:
    """Upload a game file on the import page; the new game's edit token."""
    fields = web.get(url).form("").data()
    body = io.BytesIO(json.dumps(data, ensure_ascii=False).encode())
    response = web.client.post(url, data={**fields, "file": (body, "game.json")})
    assert response.status_code == 302, response.get_data(as_text=True)[:800]
    return response.headers["Location"].rsplit("/", 1)[-1]


def meaning(data: dict[str, Any]) -> Any:
    """A game file's meaning: the game its family's reader makes of it (options resolved)."""
    game = gamefile_balkan.loads_any(json.dumps(data))
    assert isinstance(game, balkan.BalkanGame)
    return dataclasses.replace(game, overrides={})  # the options as written: every one, or some


# -- import and export -------------------------------------------------------------------------


def test_a_balkan_file_imported_on_the_web_downloads_back_with_the_same_meaning(
    web: Web, store: Store
) -> None:
    token = import_file(web, petak_data())
    response = web.client.get(f"/g/{token}/game.json")
    assert response.status_code == 200
    back = json.loads(response.get_data(as_text=True))
    assert back["family"] == "balkan"
    assert meaning(back) == meaning(petak_data())
    assert scored(back) == scored(petak_data())
    again = import_file(web, back)
    assert web.client.get(f"/g/{again}/game.json").get_data() == response.get_data()


# -- the crawl: every GET route, every kind of thing, every language ---------------------------


#: The words the things' data hold (names typed, a sample game's name, a tournament table's
#: name written at seating in the director's language, English here) and the CSV link.
DATA = BALKAN_NAMES | set(NINE) | {"Anna", "Boris", "Vera", "Gleb", "Dule", "Fridays"}
DATA |= {"Dejan", "Random", "random", "sochi", "fspr", "December", "cup", "tour", "table", "CSV"}


def _things(web: Web, store: Store) -> dict[str, dict[str, Any]]:
    """A Balkan game, a Russian one, a company (with an evening), a club holding the Balkan
    game and a ФСПР tournament (seated): each route's values for each."""
    bk = store.get_game(import_file(web, petak_data()))
    ru = stored_game(store, random.Random(47), ["Анна", "Борис", "Вера"], deals=6)
    company = new_company(web)
    evening = start_evening(web, store, company, ["Anna", "Boris", "Vera"])
    club = new_club(web)
    assert post(web, club, "attach", link=bk.edit_token)[0] == 302
    assert post(web, club, "attach", link=ru.edit_token)[0] == 302
    cup = new_tournament(web, convention="fspr", table_size="4")
    seat(web, cup)
    c = Companies(store).get(company)
    k = Clubs(store).set_public(club, True)
    t = Tournaments(store).get(cup)
    table = t.tour(1)[0].game
    assert post(web, club, "player", player="Ana")[0] == 302  # a directory player: a page
    found = re.search(r"/player/(\d+)", web.client.get(f"/k/{club}").get_data(as_text=True))
    player = int(found.group(1)) if found else 0
    assert player, "the club page links its players"
    play_some(web, store, evening)
    play(web, store, table.edit_token, 2)
    evening_deal = store.get_game(evening).deals[0].id
    table_deal = store.get_game(table.edit_token).deals[0].id
    return {
        "balkan": {"g": bk.edit_token, "v": bk.view_token, "deal_id": bk.deals[1].id},
        "russian": {"g": ru.edit_token, "v": ru.view_token, "deal_id": ru.deals[2].id},
        "evening": {"g": evening, "v": store.get_game(evening).view_token, "deal_id": evening_deal},
        "table": {"g": table.edit_token, "v": table.view_token, "deal_id": table_deal},
        "company": {"c": company, "cv": c.view_token},
        "club": {"k": club, "kv": k.view_token, "kp": k.public_token, "player": player},
        "tournament": {"t": cup, "tv": t.view_token, "game_id": table.id},
    } | _more_things(web, store)


def _more_things(web: Web, store: Store) -> dict[str, dict[str, Any]]:
    """A Balkan company with its two evenings, a running ФСПР game at four with the round's
    new answers (a returned whist, the dealer's whist, the talon's tricks), a running Balkan
    partija at four (the dealer sits out; a supe column per other player)."""
    company = balkan_company(web)
    evening = store.get_game(two_evenings(web, store, company)[0])
    data = sample.random_game(
        random.Random(46), 12, convention="fspr", players=4, newest=True, corrections=False
    )
    fspr = store.get_game(import_file(web, data | {"finished": False}))
    four = store.get_game(import_file(web, random_partija(19)))  # at four, running
    return {
        "balkan company": {"c": company, "cv": Companies(store).get(company).view_token},
        "balkan evening": {
            "g": evening.edit_token,
            "v": evening.view_token,
            "deal_id": evening.deals[0].id,
        },
        "fspr": {"g": fspr.edit_token, "v": fspr.view_token, "deal_id": fspr.deals[-1].id},
        "balkan at four": {"g": four.edit_token, "v": four.view_token, "deal_id": four.deals[3].id},
    }


def _urls(app: Flask, things: dict[str, dict[str, Any]]) -> list[str]:
    """Each GET route built for each thing whose link it takes (both links, when two; a PDF
    by one of them: it is the same drawing by either, and drawing it is most of the time)."""
    urls = []
    for rule in app.url_map.iter_rules():
        if "GET" not in (rule.methods or ()) or rule.endpoint in ("static", "metrics.scrape"):
            continue
        if "token" not in rule.arguments:
            urls.append(rule.build({}, append_unknown=False)[1])
            continue
        for values in things.values():
            modes = [m for m in values if len(m) <= 2 and m in rule.rule]
            modes = modes or [m for m in values if len(m) <= 2]
            built_once = rule.rule.endswith(".pdf")
            for mode in modes:
                built = {**values, "mode": mode, "token": values[mode]}
                try:
                    url = rule.build(built, append_unknown=False)[1]
                except Exception:  # a mode this rule does not take
                    continue
                if url.split("/")[1] == mode:
                    urls.append(url)
                    if built_once:
                        break
    return list(dict.fromkeys(urls))


@pytest.mark.parametrize("lang", LANGS)
def test_every_get_route_of_every_thing_answers_without_a_500_in_every_language(
    app: Flask, web: Web, store: Store, lang: str
) -> None:
    """Each language its own test (each renders every PDF again: together they outlasted a
    test's bound on a busy machine)."""
    things = _things(web, store)
    urls = _urls(app, things)
    kinds = {u.split("/")[1] for u in urls}
    assert {"g", "v", "c", "cv", "k", "kv", "kp", "t", "tv"} <= kinds
    failed, english = {}, {}
    client = app.test_client()
    client.get(f"/?lang={lang}")
    for url in urls:
        response = client.get(url)
        status = response.status_code
        if status >= 500:
            failed[url] = status
        if lang in ("ru", "uk", "sr_Cyrl") and response.mimetype == "text/html" and status == 200:
            words = latin_words(response.get_data(as_text=True)) - UNTRANSLATED - DATA
            if words:
                english[url] = sorted(words)
        response.close()
    assert failed == {}
    assert english == {}


def test_every_page_the_routes_link_to_answers_without_a_500(
    app: Flask, web: Web, store: Store
) -> None:
    """... and every page they link to (what-if's presets, a player's page, the board ...);
    a PDF linked beside them is the drawing the routes' PDFs are (each kind of game's and
    the tournament's): not drawn again."""
    urls = _urls(app, _things(web, store))
    reader = app.test_client()
    reader.get("/?lang=sr_Cyrl")
    linked = crawl(reader, urls, limit=1500, skip=lambda url: url.endswith(".pdf"))
    assert len(linked) > len(urls)
    assert {u: r.status_code for u, r in linked.items() if r.status_code >= 500} == {}


def test_the_same_things_copied_to_postgresql_answer_every_route_as_on_sqlite(
    app: Flask, web: Web, store: Store, db_path: Path, pg_server: Any
) -> None:
    things = _things(web, store)
    urls = _urls(app, things)
    target = pg_server.new_database(migrated=False)
    done = run("copy-db", str(db_path), target)
    assert done.returncode == 0, done.stderr
    on_pg = create_app({"TESTING": True, "DATABASE": target, "SECRET_KEY": "test secret"})
    statuses = []
    # A PDF is the page's game drawn by WeasyPrint: read from either engine as the page is
    # (the sweep in every language draws each kind's PDF on SQLite).
    urls = [url for url in urls if not url.endswith(".pdf")]
    for each in (app, on_pg):
        client = each.test_client()
        answers = {}
        for url in urls:
            response = client.get(url)
            answers[url] = response.status_code
            if url.endswith((".json", ".csv")):
                answers[url] = (response.status_code, response.get_data())
            response.close()
        statuses.append(answers)
    assert statuses[0] == statuses[1]
    close_pools()


# -- the command line and both engines ---------------------------------------------------------


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return run_cli(*args)


def pdf_text(path: Path) -> str:
    done = subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout


def assert_paper_numbers(text: str, data: dict[str, Any]) -> None:
    """Every player's bule column, supe and result written on the paper, read back from a
    PDF (its minus sign the typographic one)."""
    report = scored(data)
    grouped = re.sub(r"(?<=\d)[,. \u00a0\u202f](?=\d{3}\b)", "", text)  # 1,072 · 1.072 · 1 072
    words = set(re.findall(r"[−-]?\d+(?:[.,]\d+)?", grouped.replace("−", "-")))
    for player in report["players"]:
        assert player in text
        row = report["sheet"][player]
        assert {v for v in row["column"] if not v.startswith("hat")} <= words, player
        assert set(row["supe_on"].values()) <= words, player
        if report["finished"]:  # a running partija's paper has no results yet
            assert report["settlement"]["result"][player] in words, player


def stored_sheets(location: str) -> list[tuple[str, dict[str, Any]]]:
    """Each stored Balkan game's family and sheet (as `score` prints it), in id order."""
    with Store(location) as store:
        records = [store.get_game(t) for t in store_tokens(store)]
        out = []
        for record in records:
            data = games.file_data(record)
            out.append((data.get("family", "russian"), scored(data)))
    close_pools()
    return out


def store_tokens(store: Store) -> list[str]:
    rows = store.engine.rows("SELECT edit_token FROM games ORDER BY id")
    return [row["edit_token"] for row in rows]


def test_a_balkan_partija_keeps_its_family_and_sheet_through_every_command_and_engine(
    tmp_path: Path, pg_server: Any
) -> None:
    first = tmp_path / "first.sqlite"
    done = run("import", str(PETAK), "--db", str(first))
    assert done.returncode == 0, done.stderr
    assert "4" in done.stdout.splitlines()[0]
    token = re.search(r"/g/([\w-]+)", done.stdout)
    assert token is not None
    printed = run("export", token.group(1), "--db", str(first), "--out", str(tmp_path / "p.pdf"))
    assert printed.returncode == 0, printed.stderr
    assert_paper_numbers(pdf_text(tmp_path / "p.pdf"), petak_data())
    from_file = run("export", str(PETAK), "--out", str(tmp_path / "f.pdf"), "--lang", "sr_Cyrl")
    assert from_file.returncode == 0, from_file.stderr
    assert "буле" in pdf_text(tmp_path / "f.pdf")
    want = [("balkan", scored(petak_data()))]
    assert stored_sheets(str(first)) == want
    backup = tmp_path / "backup.sqlite"
    assert run("backup", str(backup), "--db", str(first)).returncode == 0
    restored = tmp_path / "restored.sqlite"
    assert run("restore", str(backup), "--db", str(restored)).returncode == 0
    assert stored_sheets(str(restored)) == want
    postgres = pg_server.new_database(migrated=False)
    done = run("copy-db", str(restored), postgres)
    assert done.returncode == 0, done.stderr
    assert stored_sheets(postgres) == want
    back = tmp_path / "back.sqlite"
    done = run("copy-db", postgres, str(back))
    assert done.returncode == 0, done.stderr
    assert stored_sheets(str(back)) == want
    on_pg = tmp_path / "pg-backup.sqlite"
    assert run("backup", str(on_pg), "--db", postgres).returncode == 0
    assert stored_sheets(str(on_pg)) == want


# -- the pages of a Balkan partija -------------------------------------------------------------


def cli_json(tmp_path: Path, data: dict[str, Any], *command: str) -> dict[str, Any]:
    """A command's JSON for this file (`scorekeeper score FILE --settle`, `season FILE ...`)."""
    path = tmp_path / "file.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    done = run(command[0], str(path), *command[1:])
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def score_json(tmp_path: Path, data: dict[str, Any]) -> dict[str, Any]:
    """`scorekeeper score FILE` of this file, its JSON (an unfinished one settled now too)."""
    return cli_json(tmp_path, data, "score", "--settle")


def test_an_edit_in_the_middle_gives_the_sheet_score_gives_the_edited_file(
    web: Web, store: Store, tmp_path: Path
) -> None:
    token = import_file(web, petak_data())
    middle = store.get_game(token).deals[1]
    page = web.get(f"/g/{token}/deal/{middle.id}/edit")
    form = page.form("deal-form").set(
        **{"kontra": "0", "kontra_by": "", "tricks.Ana": "6", "tricks.Boža": "3"}, action="save"
    )
    saved = web.submit(page, form)
    assert saved.status == 302, saved.errors() or saved.text()[:1500]
    edited = petak_data()
    edited["deals"][1] = edited["deals"][1] | {"tricks": {"Ana": 6, "Boža": 3, "Ceca": 1}}
    del edited["deals"][1]["kontra"], edited["deals"][1]["kontra_by"]
    assert sheet_of(store, token) == score_json(tmp_path, edited)
    assert sheet_of(store, token) != scored(petak_data())
    downloaded = json.loads(web.client.get(f"/g/{token}/game.json").get_data(as_text=True))
    assert score_json(tmp_path, downloaded) == score_json(tmp_path, edited)
    history = web.get(f"/g/{token}/deal/{middle.id}/history").text()
    assert history.count("Ana: tref") == 2  # the first version and the edited one
    history_page = web.get(f"/g/{token}/deal/{middle.id}/history")
    first = [f for f in forms_of(history_page.html) if "/restore" in f.action][-1]  # oldest
    restored = web.submit(history_page, first)
    assert restored.status == 302, restored.errors() or restored.text()[:800]
    assert sheet_of(store, token) == scored(petak_data())  # the first version put back
    page = web.get(f"/g/{token}/deal/{middle.id}/edit")
    form = page.form("deal-form").set(**{"kontra": "0", "kontra_by": ""}, action="save")
    form.set(**{"tricks.Ana": "6", "tricks.Boža": "3"})
    assert web.submit(page, form).status == 302
    undone = web.get(f"/g/{token}/undo")
    assert web.submit(undone, undone.form("")).status == 302
    edited["deals"] = edited["deals"][:-1]
    assert sheet_of(store, token) == score_json(tmp_path, edited)
    log = web.client.get(f"/g/{token}/log", follow_redirects=True)
    assert log.status_code == 200 and "renonce" in log.get_data(as_text=True)


def test_the_pdf_of_a_balkan_partija_reads_back_its_bule_and_supe(web: Web, tmp_path: Path) -> None:
    token = import_file(web, petak_data())
    for lang, word in (("en", "bule"), ("sr_Latn", "bule"), ("sr_Cyrl", "буле"), ("ru", "бул")):
        response = web.client.get(f"/g/{token}/pulka.pdf?lang={lang}")
        assert response.status_code == 200 and response.mimetype == "application/pdf"
        path = tmp_path / f"{lang}.pdf"
        path.write_bytes(response.get_data())
        text = pdf_text(path)
        assert_paper_numbers(text, petak_data())
        assert word in text.lower(), lang


def test_what_if_says_a_balkan_game_is_not_re_scored_and_offers_no_russian_preset(
    web: Web,
) -> None:
    token = import_file(web, petak_data())
    view = re.search(r"/v/([\w-]+)", web.client.get(f"/g/{token}").get_data(as_text=True))
    assert view is not None
    for url in (f"/g/{token}/what-if", f"/v/{view.group(1)}/what-if?convention=leningrad"):
        page = web.get(url)
        assert "only Russian games are re-scored" in page.text()
        assert "whatif-choices" not in page.response.get_data(as_text=True)
    ru = web.get(f"/g/{token}/what-if?convention=fspr&lang=ru").text()
    assert "балканским правилам" in ru


def test_a_balkan_game_never_links_the_paper_totals_which_keep_the_russian_sheet(
    web: Web,
) -> None:
    token = import_file(web, petak_data())
    for url in (f"/g/{token}", f"/g/{token}/settlement", f"/g/{token}/history", "/"):
        html = web.client.get(url, follow_redirects=True).get_data(as_text=True)
        if url != "/":
            assert 'href="/paper' not in html, url
    paper = web.get("/paper").text()
    assert "Balkan" not in paper  # the paper's totals are the Russian family's: pool, hill


# -- every page in every language --------------------------------------------------------------


def known_words(lang: str) -> set[str]:
    """The Latin words of a Latin-script language's catalogue and its month names."""
    known: set[str] = set()
    for message in catalogue(lang):
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for text in strings:
            known |= set(re.findall(r"[A-Za-z][A-Za-z'-]+", text or ""))
    return known | set(Locale.parse(lang).months["format"]["wide"].values())


def balkan_pages(store: Store, token: str) -> list[str]:
    record = store.get_game(token)
    view, deal = record.view_token, record.deals[1].id
    return [
        f"/g/{token}",
        f"/g/{token}/deal/new",
        f"/g/{token}/deal/{deal}/edit",
        f"/g/{token}/deal/{deal}/delete",
        f"/g/{token}/deal/{deal}/history",
        f"/g/{token}/history",
        f"/g/{token}/undo",
        f"/g/{token}/what-if",
        f"/g/{token}/links",
        f"/v/{view}",
        f"/v/{view}/history",
        f"/v/{view}/what-if",
    ]


@pytest.mark.parametrize("lang", LANGS)
def test_every_page_of_a_balkan_partija_is_in_the_language_asked(
    web: Web, store: Store, lang: str
) -> None:
    running = import_file(web, petak_data(5))  # not ended: the deal form is open
    ended = import_file(web, petak_data())
    web.get(f"/?lang={lang}")
    left = {}
    for url in balkan_pages(store, running) + balkan_pages(store, ended)[:1]:
        response = web.client.get(url, follow_redirects=True)
        assert response.status_code == 200, (lang, url)
        html = response.get_data(as_text=True)
        assert f'<html lang="{lang.replace("_", "-")}">' in html, url
        words = latin_words(html) - UNTRANSLATED - BALKAN_NAMES
        if lang in ("sr_Latn", "hr"):
            words -= known_words(lang)
        if lang != "en" and words:
            left[url] = sorted(words)
    assert left == {}


# -- a club holding a Balkan company's evenings and a Balkan partija ---------------------------


def test_a_club_with_a_balkan_company_and_partija_reads_back_as_its_page(
    web: Web, store: Store, tmp_path: Path
) -> None:
    company = balkan_company(web)
    evenings = two_evenings(web, store, company)
    partija = import_file(web, petak_data())
    club = new_club(web)
    for link in (company, partija):
        assert post(web, club, "attach", link=link)[0] == 302
    record = Clubs(store).get(club)
    assert {t.thing_id for t in record.things} >= {Companies(store).get(company).id}
    file = json.loads(web.client.get(f"/kv/{record.view_token}/season.json").get_data())
    families = [e["game"].get("family") for e in file["events"] if "game" in e]
    assert families.count("balkan") == len(evenings) + 1
    assert cli_json(tmp_path, file, "season", "--format", "json") == build(store, record).report()
    for lang in LANGS:
        for url in (f"/k/{club}", f"/kv/{record.view_token}", f"/c/{company}"):
            assert web.client.get(f"{url}?lang={lang}").status_code == 200, (lang, url)
    page = web.get(f"/k/{club}?lang=en").text()
    assert "Fridays" in page and "Petak" in page  # the company and the partija, listed


def test_the_club_s_date_fields_show_their_pattern_in_the_page_s_language(web: Web) -> None:
    club = new_club(web)
    for lang, pattern in (("ru", "ГГГГ-ММ-ДД"), ("uk", "РРРР-ММ-ДД"), ("sr_Cyrl", "гггг-мм-дд")):
        html = web.client.get(f"/k/{club}?lang={lang}").get_data(as_text=True)
        assert html.count(f'placeholder="{pattern}"') == 2, lang
        assert "YYYY" not in latin_words(html)


def catalogue_texts(lang: str) -> list[tuple[str, list[str]]]:
    """(msgid, its translations) of every message of a catalogue."""
    out = []
    for message in catalogue(lang):
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        out.append((str(message.id), [s for s in strings if s]))
    return out


def test_no_serbian_cyrillic_message_mixes_latin_letters_into_a_cyrillic_word() -> None:
    """A Cyrillic word followed by a hyphen and Latin capitals (ГГГГ-MM-DD) is a code the
    transliteration kept by mistake: the pattern of a date is words of the language."""
    mixed = []
    for msgid, strings in catalogue_texts("sr_Cyrl"):
        for text in strings:
            if re.search(r"[а-яђјљњћџА-ЯЂЈЉЊЋЏ]-[A-Za-z]", text):
                mixed.append(msgid)
    assert mixed == []
    with_pattern = words_for("sr_Cyrl").gettext("Write a date as YYYY-MM-DD.")
    assert "гггг-мм-дд" in with_pattern


def test_a_game_is_in_a_club_once_whether_attached_alone_or_by_its_company(
    web: Web, store: Store
) -> None:
    company = balkan_company(web)
    evenings = two_evenings(web, store, company)
    club, other = new_club(web), new_club(web, "Другой")
    assert post(web, club, "attach", link=evenings[0]) == (
        400,
        ["This game belongs to a company or a tournament: attach that by its edit link."],
    )
    assert post(web, club, "attach", link=company)[0] == 302
    assert post(web, other, "attach", link=evenings[1])[0] == 400
    record = Clubs(store).get(club)
    file = json.loads(web.client.get(f"/kv/{record.view_token}/season.json").get_data())
    assert len(file["events"]) == len(evenings)  # each evening once
    # A game attached alone, then made an evening of a company another club holds:
    lone = import_file(web, petak_data())
    assert post(web, other, "attach", link=lone)[0] == 302
    second = balkan_company(web)
    page = web.get(f"/c/{second}")
    joined = web.submit(page, page.form(f"/c/{second}/attach").set(link=lone))
    assert joined.status == 302, joined.errors()
    assert post(web, club, "attach", link=second) == (
        400,
        ["One of its games is already in a club: detach it there first."],
    )
    assert post(web, other, "detach", thing=str(Clubs(store).get(other).things[-1].id))[0] == 302
    assert post(web, club, "attach", link=second)[0] == 302


@pytest.mark.parametrize(
    ("seed", "lang"), [(19, "en"), (21, "sr_Latn"), (51, "hr"), (60, "ru"), (69, "sr_Cyrl")]
)
def test_scorekeeper_export_draws_any_partija_s_numbers_in_any_language(
    tmp_path: Path, seed: int, lang: str
) -> None:
    """Random partije (three and four players, running and ended, thousands of supe)."""
    data = random_partija(seed)
    path = tmp_path / "partija.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    done = run("export", str(path), "--out", str(tmp_path / "p.pdf"), "--lang", lang)
    assert done.returncode == 0, done.stderr
    assert_paper_numbers(pdf_text(tmp_path / "p.pdf"), data)


def test_a_broken_balkan_file_is_refused_by_import_and_export_one_line_per_entry(
    tmp_path: Path,
) -> None:
    data = petak_data()
    data["deals"][1]["kontra"] = 9
    data["deals"][2]["contract"] = "xyz"
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    database = tmp_path / "never.sqlite"
    for command in (["import", str(path), "--db", str(database)], ["export", str(path)]):
        done = run(*command)
        assert done.returncode == 2, done.stdout
        lines = done.stderr.splitlines()
        assert [line.split(":")[0] for line in lines] == ["deal 2", "deal 3"], lines
    assert not database.exists()  # nothing written
