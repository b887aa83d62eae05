"""What the deal page's script is told of the rules' seat (web/deals/drawn.seat_script): the
rules asked once for every declarer, contract and answer, the same as a lookup."""

from __future__ import annotations

from scorekeeper.rules import PRESETS, Game, replay, seat
from scorekeeper.rules.deals import AllPassDeal
from scorekeeper.web.deals.drawn import seat_script

THREE = ("Anna", "Boris", "Vera")


def script(players: tuple[str, ...], convention: str = "sochi", deals: tuple = ()) -> dict:  # type: ignore[type-arg]
    game = Game(
        convention=convention,
        options=PRESETS[convention],
        players=players,
        first_dealer="Anna",
        deals=deals,
    )
    return seat_script(seat(replay(game)[0]))


def test_the_page_gets_the_same_answers_as_a_lookup() -> None:
    data = script(THREE)
    assert data["tricks"]["contract"]["Anna"]["whist,whist"] == ["Anna", "Boris", "Vera"]
    assert data["tricks"]["contract"]["Anna"]["pass,pass"] == []
    assert data["tricks"]["misere"] == {"Anna": ["Anna"], "Boris": ["Boris"], "Vera": ["Vera"]}
    assert data["answers"]["Anna"]["7S"]["pass"] == ["whist", "pass", "half-whist"]
    assert data["answers"]["Anna"]["8NT"]["pass"] == ["whist", "pass"]
    assert data["tricks_total"] == 10 and data["number"] == 1
    assert data["declarers"] == {"Anna": ["Boris", "Vera"], "Boris": ["Vera", "Anna"],
                                 "Vera": ["Anna", "Boris"]}  # fmt: skip


def test_after_an_all_pass_in_leningrad_the_script_offers_sevens_and_up() -> None:
    allpass = AllPassDeal(tricks={"Anna": 2, "Boris": 4, "Vera": 4})
    data = script(THREE, "leningrad", deals=(allpass,))
    codes = list(data["answers"]["Anna"])
    assert codes[0] == "7S" and codes[-1] == "10NT" and len(codes) == 20
    assert (data["number"], data["min_level"], data["levels"]) == (2, 7, [7, 8, 9, 10])


def test_at_five_the_script_is_told_who_sits_out() -> None:
    data = script(("Anna", "Boris", "Vera", "Gleb", "Dasha"))
    assert (data["sits_out"], data["active"]) == (["Anna", "Boris"], ["Vera", "Gleb", "Dasha"])
    assert data["declarers"]["Dasha"] == ["Vera", "Gleb"]
    assert data["kinds"] == ["contract", "misere", "allpass", "penalty", "correction"]
