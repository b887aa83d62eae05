"""Invariants over random valid games (Hypothesis): exactness, explainability, round trips."""

from __future__ import annotations

import copy
import json
import random
from collections import OrderedDict
from decimal import Decimal
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper import gamefile
from scorekeeper.rules import InvalidGame, parse_deal, score, settle
from scorekeeper.sample import random_game, random_options

seeds = st.integers(min_value=0, max_value=2**32 - 1)
lengths = st.integers(min_value=0, max_value=40)


def a_game(seed: int, length: int) -> dict:
    """Even seeds: any game as before; odd seeds: three to five players (four or five more
    often), penalties, and the newer options (all-pass exit on "made", money unit, rounds,
    Stalingrad)."""
    rng = random.Random(seed)
    if seed % 2 == 0:
        return random_game(rng, length)
    convention = rng.choice(("sochi", "leningrad", "rostov", "hussar"))
    options = random_options(rng, convention, newer=True)
    players = rng.choice((3, 4, 5, 5))
    return random_game(
        rng, length, convention=convention, players=players, options=options, penalties=True
    )


@settings(max_examples=60, deadline=None)
@given(seeds, lengths)
def test_net_results_and_money_sum_to_exactly_zero(seed, length):
    sheet = score(gamefile.load(a_game(seed, length)))
    result = settle(sheet)
    assert sum(result.net.values()) == 0
    assert sum(result.money.values()) == 0
    assert len(result.payments) <= len(sheet.players) - 1
    paid = {p: Fraction(0) for p in sheet.players}
    for payment in result.payments:
        assert payment.amount > 0
        paid[payment.payer] += Fraction(payment.amount)
        paid[payment.payee] -= Fraction(payment.amount)
    assert all(paid[p] == -Fraction(result.money[p]) for p in sheet.players)
    unit = Fraction(sheet.options.money_unit)
    for p in sheet.players:  # rounding never moves an amount by a money unit or more
        exact = result.net[p] * Fraction(sheet.options.stake)
        assert abs(Fraction(result.money[p]) - exact) < unit
        assert (Fraction(result.money[p]) / unit).denominator == 1
        assert result.money[p] == result.money[p].quantize(Decimal("0.01"))
        assert len(str(abs(result.money[p])).split(".")[1]) == 2


@settings(max_examples=40, deadline=None)
@given(seeds, lengths, st.integers(min_value=-20, max_value=50))
def test_amnesty_changes_no_result(seed, length, extra):
    data = a_game(seed, length)
    before = settle(score(gamefile.load(data))).net
    raised = copy.deepcopy(data)
    raised["finished"] = False
    raised["deals"].insert(
        0,
        {
            "type": "correction",
            "reason": "same hill for all",
            "entries": [{"player": p, "hill": extra} for p in data["players"]],
        },
    )
    try:
        after = settle(score(gamefile.load(raised))).net
    except InvalidGame:
        return  # a negative hill can't end the game earlier; only an impossible edit lands here
    assert after == before


@settings(max_examples=40, deadline=None)
@given(seeds, st.integers(min_value=1, max_value=40))
def test_deleting_the_last_deal_is_the_same_as_never_adding_it(seed, length):
    data = a_game(seed, length)
    full = score(gamefile.load(data))
    shorter = copy.deepcopy(data)
    last = shorter["deals"].pop() if shorter["deals"] else None
    without = score(gamefile.load(shorter))
    if last is None:
        return
    last_entries = full.results[-1].entries
    for p in full.players:
        pool = sum(
            (e.amount for e in last_entries if e.player == p and e.column == "pool"), Fraction(0)
        )
        assert without.pool(p) == full.pool(p) - pool
        for q in full.players:
            if q != p:
                w = sum(
                    (e.amount for e in last_entries if e.player == p and e.on == q), Fraction(0)
                )
                assert without.whists(p, q) == full.whists(p, q) - w
    assert [r.entries for r in without.results] == [r.entries for r in full.results[:-1]]


@settings(max_examples=40, deadline=None)
@given(seeds, lengths)
def test_every_total_is_the_sum_of_its_entries(seed, length):
    sheet = score(gamefile.load(a_game(seed, length)))
    for p in sheet.players:
        hill = sum(
            (e.amount for e in sheet.entries if e.player == p and e.column == "hill"), Fraction(0)
        )
        assert sheet.hill(p) == hill
        running = sheet.running(p, "pool")
        assert (running[-1] if running else 0) == sheet.pool(p)
    for e in sheet.entries:
        assert str(e.reason)  # every entry says why, in words
        assert 1 <= e.deal <= len(sheet.game.deals)


@settings(max_examples=60, deadline=None)
@given(seeds, lengths)
def test_dump_load_dump_is_identical(seed, length):
    data = a_game(seed, length)
    first = gamefile.dumps(gamefile.load(data))
    second = gamefile.dumps(gamefile.loads(first))
    assert first == second
    assert json.loads(first)["deals"] == gamefile.dump(gamefile.load(data))["deals"]


JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-1000, 1000),
    st.floats(allow_nan=True),
    st.text(max_size=12),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=3),
)


def _paths(node, prefix=()):
    yield prefix
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _paths(v, (*prefix, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _paths(v, (*prefix, i))


@settings(max_examples=150, deadline=None)
@given(seeds, st.integers(min_value=1, max_value=20), st.data())
def test_random_invalid_edits_are_refused_never_crash(seed, length, data):
    game = a_game(seed, length)
    paths = [p for p in _paths(game) if p]
    path = data.draw(st.sampled_from(paths))
    junk = data.draw(JUNK)
    parent = game
    for key in path[:-1]:
        parent = parent[key]
    action = data.draw(st.sampled_from(["replace", "delete"]))
    if action == "delete" and isinstance(parent, dict):
        del parent[path[-1]]
    elif action == "delete" and isinstance(parent, list):
        parent.pop(path[-1])
    else:
        parent[path[-1]] = junk
    try:
        loaded = gamefile.load(game)
    except InvalidGame as invalid:
        assert invalid.problems
        for problem in invalid.problems:
            assert str(problem) and "\n" not in str(problem)
        return
    settle(score(loaded))  # accepted edits must score and settle without error


def _same_sheet(a, b) -> None:
    assert [r.entries for r in a.results] == [r.entries for r in b.results]
    assert [(r.dealer, r.allpass_streak, r.min_level, r.ended) for r in a.results] == [
        (r.dealer, r.allpass_streak, r.min_level, r.ended) for r in b.results
    ]
    for p in a.players:
        assert (a.pool(p), a.hill(p)) == (b.pool(p), b.hill(p))
        # The running sums the pulka writes (kept from sheet to sheet by Sheet.plus).
        for column in ("pool", "hill"):
            assert a.running(p, column) == b.running(p, column)
        for q in a.players:
            if q != p:
                assert a.whists(p, q) == b.whists(p, q)
                assert a.running(p, "whists", q) == b.running(p, "whists", q)
    assert (a.next_dealer, a.allpass_streak, a.ended_after, a.finished, a.deal_count()) == (
        b.next_dealer,
        b.allpass_streak,
        b.ended_after,
        b.finished,
        b.deal_count(),
    )
    assert [str(x) for x in a.problems] == [str(x) for x in b.problems]


@settings(max_examples=40, deadline=None)
@given(seeds, lengths, st.integers(min_value=0, max_value=2))
def test_one_deal_on_top_of_a_sheet_is_the_same_as_replaying_the_log(seed, length, junk):
    """Sheet.plus (the save path) gives exactly the sheet a full replay gives, and the same
    problems for a deal that cannot be written."""
    from scorekeeper.rules import parse_deal, replay

    data = a_game(seed, length)
    game = gamefile.load(data)
    sheet, _ = replay(game.with_deals(()))
    for number, deal in enumerate(game.deals):
        drawn = None
        if number % 3 == 1:  # as a drawing of the pulka between saves
            drawn = [sheet.running(p, c) for p in game.players for c in ("pool", "hill")]
        before = sheet
        sheet, problems = sheet.plus(deal)
        assert problems == []
        if drawn is not None:  # the sheet before the save is a value: not changed by it
            assert [before.running(p, c) for p in game.players for c in ("pool", "hill")] == drawn
    _same_sheet(sheet, score(game))
    # A deal that cannot be written: a declarer who does not play, or tricks that do not add up.
    players = game.players
    bad = [
        {"type": "allpass", "tricks": dict.fromkeys(players, 1)},
        {"type": "misere", "declarer": players[0], "tricks": {players[0]: 11}},
        {"type": "contract", "declarer": players[0], "contract": "7S", "answers": {}},
    ][junk]
    deal, parse_problems = parse_deal(bad, players)
    if deal is None:
        return
    longer, problems = sheet.plus(deal)
    replayed, all_problems = replay(game.with_deals((*game.deals, deal)))
    _same_sheet(longer, replayed)
    assert [str(p) for p in problems] == [str(p) for p in all_problems]


@given(seeds, lengths)
def test_a_deal_reads_the_same_from_any_mapping(seed, length):
    """A plain dict of a well-formed deal takes the quick reading; any other mapping (here an
    OrderedDict) takes the full one, field by field: both give the same deal, so the quick
    path never says something the full reading would not (it reads most deals of a game)."""
    data = a_game(seed, length)
    players = data["players"]
    for raw in data["deals"]:
        quick, quick_problems = parse_deal(raw, players)
        full, full_problems = parse_deal(OrderedDict(raw), players)
        assert (quick, quick_problems) == (full, full_problems), raw
