"""The tournament rules, pure (the tournament specification §2–§4): points with bands,
standings and places, table sizes, Swiss seating, the draws."""

from __future__ import annotations

import math
import random
from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules.tournament import (
    Standing,
    TournamentError,
    draw_seating,
    draw_seats,
    next_tour,
    place_points,
    points,
    standings,
    swiss_tables,
    table_sizes,
)

#: The two published formats, as bands.
CUP = [(F(200), F(1)), (F(650), F(1, 10)), (None, F(0))]
HALVES = [(F(50), F(1)), (F(100), F(1, 2)), (None, F(1, 10))]


# -- §2 points -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("bands", "result", "expected"),
    [
        (CUP, 300, 210),  # 200 + 100/10
        (CUP, -700, -245),  # -(200 + 450/10)
        (CUP, 200, 200),
        (CUP, 650, 245),
        (CUP, 10_000, 245),  # nothing above 650
        (CUP, 0, 0),
        (CUP, F(401, 2), F(4001, 20)),  # 200 + (1/2)/10
        (HALVES, 80, 65),  # 50 + 30/2
        (HALVES, -80, -65),
        (HALVES, 150, 80),  # 50 + 25 + 50/10
        (HALVES, 30, 30),
        ([(F(100), F(1))], 250, 100),  # beyond a last upto that is not null: 0
        ([(F(100), F(1))], -250, -100),
        ([(None, F(1, 2))], -7, F(-7, 2)),
        ([(F(10), F(0)), (None, F(1))], 15, 5),  # a first band that counts nothing
        ([], F(-268, 3), F(-268, 3)),  # no bands: points = whists
    ],
)
def test_points_follow_the_bands(bands, result, expected):
    assert points(F(result), bands) == F(expected)


# -- §4 table sizes --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "size", "expected"),
    [
        (3, 3, [3]),
        (3, 4, [3]),
        (4, 3, [4]),
        (5, 3, [5]),
        (5, 4, [5]),  # two tables would leave one of two: one table of five
        (6, 4, [3, 3]),
        (7, 4, [4, 3]),
        (9, 4, [3, 3, 3]),
        (9, 3, [3, 3, 3]),
        (10, 4, [4, 3, 3]),
        (10, 3, [4, 3, 3]),
        (11, 3, [4, 4, 3]),
        (12, 3, [3, 3, 3, 3]),
        (12, 4, [4, 4, 4]),
        (13, 4, [4, 3, 3, 3]),
        (17, 3, [4, 4, 3, 3, 3]),
        (24, 4, [4] * 6),
        (24, 3, [3] * 8),
        (60, 4, [4] * 15),
        (59, 3, [4, 4, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3]),
    ],
)
def test_table_sizes_examples(players, size, expected):
    assert table_sizes(players, size) == expected


@pytest.mark.parametrize("size", [3, 4])
@pytest.mark.parametrize("players", range(3, 61))
def test_table_sizes_for_every_club_from_3_to_60(players, size):
    sizes = table_sizes(players, size)
    count = math.ceil(players / 4) if size == 4 else players // 3
    if players == 5 and size == 4:
        count = 1  # ceil(5/4) = 2 tables would seat 3 and 2
    assert len(sizes) == count
    assert sum(sizes) == players
    assert sizes == sorted(sizes, reverse=True)  # table 1 is the largest
    assert max(sizes) - min(sizes) <= 1  # as equal as possible
    assert min(sizes) >= 3 and max(sizes) <= 5


@pytest.mark.parametrize(("players", "size"), [(0, 3), (2, 4), (-1, 3), (10, 5), (10, 2)])
def test_too_few_players_or_a_wrong_size_is_refused(players, size):
    with pytest.raises(TournamentError):
        table_sizes(players, size)


# -- §3 standings ----------------------------------------------------------------------------


def test_places_are_shared_by_players_equal_on_points_whists_and_wins():
    roster = ["Dmitri", "Anna", "Boris", "Vera"]
    tables = [
        {"Anna": F(30), "Boris": F(10), "Vera": F(10), "Dmitri": F(-50)},
    ]
    got = standings(roster, tables, [])
    assert [(s.place, s.player) for s in got] == [
        (1, "Anna"),
        (2, "Boris"),
        (2, "Vera"),  # equal with Boris: same place, name decides the order only
        (4, "Dmitri"),
    ]
    assert got[0] == Standing(1, "Anna", F(30), F(30), 1, 1)


def test_whists_then_table_wins_then_name_break_ties_in_points():
    bands = [(F(10), F(1)), (None, F(0))]  # everything above 10 counts nothing
    roster = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay"]
    tables = [
        {"Ann": F(40), "Bob": F(-20), "Cid": F(-20)},  # Ann: 10 points, 40 whists, a win
        {"Dan": F(20), "Eve": F(20), "Fay": F(-40)},  # Dan and Eve: 10 points, 20, both win
    ]
    got = standings(roster, tables, bands)
    assert [(s.place, s.player, s.points, s.whists, s.table_wins) for s in got] == [
        (1, "Ann", 10, 40, 1),
        (2, "Dan", 10, 20, 1),
        (2, "Eve", 10, 20, 1),
        (4, "Bob", -10, -20, 0),
        (4, "Cid", -10, -20, 0),
        (6, "Fay", -10, -40, 0),
    ]
    # Equal on points and whists, apart on table wins:
    tables = [
        {"Ann": F(5), "Bob": F(-5), "Cid": F(0)},  # Ann wins
        {"Dan": F(6), "Eve": F(2), "Fay": F(-8)},  # Dan wins
        {"Dan": F(-10), "Eve": F(3), "Fay": F(7)},  # Fay wins; Eve has 5 without a win
    ]
    got = standings(roster, tables, [])
    assert [(s.place, s.player, s.whists, s.table_wins) for s in got] == [
        (1, "Ann", 5, 1),
        (2, "Eve", 5, 0),
        (3, "Cid", 0, 0),
        (4, "Fay", -1, 1),
        (5, "Dan", -4, 1),
        (6, "Bob", -5, 0),
    ]


def test_a_table_of_zeros_gives_no_win_and_ties_at_the_top_all_win():
    got = standings(["A", "B", "C"], [{"A": F(0), "B": F(0), "C": F(0)}], [])
    assert [s.table_wins for s in got] == [0, 0, 0]
    assert [s.place for s in got] == [1, 1, 1]
    got = standings(["A", "B", "C"], [{"A": F(5), "B": F(5), "C": F(-10)}], [])
    assert [(s.player, s.table_wins) for s in got] == [("A", 1), ("B", 1), ("C", 0)]


def test_names_sort_by_code_points_and_players_without_tables_have_zeros():
    roster = ["anna", "Anna", "Ärni", "Борис"]
    got = standings(roster, [], CUP)
    assert [s.player for s in got] == ["Anna", "anna", "Ärni", "Борис"]
    assert {(s.place, s.points, s.whists, s.tours, s.table_wins) for s in got} == {(1, 0, 0, 0, 0)}


def test_table_wins_go_by_the_raw_result_not_the_points():
    # 700 and 680 both give 245 points under the cup's bands; only 700 wins the table.
    tables = [{"A": F(700), "B": F(680), "C": F(-1380)}]
    got = {s.player: s for s in standings(["A", "B", "C"], tables, CUP)}
    assert got["A"].points == got["B"].points == 245
    assert (got["A"].table_wins, got["B"].table_wins) == (1, 0)
    assert (got["A"].place, got["B"].place) == (1, 2)  # whists decide


def test_a_name_off_the_roster_is_an_error():
    with pytest.raises(TournamentError):
        standings(["A", "B", "C"], [{"A": F(1), "B": F(-1), "Z": F(0)}], [])


# -- §4 seating ------------------------------------------------------------------------------


def test_swiss_tables_fill_in_order():
    assert swiss_tables(list("ABCDEFGHIJ"), [4, 3, 3]) == [
        list("ABCD"),
        list("EFG"),
        list("HIJ"),
    ]
    with pytest.raises(TournamentError):
        swiss_tables(list("ABC"), [4])


def test_next_tour_seats_the_active_players_by_the_standings():
    roster = ["Anna", "Boris", "Vera", "Dmitri", "Olena", "Petro"]
    tables = [
        {"Vera": F(-150), "Anna": F(300), "Petro": F(-150)},
        {"Boris": F(20), "Olena": F(-10), "Dmitri": F(-10)},
    ]
    table = standings(roster, tables, CUP)
    assert next_tour(table, set(roster), 3) == [
        ["Anna", "Boris", "Dmitri"],
        ["Olena", "Petro", "Vera"],
    ]
    assert next_tour(table, set(roster) - {"Boris"}, 3) == [
        ["Anna", "Dmitri", "Olena", "Petro", "Vera"]
    ]
    assert next_tour(table, {"Anna", "Boris"}, 3) == []
    # No tour played: all equal, name order.
    assert next_tour(standings(roster, [], []), set(roster), 4) == [
        ["Anna", "Boris", "Dmitri"],
        ["Olena", "Petro", "Vera"],
    ]


def test_draws_use_the_generator_given():
    players = [f"P{i}" for i in range(10)]
    one = draw_seating(players, 3, random.Random(7))
    assert one == draw_seating(players, 3, random.Random(7))
    assert [len(t) for t in one] == [4, 3, 3]
    assert sorted(p for t in one for p in t) == sorted(players)
    seats, dealer = draw_seats(["A", "B", "C", "D"], random.Random(1))
    assert sorted(seats) == ["A", "B", "C", "D"] and dealer in seats
    dealers = {draw_seats(["A", "B", "C"], random.Random(s))[1] for s in range(30)}
    assert dealers == {"A", "B", "C"}


# -- properties ------------------------------------------------------------------------------

names = st.lists(
    st.text(alphabet="ABCDEFGHабвгäö", min_size=1, max_size=4), min_size=3, max_size=60, unique=True
)
fractions = st.fractions(min_value=-2000, max_value=2000, max_denominator=12)
factors = st.fractions(min_value=0, max_value=3, max_denominator=10)


@st.composite
def band_lists(draw):
    uptos = sorted(draw(st.sets(st.integers(min_value=1, max_value=1000), max_size=4)))
    bands = [(F(u), draw(factors)) for u in uptos]
    if draw(st.booleans()):
        bands.append((None, draw(factors)))
    return bands


@st.composite
def tours_played(draw):
    """A roster, the table size, and some tours of results: every tour seats each active
    player once in §4 sizes, each table's results sum to zero."""
    roster = draw(names)
    size = draw(st.sampled_from([3, 4]))
    rng = random.Random(draw(st.integers(0, 2**32)))
    tables = []
    withdrawn: set[str] = set()
    for _ in range(draw(st.integers(0, 4))):
        active = [p for p in roster if p not in withdrawn]
        if len(active) < 3:
            break
        for table in draw_seating(active, size, rng):
            results = {p: F(rng.randint(-300, 300), rng.choice([1, 2, 3])) for p in table[1:]}
            results[table[0]] = -sum(results.values(), F(0))
            tables.append(results)
        if draw(st.booleans()):
            withdrawn.add(rng.choice(roster))
    return roster, size, tables, withdrawn


@settings(max_examples=80, deadline=None)
@given(fractions, band_lists())
def test_points_keep_the_sign_and_grow_with_the_result(x, bands):
    p = points(x, bands)
    assert points(-x, bands) == -p
    assert (p >= 0) == (x >= 0) or p == 0
    assert abs(points(abs(x) + 1, bands)) >= abs(p)  # factors are never negative


@settings(max_examples=60, deadline=None)
@given(fractions, st.lists(st.integers(min_value=1, max_value=1000), max_size=4, unique=True))
def test_bands_with_factor_one_everywhere_give_points_equal_to_whists(x, uptos):
    bands = [(F(u), F(1)) for u in sorted(uptos)] + [(None, F(1))]
    assert points(x, bands) == x


@settings(max_examples=60, deadline=None)
@given(tours_played())
def test_factor_one_standings_are_the_whists(played):
    roster, _, tables, _ = played
    ones = [(F(100), F(1)), (None, F(1))]
    assert [(s.player, s.whists) for s in standings(roster, tables, ones)] == [
        (s.player, s.points) for s in standings(roster, tables, [])
    ]


@settings(max_examples=80, deadline=None)
@given(tours_played(), band_lists())
def test_places_are_consistent_with_the_order(played, bands):
    roster, _, tables, _ = played
    got = standings(roster, tables, bands)
    assert sorted(s.player for s in got) == sorted(roster)
    key = [(s.points, s.whists, s.table_wins) for s in got]
    assert key == sorted(key, reverse=True)
    for i, s in enumerate(got):
        assert s.place == 1 + sum(1 for k in key if k > key[i])
        if i and key[i] == key[i - 1]:
            assert got[i - 1].player < s.player
    assert sum(s.whists for s in got) == 0  # every table's nets sum to zero
    assert sum(s.tours for s in got) == sum(len(t) for t in tables)


@settings(max_examples=80, deadline=None)
@given(tours_played())
def test_every_tour_seats_each_active_player_exactly_once(played):
    roster, size, tables, withdrawn = played
    active = [p for p in roster if p not in withdrawn]
    seating = next_tour(standings(roster, tables, []), set(active), size)
    if len(active) < 3:
        assert seating == []
        return
    seated = [p for table in seating for p in table]
    assert sorted(seated) == sorted(active)
    assert [len(t) for t in seating] == table_sizes(len(active), size)
    drawn = draw_seating(active, size, random.Random(len(tables)))
    assert sorted(p for t in drawn for p in t) == sorted(active)


# -- season.md §5.3 place points -------------------------------------------------------------


@pytest.mark.parametrize(
    ("results", "expected"),
    [
        ((0, 0, 0), (3, 3, 3)),  # a bula of 0 counts as positive: each is "alone" nowhere
        ((F(1, 2), -20, F(39, 2)), (2, 0, 3)),  # half a whist above zero is ≥ 0 too
        ((150, -30, -120), (4, 1, 0)),
        ((50, 50, -40, -60), (4, 4, 1, 0)),
    ],
)
def test_place_points_count_a_result_of_zero_as_positive(
    results: tuple[F, ...], expected: tuple[int, ...]
) -> None:
    """season.md §5.3: points = (m − place) + [x ≥ 0] + [x ≥ 0 and every other x < 0];
    «Bula od 0 se smatra pozitivnom»."""
    got = place_points({f"p{i}": F(x) for i, x in enumerate(results)})
    assert list(got.values()) == [F(e) for e in expected]
