"""The season rating (season.md §4): the worked examples of §4.3 with exactly their numbers,
and the rules around them (rounding, provisional cap, decay, categories, order, standings)."""

from __future__ import annotations

from datetime import date
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.season import compute as sc
from scorekeeper.season.players import Directory
from scorekeeper.season.rating import category, month_starts, performance, rounded, updated
from scorekeeper.season.results import TableResult


def table(deals: int, nets: dict[str, int | Fraction], *, over: bool = True) -> sc.Placed:
    """A table's result made by hand (the abstraction a game or a Balkan game gives)."""
    result = {p: Fraction(x) for p, x in nets.items()}
    return sc.Placed(None, None, TableResult(tuple(nets), deals, result, over, 3 <= len(nets) <= 5))


def event(day: str, deals: int, nets: dict[str, int | Fraction], **more: object) -> sc.Event:
    return sc.Event(date.fromisoformat(day), (table(deals, nets),), **more)  # type: ignore[arg-type]


def season(*events: sc.Event, **more: object) -> sc.Season:
    kw: dict[str, object] = {"first": date(2026, 9, 1), "last": date(2027, 5, 31)}
    kw["as_of"] = kw["last"]
    kw.update(more)
    return sc.Season(events=events, **kw)  # type: ignore[arg-type]


def lines(out: dict, player: str) -> list[dict]:
    return [line for line in out["rating_log"] if line["player"] == player]


EXAMPLE_1 = event("2026-10-01", 20, {"Anna": 260, "Boris": -100, "Vera": -160})
EXAMPLE_2 = event("2026-10-08", 10, {"Anna": -40, "Boris": 100, "Dmitri": -60})


def test_example_1_newcomers_take_their_results_anna_shown_200():
    out = sc.report(season(EXAMPLE_1, as_of=date(2026, 10, 31)))
    log = out["rating_log"]
    assert [(x["player"], x["performance"], x["before"], x["after"]) for x in log] == [
        ("Anna", "260", "0.00", "260.00"),
        ("Boris", "-100", "0.00", "-100.00"),
        ("Vera", "-160", "0.00", "-160.00"),
    ]
    shown = {s["player"]: s["rating"] for s in out["standings"]}
    assert shown == {"Anna": "200.00", "Boris": "-100.00", "Vera": "-160.00"}
    assert [s["player"] for s in out["standings"]] == ["Anna", "Boris", "Vera"]
    assert all(s["provisional"] and s["place"] is None for s in out["standings"])


def test_example_2_a_week_later():
    out = sc.report(season(EXAMPLE_1, EXAMPLE_2, as_of=date(2026, 10, 31)))
    second = [x for x in out["rating_log"] if x["event"] == 2]
    assert [(x["player"], x["performance"], x["after"]) for x in second] == [
        ("Anna", "-180", "113.33"),
        ("Boris", "400", "66.67"),
        ("Dmitri", "-20", "-20.00"),
    ]
    assert second[0]["before"] == "260.00" and second[0]["result"] == "-40"
    assert second[0]["deals"] == 10 and second[0]["date"] == "2026-10-08"


def test_example_3_eva_decays_twice_then_plays_at_four():
    directory = Directory({5: "Eva", 6: "P", 7: "Q", 8: "R"})
    start = (
        sc.Start(5, Fraction(250), 20, 600, date(2026, 10, 14)),
        sc.Start(6, Fraction(100), 10, 300, date(2026, 12, 31)),
        sc.Start(7, Fraction(-50), 10, 300, date(2026, 12, 31)),
        sc.Start(8, Fraction(10), 10, 300, date(2026, 12, 31)),
    )
    jan = event("2027-01-10", 16, {"Eva": 48, "P": -16, "Q": -16, "R": -16})
    out = sc.report(
        season(
            jan, first=date(2026, 11, 1), directory=directory, start=start, as_of=date(2027, 1, 10)
        )
    )
    eva = lines(out, "Eva")
    assert eva[0] == {"date": "2026-12-01", "player": "Eva", "decay": "-10", "after": "240.00"}
    assert eva[1] == {"date": "2027-01-01", "player": "Eva", "decay": "-10", "after": "230.00"}
    assert eva[2]["performance"] == "100"
    assert (eva[2]["before"], eva[2]["after"]) == ("230.00", "225.84")
    standing = next(s for s in out["standings"] if s["player"] == "Eva")
    assert standing == {
        "place": 1,
        "player": "Eva",
        "id": 5,
        "rating": "225.84",
        "provisional": False,
        "category": 9,
        "games": 21,
        "season_games": 1,
        "deals": 616,
        "last_played": "2027-01-10",
    }


def test_no_decay_in_the_month_after_the_last_game_nor_at_ten_or_below():
    directory = Directory({1: "Low", 2: "High"})
    start = (
        sc.Start(1, Fraction(10), 9, 200, date(2026, 8, 20)),
        sc.Start(2, Fraction("10.01"), 9, 200, date(2026, 8, 20)),
    )
    out = sc.report(season(directory=directory, start=start, as_of=date(2026, 10, 1)))
    # 1 Oct: last 20 Aug is before 1 Sep: decays; 1 Sep is not after `from`.
    assert out["rating_log"] == [
        {"date": "2026-10-01", "player": "High", "decay": "-10", "after": "0.01"}
    ]


def test_rounding_is_halves_up_and_exact_before_it():
    assert rounded(Fraction(1, 200)) == Fraction(1, 100)
    assert rounded(Fraction(-1, 200)) == 0
    assert rounded(Fraction(-3, 200)) == Fraction(-1, 100)
    assert updated(Fraction(260), 30, 10, Fraction(-180)) == Fraction(11333, 100)


def test_after_500_deals_a_table_weighs_its_deals_over_500():
    assert updated(Fraction(0), 620, 20, Fraction(100)) == Fraction(4)  # 20/500 of 100
    assert updated(Fraction(0), 900, 600, Fraction(100)) == Fraction(100)  # min(D, M)/M = 1


def test_categories_span_minus_360_to_360():
    assert category(Fraction(0)) == 6
    assert category(Fraction(-360)) == 1 and category(Fraction(-1000)) == 1
    assert category(Fraction(359)) == 10 and category(Fraction(1000)) == 10
    assert category(Fraction("585.84") - 360) == 9


def test_month_starts_after_from_up_to_as_of():
    assert month_starts(date(2026, 11, 30), date(2027, 2, 1)) == [
        date(2026, 12, 1),
        date(2027, 1, 1),
        date(2027, 2, 1),
    ]
    assert month_starts(date(2026, 12, 1), date(2026, 12, 31)) == []


def test_friendly_unfinished_hussar_and_dealless_tables_move_no_rating():
    rated = event("2026-10-01", 20, {"A": 30, "B": -30, "C": 0})
    friendly = event("2026-10-02", 20, {"A": 30, "B": -30, "C": 0}, friendly=True)
    unfinished = sc.Event(date(2026, 10, 3), (table(20, {"A": 1, "B": -1, "C": 0}, over=False),))
    hussar = event("2026-10-04", 20, {"A": 5, "B": -5})
    dealless = event("2026-10-05", 0, {"A": 0, "B": 0, "C": 0})
    out = sc.report(season(rated, friendly, unfinished, hussar, dealless, as_of=date(2026, 10, 31)))
    assert {x["event"] for x in out["rating_log"]} == {1}
    assert out["statistics"]["club"]["A"]["games"] == 4  # friendly, Hussar, no deal: counted


def test_a_tour_reads_the_ratings_from_before_it():
    directory = Directory({1: "A"})
    start = (sc.Start(1, Fraction(150), 10, 100, date(2026, 8, 1)),)
    tables = tuple(
        sc.Placed(tour, n, table(10, dict.fromkeys(players, 0)).result)
        for tour, n, players in ((1, 1, "ABC"), (1, 2, "DEF"), (2, 1, "ADE"))
    )
    cup = sc.Event(date(2026, 9, 5), tables, tournament={"standings": [], "tours": []})
    out = sc.report(season(cup, directory=directory, start=start, as_of=date(2026, 9, 30)))
    b = next(x for x in out["rating_log"] if x["player"] == "B")
    assert b["performance"] == "150" and (b["tour"], b["table"]) == (1, 1)
    d2 = [x for x in out["rating_log"] if x["player"] == "D"][1]
    assert d2["tour"] == 2 and d2["before"] == "0.00"
    # D's opponents in tour 2: A (after tour 1) and E (0): p = 2·(A's S)/2.
    a_after_tour_1 = next(x for x in out["rating_log"] if x["player"] == "A")["after"]
    assert Fraction(d2["performance"]) == Fraction(a_after_tour_1)


def test_standings_place_established_first_then_provisional():
    directory = Directory({1: "Ann", 2: "Bob", 3: "Cid", 4: "Dan"})
    start = tuple(
        sc.Start(pid, Fraction(r), g, 100, date(2026, 8, 1))
        for pid, r, g in ((1, 50, 7), (2, 50, 7), (3, 80, 6), (4, 20, 7))
    )
    out = sc.report(season(directory=directory, start=start, as_of=date(2026, 9, 1)))
    assert [(s["place"], s["player"], s["category"]) for s in out["standings"]] == [
        (1, "Ann", 6),
        (1, "Bob", 6),
        (3, "Dan", 6),
        (None, "Cid", None),
    ]


@settings(max_examples=300, deadline=None)
@given(
    st.fractions(min_value=-900, max_value=900, max_denominator=12),
    st.integers(1, 700),
    st.lists(st.integers(-50000, 50000), min_size=2, max_size=4),
    st.integers(-50000, 50000),
    st.integers(0, 1500),
)
def test_the_whole_number_update_is_the_formula(x, deals, opponents, before, earlier):
    shown = [Fraction(s, 100) for s in opponents]
    p = performance(x, deals, shown)
    assert p == x * 20 / deals + 2 * sum(shown, Fraction(0)) / len(shown)
    r = Fraction(before, 100)
    c = earlier + deals
    assert updated(r, c, deals, p) == rounded(r + Fraction(min(deals, 500), min(c, 500)) * (p - r))
