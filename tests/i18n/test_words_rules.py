"""Words, round five (issue 51): tests of the rules, not of sentences.

Earlier rounds pinned the sentences a native reader named; a new feature then brought the same
fault back in a new sentence. These walk everything of a kind and fail on the fault itself:

1. a person's name never stands where Russian or Ukrainian would decline it (after a
   preposition, as a verb's object, after a noun it would belong to): every translation
   holding a name placeholder is read, and the word before each name must be one proven to
   leave it in the nominative;
2. no Latin-script word on a Russian or Ukrainian screen but names, codes the person typed,
   paths, addresses and units: the 503 page, the command line's refusals (a database a newer
   release wrote, an unreachable PostgreSQL, a bad option in a file) and its help;
3. one number for one entry: on one game with deals, corrections and penalties, the game
   page, the log, the history, the PDF and the flashes number each the same way;
4. no option code (`any`, `made`, `gentleman_on_remise`, `allpass_exit_on`…) in a message for
   people: the catalogues, and the message for each option given a value it does not have.
"""

from __future__ import annotations

import json
import re
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from scorekeeper import gamefile, wording
from scorekeeper.games import create_from_game
from scorekeeper.rules import InvalidGame, options
from scorekeeper.store import Store

from ..harness import CLI, ROOT, Page, Web
from .test_glossary import _catalog
from .words import latin_words

LANGS = ("ru", "uk")
PLAYERS = {"Anna", "Boris", "Vera"}


def catalogue(lang: str) -> list[tuple[str, list[str]]]:
    """(msgid, its translations) of every message of a language."""
    out = []
    for message in _catalog(lang):
        if not message.id:
            continue
        msgid = message.id if isinstance(message.id, str) else message.id[0]
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        out.append((msgid, [s for s in strings if s]))
    return out


# -- 1. a name where no declension touches it --------------------------------------------------

#: The placeholders that hold a person's name (or a list of names), as the code names them.
NAME_PLACEHOLDERS = frozenset(
    "name names player players declarer writer debtor creditor payer payee dealer offender"
    " giver partner expected given other first second who".split()
)

#: Messages whose {name} is not a person: a convention, a company, a game, a tournament.
NOT_A_PERSON = re.compile(
    r"convention \{name\}|family \{name\}|company %\(name\)s|tournament %\(name\)s"
)

PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]|\{(\w+)[^}]*\}")

#: Words after which a name stands in the nominative, each proven safe: a verb whose subject
#: the name is («сдаёт Анна», «игру заказывает Анна», «садятся Анна, Борис»), the noun
#: the name stands beside in apposition («игрок Анна»), a conjunction joining names of one
#: case («Анна и Борис», «а не Борис», «то же имя, что Борис», «так что Анна не опаздывает»).
NOMINATIVE_BEFORE = {
    "ru": set("сдаёт заказывает садятся сидят играет играют пишет игрок и а не что".split()),
    "uk": set("здає замовляє сідають сидять грає грають пише гравець і й та а не що тож".split()),
}


def names_in(entries: list[tuple[str, list[str]]]) -> Iterator[tuple[str, re.Match[str]]]:
    """Each translation and each placeholder in it that holds a person's name."""
    for msgid, strings in entries:
        if NOT_A_PERSON.search(msgid):
            continue
        for text in strings:
            for match in PLACEHOLDER.finditer(text):
                if (match.group(1) or match.group(2)) in NAME_PLACEHOLDERS:
                    yield text, match


def declined_names(lang: str, entries: list[tuple[str, list[str]]]) -> list[str]:
    """Each name placeholder of a translation preceded by a word not proven to leave it in
    the nominative (a preposition, a verb taking an object, a noun it would belong to)."""
    found = []
    for text, match in names_in(entries):
        before = re.search(r"([^\W\d_A-Za-z]+)[ \u00a0]+$", text[: match.start()])
        if before and before.group(1).lower() not in NOMINATIVE_BEFORE[lang]:
            found.append(f"{before.group(1)} {match.group(0)}: {text}")
    return found


#: A past-tense verb's masculine ending: «дал», «ушёл»; «дав», «вістував».
#: A past-tense verb's or a short participle's masculine ending: «дал», «ушёл», «назван»;
#: «дав», «вістував», «названий» is not short. Nouns of the game that end alike are no verb.
PAST_MASCULINE = {
    "ru": re.compile(r"\w+(?:л|ан|ян|ен)"),
    "uk": re.compile(r"\w+(?:в|л)"),
}
NOT_A_VERB = {"стол", "стіл", "бетл", "став"}


def gendered_names(lang: str, entries: list[tuple[str, list[str]]]) -> list[str]:
    """Each name placeholder followed, in its clause, by a past-tense verb or a short
    participle, which agrees with the person's gender: «Анна: дал контру», «{name} эту
    раздачу не играл», «{name} назван». After «игрок {name}» the verb agrees with «игрок»."""
    found = []
    for text, match in names_in(entries):
        if re.search(r"(?:игрок|гравець)[ \u00a0]+$", text[: match.start()]):
            continue
        clause = re.match(r"[ \u00a0]*[:—–(-]?([^.;:,()—«»]*)", text[match.end() :])
        words = re.findall(r"[^\W\d_A-Za-z]+", clause.group(1) if clause else "")[:4]
        verbs = [w for w in words if PAST_MASCULINE[lang].fullmatch(w) and w not in NOT_A_VERB]
        if verbs:
            found.append(f"{match.group(0)} {verbs[0]}: {text}")
    return found


@pytest.mark.parametrize("lang", LANGS)
def test_no_name_stands_where_the_language_would_decline_it(lang: str) -> None:
    assert declined_names(lang, catalogue(lang)) == []


@pytest.mark.parametrize("lang", LANGS)
def test_no_verb_agrees_with_a_name_s_gender(lang: str) -> None:
    assert gendered_names(lang, catalogue(lang)) == []


@pytest.mark.parametrize("lang", LANGS)
def test_an_arrow_stands_only_where_the_english_has_one(lang: str) -> None:
    """The arrow means money flowing (payer → payee): whists and supe written on somebody
    are said in words («— на кого: Анна»), never drawn as an arrow the English has not."""
    drawn = [(msgid, s) for msgid, strings in catalogue(lang) for s in strings if "→" in s]
    assert [(msgid, s) for msgid, s in drawn if "→" not in msgid] == []


def test_ukrainian_words_take_the_typographic_apostrophe() -> None:
    """«п’ять», «об’єднання»: the Ukrainian catalogue writes ’ inside a word, never '."""
    words = {
        w
        for _msgid, strings in catalogue("uk")
        for s in strings
        for w in re.findall(r"[а-яіїєґА-ЯІЇЄҐ]+'[а-яіїєґА-ЯІЇЄҐ]+", s)
    }
    assert words == set()


@pytest.mark.parametrize(
    ("lang", "text", "gendered"),
    [
        ("ru", "{name}: дал контру", True),
        ("uk", "хто дав контру: {name} не вістував", True),
        ("ru", "{name}: ушёл, булы остаются", True),
        ("uk", "{writer} (покликав) → {declarer}", True),
        ("ru", "взятки: {name} эту раздачу не играл", True),
        ("ru", "кто дал контру: {name} назван, но контры нет", True),
        ("ru", "игрок {name} указан дважды", False),
        ("ru", "садятся {expected} (больший стол первым)", False),
        ("ru", "{name}: зовёт; пара взяла {tricks}", False),
        ("uk", "{name}: пуля %(pool)s", False),
        ("ru", "%(name)s: вист", False),
    ],
)
def test_the_gender_check_tells_a_past_verb(lang: str, text: str, gendered: bool) -> None:
    assert bool(gendered_names(lang, [("x", [text])])) == gendered


@pytest.mark.parametrize(
    ("lang", "text"),
    [
        ("ru", "За %(name)s за этим столом отвечает другой телефон."),
        ("ru", "Место %(name)s свободно"),
        ("ru", "Другой телефон пытался ответить за %(name)s %(num)d раз."),
        ("uk", "Місце %(name)s вільне"),
        ("ru", "просто уберите {name} из списка игроков"),
        ("ru", "взятки {name} — целое число"),
        ("uk", "пуля закрита чужими очками від {giver}"),
        ("ru", "Штраф для %(player)s"),
    ],
)
def test_the_name_check_catches_a_declined_name(lang: str, text: str) -> None:
    assert declined_names(lang, [("x", [text])]), text


@pytest.mark.parametrize(
    ("lang", "text"),
    [
        ("ru", "Место свободно: %(name)s."),
        ("ru", "За игрока «%(name)s» уже отвечает другой телефон."),
        ("ru", "Попытки ответить с другого телефона: %(name)s — %(num)d"),
        ("uk", "%(name)s: пуля %(pool)s"),
        ("ru", "сдаёт {expected}, а не {given}"),
        ("uk", "Гора (%(name)s): решта пишуть по 20"),
        ("ru", "%(payer)s → %(payee)s: %(amount)s"),
    ],
)
def test_the_name_check_lets_a_safe_form_pass(lang: str, text: str) -> None:
    assert declined_names(lang, [("x", [text])]) == [], text


# -- 2. no English on a Russian or Ukrainian screen ------------------------------------------

#: Latin words that are codes everywhere: the program, formats, protocols, units, languages,
#: JSON's true and false (a file's author writes them).
CODES = set(
    "scorekeeper PDF JSON json CSV QR UTC SQLite PostgreSQL HTTP HTTPS TLS SHA URL LANG EUR USD"
    " EN RU UK SR HR English Srpski Hrvatski true false".split()
)


def stray_latin(text: str, typed: set[str]) -> set[str]:
    """Latin words of a text that are no name, typed code, path, address, option or unit."""
    typed = typed | typed_in_help(text)
    text = re.sub(r"\b\w+://\S+", " ", text)  # addresses
    text = re.sub(r"\b[\w-]+\.[A-Za-z]\w*\b", " ", text)  # file names: scorekeeper.sqlite
    text = re.sub(r"\S*[/\\]\S*", " ", text)  # paths
    text = re.sub(r"(?<!\w)--?[\w-]+", " ", text)  # --options
    text = re.sub(r"\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b", " ", text)  # ENVIRONMENT_NAMES
    text = re.sub(r"\b\w*[_\d]\w*\b", " ", text)  # codes: m999_from_the_future, sr_Latn, 7S
    text = re.sub(r"[«\"“][^»\"”]*[»\"”]|'[^'\s]*'", " ", text)  # typed, quoted
    words = set(re.findall(r"[A-Za-z][A-Za-z'-]*", text))
    return words - CODES - typed


def typed_in_help(text: str) -> set[str]:
    """What a command's help offers to type: the values of a choice ({json,text}) and the
    commands of the list (a row beginning with one)."""
    choices = {c for group in re.findall(r"\{([\w,-]+)\}", text) for c in group.split(",")}
    commands = set(re.findall(r"(?m)^ {2,}([a-z][\w-]*) {2,}", text))
    return choices | commands | set(re.findall(r"scorekeeper ([a-z][\w-]*) \[", text))


def run(*args: str, lang: str) -> str:
    """A command's whole output (stdout and stderr) in a language."""
    done = subprocess.run([CLI, "--lang", lang, *args], capture_output=True, text=True, timeout=120)
    assert "Traceback" not in done.stderr, done.stderr
    return done.stdout + done.stderr


@pytest.fixture(scope="module")
def newer_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A database a newer release wrote: a schema step this release does not know."""
    db = tmp_path_factory.mktemp("newer") / "games.sqlite"
    Store(db).close()
    conn = sqlite3.connect(db)
    with conn:
        conn.execute(
            "INSERT INTO _sqlite_migrations (migration_set, name, applied_at)"
            " VALUES ('scorekeeper', 'm999_from_the_future', 'x')"
        )
        conn.execute("UPDATE schema_release SET release = '99.0.0'")
    conn.close()
    return db


BAD_OPTION = {
    "format": "scorekeeper-game/1",
    "convention": "sochi",
    "players": ["Anna", "Boris", "Vera"],
    "first_dealer": "Anna",
    "options": {"allpass_exit_on": "never", "whist_split": "halves"},
    "deals": [],
}


def cli_outputs(lang: str, newer: Path, tmp: Path) -> dict[str, str]:
    """What a person reads of the command line: its refusals and its help."""
    bad = tmp / "bad.json"
    bad.write_text(json.dumps(BAD_OPTION), encoding="utf-8")
    broken = tmp / "broken.json"
    broken.write_text('{"players": ', encoding="utf-8")
    game = tmp / "numbered.json"
    game.write_text(json.dumps(NUMBERED), encoding="utf-8")
    unreachable = "postgresql://scorer@127.0.0.1:1/games"
    said = {
        "newer: export": run("export", "abcdefgh", "--db", str(newer), "--out", "x.pdf", lang=lang),
        "newer: backup": run("backup", str(tmp / "copy.sqlite"), "--db", str(newer), lang=lang),
        "unreachable": run("export", "abcdefgh", "--db", unreachable, lang=lang),
        "bad option": run("score", "--format", "text", str(bad), lang=lang),
        "a game, scored": run("score", "--format", "text", str(game), lang=lang),
        "missing file": run("score", str(tmp / "none.json"), lang=lang),
        "missing folder": run(
            "export", "abcdefgh", "--db", str(tmp / "no" / "x.sqlite"), lang=lang
        ),
        "not a backup": run("restore", str(bad), "--db", str(tmp / "r.sqlite"), lang=lang),
        "copy onto itself": run("copy-db", str(newer), str(newer), lang=lang),
        "import: not JSON": run("import", str(broken), "--db", str(tmp / "r.sqlite"), lang=lang),
        "game as a tournament": run("tournament", str(bad), lang=lang),
        "no workers": run("serve", "--workers", "0", lang=lang),
        "unknown command": run("nosuch", lang=lang),
        "missing argument": run("export", lang=lang),
    }
    for command in ("", "score", "tournament", "export", "serve", "import", "backup", "restore"):
        said[f"{command} --help"] = run(*([command] if command else []), "--help", lang=lang)
    return said


@pytest.mark.parametrize("lang", LANGS)
def test_the_command_line_says_no_english(lang: str, newer_db: Path, tmp_path: Path) -> None:
    outputs = cli_outputs(lang, newer_db, tmp_path)
    assert "m999_from_the_future" in outputs["newer: export"]
    left = {
        what: sorted(words) for what, out in outputs.items() if (words := stray_latin(out, PLAYERS))
    }
    assert left == {}


def _locked_503(tmp_path: Path, lang: str, monkeypatch: pytest.MonkeyPatch) -> str:
    """The 503 page of a database another program holds locked."""
    import functools

    from ..attacks.test_safety_faults import _new_game
    from ..faults import locked, new_app

    db = tmp_path / "busy.sqlite"
    web = Web(new_app(db).test_client())
    web.get(f"/?lang={lang}")
    monkeypatch.setattr(
        "scorekeeper.web.storage.Store", functools.partial(Store, busy_timeout_ms=200)
    )
    with locked(db):
        page = _new_game(web)
    assert page.status == 503, page.text()[:300]
    return page.html


def _missing_503(tmp_path: Path, lang: str) -> str:
    """The 503 page of a database file that vanished."""
    from ..faults import new_app

    db = tmp_path / "gone.sqlite"
    client = new_app(db).test_client()
    db.unlink()
    page = Page(client.get(f"/?lang={lang}"), "/")
    assert page.status == 503, page.text()[:300]
    return page.html


@pytest.mark.parametrize("lang", LANGS)
def test_the_503_page_says_no_english(
    lang: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pages = {"busy": _locked_503(tmp_path, lang, monkeypatch), "gone": _missing_503(tmp_path, lang)}
    for html in pages.values():
        assert f'<html lang="{lang}">' in html
    busy = {"ru": "база данных занята", "uk": "база даних зайнята"}[lang]
    assert busy in pages["busy"]
    left = {what: sorted(latin_words(html) - CODES) for what, html in pages.items()}
    assert left == {"busy": [], "gone": []}


def test_every_reason_the_store_gives_is_said_in_each_language() -> None:
    """Each reason a StorageUnavailable can carry (the second argument where one is made, and
    the table of SQLite's codes) is one Words.storage says, and each is translated."""
    sources = "\n".join(
        p.read_text(encoding="utf-8") for p in (ROOT / "scorekeeper" / "store").glob("*.py")
    )
    given = set(re.findall(r'^\s+\d+: "([^"]+)",', sources, flags=re.M))
    given |= set(re.findall(r'^_[A-Z]+ = "(the [^"]+)"', sources, flags=re.M))
    made = r"(?:StorageUnavailable|DatabaseMissing|EmptyDatabase|PasswordRefused|Contention)\("
    given |= set(re.findall(made + r'\s*f?"[^"]*"(?:\s*f?"[^"]*")*,\s*"(the [^"]+)"', sources))
    assert len(given) >= 12, given
    assert given - set(wording.STORAGE_REASONS) == set()
    for lang in LANGS:
        said = wording.words_for(lang)
        untranslated = [r for r in wording.STORAGE_REASONS if said.storage(r) == r]
        assert untranslated == [], lang
    assert (
        wording.words_for("ru").storage("the spool fell off")
        == "базой данных не удалось воспользоваться"
    )


# -- 3. one number for one entry -------------------------------------------------------------

#: A deal, a correction, an all-pass, a penalty, a deal, a correction, a penalty: by its place
#: in the log a correction would be 2 and 6, a penalty 4 and 7; people count each kind apart.
NUMBERED = {
    "format": "scorekeeper-game/1",
    "name": "Счёт",
    "convention": "sochi",
    "players": ["Anna", "Boris", "Vera"],
    "first_dealer": "Anna",
    "deals": [
        {
            "type": "contract",
            "declarer": "Boris",
            "contract": "6S",
            "answers": {"Vera": "whist", "Anna": "pass"},
            "tricks": {"Boris": 6, "Vera": 3, "Anna": 1},
        },
        {"type": "correction", "reason": "счёт", "entries": [{"player": "Boris", "hill": 2}]},
        {"type": "allpass", "tricks": {"Anna": 5, "Boris": 4, "Vera": 1}},
        {"type": "penalty", "player": "Vera", "contract": "7S"},
        {
            "type": "contract",
            "declarer": "Anna",
            "contract": "7H",
            "answers": {"Boris": "whist", "Vera": "pass"},
            "tricks": {"Anna": 7, "Boris": 2, "Vera": 1},
        },
        {"type": "correction", "reason": "счёт", "entries": [{"player": "Vera", "pool": 2}]},
        {"type": "penalty", "player": "Anna", "contract": "6C"},
    ],
}

#: Each entry of NUMBERED as people number it: (kind, number).
PEOPLE_NUMBER = [
    ("deal", 1),
    ("correction", 1),
    ("deal", 2),
    ("penalty", 1),
    ("deal", 3),
    ("correction", 2),
    ("penalty", 2),
]

KIND_WORDS = {
    "ru": {"раздач": "deal", "поправк": "correction", "штраф": "penalty"},
    "uk": {"роздач": "deal", "поправк": "correction", "штраф": "penalty"},
}


def named_entries(text: str, lang: str) -> set[tuple[str, int]]:
    """Each entry a text names with its number: "поправка 2", "Штраф 1", "раздачи 3"."""
    stems = "|".join(KIND_WORDS[lang])
    found = set()
    for match in re.finditer(rf"(?i)\b({stems})\w*[ \u00a0]+(\d+)\b(?![ \u00a0]*из)", text):
        found.add((KIND_WORDS[lang][match.group(1).lower()], int(match.group(2))))
    return found


def listed_entries(text: str, lang: str) -> list[tuple[str, int]]:
    """The entries of a log as listed ("3. Анна 7♥", "4. штраф: Вера, 7♠"): (kind, number)."""
    out = []
    for match in re.finditer(r"(?m)^[ \t]*(\d+)\.[ \u00a0]+(.+)$", text):
        title = match.group(2).lower()
        kind = next((k for s, k in KIND_WORDS[lang].items() if title.startswith(s)), "deal")
        out.append((kind, int(match.group(1))))
    return out


def _pdf_text(client: FlaskClient, token: str, lang: str, tmp_path: Path) -> str:
    pdf = tmp_path / f"{lang}.pdf"
    pdf.write_bytes(client.get(f"/g/{token}/pulka.pdf?lang={lang}").get_data())
    done = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout


def _log_text(web: Web, token: str) -> str:
    html = web.get(f"/g/{token}/log").html
    titles = re.findall(r'<span class="n">(\d+)\.</span>\s*([^<]*)', html)
    return "\n".join(f"{n}. {title.strip()}" for n, title in titles)


@pytest.mark.parametrize("lang", LANGS)
def test_each_surface_numbers_an_entry_the_same_way(
    web: Web, store: Store, lang: str, tmp_path: Path
) -> None:
    record = create_from_game(store, gamefile.loads(json.dumps(NUMBERED).encode()))
    token = record.edit_token
    web.get(f"/?lang={lang}")
    valid = set(PEOPLE_NUMBER) | {("deal", 4)}  # the next deal, on the form and the game page
    surfaces = {
        "game": web.get(f"/g/{token}").text(),
        "log": web.get(f"/g/{token}/log").text(),
        "history": web.get(f"/g/{token}/history").text(),
        "pdf": _pdf_text(web.client, token, lang, tmp_path),
    }
    assert listed_entries(_log_text(web, token), lang) == PEOPLE_NUMBER[::-1]  # newest first
    assert listed_entries(surfaces["pdf"], lang) == PEOPLE_NUMBER
    for where, text in surfaces.items():
        assert named_entries(text, lang) <= valid, where
        assert stray_latin(text, PLAYERS) == set(), where
    assert named_entries(surfaces["history"], lang) == set(PEOPLE_NUMBER)
    for deal, number in zip(store.get_game(token).deals, PEOPLE_NUMBER, strict=True):
        for page in (f"/g/{token}/deal/{deal.id}/edit", f"/g/{token}/deal/{deal.id}/history"):
            assert named_entries(web.get(page).text(), lang) == {number}, page
    last = store.get_game(token).deals[-1]
    page = web.get(f"/g/{token}/deal/{last.id}/delete")
    flashed = web.get(web.submit(page, page.form()).response.headers["Location"]).text()
    assert named_entries(page.text(), lang) <= valid, "the delete page"
    assert ("penalty", 2) in named_entries(flashed, lang), flashed[:400]
    assert named_entries(flashed, lang) <= valid


# -- 4. no option code in a message for people -----------------------------------------------


#: Words of the game file that are no option: its keys (a file's error names the key the
#: author wrote: "players must be a list of names") and the conventions' names.
FILE_WORDS = {"players", *options.CONVENTIONS}


def option_codes() -> set[str]:
    """Every option's name and every value of a choice, as a game file writes them."""
    from enum import StrEnum

    values = {
        member.value
        for item in vars(options).values()
        if isinstance(item, type) and issubclass(item, StrEnum) and item is not StrEnum
        for member in item
    }
    return (values | set(options.OPTION_LABELS)) - FILE_WORDS


def codes_in(text: str, codes: set[str], typed: str = "") -> set[str]:
    """The option codes a text holds as words (what the person typed, quoted, excepted)."""
    text = text.replace(f"«{typed}»", " ").replace(f"“{typed}”", " ") if typed else text
    text = re.sub(r"\boptions\.\w+", " ", text)  # where in the file: "options.round_limit"
    words = set(re.findall(r"[A-Za-z][A-Za-z_]*", text))
    return {w for w in words if w in codes}


@pytest.mark.parametrize("lang", LANGS)
def test_no_translation_holds_an_option_code(lang: str) -> None:
    codes = option_codes()
    assert {"any", "made", "gentleman", "gentleman_on_remise", "allpass_exit_on"} <= codes
    found = {
        msgid: sorted(hit)
        for msgid, strings in catalogue(lang)
        for text in strings
        if (hit := codes_in(re.sub(r"\{\w+\}|%\(\w+\)[sd]", " ", text), codes))
    }
    assert found == {}


def test_no_english_message_holds_an_option_code_written_as_code() -> None:
    """In English "any" and "made" are words: a code is one with an underscore, or a list of
    values ("one of any, made")."""
    codes = {c for c in option_codes() if "_" in c}
    found = {
        msgid: sorted(hit)
        for msgid, _strings in catalogue("ru")
        if (hit := codes_in(re.sub(r"\{\w+\}|%\(\w+\)[sd]", " ", msgid), codes))
    }
    assert found == {}


def _choice_options() -> list[str]:
    """The options whose value is one of a few words."""
    out = []
    for name in options.OPTION_LABELS:
        try:
            gamefile.load({**BAD_OPTION, "options": {name: "zzz"}})
        except InvalidGame as error:
            if any("zzz" in str(p) for p in error.problems):
                out.append(name)
    return out


@pytest.mark.parametrize("lang", ["en", *LANGS])
def test_an_option_given_a_wrong_value_is_refused_without_codes(lang: str) -> None:
    names = _choice_options()
    assert {"allpass_exit_on", "whist_split", "end"} <= set(names)
    codes = option_codes()
    if lang == "en":  # "end" and "trick" are English words: a code there has an underscore
        codes = {c for c in codes if "_" in c}
    said = wording.words_for(lang)
    found: dict[str, Any] = {}
    for name in names:
        with pytest.raises(InvalidGame) as caught:
            gamefile.load({**BAD_OPTION, "options": {name: "zzz"}})
        for problem in caught.value.problems:
            text = said.problem(problem)
            assert "zzz" in text, text
            hit = codes_in(text, codes, typed="zzz")
            if lang != "en":
                hit |= stray_latin(text, {"zzz"})
            if hit:
                found[name] = (sorted(hit), text)
    assert found == {}


@pytest.mark.parametrize("lang", LANGS)
def test_a_tournament_table_s_progress_is_said_alike_on_the_director_s_page(
    web: Web, store: Store, lang: str
) -> None:
    """The director's page once said «раздача 5 из 6» where the table's own page said «круг 2
    из 2, раздача 2 из 3»: both say the round and the deal in it now."""
    from ..flows import new_tournament, play, seat, tables

    token = new_tournament(web, rounds="2")
    seat(web, token)
    first = tables(store, token, 1)[0].game
    play(web, store, first.edit_token, 4)
    web.get(f"/?lang={lang}")
    director = re.findall(r'<span class="progress">([^<]*)</span>', web.get(f"/t/{token}").html)
    table = re.findall(r'<p class="round">([^<]*)</p>', web.get(f"/g/{first.edit_token}").html)
    said = {"ru": "Круг 2 из 2, раздача 2 из 3", "uk": "Коло 2 з 2, роздача 2 з 3"}[lang]
    assert [" ".join(t.split()) for t in table] == [said]
    assert " ".join(director[0].split()) == said


@pytest.mark.parametrize("lang", LANGS)
def test_the_new_game_form_refuses_every_option_in_the_language(web: Web, lang: str) -> None:
    """Every option given a value it does not have: each field's refusal is the app's own
    sentence in the language, naming no option code (the form library once said «'zzz' is
    not a valid choice for this field» and «Неверный вариант.»)."""
    from scorekeeper.web.options import preset_values

    web.get(f"/?lang={lang}")
    page = web.get("/new")
    form = page.form("new-game")
    for field, value in preset_values("sochi").items():
        form.set(**{field: ("y" if value else None) if isinstance(value, bool) else value})
    form.set(player_0="Anna", player_1="Boris", player_2="Vera", first_dealer="0")
    names = [f for f in form.data() if f.startswith("opt_")]
    assert len(names) >= 20
    form.set(**dict.fromkeys(names, "zzz"), convention="zzz")
    errors = web.submit(page, form).errors()
    assert len(errors) >= 10
    codes = option_codes()
    wrong = [e for e in errors if stray_latin(e, {"zzz"}) or codes_in(e, codes, typed="zzz")]
    assert wrong == []
