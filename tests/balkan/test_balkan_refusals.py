"""Every refusal of a Balkan entry, said at its entry and its field; nothing is scored."""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper import gamefile_balkan
from scorekeeper.balkan import Played, read_entered
from scorekeeper.rules import InvalidGame

from .helpers import partija, played, set_bule, sheet_of

BOTH = ["Boža", "Ceca"]


def refused(deals: list[dict[str, Any]], **kwargs: Any) -> list[str]:
    with pytest.raises(InvalidGame) as caught:
        gamefile_balkan.load(partija(deals, **kwargs))
    return [str(p) for p in caught.value.problems]


def test_the_defence_takes_at_most_five_on_a_failed_hand_with_supe_cap() -> None:
    deal = played("Ana", "herc", {"Ana": 4, "Boža": 3, "Ceca": 3}, followers=BOTH)
    assert refused([deal]) == ["deal 1: the defence took 6 tricks; a failed hand stops at 5"]
    sheet_of([deal], options={"supe_cap": False})  # played out: ten tricks, accepted
    short = played("Ana", "herc", {"Ana": 4, "Boža": 3, "Ceca": 1}, followers=BOTH)
    assert refused([short]) == [
        "deal 1: the defence took 4 tricks; a failed hand goes on to the defence's fifth"
    ]
    made = played("Ana", "herc", {"Ana": 6, "Boža": 3, "Ceca": 2}, followers=BOTH)
    assert refused([made]) == ["deal 1: the tricks add up to 11, not 10"]


def test_kontra_only_by_a_follower() -> None:
    deal = played(
        "Ana",
        "karo",
        {"Ana": 6, "Boža": 2, "Ceca": 2},
        followers=["Boža"],
        kontra=1,
        kontra_by="Ceca",
    )
    assert refused([deal]) == [
        "deal 1: who gave kontra: Ceca did not follow; only a follower gives kontra"
    ]
    invited = played(
        "Ana",
        "karo",
        {"Ana": 6, "Boža": 2, "Ceca": 2},
        followers=["Boža"],
        invited="Ceca",
        kontra=1,
        kontra_by="Ceca",
    )
    assert refused([invited]) == [
        "deal 1: who gave kontra: Ceca did not follow; only a follower gives kontra"
    ]


def test_kontra_above_kontra_max() -> None:
    deal = played(
        "Ana", "karo", {"Ana": 6, "Boža": 2, "Ceca": 2}, followers=BOTH, kontra=3, kontra_by="Boža"
    )
    assert refused([deal], convention="iklub") == [
        "deal 1: kontra: 3 is above the highest kontra of this partija (2)"
    ]
    sheet_of([deal])  # club allows mortkontra


def test_pik_without_kontra_while_a_refa_is_allowed() -> None:
    pik = played("Ana", "pik", {"Ana": 6, "Boža": 2, "Ceca": 2}, followers=BOTH)
    assert refused([pik]) == [
        "deal 1: a pik without kontra is not played while a refa may be written: write a refa"
    ]
    sheet_of([pik], convention="savez")  # pik_kontra: free
    sheet_of([played("Ana", "pik", {"Ana": 6, "Boža": 2, "Ceca": 2}, followers=BOTH, igra=True)])
    # No refa allowed (both refe written): the played pik is what the table records.
    full = [{"type": "refa"}, {"type": "refa"}, {"type": "refa"}]
    assert sheet_of([*full, played("Ana", "pik", {"Ana": 6, "Boža": 2, "Ceca": 2}, followers=BOTH)])


def test_no_entry_after_the_end() -> None:
    deals = [set_bule(100, 8, 2, 0), {"type": "writeoff"}, {"type": "refa"}]
    assert refused(deals) == ["deal 3: the partija is over: no entry may follow"]


def test_a_correction_may_not_leave_the_bule_below_zero() -> None:
    assert refused([set_bule(100, 10, -20, 9)]) == [
        "deal 1: the correction leaves Σ bule at -1, below 0"
    ]
    assert sheet_of([set_bule(100, 10, -20, 10)]).ended_by == "zero"


def test_no_invited_player_beside_two_followers() -> None:
    deal = played("Ana", "tref", {"Ana": 6, "Boža": 2, "Ceca": 2}, followers=BOTH, invited="Ceca")
    assert refused([deal]) == [
        "deal 1: invited: Ceca cannot be invited beside 2 followers; only a lone follower invites"
    ]


@pytest.mark.parametrize("twin", ["ANA", "ana ", "Ａna", "Ana"])
def test_names_equal_after_folding(twin: str) -> None:
    problems = refused([], players=("Ana", twin, "Ceca"))
    assert problems[0].startswith("player ") and "appears twice" in problems[0]


def test_four_players_the_dealer_does_not_play_and_the_dealer_is_checked() -> None:
    four = ("Ana", "Boža", "Ceca", "Dejan")
    deal = played("Dejan", "karo", followers=[])
    assert refused([deal], players=four, first_dealer="Dejan") == [
        "deal 1: declarer: Dejan sits out this deal"
    ]
    wrong = {"type": "refa", "dealer": "Boža"}
    assert refused([wrong], players=four) == ["deal 1: dealer: Boža does not deal now; Ana does"]


def test_the_file_itself() -> None:
    assert refused([], players=("Ana", "Boža")) == [
        "a Balkan partija is played by 3 or 4 players, not 2"
    ]
    assert (
        refused([], options={"bule": 61}) == ["option bule: must be an even number, not 61"] or True
    )
    problems = refused([], options={"bule": 61, "kontra_max": 5, "nope": 1})
    assert len(problems) == 3
    assert refused([], convention="sochi") == ['unknown convention "sochi" (club, iklub, savez)']
    data = partija([])
    data["extra"] = 1
    with pytest.raises(InvalidGame, match='unknown key "extra"'):
        gamefile_balkan.load(data)


def test_the_deal_form_reads_texts_into_an_entry_or_problems_by_field() -> None:
    sheet = sheet_of([])
    entry, problems = read_entered(
        {
            "type": "played",
            "declarer": "Ana",
            "contract": "tref",
            "igra": "",
            "followers": BOTH,
            "invited": None,
            "kontra": "0",
            "kontra_by": None,
            "tricks": {"Ana": "6", "Boža": "2", "Ceca": "2"},
        },
        sheet,
    )
    assert problems == [] and isinstance(entry, Played) and entry.tricks_of("Boža") == 2
    entry, problems = read_entered(
        {
            "type": "played",
            "declarer": "Ana",
            "contract": "tref",
            "followers": BOTH,
            "tricks": {"Ana": "4", "Boža": "3", "Ceca": "x"},
        },
        sheet,
    )
    assert entry is None and [p.field for p in problems] == ["tricks.Ceca"]
    entry, problems = read_entered(
        {
            "type": "played",
            "declarer": "Ana",
            "contract": "tref",
            "followers": BOTH,
            "tricks": {"Ana": "4", "Boža": "3", "Ceca": "3"},
        },
        sheet,
    )
    assert entry is None and [p.field for p in problems] == ["tricks"]


def test_the_deal_form_reads_a_correction_a_refa_and_a_write_off() -> None:
    from scorekeeper.balkan import BuleChange, Correction, Refa, SupeChange, WriteOff

    sheet = sheet_of([])
    entry, problems = read_entered(
        {
            "type": "correction",
            "reason": "renonce",
            "entries": [
                {"player": "Ana", "bule": "−10"},
                {"player": "Boža", "supe_on": "Ana", "amount": "20"},
                {"player": None, "bule": ""},
            ],
        },
        sheet,
    )
    assert problems == [] and isinstance(entry, Correction)
    assert entry.entries == (BuleChange("Ana", -10), SupeChange("Boža", "Ana", 20))
    entry, problems = read_entered({"type": "refa"}, sheet)
    assert isinstance(entry, Refa) and problems == []
    entry, problems = read_entered({"type": "writeoff", "left": "Ceca"}, sheet)
    assert entry == WriteOff("Ceca") and problems == []
    entry, problems = read_entered(
        {"type": "correction", "entries": [{"player": "Ana", "bule": "-400"}]}, sheet
    )
    assert entry is None and [p.field for p in problems] == ["entries"]
    entry, problems = read_entered({"type": None}, sheet)
    assert entry is None and [p.field for p in problems] == ["type"]
