"""A whole evening read as a Russian or Ukrainian player reads it: page, PDF and CLI text.

Two games are rendered in ru and uk through every output people read — the game page, the
log, the settlement, the history, the deal form, the PDF (read back with pdftotext) and
`scorekeeper score --format text` — and the text must hold no English word, no "NT", no
decimal point in money, no ASCII hyphen for a minus, and none of the ungrammatical
patterns players found (a name declined by a sentence, a gendered verb next to a name, a
plural that does not agree, a word left half-translated). A Sochi evening has every deal
kind, a correction and a settlement in thirds; a Hussar evening has no hill at all.
"""

from __future__ import annotations

import json
import re
import subprocess
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest

from scorekeeper import cli, gamefile
from scorekeeper.games import create_from_game
from scorekeeper.rules import score, settle
from scorekeeper.store import Store
from scorekeeper.wording import words_for

from .harness import Web

EVENING = {
    "format": "scorekeeper-game/1",
    "name": "Пятница у Бориса",
    "convention": "sochi",
    "players": ["Анна", "Борис", "Вера"],
    "first_dealer": "Вера",
    "finished": True,
    "options": {"stake": "0.5", "currency": "₽", "allpass_exit": [7], "whist_split": "gentleman"},
    "deals": [
        {
            "type": "contract",
            "declarer": "Анна",
            "contract": "6S",
            "answers": {"Борис": "whist", "Вера": "pass"},
            "tricks": {"Анна": 6, "Борис": 3, "Вера": 1},
        },
        {
            "type": "contract",
            "declarer": "Борис",
            "contract": "7NT",
            "answers": {"Вера": "pass", "Анна": "pass"},
        },
        {"type": "allpass", "tricks": {"Анна": 1, "Борис": 4, "Вера": 5}},
        {"type": "allpass", "tricks": {"Анна": 0, "Борис": 3, "Вера": 7}},
        {"type": "misere", "declarer": "Вера", "tricks": {"Вера": 0}},
        {
            "type": "contract",
            "declarer": "Анна",
            "contract": "8H",
            "answers": {"Борис": "whist", "Вера": "whist"},
            "tricks": {"Анна": 6, "Борис": 2, "Вера": 2},
        },
        {
            "type": "contract",
            "declarer": "Борис",
            "contract": "6D",
            "answers": {"Вера": "pass", "Анна": "half-whist"},
        },
        {"type": "misere", "declarer": "Анна", "tricks": {"Анна": 2, "Борис": 4, "Вера": 4}},
        {
            "type": "correction",
            "reason": "штраф за ренонс",
            "entries": [
                {"player": "Борис", "hill": 4},
                {"player": "Вера", "whists_on": "Анна", "amount": 5},
            ],
        },
        {
            "type": "contract",
            "declarer": "Вера",
            "contract": "6C",
            "answers": {"Анна": "whist", "Борис": "pass"},
            "tricks": {"Вера": 8, "Анна": 1, "Борис": 1},
        },
        {
            "type": "contract",
            "declarer": "Вера",
            "contract": "10NT",
            "answers": {"Анна": "pass", "Борис": "pass"},
        },
    ],
}

HUSSAR = {
    "format": "scorekeeper-game/1",
    "name": "Гусарик вдвоём",
    "convention": "hussar",
    "players": ["Анна", "Игорь"],
    "first_dealer": "Игорь",
    "finished": True,
    "options": {"stake": "1", "currency": "₽"},
    "deals": [
        {
            "type": "contract",
            "declarer": "Анна",
            "contract": "6S",
            "answers": {"Игорь": "whist-talon"},
            "tricks": {"Анна": 7, "Игорь": 3},
        },
        {
            "type": "contract",
            "declarer": "Игорь",
            "contract": "7H",
            "answers": {"Анна": "whist"},
            "tricks": {"Игорь": 6, "Анна": 4},
        },
        {"type": "redeal"},
        {"type": "contract", "declarer": "Анна", "contract": "6NT", "answers": {"Игорь": "pass"}},
        {
            "type": "contract",
            "declarer": "Игорь",
            "contract": "6C",
            "answers": {"Анна": "whist"},
            "tricks": {"Игорь": 9, "Анна": 1},
        },
        {"type": "misere", "declarer": "Игорь", "tricks": {"Игорь": 1, "Анна": 9}},
    ],
}

#: Latin words that stay as they are in every language.
KEPT = {"EN", "RU", "UK", "English", "PDF", "JSON", "UTC"}

#: What a native reader stumbles on, by language (issue 12).
UNGRAMMATICAL = {
    "ru": [
        r"(?<!кому )платит [А-ЯЁ]",  # "Борис платит Анна": the dative is missing
        r"должен",  # "Борис должен Анна"
        r"пишет \d+ на",  # "Анна пишет 6 на Игорь"
        r"пишет на него",
        r"на него",
        r"сдавал",  # gendered past next to a name
        r"не ответил",
        r"помог ",
        r"очками [А-ЯЁ]",  # "пуля закрыта очками Игорь"
        r"за гору [А-ЯЁ]",
        r"взяток \d",  # "взяток 1 × 6": the number after the noun
        r"[⅓⅔½¼¾] вистов",  # after a fraction: genitive singular "виста"
        r"\b1 вистов",
        r"\b[234] вистов",
        r"Если сейчас конец",
        r"[сС]ыграна\b",
        r"Домашние правила",
        r"Множители распасов",
        r"Минимальная игра",
        r"Недобор вистующего",
        r"за взятку без\b",
        r"Уровень",
        r"распас подряд",
        r"игроки × размер",
        r"первым сдаёт [А-ЯЁ]",
        r"\(\s*[^()]*\([^()]*\)[^()]*\)",  # nested parentheses
        r"·\s*·",
        r":\s*·",
    ],
    "uk": [
        r"(?<!кому )платить [А-ЯІЇЄҐ]",
        r"винен",
        r"пише \d+ на",
        r"на нього",
        r"здавав",
        r"не відповів",
        r"допоміг",
        r"очками [А-ЯІЇЄҐ]",
        r"за гору [А-ЯІЇЄҐ]",
        r"взяток \d",
        r"[⅓⅔½¼¾] вістів",
        r"[⅓⅔½¼¾] вісти\b",
        r"Якщо зараз кінець",
        r"вістуюч",
        r"Домашні правила",
        r"Множники распасів",
        r"Найнижча гра",
        r"Недобір",
        r"за взятку без\b",
        r"Рівень",
        r"гравці × розмір",
        r"\(\s*[^()]*\([^()]*\)[^()]*\)",
        r"·\s*·",
        r":\s*·",
    ],
}

#: At a table of two there is no hill, no amnesty and one defender.
NOT_IN_HUSSAR = {
    "ru": [r"\bГора\b", r"\bгора [+−\d]", r"[Аа]мнист", r"оба спасовали", r"из остальных"],
    "uk": [r"\bГора\b", r"\bгора [+−\d]", r"[Аа]мніст", r"обидва спасували", r"з інших"],
}


def _ok(texts: dict[str, str], lang: str, hussar: bool) -> list[str]:
    """Everything a native reader would stumble on, as "where: what" lines."""
    found: list[str] = []
    for where, text in texts.items():
        text = re.sub(r"https?://\S+", " ", text)
        english = set(re.findall(r"[A-Za-z][A-Za-z'-]*", text)) - KEPT
        if english:
            found.append(f"{where}: English {sorted(english)}")
        if re.search(r"\d\s*NT|\bNT\b", text):
            found.append(f"{where}: NT")
        for money in re.findall(r"[−+-]?\d[\d\u00a0 ]*[.,]\d+\s?₽", text):
            if "." in money:
                found.append(f"{where}: a decimal point in money {money!r}")
        for minus in re.findall(r"(?<![\w\-–])-\s?\d[\d,⅓⅔½¼¾]*", text):
            found.append(f"{where}: an ASCII hyphen as a minus {minus!r}")
        for pattern in UNGRAMMATICAL[lang] + (NOT_IN_HUSSAR[lang] if hussar else []):
            for hit in re.finditer(pattern, text):
                start = max(0, hit.start() - 40)
                found.append(f"{where}: {pattern!r} in …{text[start : hit.end() + 40]}…")
    return found


def _pdf_text(data: bytes, tmp_path: Path) -> str:
    pdf = tmp_path / "sheet.pdf"
    pdf.write_bytes(data)
    done = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True)
    return re.sub(r"\s+", " ", done.stdout)


def _cli_text(path: Path, lang: str, capsys: pytest.CaptureFixture[str]) -> str:
    capsys.readouterr()
    assert cli.main(["score", "--format", "text", "--lang", lang, str(path)]) == 0
    return capsys.readouterr().out


def _outputs(
    web: Web,
    store: Store,
    data: dict,
    lang: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> dict[str, str]:
    record = create_from_game(store, gamefile.loads(json.dumps(data).encode()))
    token = record.edit_token
    web.get(f"/?lang={lang}")
    texts = {
        page: web.get(f"/g/{token}{page}").text()
        for page in ("", "/log", "/settlement", "/history")
    }
    response = web.client.get(f"/g/{token}/pulka.pdf")
    assert response.status_code == 200
    texts["PDF"] = _pdf_text(response.get_data(), tmp_path)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data, ensure_ascii=False))
    texts["CLI"] = _cli_text(path, lang, capsys)
    # The same table before the end: the deal form, and the page that is not final yet.
    going = create_from_game(
        store,
        gamefile.loads(
            json.dumps({**data, "finished": False, "deals": data["deals"][:3]}).encode()
        ),
    )
    texts["deal form"] = web.get(f"/g/{going.edit_token}/deal/new").text()
    texts["page before the end"] = web.get(f"/g/{going.edit_token}").text()
    return texts


@pytest.mark.parametrize("lang", ["ru", "uk"])
@pytest.mark.parametrize("data", [EVENING, HUSSAR], ids=["sochi", "hussar"])
def test_a_whole_evening_reads_as_the_table_speaks(
    web: Web,
    store: Store,
    data: dict,
    lang: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    texts = _outputs(web, store, data, lang, tmp_path, capsys)
    hussar = data["convention"] == "hussar"
    assert _ok(texts, lang, hussar) == []

    game = gamefile.loads(json.dumps(data).encode())
    result = settle(score(game))
    words = words_for(lang)
    for pay in result.payments:
        line = f"{pay.payer} → {pay.payee}: {words.money(pay.amount, '₽')}"
        for where in ("/settlement", "PDF", "CLI"):
            assert line in texts[where], (where, line)
    if hussar:
        assert "6 БК" in texts["/log"] and "6 БК" in texts["PDF"]
        quota = {"ru": "норма 4 взятки", "uk": "норма 4 взятки"}[lang]
        assert quota in texts["/log"], "the quota with the talon is named"
        alone = {"ru": "вист без прикупа", "uk": "віст без прикупу"}[lang]
        assert alone in texts["deal form"] and alone in texts["/log"]
        assert {"ru": "6 БК, пас", "uk": "6 БК, пас"}[lang] in texts["/log"]
    else:
        assert "10 БК" in texts["/log"] and "7 БК" in texts["PDF"]
        whists = {"ru": "−258⅓ виста", "uk": "−258⅓ вісту"}[lang]
        assert whists in texts["/settlement"]
        hill = {
            "ru": "Гора (Анна): остальные пишут по 76⅔",
            "uk": "Гора (Анна): інші пишуть по 76⅔",
        }
        assert hill[lang] in texts["/settlement"]
        assert "−258⅓" in texts["CLI"] and "−129,16 ₽" in texts["CLI"]
        dealt = {"ru": "сдаёт: Вера", "uk": "здає: Вера"}[lang]
        assert dealt in texts["/log"]
        tricks = {"ru": "висты: 2 взятки × 6", "uk": "вісти: 2 взятки × 6"}[lang]
        assert tricks in texts["/log"] and tricks in texts["PDF"]
    final = {"ru": "Если закончить сейчас", "uk": "Якщо скінчити зараз"}[lang]
    assert final not in texts[""], "the past tense once the game has ended"
    assert final in texts["page before the end"]


@pytest.mark.parametrize(
    "text",
    [
        "Борис платит Анна 30,00 ₽",
        "Борис → Анна: 30.00 ₽",
        "итог -400/3",
        "Игорь 10NT",
        "+86⅔ вистов",
        "сдавал Анна",
        "висты: взяток 1 × 6",
        "Борис: пуля +2 (пуля закрыта чужими очками (Вера))",
        "Анна pays",
    ],
)
def test_the_checks_catch_what_they_are_for(text: str) -> None:
    """Each kind of mistake the evening test looks for is caught when it is there."""
    assert _ok({"page": text}, "ru", hussar=False) != []


def test_the_checks_pass_the_table_s_own_words() -> None:
    good = "Борис → Анна: 30,00 ₽; −133⅓; 86⅔ виста; сдаёт: Анна; 6 БК; 2026-11-28 19:05"
    assert _ok({"page": good}, "ru", hussar=False) == []
    assert _ok({"page": "Гора (Анна): амнистия"}, "ru", hussar=True) != []


@pytest.mark.parametrize(
    ("lang", "value", "text"),
    [
        ("ru", Fraction(-400, 3), "−133⅓ виста"),
        ("ru", Fraction(74), "74 виста"),
        ("ru", Fraction(21), "21 вист"),
        ("ru", Fraction(25), "25 вистов"),
        ("uk", Fraction(2, 3), "⅔ вісту"),
        ("uk", Fraction(5), "5 вістів"),
        ("en", Fraction(1), "1 whist"),
        ("en", Fraction(1, 2), "½ whists"),
    ],
)
def test_whists_agree_with_their_number(lang: str, value: Fraction, text: str) -> None:
    assert words_for(lang).whists(value) == text


@pytest.mark.parametrize(
    ("lang", "money", "signed", "amount", "grouped"),
    [
        ("ru", "0,50 ₽", "+37,00 ₽", "−133⅓", "1\u00a0234"),
        ("uk", "0,50 ₽", "+37,00 ₽", "−133⅓", "1\u00a0234"),
        ("en", "0.50 ₽", "+37.00 ₽", "−133⅓", "1,234"),
    ],
)
def test_numbers_are_written_one_way_everywhere(
    lang: str, money: str, signed: str, amount: str, grouped: str
) -> None:
    words = words_for(lang)
    assert words.money(Decimal("0.5"), "₽") == money
    assert words.signed_money(Decimal("37"), "₽") == signed
    assert words.amount(Fraction(-400, 3)) == amount
    assert words.amount(1234) == grouped


def test_the_json_output_is_a_file_format_and_keeps_its_strings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(EVENING, ensure_ascii=False))
    capsys.readouterr()
    assert cli.main(["score", str(path)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["settlement"]["net"]["Анна"] == "-775/3"
    assert out["settlement"]["money"] == {"Анна": "-129.16", "Борис": "36.33", "Вера": "92.83"}


@pytest.mark.parametrize(
    ("lang", "stake", "missing"),
    [
        ("ru", "Цена виста: сумма от 0 до", "укажите взятки: Анна"),
        ("uk", "Ціна віста: сума від 0 до", "вкажіть взятки: Анна"),
    ],
)
def test_errors_speak_the_language_too(
    web: Web,
    lang: str,
    stake: str,
    missing: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Option errors (the new-game form, a game file) and the CLI's errors, not only pages."""
    from scorekeeper.web.main.options import preset_values

    page = web.get(f"/new?lang={lang}")
    form = page.form("new-game")
    for field, value in preset_values("sochi").items():
        form.set(**{field: ("y" if value else None) if isinstance(value, bool) else value})
    form.set(player_0="Анна", player_1="Борис", player_2="Вера", player_3="", first_dealer="0")
    form.set(opt_stake="abc")
    assert any(e.startswith(stake) for e in web.submit(page, form).errors())

    bad = {**EVENING, "options": {"stake": "abc"}, "deals": [EVENING["deals"][0]]}
    bad["deals"] = [{**bad["deals"][0], "tricks": {"Борис": 3, "Вера": 1}}]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad, ensure_ascii=False))
    capsys.readouterr()
    assert cli.main(["score", "--format", "text", "--lang", lang, str(path)]) == 2
    assert cli.main(["score", "--lang", lang, str(tmp_path / "none.json")]) == 2
    errors = capsys.readouterr().err
    assert stake in errors
    assert missing in errors
    shown = errors.replace(str(tmp_path / "none.json"), "").replace("abc", "")  # the bad value itself
    assert not re.findall(r"[A-Za-z]{3,}", shown), errors
