"""The rules of tests/i18n/test_words_rules.py, held on a Balkan partija too (a native reader found
each fault on the Balkan screens after the Russian ones were clean):

1. one number for one entry: the game page's entries, the history, the deal form's heading
   (new and edit), the delete page, its flash, the finished card, the PDF and `score`'s text
   count deals among deals and corrections among corrections, as the Russian game does;
2. a kind of entry is said once («Ispravka: ispravka: renonce» was on every language's page);
3. one minus sign on a surface: the bule, supe and results columns print −, as the money and
   the Russian sheet do (the JSON of `score` keeps its "-77": docs/game-format.md fixes it);
4. no field code of the game file (`kontra_by`, `followers`, `supe_on`…) in a refusal of the
   Balkan deal form, in any language.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest

from scorekeeper import gamefile, gamefile_balkan
from scorekeeper.games import create_from_game
from scorekeeper.store import Store

from ..harness import CLI, Web
from .test_words_rules import (
    KIND_WORDS,
    NUMBERED,
    _pdf_text,
    listed_entries,
    named_entries,
    stray_latin,
)

LANGS = ("en", "ru", "uk", "sr_Latn", "sr_Cyrl", "hr")
PLAYERS = {"Ana", "Boža", "Ceca"}

#: Each language's words for a deal and a correction (a stem: "deljenje 3", "ispravku 2").
KINDS = KIND_WORDS | {
    "en": {"deal": "deal", "correction": "correction"},
    "sr_Latn": {"deljenj": "deal", "isprav": "correction"},
    "sr_Cyrl": {"дељењ": "deal", "исправ": "correction"},
    "hr": {"dijeljenj": "deal", "isprav": "correction"},
}

PLAYED = {"type": "played", "declarer": "Ana", "contract": "tref", "followers": ["Boža"]}

#: A deal, a correction, a refa, a deal, a correction: by its place in the log the second
#: correction would be 5 and the next deal 6; people say correction 2 and deal 4.
PARTIJA: dict[str, Any] = {
    "format": "scorekeeper-game/1",
    "family": "balkan",
    "name": "Petak",
    "convention": "club",
    "options": {"bule": 100, "stake": "0.1"},
    "players": ["Ana", "Boža", "Ceca"],
    "first_dealer": "Ceca",
    "deals": [
        PLAYED | {"tricks": {"Ana": 7, "Boža": 3}},
        {"type": "correction", "reason": "renonce", "entries": [{"player": "Ana", "bule": 10}]},
        {"type": "refa"},
        {
            "type": "played",
            "declarer": "Boža",
            "contract": "karo",
            "followers": ["Ceca"],
            "tricks": {"Boža": 6, "Ceca": 4},
        },
        {
            "type": "correction",
            "reason": "renonce",
            "entries": [{"player": "Boža", "supe_on": "Ana", "amount": 20}],
        },
    ],
}
PEOPLE_NUMBER = [("deal", 1), ("correction", 1), ("deal", 2), ("deal", 3), ("correction", 2)]
NEXT = ("deal", 4)


def _named(text: str, lang: str) -> set[tuple[str, int]]:
    return named_entries(text, lang) if lang in KIND_WORDS else _named_in(text, KINDS[lang])


def _named_in(text: str, kinds: dict[str, str]) -> set[tuple[str, int]]:
    stems = "|".join(kinds)
    found = set()
    for match in re.finditer(rf"(?i)(?<!\w)({stems})\w*[ \u00a0]+(\d+)\b", text):
        stem = next(s for s in kinds if match.group(1).lower() == s)
        found.add((kinds[stem], int(match.group(2))))
    return found


def _listed(text: str, lang: str) -> list[tuple[str, int]]:
    """The entries of a list as "N. its line": a line opening with a correction's word is a
    correction, any other a deal."""
    if lang in KIND_WORDS:
        return listed_entries(text, lang)
    out = []
    for match in re.finditer(r"(?m)^[ \t]*(\d+)\.[ \u00a0]+(.+)$", text):
        line = match.group(2).lower()
        kind = next((k for s, k in KINDS[lang].items() if line.startswith(s)), "deal")
        out.append((kind, int(match.group(1))))
    return out


def _entries_list(html: str) -> str:
    """The game page's list of entries as text lines "N. what it wrote"."""
    listed = re.search(r'<ol class="bk-lines">(.*?)</ol>', html, flags=re.S)
    assert listed, "no list of entries"
    items = re.findall(r'<li value="(\d+)"[^>]*>(.*?)</li>', listed.group(1), flags=re.S)
    return "\n".join(f"{n}. {re.sub(r'<[^>]+>', '', body).strip()}" for n, body in items)


def _score_text(game: dict[str, Any], lang: str, tmp_path: Path) -> str:
    path = tmp_path / f"{lang}.json"
    path.write_text(json.dumps(game), encoding="utf-8")
    done = subprocess.run(
        [CLI, "--lang", lang, "score", "--format", "text", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def _stored(store: Store, game: dict[str, Any]) -> str:
    return create_from_game(store, gamefile_balkan.load(game)).edit_token


def _surfaces(web: Web, store: Store, token: str, lang: str, tmp_path: Path) -> dict[str, str]:
    """What people read of the partija: the scorer's page, the follower's (with its card to
    confirm each entry), the history, the PDF and `score`'s text."""
    view = store.get_game(token).view_token
    return {
        "game": web.get(f"/g/{token}").text(),
        "follower": web.get(f"/v/{view}").text(),
        "history": web.get(f"/g/{token}/history").text(),
        "pdf": _pdf_text(web.client, token, lang, tmp_path),
        "score": _score_text(PARTIJA, lang, tmp_path),
    }


def _opened(web: Web, store: Store, lang: str, tmp_path: Path) -> tuple[str, dict[str, str]]:
    """The partija stored, and each of its surfaces in a language."""
    token = _stored(store, PARTIJA)
    web.get(f"/?lang={lang}")
    return token, _surfaces(web, store, token, lang, tmp_path)


def _found(pattern: re.Pattern[str], surfaces: dict[str, str]) -> dict[str, list[str]]:
    """What a pattern finds, by surface (none where it finds nothing)."""
    return {where: hits for where, text in surfaces.items() if (hits := pattern.findall(text))}


# -- 1. one number for one entry -------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_each_surface_numbers_a_balkan_entry_the_same_way(
    web: Web, store: Store, lang: str, tmp_path: Path
) -> None:
    token, surfaces = _opened(web, store, lang, tmp_path)
    valid = {*PEOPLE_NUMBER, NEXT}
    assert _listed(_entries_list(web.get(f"/g/{token}").html), lang) == PEOPLE_NUMBER
    assert _listed(surfaces["pdf"], lang) == PEOPLE_NUMBER
    assert _listed(surfaces["score"], lang) == PEOPLE_NUMBER
    assert _named(surfaces["history"], lang) == set(PEOPLE_NUMBER)
    for where, text in surfaces.items():
        assert _named(text, lang) <= valid, (where, text[:600])
    assert _named(web.get(f"/g/{token}/deal/new").text(), lang) == {NEXT}
    deals = store.get_game(token).deals
    for deal, number in zip(deals, PEOPLE_NUMBER, strict=True):
        assert _named(web.get(f"/g/{token}/deal/{deal.id}/edit").text(), lang) == {number}
    page = web.get(f"/g/{token}/deal/{deals[-1].id}/delete")
    assert ("correction", 2) in _named(page.text(), lang)
    assert _named(page.text(), lang) <= valid
    after = web.submit(page, page.form()).response.headers["Location"]
    flashed = web.get(after, follow_redirects=True).text()
    assert ("correction", 2) in _named(flashed, lang), flashed[:400]


@pytest.mark.parametrize("lang", LANGS)
def test_the_finished_card_names_the_last_entry_as_the_history(
    web: Web, store: Store, lang: str
) -> None:
    """A write-off after three deals and two corrections is deal 4, not entry 6."""
    token = _stored(store, PARTIJA | {"deals": [*PARTIJA["deals"], {"type": "writeoff"}]})
    web.get(f"/?lang={lang}")
    html = web.get(f"/g/{token}").html
    card = re.search(r'<section class="card finished[^"]*"[^>]*>(.*?)</section>', html, re.S)
    assert card, html[:600]
    text = re.sub(r"<[^>]+>", " ", card.group(1))
    assert _named(text, lang) == {NEXT}, text
    history = web.get(f"/g/{token}/history").text()
    assert NEXT in _named(history, lang)


# -- 2. a kind said once ---------------------------------------------------------------------

#: A word said twice across a colon: «Ispravka: ispravka: renonce», «Refa: refa: …».
SAID_TWICE = re.compile(r"(?i)(?<!\w)(\w{3,})\s*:\s*\1(?!\w)")


@pytest.mark.parametrize("lang", LANGS)
def test_a_balkan_entry_says_its_kind_once(
    web: Web, store: Store, lang: str, tmp_path: Path
) -> None:
    token, surfaces = _opened(web, store, lang, tmp_path)
    surfaces["delete"] = web.get(
        f"/g/{token}/deal/{store.get_game(token).deals[1].id}/delete"
    ).text()
    assert _found(SAID_TWICE, surfaces) == {}
    card = re.findall(r"(?m)\b(\w+: \w+) \1\b", surfaces["follower"])
    assert card == []  # «Deljenje 3: Boža: karo Boža: karo» on the card to confirm
    assert SAID_TWICE.search("Ispravka : ispravka: renonce")


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_a_balkan_partija_says_no_english_in_russian_or_ukrainian(
    web: Web, store: Store, lang: str, tmp_path: Path
) -> None:
    token, surfaces = _opened(web, store, lang, tmp_path)
    surfaces["form"] = web.get(f"/g/{token}/deal/new").text()
    typed = set(re.findall(r"[A-Za-z]+", " ".join(PLAYERS))) | {"Petak", "renonce"}
    left = {where: sorted(stray_latin(text, typed)) for where, text in surfaces.items()}
    assert left == dict.fromkeys(surfaces, [])


# -- 3. one minus sign -----------------------------------------------------------------------

#: A number written with the hyphen-minus (not a date's or a code's hyphen).
HYPHEN_MINUS = re.compile(r"(?<![\w\-/])-\d")


@pytest.mark.parametrize("lang", LANGS)
def test_a_balkan_surface_writes_one_minus_sign(
    web: Web, store: Store, lang: str, tmp_path: Path
) -> None:
    surfaces = _opened(web, store, lang, tmp_path)[1]
    assert "−" in surfaces["game"] and "−" in surfaces["pdf"]
    assert _found(HYPHEN_MINUS, surfaces) == {}


def test_the_russian_sheet_writes_the_same_minus_sign(web: Web, store: Store) -> None:
    """The sign the Balkan pages follow is the Russian sheet's: −, never -."""
    token = create_from_game(store, gamefile.loads(json.dumps(NUMBERED).encode())).edit_token
    web.get("/?lang=ru")
    text = web.get(f"/g/{token}").text()
    assert "−" in text
    assert HYPHEN_MINUS.findall(text) == []


def test_score_s_json_keeps_its_numbers(tmp_path: Path) -> None:
    """The JSON is a public interface (docs/game-format.md): amounts stay "-10"."""
    path = tmp_path / "p.json"
    path.write_text(json.dumps(PARTIJA), encoding="utf-8")
    done = subprocess.run(
        [CLI, "--lang", "ru", "score", "--settle", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    result = json.loads(done.stdout)["settlement"]["result"]
    assert result["Boža"] == "-82", result


# -- 4. no field code in a refusal -----------------------------------------------------------

#: The game file's keys of a Balkan entry that are no word of the game in any language.
FIELD_CODES = {"kontra_by", "supe_on", "followers", "invited", "tricks", "declarer", "first_dealer"}

#: Taps that are refused, each for another reason.
REFUSED: list[dict[str, Any]] = [
    {"declarer": "Ana", "contract": "tref", "followers": ["Boža"], "kontra": "1"},
    {
        "declarer": "Ana",
        "contract": "tref",
        "followers": ["Boža"],
        "kontra": "1",
        "kontra_by": "Ceca",
        "tricks.Ana": "7",
        "tricks.Boža": "3",
    },
    {
        "declarer": "Ana",
        "contract": "tref",
        "followers": ["Boža"],
        "tricks.Ana": "7",
        "tricks.Boža": "6",
    },
    {"declarer": "Ana", "contract": "tref", "followers": [], "invited": "Boža"},
    {"declarer": "Ana", "contract": "tref", "followers": ["Boža"]},
    {"type": "correction", "reason": "x"},
]


def codes_in_refusal(text: str, lang: str) -> set[str]:
    """The field codes a refusal holds: any word with an underscore; in a language that is
    not English, any key of the file too (in English "tricks" and "invited" are words)."""
    words = set(re.findall(r"[A-Za-z][A-Za-z_]*", text))
    codes = {w for w in words if "_" in w}
    if lang != "en":
        codes |= words & FIELD_CODES
    return codes


@pytest.mark.parametrize("lang", LANGS)
def test_the_balkan_deal_form_refuses_in_words(web: Web, store: Store, lang: str) -> None:
    token = _stored(store, PARTIJA | {"deals": []})
    web.get(f"/?lang={lang}")
    said: list[str] = []
    for taps in REFUSED:
        page = web.get(f"/g/{token}/deal/new")
        form = page.form("deal-form")
        form.set(**taps, action="save")
        refused = web.submit(page, form)
        assert refused.status != 302, taps
        assert refused.errors(), taps
        said += refused.errors()
    assert len(store.get_game(token).deals) == 0
    wrong = {text: sorted(codes_in_refusal(text, lang)) for text in said}
    assert {t: c for t, c in wrong.items() if c} == {}
    if lang in ("ru", "uk"):
        typed = set(re.findall(r"[A-Za-z]+", " ".join(PLAYERS)))
        assert [t for t in said if stray_latin(t, typed)] == []


def test_the_rule_catches_a_code() -> None:
    assert codes_in_refusal("kontra: say who gave it (kontra_by)", "en") == {"kontra_by"}
    assert codes_in_refusal("invited: na betl se niko ne zove", "sr_Latn") == {"invited"}
    assert codes_in_refusal("invited: nobody is invited in betl", "en") == set()


def _balkan_field_codes() -> set[str]:
    """Every key of a Balkan entry and of a correction's line written as code (an underscore)."""
    from scorekeeper.balkan import notation

    keys = {k for required, optional in notation._KEYS.values() for k in required | optional}
    return {k for k in keys | {"supe_on"} if "_" in k}


@pytest.mark.parametrize("lang", ["ru", "uk", "sr_Latn", "sr_Cyrl", "hr"])
def test_no_catalogue_message_holds_a_balkan_field_code(lang: str) -> None:
    """The file's keys are said in words («who gave kontra»), in English as in translation;
    only a message showing the file's shape quotes one ("supe_on")."""
    from .test_words_rules import catalogue

    codes = _balkan_field_codes()
    assert {"kontra_by", "supe_on"} <= codes
    found = {}
    for msgid, strings in catalogue(lang):
        for text in [msgid, *strings]:
            bare = re.sub(r'\\?"[^"]*\\?"|\{\w+\}|%\(\w+\)[sd]', " ", text)
            if hit := codes & set(re.findall(r"\w+", bare)):
                found[text] = sorted(hit)
    assert found == {}


@pytest.mark.parametrize("lang", LANGS)
def test_a_player_sitting_out_is_refused_in_words(lang: str) -> None:
    """At a table of four the dealer sits out: naming him in any field of the deal is refused
    by the field's word («who gave kontra: Dado sits out this deal»), never its file key."""
    from scorekeeper import wording
    from scorekeeper.rules import InvalidGame

    four = PARTIJA | {"players": ["Ana", "Boža", "Ceca", "Dado"], "first_dealer": "Dado"}
    deal = PLAYED | {"kontra": 1, "kontra_by": "Dado", "tricks": {"Ana": 7, "Boža": 3}}
    with pytest.raises(InvalidGame) as caught:
        gamefile_balkan.load(four | {"deals": [deal]})
    said = [wording.words_for(lang).problem(p, with_deal=False) for p in caught.value.problems]
    assert any("Dado" in text for text in said), said
    assert {
        text: codes_in_refusal(text, lang) for text in said if codes_in_refusal(text, lang)
    } == {}


def test_an_invitation_with_nobody_following_is_said_as_such() -> None:
    """No longer «Boža cannot be invited beside 0 followers»: nobody follows, nobody invites."""
    from scorekeeper import wording
    from scorekeeper.rules import InvalidGame

    deal = PLAYED | {"followers": [], "invited": "Boža"}
    with pytest.raises(InvalidGame) as caught:
        gamefile_balkan.load(PARTIJA | {"deals": [deal]})
    said = [wording.words_for("ru").problem(p) for p in caught.value.problems]
    assert said == ["раздача 1: кого позвали: никто не вистует, звать некому"]
