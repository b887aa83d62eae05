"""Words, round four (issue 33): every surface read again, in Russian, Ukrainian and English.

Each sentence the native players named is looked for where people read it — the game page,
its log and settlement, the deal form and what it will write, the PDF (pdftotext), the
follower's page, a five-handed table, a tournament (its pages, the board, a closed table,
the import page, the CSV), a company (its pages and CSV), the forms' errors and the command
line (its output, errors and --help) — and must be gone; the sentence that replaced it must
be there. Names stand only where no declension or gender agreement touches them, and one
arrow means one thing: money flows along it (payer → payee).
"""

from __future__ import annotations

import csv
import io
import json
import re
import subprocess
from pathlib import Path

import pytest

from scorekeeper import cli, gamefile
from scorekeeper.games import create_from_game
from scorekeeper.store import Store
from scorekeeper.store.tournaments import Tournaments

from ..flows import new_tournament, play, seat, tables
from ..harness import Page, Web

#: A Sochi evening holding every entry the issue quotes: a remise two down, a penalty on a
#: seven, an all-pass where the fewest tricks are free, whists written by defenders.
EVENING = {
    "format": "scorekeeper-game/1",
    "name": "Среда",
    "convention": "sochi",
    "players": ["Анна", "Борис", "Вера"],
    "first_dealer": "Вера",
    "options": {"allpass_min_amnesty": True},
    "deals": [
        {
            "type": "contract",
            "declarer": "Анна",
            "contract": "8S",
            "answers": {"Борис": "whist", "Вера": "pass"},
            "tricks": {"Анна": 6, "Борис": 3, "Вера": 1},
        },
        {"type": "allpass", "tricks": {"Анна": 5, "Борис": 4, "Вера": 1}},
        {"type": "penalty", "player": "Вера", "contract": "7S"},
        {
            "type": "contract",
            "declarer": "Борис",
            "contract": "6H",
            "answers": {"Вера": "whist", "Анна": "pass"},
            "tricks": {"Борис": 6, "Вера": 3, "Анна": 1},
        },
    ],
}

FIVE = {
    "format": "scorekeeper-game/1",
    "convention": "sochi",
    "players": ["Анна", "Борис", "Вера", "Глеб", "Дарина"],
    "first_dealer": "Анна",
    "deals": [],
}

#: What a native reader stumbled on (issue 33), by language.
WRONG: dict[str, list[str]] = {
    "ru": [
        r"подтверждает за",
        r"первым сдаёт|сдаёт первым|сдаёт следующим",
        r"выбыл\b",
        r"нет в списке",
        r"в (sochi|hussar|leningrad|rostov) играют",
        r"\bor\b",
        r"unknown key|missing key|net_whists|average_whists",
        r"CTRL",
        r"вист\.",
        r"ремиз: без|консоляция: без",
        r"штраф за \d",
        r"к пуле\b|пуля на \d",
        r"Ленинград(?!ка)",
        r"Неверное целое|Обязательное поле|Значение не должно",
        r"Что играли",
        r"[+−]\d+ \d+/\d+",  # tournament points as a fraction
        r"Раз в висте",
        r"Подтвердили раздач",
        r"для просмотра для",
        r"для правки",
        r"в нём раздача",
        r"остальные пишут по",
        r"Исправить раздачу",
        r"текстом|ждать телефоны|непонятные аргументы",
        r"→ [^:;()]+: [−\d⅓⅔½ ]+ вист\w* \(",  # an entry drawn with the arrow
    ],
    "uk": [
        r"підтверджує за",
        r"здає (першим|наступним)",
        r"вибув\b",
        r"немає в списку",
        r"у (sochi|hussar|leningrad|rostov) грають",
        r"\bor\b",
        r"unknown key|missing key|net_whists|average_whists",
        r"CTRL",
        r"віст\.",
        r"реміз: без|консоляція: без",
        r"штраф за \d",
        r"пуля на \d",
        r"Ленінград(?!ка)",
        r"Недійсне ціле|Обов.язкове поле|Не дійсне",
        r"Що грали",
        r"[+−]\d+ \d+/\d+",
        r"Разів у вісті",
        r"Підтвердили роздач",
        r"для перегляду для",
        r"у ньому роздача",
        r"інші пишуть по",
        r"Виправити роздачу",
        r"текстом|чекати телефони|незрозумілі аргументи",
        r"довіряться",
        r"роздавальник",
        r"решта пишуть",
        r"\bЗамовник\b",
        r"Тягнути місця",
        r"→ [^:;()]+: [−\d⅓⅔½ ]+ віст\w* \(",
    ],
    "en": [
        r"on himself|pay himself",
        r"[a-z)] must be one of",  # "All-passes end with must be one of …"
        r"all \d+ rounds",
        r"«|»",
        r"It will write",
        r"the tricks of",
        r"on the whole screen",
        r"Thank you: not so",
        r"making their PDF",
        r"a night\b",
        r"Not a valid integer|This field is required|Field cannot be longer",
        r"CTRL \+ C",
        r"[+−]\d+ \d+/\d+",
        r"→ [^:;()]+: [−\d⅓⅔½ ]+ whists? \(",
    ],
}

#: What replaced it, where it must now be read.
RIGHT: dict[str, dict[str, list[str]]] = {
    "ru": {
        "/log": [
            "ремиз без двух: 2 × ",
            "штраф, без одной на 7♠",
            "распасы: 5 − 1 = 4 взятки × ",
            "пишет ",
            " — на кого: Анна",
        ],
        "PDF": ["первую раздачу сдаёт: Вера", "ремиз без двух: 2 × "],
        "five": ["Не играют: Анна, Борис."],
        "five form": ["Борис не играет"],
        "deal form, checked": [
            "Будет записано:",
            "Борис пишет 2 виста (консоляция без одной: 1 × 2) — на кого: Анна",
        ],
        "deal form, nothing chosen": ["Выберите, что записать"],
        "follower": ["Подтверждаю как:"],
        "tournament table": ["Тур 1 закрыт судьёй досрочно"],
        "tournament": ["сдаёт первую раздачу"],
        "new game": ["Ленинградка"],
        "six players": ["Сочи: игроков должно быть 3, 4 или 5, а не 6"],
        "five, the next dealer declares": ["Борис сдаёт следующую раздачу и в этой не играет"],
        "tournament import": ["неизвестный ключ"],
        "company CSV": ["Игрок;Вечера;Победы;Итог в вистах;Деньги"],
    },
    "uk": {
        "/log": [
            "реміз без двох: 2 × ",
            "штраф, без однієї на 7♠",
            "розпаси: 5 − 1 = 4 взятки × ",
            "пише ",
            " — на кого: Анна",
        ],
        "PDF": ["першу роздачу здає: Вера", "реміз без двох: 2 × "],
        "five": ["Не грають: Анна, Борис."],
        "five form": ["Борис не грає"],
        "deal form, checked": [
            "Буде записано:",
            "Борис пише 2 вісти (консоляція без однієї: 1 × 2) — на кого: Анна",
        ],
        "deal form, nothing chosen": ["Виберіть, що записати"],
        "follower": ["Підтверджую як:"],
        "tournament table": ["Тур 1 закрито суддею достроково"],
        "tournament": ["здає першу роздачу"],
        "new game": ["Ленінградка"],
        "six players": ["Сочі: гравців має бути 3, 4 або 5, а не 6"],
        "five, the next dealer declares": ["Борис здає наступну роздачу й у цій не грає"],
        "tournament import": ["невідомий ключ"],
        "company CSV": ["Гравець;Вечори;Перемоги;Підсумок у вістах;Гроші"],
    },
    "en": {
        "/log": [
            "remise, two down: 2 × ",
            "all-pass: 5 − 1 = 4 tricks × ",
            " writes ",
            " whists on Анна (",
        ],
        "five": ["Sitting out: Анна, Борис."],
        "deal form, checked": [
            "What will be written:",
            "Борис writes 2 whists on Анна (consolation, one down: 1 × 2)",
        ],
        "deal form, nothing chosen": ["Choose what to record"],
        "tournament table": ["Tour 1 was closed early by the director"],
        "six players": ["Sochi is played by 3, 4 or 5 players, not 6"],
        "company CSV": ["Player,Evenings,Wins,Net whists,Money"],
    },
}


def _pdf(data: bytes, tmp_path: Path) -> str:
    path = tmp_path / "sheet.pdf"
    path.write_bytes(data)
    done = subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True, check=True)
    return re.sub(r"\s+", " ", done.stdout)


def _game_texts(web: Web, store: Store, lang: str, tmp_path: Path) -> dict[str, str]:
    """The game's pages, its PDF, the deal form and its preview, a five-handed table."""
    record = create_from_game(store, gamefile.loads(json.dumps(EVENING).encode()))
    token = record.edit_token
    web.get(f"/?lang={lang}")
    texts = {p: web.get(f"/g/{token}{p}").text() for p in ("", "/log", "/settlement")}
    texts["PDF"] = _pdf(web.client.get(f"/g/{token}/pulka.pdf").get_data(), tmp_path)
    texts["follower"] = web.get(f"/v/{record.view_token}").text()
    page, form = web.deal_form(token)
    texts["deal form"] = page.text()
    players = list(EVENING["players"])  # type: ignore[call-overload]
    web.fill_deal(
        form,
        players,
        "contract",
        declarer="Анна",
        contract="6S",
        answers={"Борис": "whist", "Вера": "pass"},
        tricks={"Анна": 5, "Борис": 4, "Вера": 1},
    )
    checked = web.check(page, form)
    texts["deal form, checked"] = checked.text()
    empty = web.check(page, page.form("deal-form").set(kind="redeal"))  # no such kind here
    texts["deal form, nothing chosen"] = " | ".join(empty.errors())
    five = create_from_game(store, gamefile.loads(json.dumps(FIVE).encode()))
    texts["five"] = web.get(f"/g/{five.edit_token}").text()
    texts["five form"] = web.get(f"/g/{five.edit_token}/deal/new").text()
    return texts


def _tournament_texts(web: Web, store: Store, lang: str) -> dict[str, str]:
    """A tournament closed early (its tables closed by the director), a withdrawal, the
    board, a broken file on the import page."""
    web.get(f"/?lang={lang}")
    roster = ["Анна", "Борис", "Вера", "Глеб", "Дарина", "Егор"]
    token = new_tournament(web, roster=roster)
    seat(web, token)
    texts = {"tournament": web.get(f"/t/{token}").text()}
    first = tables(store, token, 1)
    play(web, store, first[0].game.edit_token, 1)
    page = web.get(f"/t/{token}")
    form = page.form("/close")
    form.set(early="y")
    assert web.submit(page, form).status == 302
    texts["tournament table"] = web.get(f"/g/{first[1].game.edit_token}").text()
    page = web.get(f"/t/{token}")
    form = page.form("/withdraw")
    form.set(player="Анна")
    texts["tournament, withdrawn"] = web.submit(page, form, follow=True).text()
    record = Tournaments(store).get(token)
    texts["board"] = web.get(f"/tv/{record.view_token}/board").text()
    texts["tournament CSV"] = web.client.get(f"/t/{token}/standings.csv").get_data(as_text=True)
    bad = {"format": "scorekeeper-tournament/1", "name": "x", "first_dealer": "Анна"}
    upload = web.get("/tournament/import")
    form = upload.form("import-tournament")
    files = {"file": (io.BytesIO(json.dumps(bad).encode()), "t.json")}
    sent = web.client.post("/tournament/import", data={**form.data(), **files})
    texts["tournament import"] = Page(sent, "/tournament/import").text()
    return texts


def _company_texts(web: Web, store: Store, lang: str) -> dict[str, str]:
    from ..flows import finish, new_company, play_some, start_evening

    web.get(f"/?lang={lang}")
    token = new_company(web, roster=("Анна", "Борис", "Вера"))
    game = start_evening(web, store, token, ["Анна", "Борис", "Вера"])
    play_some(web, store, game)
    finish(web, game)
    texts = {"company": web.get(f"/c/{token}").text()}
    csv_text = web.client.get(f"/c/{token}/standings.csv").get_data(as_text=True)
    texts["company CSV"] = csv_text.lstrip("\ufeff")
    page = web.get(f"/c/{token}")
    form = page.form("/pay").set(amount="")
    texts["company, a payment without an amount"] = " | ".join(web.submit(page, form).errors())
    page = web.get("/new")
    form = page.form("new-game").set(opt_currency="X" * 30, player_0="Анна")
    texts["new game"] = page.text()
    texts["new game, errors"] = " | ".join(web.submit(page, form).errors())
    return texts


def _cli_texts(lang: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, str]:
    texts: dict[str, str] = {}
    six = {**EVENING, "players": ["А", "Б", "В", "Г", "Д", "Е"], "deals": []}
    path = tmp_path / "six.json"
    path.write_text(json.dumps(six, ensure_ascii=False))
    sitter = {
        **FIVE,
        "deals": [
            {
                "type": "contract",
                "declarer": "Борис",
                "contract": "6S",
                "answers": {"Вера": "pass", "Глеб": "pass"},
            }
        ],
    }
    five = tmp_path / "five.json"
    five.write_text(json.dumps(sitter, ensure_ascii=False))
    runs = {
        "five, the next dealer declares": ["score", "--lang", lang, str(five)],
        "six players": ["score", "--lang", lang, str(path)],
        "unknown argument": ["score", "--lang", lang, "--what", str(path)],
    }
    for name, argv in runs.items():
        capsys.readouterr()
        try:
            cli.main(argv)
        except SystemExit:
            pass
        done = capsys.readouterr()
        texts[name] = done.out + done.err
    for command in ("score", "serve"):
        capsys.readouterr()
        with pytest.raises(SystemExit):
            cli.main([command, "--help"])
        texts[f"{command} --help"] = capsys.readouterr().out
    game = tmp_path / "game.json"
    game.write_text(json.dumps(EVENING, ensure_ascii=False))
    capsys.readouterr()
    assert cli.main(["score", "--format", "text", "--lang", lang, str(game)]) == 0
    texts["score --format text"] = capsys.readouterr().out
    return texts


def _names(texts: dict[str, str], lang: str) -> list[str]:
    """Every wrong sentence found and every right one missing, as "where: what" lines."""
    found = []
    for where, text in texts.items():
        for pattern in WRONG[lang]:
            for hit in re.finditer(pattern, text):
                around = text[max(0, hit.start() - 50) : hit.end() + 50]
                found.append(f"{where}: {pattern!r} in …{around}…")
    for where, wanted in RIGHT[lang].items():
        found += [f"{where}: missing {w!r}" for w in wanted if w not in texts.get(where, "")]
    return found


#: A capital after «;» or «:» inside a sentence, where the word is not a name.
CAPITAL = re.compile(r"(?<![.!?…])[;:] ([А-ЯЁІЇЄҐ][а-яёіїєґ’'-]+)")

#: Words that keep their capital anywhere: the players' names, the conventions.
PROPER = {
    *EVENING["players"],  # type: ignore[misc]
    *FIVE["players"],  # type: ignore[misc]
    *("Глеб", "Дарина", "Егор", "Сочи", "Сочі", "Ленинградка", "Ленінградка", "Ростов"),
    "Гусарик",
}


def _capitals(texts: dict[str, str], lang: str) -> list[str]:
    if lang == "en":
        return []
    found = []
    for where, text in texts.items():
        # «Подтверждаю как: <name>»: the name is put in by static/confirm.js, so the page's
        # own text runs on into the next button there.
        text = re.sub(r"(Подтверждаю как|Підтверджую як): (Это|Це) не я", " ", text)
        for hit in CAPITAL.finditer(text):
            if hit.group(1) not in PROPER:
                around = text[max(0, hit.start() - 50) : hit.end() + 30]
                found.append(f"{where}: a capital after «{hit.group(0)[0]}» in …{around}…")
    return found


@pytest.mark.parametrize("lang", ["ru", "uk", "en"])
def test_every_surface_reads_right_in_every_language(
    web: Web,
    store: Store,
    lang: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("LANG", {"ru": "ru_RU.UTF-8", "uk": "uk_UA.UTF-8", "en": "C.UTF-8"}[lang])
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    texts = _game_texts(web, store, lang, tmp_path)
    texts |= _tournament_texts(web, store, lang)
    texts |= _company_texts(web, store, lang)
    texts |= _cli_texts(lang, tmp_path, capsys)
    assert all(texts.values()), [k for k, v in texts.items() if not v]
    found = _names(texts, lang) + _capitals(texts, lang)
    assert found == [], "\n".join(found)


@pytest.mark.parametrize("lang", ["ru", "uk", "en"])
def test_one_arrow_one_direction_money_flows_along_it(web: Web, store: Store, lang: str) -> None:
    """Entries say in words who writes whists on whom; every arrow left on the pages is a
    payment or a netted pair, from the one who pays to the one who is paid."""
    from scorekeeper.rules import score, settle

    record = create_from_game(store, gamefile.loads(json.dumps(EVENING).encode()))
    web.get(f"/?lang={lang}")
    shown = " ".join(
        web.get(f"/g/{record.edit_token}{p}").text() for p in ("", "/log", "/settlement")
    )
    result = settle(score(gamefile.loads(json.dumps(EVENING).encode())))
    payers = {(p.payer, p.payee) for p in result.payments}
    names = "|".join(EVENING["players"])  # type: ignore[arg-type]
    arrows = set(re.findall(rf"({names}) → ({names})", shown))
    assert arrows, "the payments are drawn with the arrow"
    # Every arrow goes from a debtor to a creditor: the payments' own direction (a netted
    # pair may have no payment of its own, but never points the other way).
    assert not {(b, a) for a, b in payers} & arrows, (arrows, payers)
    writes = {"ru": "пишет", "uk": "пише", "en": "writes"}[lang]
    assert writes in shown


@pytest.mark.parametrize(
    ("lang", "text"),
    [
        ("ru", "Этот телефон подтверждает за Анна"),
        ("ru", "Анна (сдаёт первым)"),
        ("uk", "Ірина · здає першим"),
        ("ru", "Вера сдаёт следующим и в этой раздаче не играет"),
        ("ru", "Зоя выбыл из турнира."),
        ("ru", '"Зоя" нет в списке игроков'),
        ("ru", "в sochi играют 3, 4 or 5, а не 6"),
        ("ru", "Борис → Анна: 12 вист. (висты: 3 взятки × 4)"),
        ("ru", "ремиз: без 2 × 6"),
        ("ru", "Нет связи — пуля на 21:05"),
        ("ru", "Ленинград: распасы"),
        ("ru", "Неверное целое число."),
        ("ru", "+100 7/10"),
        ("ru", "Гора (Борис): остальные пишут по 20"),
        ("ru", "json (по умолчанию) или text — текстом"),
        ("uk", "Не дійсне значення дати."),
        ("uk", "Замовник"),
        ("uk", "решта пишуть йому консоляцію"),
        ("en", "All-passes end with must be one of any, made, not never"),
        ("en", "all 1 rounds are played"),
        ("en", "A player cannot pay himself"),
        ("en", "Dmitri: «Vera had 5»"),
        ("en", "+154.8 a night"),
        ("en", "Boris → Anna: 12 whists (whists: 3 tricks × 4)"),
    ],
)
def test_the_checks_catch_each_sentence_named(lang: str, text: str) -> None:
    assert any(re.search(p, text) for p in WRONG[lang]), text


def test_the_capital_check_catches_a_capital_inside_a_sentence() -> None:
    assert _capitals({"x": "Раздача 3 записана: Исправьте её здесь"}, "ru")
    assert _capitals({"x": "гора (Анна); Остальные пишут"}, "ru")
    assert not _capitals({"x": "первую раздачу сдаёт: Вера; сдаёт: Анна. Далее"}, "ru")


def test_the_company_csv_header_is_words_a_spreadsheet_reads(web: Web, store: Store) -> None:
    texts = _company_texts(web, store, "ru")
    header = next(csv.reader(io.StringIO(texts["company CSV"]), delimiter=";"))
    assert header[:5] == ["Игрок", "Вечера", "Победы", "Итог в вистах", "Деньги"]
    assert not [h for h in header if re.search(r"[A-Za-z_]", h)], header
