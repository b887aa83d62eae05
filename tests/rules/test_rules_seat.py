"""The seat of a deal as the rules give it to the deal form (scorekeeper.rules.seat); what the
page's script gets of it is in test_web_deal_script.py."""

from __future__ import annotations

from fractions import Fraction

import pytest

from scorekeeper.rules import PRESETS, Game, replay
from scorekeeper.rules.contracts import Contract, Suit
from scorekeeper.rules.deals import AllPassDeal, Correction, CorrectionEntry
from scorekeeper.rules.seat import Seat
from scorekeeper.rules.seat import seat as seat_of

THREE = ("Anna", "Boris", "Vera")
FOUR = ("Anna", "Boris", "Vera", "Gleb")


def seat(
    players: tuple[str, ...], convention: str = "sochi", deals: tuple = (), dealer: str = "Anna"
) -> Seat:  # type: ignore[type-arg]
    game = Game(
        convention=convention,
        options=PRESETS[convention],
        players=players,
        first_dealer=dealer,
        deals=deals,
    )
    sheet, problems = replay(game)
    assert problems == []
    return seat_of(sheet)


def test_at_four_the_dealer_sits_out_and_defenders_answer_clockwise_from_the_declarer() -> None:
    t = seat(FOUR)
    assert (t.dealer, t.sitting_out, t.active) == ("Anna", ("Anna",), ("Boris", "Vera", "Gleb"))
    assert t.defenders_of("Gleb") == ["Boris", "Vera"]  # Anna, on Gleb's left, sits out
    assert {p: t.defenders_of(p) for p in t.active} == {
        "Boris": ["Vera", "Gleb"],
        "Vera": ["Gleb", "Boris"],
        "Gleb": ["Boris", "Vera"],
    }


@pytest.mark.parametrize(
    ("level", "first", "answers"),
    [
        (6, None, ["whist", "pass"]),  # the first defender never half-whists
        (6, "pass", ["whist", "pass", "half-whist"]),  # §4.4: second, after a pass
        (7, "pass", ["whist", "pass", "half-whist"]),
        (8, "pass", ["whist", "pass"]),  # Sochi allows it on 6 and 7 only
        (6, "whist", ["whist", "pass"]),
    ],
)
def test_half_whist_is_offered_only_where_the_rules_allow_it(
    level: int, first: str | None, answers: list[str]
) -> None:
    assert seat(THREE).answers_of("Anna", Contract(level, Suit.HEARTS), first) == answers


@pytest.mark.parametrize(
    ("kind", "declarer", "answers", "needed"),
    [
        ("allpass", None, (), ["Anna", "Boris", "Vera"]),
        ("misere", "Boris", (), ["Boris"]),
        ("contract", "Anna", ("whist", "pass"), ["Anna"]),  # one whister: the declarer's
        ("contract", "Anna", ("pass", "half-whist"), []),  # not played
        ("contract", "Anna", ("pass", "pass"), []),
        ("contract", "Anna", ("whist", "whist"), ["Anna", "Boris", "Vera"]),
        ("correction", None, (), []),
    ],
)
def test_whose_tricks_are_asked(
    kind: str, declarer: str | None, answers: tuple[str, ...], needed: list[str]
) -> None:
    assert seat(THREE).tricks_asked(kind, declarer, answers) == needed


def test_after_an_all_pass_in_leningrad_the_lowest_contract_is_seven() -> None:
    allpass = AllPassDeal(tricks={"Anna": 2, "Boris": 4, "Vera": 4})
    t = seat(THREE, "leningrad", deals=(allpass,))
    assert (t.number, t.dealer, t.min_level, t.levels()) == (2, "Boris", 7, [7, 8, 9, 10])
    codes = [c.code() for c in t.contracts()]
    assert codes[0] == "7S" and codes[-1] == "10NT" and len(codes) == 20


def test_a_correction_does_not_move_the_deal() -> None:
    fix = Correction(reason="x", entries=(CorrectionEntry(player="Anna", pool=Fraction(1)),))
    t = seat(THREE, deals=(fix,))
    assert (t.number, t.dealer) == (2, "Anna")


def test_hussar_records_a_redeal_and_whists_with_the_talon() -> None:
    t = seat(("Anna", "Boris"), "hussar")
    assert t.kinds == ("contract", "misere", "redeal", "penalty", "correction")
    assert t.all_answers() == ["whist", "whist-talon", "pass"]
    assert t.answers_of("Anna", Contract(6, Suit.SPADES), None) == ["whist", "whist-talon", "pass"]
    assert t.tricks_asked("contract", "Boris", ("whist-talon",)) == ["Boris"]


def test_stalingrad_leaves_only_whist_on_six_spades() -> None:
    game = Game(
        convention="sochi",
        options=PRESETS["sochi"].__class__(**{**PRESETS["sochi"].__dict__, "stalingrad": True}),
        players=THREE,
        first_dealer="Anna",
        deals=(),
    )
    t = seat_of(replay(game)[0])
    assert t.answers_of("Boris", Contract(6, Suit.SPADES), None) == ["whist"]
    assert t.answers_of("Boris", Contract(6, Suit.SPADES), "whist") == ["whist"]
    assert t.answers_of("Boris", Contract(6, Suit.CLUBS), None) == ["whist", "pass"]


def test_at_five_the_dealer_and_the_next_dealer_sit_out() -> None:
    t = seat(("Anna", "Boris", "Vera", "Gleb", "Dasha"))
    assert (t.sitting_out, t.active) == (("Anna", "Boris"), ("Vera", "Gleb", "Dasha"))
    assert t.defenders_of("Dasha") == ["Vera", "Gleb"]
