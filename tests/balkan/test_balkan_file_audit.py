"""Broken Balkan game files (docs/balkan.md §B11, docs/game-format.md): `scorekeeper score`
refuses each with exit 2 and one line per problem naming the entry, nothing on stdout and no
traceback; unusual but valid files (optional fields left out, NFD names) are scored."""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path
from typing import Any

import pytest

from scorekeeper.cli import main

from .helpers import partija, played

FOLLOWED = played("Ana", "tref", {"Ana": 6, "Boža": 4}, followers=["Boža"])


def score(tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str) -> tuple[int, str, str]:
    path = tmp_path / "game.json"
    path.write_text(text, encoding="utf-8")
    code = main(["score", str(path), "--lang", "en"])
    out, err = capsys.readouterr()
    return code, out, err


def refused(tmp_path: Path, capsys: pytest.CaptureFixture[str], data: Any) -> list[str]:
    """The lines of a refusal (exit 2, nothing printed as if it were a sheet)."""
    text = data if isinstance(data, str) else json.dumps(data, ensure_ascii=False)
    code, out, err = score(tmp_path, capsys, text)
    assert (code, out) == (2, ""), err
    assert "Traceback" not in err
    return err.splitlines()


def test_refused_players_are_said_once_not_again_in_every_entry(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """§B11 "players: 3 or 4 unique non-empty names": a file whose players are refused names
    that problem alone; its entries are not each said to name a stranger."""
    twice = partija([FOLLOWED], players=("Ana", "Ana", "Ceca"))
    assert refused(tmp_path, capsys, twice) == ['player "Ana" appears twice']
    five = partija([FOLLOWED], players=("Ana", "Boža", "Ceca", "Dejan", "Eva"))
    assert refused(tmp_path, capsys, five) == [
        "a Balkan partija is played by 3 or 4 players, not 5"
    ]


@pytest.mark.parametrize(
    ("options", "line"),
    [
        ({"bule": "60"}, 'Bule at the start: must be a whole number from 2 to 100,000, not "60"'),
        ({"bule": 61}, "Bule at the start: must be an even number, not 61"),
        ({"bule": 0}, "Bule at the start: must be a whole number from 2 to 100,000, not 0"),
        ({"refe_max": -1}, "Most refe: must be a whole number from 0 to 10,000, not -1"),
        ({"kontra_max": 5}, "Highest kontra: must be a whole number from 0 to 4, not 5"),
        (
            {"follower_quota": "both"},
            'Who of the followers falls: "both" is not one of each, each_if_made, pair',
        ),
        (
            {"refe_count": None},
            "Refe counted: null is not one of written, open",
        ),
        (
            {"supe_cap": "true"},
            'A failed hand stops at the defence\'s fifth trick: must be true or false, not "true"',
        ),
        ({"pool_target": 10}, 'unknown option "pool_target"'),
    ],
)
def test_each_bad_option_is_one_line_showing_the_value_as_the_file_writes_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], options: dict[str, Any], line: str
) -> None:
    """§B9: an option's value outside what the option lists is refused, the words it takes
    listed (not a page of another family's rules), a text shown in quotes."""
    assert refused(tmp_path, capsys, partija([], options=options)) == [line]


def test_an_unknown_convention_is_shown_as_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """§B11 "convention: club, iklub or savez"."""
    assert refused(tmp_path, capsys, partija([], convention=None)) == [  # type: ignore[arg-type]
        "unknown convention null (club, iklub, savez)"
    ]
    assert refused(tmp_path, capsys, partija([], convention="sochi")) == [
        'unknown convention "sochi" (club, iklub, savez)'
    ]


def test_a_key_written_twice_is_refused_at_its_entry(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """JSON keeps the last of two equal keys, so a file writing Boža's tricks twice (or the
    same name once composed and once decomposed) would quietly mean less than it says."""
    nfd = unicodedata.normalize("NFD", "Boža")
    text = json.dumps(partija([FOLLOWED, {"type": "refa"}]), ensure_ascii=False)
    text = text.replace('"Boža": 4', f'"Boža": 4, "{nfd}": 4', 1)
    text = text.replace('{"type": "refa"}', '{"type": "refa", "type": "refa"}')
    assert refused(tmp_path, capsys, text) == [
        'deal 1: tricks: the key "Boža" is written twice',
        'deal 2: the key "type" is written twice',
    ]


@pytest.mark.parametrize(
    ("deal", "line"),
    [
        (played("Dejan", "tref", followers=[]), 'declarer: "Dejan" is not a player of this game'),
        (
            played("Ana", "7S", followers=[]),
            'contract: "7S" is not one of pik, karo, herc, tref, betl, sans',
        ),
        (played("Ana", "tref", followers=[], igra="yes"), "igra must be true or false"),
        (played("Ana", "tref", followers="Boža"), "followers must be a list of names"),
        (
            played("Ana", "tref", {"Ana": 6, "Boža": 4}, followers=["Boža", "Boža"]),
            'followers: "Boža" is named twice',
        ),
        (
            played("Ana", "tref", {"Ana": 6, "Boža": 4}, followers=["Boža"], kontra=1.0),
            "kontra must be a whole number from 0 to 4, not 1.0",
        ),
        (
            played("Ana", "tref", {"Ana": 6, "Boža": 2, "Ceca": 2}, followers=["Boža"], kontra=1),
            "kontra: say who gave it",
        ),
        (
            played(
                "Ana",
                "tref",
                {"Ana": 6, "Boža": 2, "Ceca": 2},
                followers=["Boža"],
                invited="Ceca",
                kontra=1,
                kontra_by="Ceca",
            ),
            "who gave kontra: Ceca did not follow; only a follower gives kontra",
        ),
        (
            played(
                "Ana", "tref", {"Ana": 6, "Boža": 4}, followers=["Boža"], kontra=1, kontra_by="Boža"
            ),
            "tricks of Ceca are missing",
        ),
        (
            played("Ana", "tref", followers=[], invited="Ceca"),
            "invited: nobody follows, so nobody invites",
        ),
        (played("Ana", "betl", {"Ana": 0}, invited="Ceca"), "invited: nobody is invited in betl"),
        (
            played("Ana", "betl", {"Ana": 0}, followers=["Boža"]),
            "in betl both other players follow: omit followers or list both",
        ),
        (
            played("Ana", "betl", {"Ana": 0, "Boža": 5}),
            "tricks: Boža did not play this hand",
        ),
        (played("Ana", "tref", {"Ana": 6}, followers=[]), "tricks: Ana did not play this hand"),
        (
            played("Ana", "tref", {"Ana": 6, "Boža": 3}, followers=["Boža"]),
            "the tricks add up to 9, not 10",
        ),
        (
            played("Ana", "tref", {"Ana": 5, "Boža": 4}, followers=["Boža"]),
            "the defence took 4 tricks; a failed hand goes on to the defence's fifth",
        ),
        (
            played("Ana", "tref", {"Ana": "6", "Boža": 4}, followers=["Boža"]),
            'tricks of Ana must be a whole number, not "6"',
        ),
        (
            played("Ana", "tref", followers=[], answers={}),
            'unknown key "answers" in a played deal',
        ),
        ({"type": "allpass"}, 'unknown entry type "allpass" (played, refa, correction, writeoff)'),
        ({"type": "refa", "dealer": "Boža"}, "dealer: Boža does not deal now; Ana does"),
        ({"type": "writeoff", "left": "Dejan"}, 'left: "Dejan" is not a player of this game'),
        ({"type": "writeoff", "left": None}, "left: null is not a player of this game"),
        ({"type": "refa", "dealer": True}, "dealer: true is not a player of this game"),
        (
            played("Ana", "tref", {"Ana": 6, "Boža": 4}, followers=["Boža"], kontra=None),
            "kontra must be a whole number from 0 to 4, not null",
        ),
        (
            played("Ana", None, followers=[]),
            "contract: null is not one of pik, karo, herc, tref, betl, sans",
        ),
        (
            played("Ana", "tref", followers=[], invited=None),
            "invited: null is not a player of this game",
        ),
        ({"type": "correction", "entries": []}, "a correction needs a non-empty list of entries"),
        (
            {"type": "correction", "entries": [{"player": "Ana", "supe_on": "Ana", "amount": 1}]},
            "correction entry 1: Ana cannot write supe on their own name",
        ),
        (
            {"type": "correction", "entries": [{"player": "Ana", "bule": 1.5}]},
            "correction entry 1: the amount must be a whole number from −1,000,000 to "
            "1,000,000, not 1.5",
        ),
        (
            {"type": "correction", "entries": [{"player": "Ana", "bule": -301}]},
            "the correction leaves Σ bule at −1, below 0",
        ),
    ],
)
def test_each_broken_entry_is_one_line_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], deal: dict[str, Any], line: str
) -> None:
    """§B11: each wrong field, type, value or inconsistency of an entry, at the entry's
    number counting every entry of `deals` from 1."""
    nothing = {"type": "correction", "entries": [{"player": "Ana", "bule": 0}]}
    assert refused(tmp_path, capsys, partija([nothing, deal])) == [f"deal 2: {line}"]


def test_optional_fields_left_out_and_decomposed_names_are_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """§B11: name, options, first_dealer, finished are optional; followers of a betl and
    igra and kontra may be left out; a name written decomposed (NFD) is the same player."""
    nfd = unicodedata.normalize("NFD", "Boža")
    data = partija(
        [
            played("Ana", "tref", {"Ana": 6, nfd: 4}, followers=[nfd]),
            played("Ana", "betl", {"Ana": 1}),
        ],
        players=("Ana", "Boža", "Ceca"),
    )
    del data["options"]
    code, out, err = score(tmp_path, capsys, json.dumps(data, ensure_ascii=False))
    assert (code, err) == (0, "")
    sheet = json.loads(out)["sheet"]
    assert sheet["Ana"]["column"] == ["100", "90", "102"]
    assert sheet["Boža"]["supe_on"]["Ana"] == str(4 * 10 + 60)
    assert sheet["Ceca"]["supe_on"]["Ana"] == "60"


@pytest.mark.parametrize("family", ["Balkan", "wien", None, 3])
def test_an_unknown_family_is_the_one_problem_said(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], family: Any
) -> None:
    """§B11 "family: absent or "russian" means docs/rules.md": any other family is neither's, so
    the file's preset and entries are not judged by the Russian reader's words."""
    shown = json.dumps(family, ensure_ascii=False)
    data = {**partija([FOLLOWED]), "family": family}
    assert refused(tmp_path, capsys, data) == [f"unknown family {shown} (russian, balkan)"]


def test_four_players_json_with_the_settlement_now(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """§B2, §B10 12., §B12: with four players the dealer sits out; `left`/`right` are the
    previous and the next player of the list (cyclically); `--settle` writes off now
    (S = 384 among 4: 96 each) without writing it on the sheet."""
    data = partija(
        [
            played("Ana", "karo", followers=[]),
            played("Dejan", "tref", {"Dejan": 7, "Boža": 3}, followers=["Boža"], dealer="Ana"),
        ],
        players=("Ana", "Boža", "Ceca", "Dejan"),
        first_dealer="Dejan",
    )
    path = tmp_path / "four.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    assert main(["score", str(path), "--settle"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["sum_bule"] == "384" and report["finished"] is False
    sheet = report["sheet"]
    assert [sheet[p]["column"] for p in data["players"]] == [
        ["100", "94"],
        ["100"],
        ["100"],
        ["100", "90"],
    ]
    assert sheet["Boža"]["supe_on"] == {"Ana": "0", "Ceca": "0", "Dejan": "30"}
    assert (sheet["Boža"]["left"], sheet["Boža"]["right"]) == ("0", "0")
    assert (sheet["Dejan"]["left"], sheet["Dejan"]["right"]) == ("0", "0")
    settlement = report["settlement"]
    assert settlement["ended_by"] == "now"
    assert settlement["write_off"] == {"Ana": "96", "Boža": "96", "Ceca": "96", "Dejan": "96"}
    assert settlement["result"] == {"Ana": "-20", "Boža": "10", "Ceca": "40", "Dejan": "-30"}
    assert settlement["money"] == {
        "Ana": "20.00",
        "Boža": "-10.00",
        "Ceca": "-40.00",
        "Dejan": "30.00",
    }
    assert settlement["payments"] == [
        {"from": "Ceca", "to": "Dejan", "amount": "30.00"},
        {"from": "Boža", "to": "Ana", "amount": "10.00"},  # ties: the seating order
        {"from": "Ceca", "to": "Ana", "amount": "10.00"},
    ]
