"""The PDF score sheet, rendered by WeasyPrint and read back with poppler's tools."""

from __future__ import annotations

import dataclasses
import random
import re
import shutil
import subprocess
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from scorekeeper.gamefile import load
from scorekeeper.render.export import export_pdf
from scorekeeper.render.pdf import export_name, sheet_html, sheet_pdf, slug
from scorekeeper.rules import Game, replay, score, settle
from scorekeeper.wording import ENGLISH

from ..harness import ROOT
from ..helpers import game_file

assert shutil.which("pdftotext"), "poppler-utils (pdftotext, pdftoppm) must be installed"

THREE = ["Anna", "Boris", "Vera"]


NAME = "Friday at Boris's"


def random_deals(players: list[str], count: int, *, hussar: bool = False, seed: int = 1) -> list:
    """A valid log of `count` deals: contracts, misères, all-passes and a few corrections."""
    rng = random.Random(seed)
    n = len(players)
    deals: list[dict[str, Any]] = []
    dealer = 0
    for number in range(count):
        if number % 37 == 36:
            a, b = rng.sample(players, 2)
            deals.append(
                {
                    "type": "correction",
                    "reason": "renonce",
                    "entries": [
                        {"player": a, "hill": 4},
                        {"player": b, "whists_on": a, "amount": 8},
                    ],
                }
            )
            continue
        active = [p for i, p in enumerate(players) if not (n == 4 and i == dealer % n)]
        dealer += 1
        declarer = rng.choice(active)
        at = players.index(declarer)
        defenders = [q for q in (players[(at + i) % n] for i in range(1, n)) if q in active]
        roll = rng.random()
        if hussar and roll < 0.1:
            deals.append({"type": "redeal"})
        elif not hussar and roll < 0.15:
            first = rng.randint(0, 5)
            second = rng.randint(0, 10 - first)
            tricks = [first, second, 10 - first - second]
            rng.shuffle(tricks)
            deals.append({"type": "allpass", "tricks": dict(zip(active, tricks, strict=True))})
        elif roll < 0.22:
            deals.append(
                {"type": "misere", "declarer": declarer, "tricks": {declarer: rng.choice([0, 1])}}
            )
        else:
            level = rng.choice([6, 6, 6, 7, 7, 8, 9])
            contract = f"{level}{rng.choice(['S', 'C', 'D', 'H', 'NT'])}"
            if hussar:
                answers = {defenders[0]: rng.choice(["whist", "whist-talon", "pass"])}
            else:
                answers = {d: rng.choice(["whist", "pass"]) for d in defenders}
            deal: dict[str, Any] = {
                "type": "contract",
                "declarer": declarer,
                "contract": contract,
                "answers": answers,
            }
            whisters = [d for d, a in answers.items() if a != "pass"]
            if whisters:
                own = rng.randint(level - 2, 10)
                deal["tricks"] = {declarer: own}
                if len(whisters) == 2:
                    first = rng.randint(0, 10 - own)
                    deal["tricks"].update({whisters[0]: first, whisters[1]: 10 - own - first})
            deals.append(deal)
    return deals


def long_game(players: list[str], count: int, name: str = NAME) -> Game:
    hussar = len(players) == 2
    options = {"pool_target": 5000, "stake": "0.10", "currency": "EUR"}
    deals = random_deals(players, count, hussar=hussar)
    convention = "hussar" if hussar else "sochi"
    return load(
        game_file(
            deals,
            players=players,
            convention=convention,
            options=options,
            first_dealer=players[0],
            name=name,
        )
    )


KNOWN = [
    {
        "type": "contract",
        "declarer": "Anna",
        "contract": "7S",
        "answers": {"Boris": "whist", "Vera": "pass"},
        "tricks": {"Anna": 5, "Boris": 3, "Vera": 2},
    },
    {
        "type": "contract",
        "declarer": "Boris",
        "contract": "6NT",
        "answers": {"Vera": "pass", "Anna": "pass"},
    },
    {"type": "misere", "declarer": "Vera", "tricks": {"Vera": 1}},
    {"type": "allpass", "tricks": {"Anna": 0, "Boris": 4, "Vera": 6}},
    {
        "type": "correction",
        "reason": "renonce at the table",
        "entries": [
            {"player": "Boris", "hill": 10},
            {"player": "Anna", "whists_on": "Boris", "amount": 20},
        ],
    },
]


def known_game(**extra: Any) -> Game:
    options = {
        "stake": "0.10",
        "currency": "EUR",
        "whist_split": "gentleman",
        **extra.pop("options", {}),
    }
    return load(
        game_file(KNOWN, players=THREE, options=options, first_dealer="Anna", name=NAME, **extra)
    )


# -- reading a PDF back ----------------------------------------------------------------------


def write(tmp_path: Path, pdf: bytes, name: str = "sheet.pdf") -> Path:
    path = tmp_path / name
    path.write_bytes(pdf)
    return path


def text_of(path: Path) -> str:
    done = subprocess.run(
        ["pdftotext", "-enc", "UTF-8", str(path), "-"], capture_output=True, check=True
    )
    return done.stdout.decode()


def pages_of(path: Path) -> int:
    done = subprocess.run(["pdfinfo", str(path)], capture_output=True, check=True, text=True)
    (line,) = [x for x in done.stdout.splitlines() if x.startswith("Pages:")]
    return int(line.split()[1])


def ink(path: Path, page: int = 1) -> float:
    """The share of clearly non-white pixels of a page rendered in grey at 30 dpi."""
    done = subprocess.run(
        ["pdftoppm", "-gray", "-r", "30", "-f", str(page), "-l", str(page), str(path)],
        capture_output=True,
        check=True,
    )
    data = done.stdout
    # A binary PGM: "P5", width, height, maxval, then one byte per pixel.
    fields: list[bytes] = []
    pos = 0
    while len(fields) < 4:
        while data[pos : pos + 1].isspace():
            pos += 1
        if data[pos : pos + 1] == b"#":
            pos = data.index(b"\n", pos)
            continue
        end = pos
        while not data[end : end + 1].isspace():
            end += 1
        fields.append(data[pos:end])
        pos = end
    assert fields[0] == b"P5"
    width, height = int(fields[1]), int(fields[2])
    pixels = data[pos + 1 : pos + 1 + width * height]
    assert len(pixels) == width * height
    return sum(1 for b in pixels if b < 200) / len(pixels)


def flat(text: str) -> str:
    return " ".join(text.split())


# -- the sheets ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def three_pdf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pdf = sheet_pdf(
        known_game(),
        created_at="2026-11-28T19:05:00",
        updated_at="2026-11-28T23:40:00",
        edited_deals={2},
    )
    return write(tmp_path_factory.mktemp("three"), pdf)


def test_pdf_is_a_pdf(three_pdf: Path) -> None:
    assert three_pdf.read_bytes().startswith(b"%PDF-")


def test_header_names_the_game_time_convention_options_and_stake(three_pdf: Path) -> None:
    text = flat(text_of(three_pdf))
    assert "Friday at Boris's" in text
    # 19:05 – 23:40 UTC, written in this machine's own time zone, the language's way.
    assert re.search(r"November 2[89], 2026, \d\d:05 – \d\d:40", text), text[:300]
    assert "Sochi" in text
    assert "pool to 10" in text
    assert "stake 0.10 EUR per whist" in text
    assert "One whister, one passer: gentleman — always shared in half" in text
    assert "whists per pool point" not in text  # same as the preset: not listed


def test_totals_settlement_and_payments(three_pdf: Path) -> None:
    sheet = score(known_game())
    result = settle(sheet)
    text = flat(text_of(three_pdf))
    for name in THREE:
        assert name in text
    assert re.search(r"(Anna → \w+|\w+ → Anna): \d", text)
    assert result.payments
    for pay in result.payments:
        assert f"{pay.payer} → {pay.payee}: {pay.amount:.2f} EUR" in text
    assert "After the amnesty" in text


def test_unfinished_game_is_marked_not_final(three_pdf: Path) -> None:
    text = flat(text_of(three_pdf))
    assert "standing if it ended now — not final" in text
    assert "Not finished — not final" in text  # the page header


def test_finished_game_is_not_marked(tmp_path: Path) -> None:
    pdf = write(tmp_path, sheet_pdf(known_game(finished=True)))
    text = flat(text_of(pdf))
    assert "not final" not in text
    assert "finished" in text


def test_deal_log_lists_every_deal_with_entries_corrections_and_edits(three_pdf: Path) -> None:
    text = flat(text_of(three_pdf))
    assert "Anna 7♠" in text
    assert "Vera misère" in text
    assert "all-pass" in text
    assert "renonce at the table" in text
    assert "EDITED" in text
    assert "Boris: pool +2 (6NT, both defenders passed)" in text
    assert "Anna: hill +8 (remise, two down: 2 × 4)" in text


def test_dejavu_fonts_embedded(three_pdf: Path) -> None:
    done = subprocess.run(["pdffonts", str(three_pdf)], capture_output=True, text=True, check=True)
    fonts = done.stdout
    assert "DejaVu-Sans" in fonts or "DejaVuSans" in fonts
    for line in fonts.splitlines()[2:]:
        assert " yes " in line  # embedded


def test_drawing_page_is_not_blank(three_pdf: Path) -> None:
    assert ink(three_pdf, 1) > 0.03


@pytest.mark.parametrize(
    ("players", "convention"),
    [
        (["Анна", "Борис"], "Hussar"),
        (["Анна", "Борис", "Віра"], "Sochi"),
        (["Anna", "Boris", "Vera", "Галина"], "Sochi"),
    ],
)
def test_two_three_and_four_players(tmp_path: Path, players: list[str], convention: str) -> None:
    game = long_game(players, 12, name="Пуля у Бориса ♠♣♦♥")
    path = write(tmp_path, sheet_pdf(game))
    text = flat(text_of(path))
    assert "Пуля у Бориса ♠♣♦♥" in text
    assert convention in text
    for name in players:
        assert name in text
    result = settle(score(game))
    for pay in result.payments:
        assert f"{pay.payer} → {pay.payee}: {pay.amount:,.2f} EUR" in text
    assert "12" in text
    assert ink(path, 1) > 0.03
    assert pages_of(path) <= 3


def test_five_players_with_a_penalty_and_the_new_options(tmp_path: Path) -> None:
    five = ["Anna", "Boris", "Vera", "Galina", "Dasha"]
    deals = [
        {
            "type": "contract",
            "declarer": "Vera",
            "contract": "7S",
            "answers": {"Galina": "whist", "Dasha": "pass"},
            "tricks": {"Vera": 5, "Galina": 3, "Dasha": 2},
        },
        {"type": "penalty", "player": "Galina", "contract": "6S"},
        {"type": "allpass", "tricks": {"Galina": 3, "Dasha": 3, "Anna": 4}},
    ]
    options = {"money_unit": "1", "round_limit": 4, "stalingrad": True, "currency": "RUB"}
    game = load(game_file(deals, players=five, first_dealer="Anna", options=options, name=NAME))
    path = write(tmp_path, sheet_pdf(game))
    text = flat(text_of(path))
    for name in five:
        assert name in text
    assert "penalty: Galina, 6♠" in text
    assert "Money rounding: 1" in text and "Number of rounds: 4" in text
    assert "1 penalty" in text, "a penalty is counted as a penalty, not as a correction"
    assert "not a deal at the table" in text or "penalty on 6♠" in text
    result = settle(score(game))
    assert all(m == m.to_integral_value() for m in result.money.values())
    for pay in result.payments:
        assert ENGLISH.payment(pay.payer, pay.payee, pay.amount, "RUB") in text
    assert ink(path, 1) > 0.03


def test_empty_game(tmp_path: Path) -> None:
    empty = game_file([], players=THREE, first_dealer="Anna", name=NAME)
    path = write(tmp_path, sheet_pdf(load(empty)))
    text = flat(text_of(path))
    assert "No deals yet." in text
    assert "Nobody pays anybody." in text
    assert "0 deals" in text
    assert pages_of(path) <= 2
    assert ink(path, 1) > 0.02


def test_long_game_fits_few_pages(tmp_path: Path) -> None:
    short = write(tmp_path, sheet_pdf(long_game(THREE, 10)), "short.pdf")
    long = write(tmp_path, sheet_pdf(long_game(THREE, 300)), "long.pdf")
    assert pages_of(long) > pages_of(short)
    assert pages_of(long) <= 14
    text = text_of(long)
    # Every deal in the log, numbered as people count: the deals dealt at the table among
    # themselves, the corrections and penalties among their own (issue 30 item 7).
    game = long_game(THREE, 300)
    sheet = replay(game)[0]
    dealt = sheet.deal_count()
    assert dealt < 300 and sheet.count_of("correction") > 0  # the game mixes them
    last = sheet.number_of(len(sheet.results) - 1)
    assert f"\n{last} " in text or f" {last} " in text
    assert f"\n{dealt} " in text or f" {dealt} " in text
    assert "\n300 " not in text
    assert "page 1 / " in text


HOSTILE = [
    "<script>alert('x')</script>",
    'O\'Brien "the" & <b>co</b> 😀🎉',
    "שלום עליכם מר כהן",
]


def test_hostile_names_do_not_break_the_pdf(tmp_path: Path) -> None:
    game = load(
        game_file(
            [
                {
                    "type": "contract",
                    "declarer": HOSTILE[0],
                    "contract": "6S",
                    "answers": {HOSTILE[1]: "whist", HOSTILE[2]: "pass"},
                    "tricks": {HOSTILE[0]: 5},
                }
            ],
            players=HOSTILE,
            first_dealer=HOSTILE[0],
            name="x",
        )
    )
    game = dataclasses.replace(game, name="</title><style>*{display:none}</style>" + "Ж" * 10_000)
    html = sheet_html(game)
    assert "<script>" not in html and "<style>*" not in html
    path = write(tmp_path, sheet_pdf(game))
    text = flat(text_of(path))
    assert "<script>alert('x')</script>" in text
    assert 'O\'Brien "the" & <b>co</b>' in text
    assert "</title><style>" in text
    assert pages_of(path) <= 4
    assert ink(path, 1) > 0.03


def test_flask_app_context_uses_render_template() -> None:
    import flask
    import flask_babel

    app = flask.Flask(__name__, template_folder=str(ROOT / "templates"))
    flask_babel.Babel(app)
    with app.test_request_context("/"):
        html = sheet_html(known_game())
    assert "Friday at Boris&#39;s" in html or "Friday at Boris&#x27;s" in html
    assert "stake 0.10 EUR per whist" in html
    assert '<svg xmlns="http://www.w3.org/2000/svg"' in html


# -- file names ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("Friday at Boris's", "friday-at-boris-s"),
        ("Пуля у Бориса", "пуля-у-бориса"),
        ("../../etc/passwd", "etc-passwd"),
        ("a/b\\c:d*e?f", "a-b-c-d-e-f"),
        ("", "game"),
        ("😀 ♠♣", "game"),
        ("CON", "con"),
    ],
)
def test_slug(name: str, expected: str) -> None:
    assert slug(name) == expected


def test_slug_of_a_very_long_name_is_short() -> None:
    assert len(slug("Ж" * 10_000)) == 60
    assert export_name("Ж" * 10_000, date(2026, 11, 28)).endswith("-2026-11-28.pdf")
    assert len(export_name("Ж" * 10_000, date(2026, 11, 28)).encode()) < 200


def test_export_writes_into_exports_with_name_and_date(tmp_path: Path) -> None:
    game = dataclasses.replace(known_game(), name="Пятница / у Бориса")
    path = export_pdf(game, exports_dir=tmp_path / "exports", created_at="2026-11-28T19:05:00")
    assert path == tmp_path / "exports" / "пятница-у-бориса-2026-11-28.pdf"
    assert path.read_bytes().startswith(b"%PDF-")
    assert [p.name for p in path.parent.iterdir()] == [path.name]  # no temporary file left


def test_export_to_a_given_file(tmp_path: Path) -> None:
    out = tmp_path / "sub" / "sheet.pdf"
    assert export_pdf(known_game(), out, exports_dir=tmp_path / "unused") == out
    assert out.read_bytes().startswith(b"%PDF-")
    assert not (tmp_path / "unused").exists()


def test_export_without_a_date_uses_today(tmp_path: Path) -> None:
    path = export_pdf(known_game(), exports_dir=tmp_path)
    assert path.name == f"friday-at-boris-s-{date.today():%Y-%m-%d}.pdf"


@pytest.mark.parametrize(("size", "points"), [("A5", "419.528 x 595.276"), ("letter", "612 x 792")])
def test_other_page_sizes(tmp_path: Path, size: str, points: str) -> None:
    path = write(tmp_path, sheet_pdf(known_game(), page_size=size))
    info = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True, check=True)
    assert points in info.stdout
    assert ink(path, 1) > 0.03


def test_unknown_page_size_is_refused() -> None:
    with pytest.raises(ValueError, match="page size"):
        sheet_html(known_game(), page_size="A4; } body { display: none")


def test_the_pdf_marks_disputes_says_a_ready_reason_in_its_language_and_names_once(
    tmp_path: Path,
) -> None:
    """Issue 30's PDF things: a deal the table disputed is marked; a correction's ready
    reason tapped on a Russian phone prints in the PDF's language; the game's name is on
    page 1 once (its heading), the running head from page 2 on."""
    deals: list[dict[str, Any]] = [
        {"type": "contract", "declarer": "Anna", "contract": "6S",
         "answers": {"Boris": "pass", "Vera": "pass"}},
        {"type": "correction", "reason": "Ошибка в записи",
         "entries": [{"player": "Vera", "pool": -4}]},
    ]  # fmt: skip
    game = load(game_file(deals, players=THREE, first_dealer="Anna", name=NAME))
    path = write(tmp_path, sheet_pdf(game, disputed_deals={1}, locale="en"))
    text = flat(text_of(path))
    assert "Ошибка" not in text
    assert "A mistake on the sheet" in text
    assert re.search(r"1\. Anna · Anna 6♠ DISPUTED", text), text[-600:]
    rows = [r for r in text_of(path).splitlines() if "mistake on the sheet" in r]
    assert rows and rows[0].lstrip().startswith("1. "), rows
    uk = flat(text_of(write(tmp_path, sheet_pdf(game, locale="uk"), "uk.pdf")))
    assert "Помилка в записі" in uk, uk[-400:]
    # The name once on page 1: nothing of it in the top margin (the running head's place).
    long = write(tmp_path, sheet_pdf(long_game(THREE, 120)), "long.pdf")
    for page, expected in ((1, 0), (2, 1)):
        words = subprocess.run(
            ["pdftotext", "-f", str(page), "-l", str(page), "-bbox", str(long), "-"],
            capture_output=True, check=True, text=True,
        ).stdout  # fmt: skip
        heads = re.findall(r'<word xMin="[\d.]+" yMin="([\d.]+)"[^>]*>Friday</word>', words)
        in_margin = [y for y in heads if float(y) < 40]
        assert len(in_margin) == expected, (page, heads)
