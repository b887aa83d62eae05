"""The Balkan sheet as the next layers read it: one entry at a time equals the replay, a file
read back from what it writes, hats crossed, the deal form's questions, four players' paper."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper import gamefile_balkan, report_balkan
from scorekeeper.balkan import Sheet, replay, score, turn
from scorekeeper.balkan.state import State
from scorekeeper.wording import words_for

from .helpers import bule, partija, played, set_bule, sheet_of
from .test_balkan_oracle import random_partija

BOTH = ["Boža", "Ceca"]


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32))
def test_one_entry_at_a_time_is_the_replay_and_the_file_reads_back(seed: int) -> None:
    data = random_partija(seed)
    game = gamefile_balkan.load(data)
    sheet = Sheet(game.with_deals(()), State.start(game))
    for entry in game.deals:
        sheet, problems = sheet.plus(entry)
        assert problems == []
    whole, _ = replay(game)
    assert report_balkan.score_report(sheet.closed()) == report_balkan.score_report(whole)
    again = gamefile_balkan.load(gamefile_balkan.dump(game))
    assert again == game


def test_a_hat_is_crossed_when_the_bule_come_back() -> None:
    deals = [
        played("Ana", "sans", {"Ana": 10, "Boža": 0, "Ceca": 0}, followers=BOTH),
        played("Boža", "herc", {"Boža": 2, "Ana": 3, "Ceca": 2}, followers=["Ana", "Ceca"]),
    ]
    s = sheet_of(deals, options={"bule": 10}, first_dealer="Ceca")
    assert s.column("Ana") == ("10", "hat", "-4")
    assert s.column("Boža") == ("10", "24", "32")  # fell in deal 1 (0 tricks), failed in deal 2
    s = sheet_of([*deals, set_bule(0, 4, 0, 0)], options={"bule": 10}, first_dealer="Ceca")
    assert s.column("Ana") == ("10", "hat", "-4", "hat-crossed", "0")


def test_what_the_deal_form_asks() -> None:
    t = turn(sheet_of([], convention="iklub"))
    assert t.kontra_levels == (0, 1, 2) and t.refa_writes and t.pik_needs_kontra
    assert t.kinds == ("played", "refa", "correction", "writeoff") and t.number == 1
    t = turn(sheet_of([{"type": "refa"}] * 2))  # club: the second refa is the most
    assert not t.refa_writes and not t.pik_needs_kontra and t.open_refe["Ana"] == 2
    t = turn(sheet_of([{"type": "refa"}] * 2, options={"refe_count": "open", "refe_max": 3}))
    assert t.refa_writes
    over = turn(sheet_of([set_bule(100, 8, 2, 0), {"type": "writeoff"}]))
    assert over.ended and over.kinds == ()


def test_a_refa_waits_under_the_hat_when_the_table_says_so() -> None:
    deals = [
        {"type": "refa"},
        set_bule(100, 100, -1, 100),
        played("Ana", "tref", {"Ana": 6, "Boža": 2, "Ceca": 2}, followers=BOTH),
    ]
    waits = sheet_of(deals, options={"refa_doubles_under_hat": False})
    assert waits.outcomes[2].unit == 10 and waits.refe("Ana") == ("open",)
    doubles = sheet_of(deals)
    assert doubles.outcomes[2].unit == 20 and doubles.refe("Ana") == ("passed",)


def test_four_players_paper_has_a_supe_column_per_other_player() -> None:
    four = ("Ana", "Boža", "Ceca", "Dejan")
    deal = played("Ana", "tref", {"Ana": 6, "Boža": 2, "Ceca": 2}, followers=BOTH)
    s = sheet_of([deal], players=four, first_dealer="Dejan")
    assert bule(s) == [90, 100, 100, 100]
    text = report_balkan.text_report(s, words=words_for("en"))
    assert "on Ana |       bule |    on Ceca |   on Dejan" in text
    russian = report_balkan.text_report(s, with_settlement=True, words=words_for("ru"))
    assert "булы" in russian and "единица = 2 × 5 = 10" in russian
    assert "bule" not in russian and "supe" not in russian


def test_a_stored_game_opens_without_a_replay() -> None:
    data = partija([played("Ana", "tref", {"Ana": 6, "Boža": 2, "Ceca": 2}, followers=BOTH)])
    game = gamefile_balkan.load(data, check=False, stored=True)
    assert bule(score(game)) == [90, 100, 100]


def test_the_preview_says_in_words_what_an_entry_writes() -> None:
    from scorekeeper.balkan import preview

    sheet = sheet_of([{"type": "refa"}])
    deal = gamefile_balkan.load(
        partija(
            [
                {"type": "refa"},
                played("Boža", "herc", {"Boža": 6, "Ceca": 3, "Ana": 1}, followers=["Ceca", "Ana"]),
            ]
        )
    ).deals[1]
    outcome, problems = preview(sheet, deal)
    assert problems == [] and outcome is not None
    lines = [report_balkan.say(words_for("en"), why) for why in outcome.why]
    assert lines == [
        "Boža: herc; own refa ×2: u = 2 × 4 × 2 = 16",
        "Boža passes: bule −16",
        "Ceca: 3 × 16 = 48 supe on Boža",
        "Ana: 1 × 16 = 16 supe on Boža",
        "Ana took 1 (fewer than 2): falls, bule +16",
        "Boža's refa: passed",
    ]
    assert turn(sheet).number == 2  # the sheet itself is unchanged
