"""Each Balkan option at its values and boundaries, with numbers worked by hand from the
specification (docs/balkan.md §B4, §B5, §B7, §B9), not from the oracle: players Ana, Boža,
Ceca (Ana deals first), preset club unless said."""

from __future__ import annotations

import pytest

from scorekeeper.rules import InvalidGame

from .helpers import bule, correction, played, set_bule, sheet_of

BOTH = ["Boža", "Ceca"]
REFA = {"type": "refa"}


def test_double_fall_only_when_u_is_more_than_the_bule_left() -> None:
    """§B4: a failed declarer takes 2u with `double_fall` when u > Σ bule before the deal."""
    fail = played("Ana", "tref", {"Ana": 5, "Boža": 5}, followers=["Boža"])  # u = 10
    more = sheet_of([set_bule(10, 3, 3, 3), fail], options={"bule": 10, "double_fall": True})
    assert bule(more) == [23, 3, 3]
    equal = sheet_of([set_bule(10, 4, 3, 3), fail], options={"bule": 10, "double_fall": True})
    assert bule(equal) == [14, 3, 3]
    iklub = sheet_of([set_bule(200, 3, 3, 3), fail], convention="iklub")
    assert bule(iklub) == [23, 3, 3]
    club = sheet_of([set_bule(100, 3, 3, 3), fail])
    assert bule(club) == [13, 3, 3]


def test_each_if_made_spares_the_followers_of_a_failed_hand() -> None:
    """§B4 3.: `each_if_made`: a follower under 2 tricks falls only when the declarer passed."""
    failed = played("Ana", "tref", {"Ana": 5, "Boža": 4, "Ceca": 1}, followers=BOTH)
    made = played("Ana", "tref", {"Ana": 7, "Boža": 2, "Ceca": 1}, followers=BOTH)
    options = {"follower_quota": "each_if_made"}
    assert bule(sheet_of([failed], options=options)) == [110, 100, 100]
    assert bule(sheet_of([failed])) == [110, 100, 110]
    assert bule(sheet_of([made], options=options)) == [90, 100, 110]


def test_pair_quota_needs_four_together_and_two_followers() -> None:
    """§B4 3.: `pair`: two followers with D ≥ 4 are safe; else each under 2 falls; a lone
    follower is judged alone."""
    options = {"follower_quota": "pair"}
    three = played("Ana", "tref", {"Ana": 7, "Boža": 2, "Ceca": 1}, followers=BOTH)
    assert bule(sheet_of([three], options=options)) == [90, 100, 110]
    lone = played("Ana", "tref", {"Ana": 9, "Boža": 1}, followers=["Boža"])
    assert bule(sheet_of([lone], options=options)) == [90, 110, 100]


def test_half_fall_only_beside_a_second_follower() -> None:
    """§B4 3.: `follower_fall: half`: u/2 beside a second follower; a lone follower takes u."""
    options = {"follower_fall": "half"}
    lone = played("Ana", "herc", {"Ana": 9, "Boža": 1}, followers=["Boža"])
    assert bule(sheet_of([lone], options=options)) == [92, 108, 100]
    both = played("Ana", "herc", {"Ana": 8, "Boža": 1, "Ceca": 1}, followers=BOTH)
    assert bule(sheet_of([both], options=options)) == [92, 104, 104]


def test_the_kontra_giver_writes_the_whole_defence_and_the_other_nothing() -> None:
    """§B4 1.: with kontra all three play; D counts the non-follower's tricks too."""
    deal = played(
        "Ana",
        "tref",
        {"Ana": 6, "Boža": 1, "Ceca": 3},
        followers=["Boža"],
        kontra=1,
        kontra_by="Boža",
    )
    s = sheet_of([deal])
    assert bule(s) == [80, 120, 100]
    assert (s.supe_on("Boža", "Ana"), s.supe_on("Ceca", "Ana")) == (80, 0)


def test_an_invited_pair_under_four_makes_the_caller_fall() -> None:
    """§B4 2.: the caller writes D × u and falls when D < 4; the invited writes nothing."""
    deal = played(
        "Ana", "karo", {"Ana": 7, "Boža": 1, "Ceca": 2}, followers=["Boža"], invited="Ceca"
    )
    s = sheet_of([deal])
    assert bule(s) == [94, 106, 100]
    assert (s.supe_on("Boža", "Ana"), s.supe_on("Ceca", "Ana")) == (18, 0)
    four = played(
        "Ana", "karo", {"Ana": 6, "Boža": 0, "Ceca": 4}, followers=["Boža"], invited="Ceca"
    )
    assert bule(sheet_of([four])) == [94, 100, 100]


@pytest.mark.parametrize(("rule", "writers"), [("kontra_giver", ["Ceca"]), ("each", BOTH)])
def test_a_failed_betl_under_kontra_by_betl_kontra_supe(rule: str, writers: list[str]) -> None:
    """§B4 Betl: the fixed 10 × V × M; nobody falls in a failed betl, even the kontra-giver."""
    deal = played("Ana", "betl", {"Ana": 2}, kontra=1, kontra_by="Ceca")
    s = sheet_of([deal], options={"betl_kontra_supe": rule})
    assert bule(s) == [124, 100, 100]
    assert [s.supe_on(p, "Ana") for p in BOTH] == [120 if p in writers else 0 for p in BOTH]


def test_a_betl_on_its_own_refa_doubles_the_fixed_supe() -> None:
    """§B4 Betl + §B5: M includes R = 2: 10 × 6 × 2 = 120 each; the refa is marked failed."""
    s = sheet_of([REFA, REFA, REFA, played("Ceca", "betl", {"Ceca": 1})])
    assert bule(s) == [100, 100, 124]
    assert (s.supe_on("Ana", "Ceca"), s.supe_on("Boža", "Ceca")) == (120, 120)
    assert s.refe("Ceca") == ("failed", "open")


def test_nobody_follows_on_an_own_refa_passes_it() -> None:
    """§B4 4. and §B5: a pass without play is −u with R = 2, and the refa is `passed`."""
    s = sheet_of([REFA, played("Boža", "sans", followers=[])])
    assert bule(s) == [100, 72, 100] and s.refe("Boža") == ("passed",)


@pytest.mark.parametrize(
    ("options", "written"),
    [
        ({"refe_max": None}, 5),
        ({"refe_max": 1000}, 5),
        ({"refe_max": 0}, 0),
        ({"refe_max": 1}, 1),
        ({"refe_max": 3}, 3),
        ({"refe_max": 2, "refe_count": "open"}, 2),
    ],
)
def test_refe_max_counts_refa_entries(options: dict[str, object], written: int) -> None:
    """§B5, §B9 (`refe_max` int ≥ 0 or null): `written` counts refa entries that wrote refe;
    `null` is no limit, nor is a number larger than any partija; 0 writes none."""
    s = sheet_of([REFA] * 5, options=options)
    assert [len(s.refe(p)) for p in s.players] == [written] * 3


def test_refe_count_open_counts_the_refe_still_open() -> None:
    """§B5 `open`: a refa is written while no player holds `refe_max` open refe; a played
    one frees its place only for its owner, so a second refa waits for all."""
    options = {"refe_max": 1, "refe_count": "open"}
    boza_plays = played("Boža", "karo", followers=[])  # Boža deals after the refa
    s = sheet_of([REFA, boza_plays, REFA], options=options)
    assert s.refe("Boža") == ("passed",) and s.refe("Ana") == ("open",)
    written = sheet_of([REFA, boza_plays, REFA], options={"refe_max": 2})
    assert written.refe("Ana") == ("open", "open")


def test_a_refa_waits_under_the_hat_without_refa_doubles_under_hat() -> None:
    """§B5: with `refa_doubles_under_hat: false` R = 1 while anyone is under the hat and the
    refa stays open; with true it doubles."""
    hat = correction({"player": "Ceca", "bule": -105})
    deal = played("Boža", "tref", followers=[])
    waits = sheet_of([REFA, hat, deal], options={"refa_doubles_under_hat": False})
    assert bule(waits) == [100, 90, -5] and waits.refe("Boža") == ("open",)
    doubles = sheet_of([REFA, hat, deal])
    assert bule(doubles) == [100, 80, -5] and doubles.refe("Boža") == ("passed",)


def test_without_supe_cap_a_failed_hand_is_played_out() -> None:
    """§B4 Tricks: `supe_cap: false`: a failed hand's entries sum to 10; a hand stopped at
    the defence's fifth trick is then refused."""
    out = played("Ana", "tref", {"Ana": 4, "Boža": 3, "Ceca": 3}, followers=BOTH)
    s = sheet_of([out], options={"supe_cap": False})
    assert bule(s) == [110, 100, 100]
    assert (s.supe_on("Boža", "Ana"), s.supe_on("Ceca", "Ana")) == (30, 30)
    stopped = played("Ana", "tref", {"Ana": 4, "Boža": 3, "Ceca": 2}, followers=BOTH)
    with pytest.raises(InvalidGame) as refused:
        sheet_of([stopped], options={"supe_cap": False})
    assert [str(p) for p in refused.value.problems] == ["deal 1: the tricks add up to 9, not 10"]


def test_kontra_max_zero_refuses_every_kontra_and_four_allows_mortkontra() -> None:
    """§B9: a kontra above `kontra_max` is refused; mortkontra is ×16."""
    deal = played(
        "Ana", "pik", {"Ana": 6, "Boža": 2, "Ceca": 2}, followers=BOTH, kontra=4, kontra_by="Ceca"
    )
    s = sheet_of([deal])
    assert s.outcomes[0].unit == 2 * 2 * 16 and bule(s) == [36, 100, 164]
    with pytest.raises(InvalidGame) as refused:
        sheet_of([deal], options={"kontra_max": 3})
    assert [str(p) for p in refused.value.problems] == [
        "deal 1: kontra: 4 is above the highest kontra of this partija (3)"
    ]


def test_a_betl_may_write_its_followers_as_an_empty_list() -> None:
    """§B11 says of a betl's followers "omit or list both"; `[]` (what a writer that always
    writes the key puts) is read as left out: both defenders follow a betl."""
    s = sheet_of([played("Ana", "betl", {"Ana": 1}, followers=[])])
    assert bule(s) == [112, 100, 100] and s.supe_on("Ceca", "Ana") == 60


def test_the_smallest_bule_ends_at_the_first_deal() -> None:
    """§B9 `bule` 2 (the least) and §B7: a karo passed from Σ 6 to 0 ends the partija."""
    s = sheet_of([played("Ana", "karo", followers=[])], options={"bule": 2})
    assert bule(s) == [-4, 2, 2] and s.ended_by == "zero"
    assert s.column("Ana") == ("2", "hat", "-4")
