"""Every worked example of the Balkan specification, with exactly its numbers (docs/balkan.md,
"Worked examples"): players Ana, Boža, Ceca, preset club, no earlier entries unless said."""

from __future__ import annotations

from decimal import Decimal

from scorekeeper.balkan import settle, turn

from .helpers import bule, played, set_bule, sheet_of

BOTH = ["Boža", "Ceca"]


def test_1_tref_both_follow() -> None:
    s = sheet_of([played("Ana", "tref", {"Ana": 6, "Boža": 2, "Ceca": 2}, followers=BOTH)])
    assert bule(s) == [90, 100, 100]
    assert (s.supe_on("Boža", "Ana"), s.supe_on("Ceca", "Ana")) == (20, 20)
    assert s.outcomes[0].unit == 10


def test_2_herc_a_follower_with_one_trick_falls_by_each_pair_and_half() -> None:
    deal = played("Ana", "herc", {"Ana": 6, "Boža": 3, "Ceca": 1}, followers=BOTH)
    s = sheet_of([deal])
    assert bule(s) == [92, 100, 108]
    assert (s.supe_on("Boža", "Ana"), s.supe_on("Ceca", "Ana")) == (24, 8)
    assert s.outcomes[0].falls == ("Ceca",)
    pair = sheet_of([deal], options={"follower_quota": "pair"})
    assert bule(pair) == [92, 100, 100] and pair.outcomes[0].falls == ()
    half = sheet_of([deal], options={"follower_fall": "half"})
    assert bule(half) == [92, 100, 104]


def test_3_invited_kontra_rekontra() -> None:
    deal = played(
        "Ana",
        "tref",
        {"Ana": 7, "Boža": 2, "Ceca": 1},
        followers=["Boža"],
        invited="Ceca",
        kontra=2,
        kontra_by="Boža",
    )
    s = sheet_of([deal])
    assert s.outcomes[0].multiplier == 4 and s.outcomes[0].unit == 40
    assert bule(s) == [60, 140, 100]
    assert s.supe_on("Boža", "Ana") == 120 and s.supe_on("Ceca", "Ana") == 0


def test_4_kontra_the_failed_hand_stops_at_five() -> None:
    deal = played(
        "Ana", "herc", {"Ana": 5, "Boža": 3, "Ceca": 2}, followers=BOTH, kontra=1, kontra_by="Boža"
    )
    s = sheet_of([deal])
    assert s.outcomes[0].unit == 16
    assert bule(s) == [116, 100, 100]
    assert s.supe_on("Boža", "Ana") == 80 and s.supe_on("Ceca", "Ana") == 0


def test_5_igra_betl_with_kontra_passed() -> None:
    s = sheet_of([played("Ana", "betl", {"Ana": 0}, igra=True, kontra=1, kontra_by="Boža")])
    assert s.outcomes[0].unit == 28
    assert bule(s) == [72, 128, 100]
    assert s.written("Boža") == 0


def test_6_betl_failed_fixed_supe() -> None:
    s = sheet_of([played("Ana", "betl", {"Ana": 1})])
    assert bule(s) == [112, 100, 100]
    assert (s.supe_on("Boža", "Ana"), s.supe_on("Ceca", "Ana")) == (60, 60)


def test_7_own_refa_doubles_kontra_too_and_is_marked_failed() -> None:
    deal = played(
        "Ana",
        "pik",
        {"Ana": 4, "Boža": 3, "Ceca": 2},
        igra=True,
        followers=["Boža"],
        kontra=2,
        kontra_by="Boža",
    )
    s = sheet_of([{"type": "refa"}, deal])
    assert s.outcomes[1].multiplier == 8 and s.outcomes[1].unit == 48
    assert bule(s) == [148, 100, 100]
    assert s.refe("Ana") == ("failed",) and s.refe("Boža") == ("open",)
    assert s.supe_on("Boža", "Ana") == 240


def test_8_a_hat_and_no_refa_under_it() -> None:
    deals = [{"type": "refa"}, played("Ana", "herc", {"Ana": 6, "Boža": 4}, followers=["Boža"])]
    s = sheet_of(deals, options={"bule": 10})
    assert s.outcomes[1].unit == 16
    assert s.column("Ana") == ("10", "hat", "-6")
    assert s.refe("Ana") == ("passed",)
    assert s.supe_on("Boža", "Ana") == 64
    again = sheet_of([*deals, {"type": "refa"}], options={"bule": 10})
    assert again.refe("Boža") == ("open",) and not again.outcomes[2].refe_written


def test_9_the_last_deal_is_scaled_to_zero() -> None:
    deals = [
        set_bule(100, 10, 2, -6),
        played("Ana", "tref", {"Ana": 6, "Boža": 2, "Ceca": 2}, followers=BOTH),
    ]
    s = sheet_of(deals)
    assert str(s.outcomes[1].scale) == "3/5"
    assert bule(s) == [4, 2, -6]
    assert (s.supe_on("Boža", "Ana"), s.supe_on("Ceca", "Ana")) == (12, 12)
    assert s.total == 0 and s.ended_by == "zero"


def test_10_write_offs() -> None:
    s = sheet_of([set_bule(100, 24, 34, 28), {"type": "writeoff"}])
    assert s.write_off == {"Ana": 28, "Boža": 29, "Ceca": 29}
    assert bule(s) == [-4, 5, -1]
    s = sheet_of([set_bule(100, 8, 2, 0), {"type": "writeoff"}])
    assert s.write_off == {"Ana": 4, "Boža": 3, "Ceca": 3} and bule(s) == [4, -1, -3]
    s = sheet_of([set_bule(100, 10, 2, -6), {"type": "writeoff", "left": "Ceca"}])
    assert bule(s) == [7, -1, -6] and s.ended_by == "writeoff"


def test_11_result_and_money() -> None:
    deals = [
        set_bule(100, 24, 34, 28),
        {
            "type": "correction",
            "entries": [
                {"player": "Ana", "supe_on": "Boža", "amount": 120},
                {"player": "Boža", "supe_on": "Ceca", "amount": 30},
            ],
        },
        {"type": "writeoff"},
    ]
    s = settle(sheet_of(deals, options={"stake": "0.1"}))
    assert s.bule == {"Ana": -4, "Boža": 5, "Ceca": -1}
    assert s.result == {"Ana": -160, "Boža": 140, "Ceca": 20}
    assert s.money == {"Ana": Decimal("16.00"), "Boža": Decimal("-14.00"), "Ceca": Decimal("-2.00")}
    assert [(p.payer, p.payee, p.amount) for p in s.payments] == [
        ("Boža", "Ana", Decimal("14.00")),
        ("Ceca", "Ana", Decimal("2.00")),
    ]


def test_12_four_players_the_dealer_sits_out() -> None:
    four = ("Ana", "Boža", "Ceca", "Dejan")
    s = sheet_of([played("Ana", "karo", followers=[])], players=four, first_dealer="Dejan")
    assert bule(s) == [94, 100, 100, 100]
    after = turn(s)
    assert after.dealer == "Ana" and after.sitting_out == ("Ana",)
    assert after.active == ("Boža", "Ceca", "Dejan")
