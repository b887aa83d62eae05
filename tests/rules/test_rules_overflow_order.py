"""§5 overflow = help and §4.5's "entries of one deal are written player by player in seating
order": computed by hand, including the ties and the hill that goes below zero."""

from __future__ import annotations

from typing import Any

from ..helpers import allpass, contract, game
from .test_rules_fspr import column, scored

SOCHI_POOLS = {
    "type": "correction",
    "reason": "carried over",
    "entries": [
        {"player": "A", "pool": 10},
        {"player": "B", "pool": 9},
        {"player": "C", "pool": 5},
    ],
}


def whists(out: dict[str, Any]) -> dict[str, dict[str, str]]:
    return {p: {q: w for q, w in s["whists"].items() if w != "0"} for p, s in out["sheet"].items()}


def test_two_zero_bonuses_overflow_in_seating_order():
    """Sochi, pools A 10 (closed), B 9, C 5; an all-pass A 0, B 0, C 10. Seating A, B, C: A's
    bonus point overflows and helps the highest open pool, B's (A writes 10 on B: B 10); then
    B's own point overflows and helps C (B writes 10 on C: C 6). C's ten tricks: hill 10."""
    out = scored(game("sochi", [SOCHI_POOLS, allpass(A=0, B=0, C=10)]))
    assert column(out, "pool") == {"A": "10", "B": "10", "C": "6"}
    assert whists(out) == {"A": {"B": "10"}, "B": {"C": "10"}, "C": {}}


def test_seated_b_c_a_the_same_deal_writes_otherwise():
    """The same pools seated B, C, A: B's point first closes his own pool (no help); then A's
    overflows onto C, the only open pool (A writes 10 on C)."""
    data = game("sochi", [SOCHI_POOLS, allpass(A=0, B=0, C=10)], players=("B", "C", "A"))
    out = scored(data)
    assert column(out, "pool") == {"B": "10", "C": "6", "A": "10"}
    assert whists(out) == {"B": {}, "C": {}, "A": {"C": "10"}}


def test_equal_open_pools_are_helped_from_the_givers_left_and_the_rest_leaves_his_hill():
    """Sochi, pools A 8, B 4, C 4 (C deals first). A's unwhisted nine (8): 2 close his pool;
    B and C tie at 4, and B, the next clockwise from A, is helped first: 6 (A writes 60 on B,
    B 10); nothing is left for C. Then B's unwhisted seven (4): only C's pool is open; he
    needs 6 and takes all 4 (B writes 40 on C, C 8). Then C's unwhisted eight (6): 2 close
    C's pool, and the 4 nobody needs come off C's hill at 10/10: −4. Every pool is closed:
    the game is over (all_closed)."""
    pools = {
        "type": "correction",
        "reason": "carried over",
        "entries": [
            {"player": "A", "pool": 8},
            {"player": "B", "pool": 4},
            {"player": "C", "pool": 4},
        ],
    }
    deals = [
        pools,
        contract("A", "9S", {"B": "pass", "C": "pass"}),
        contract("B", "7S", {"C": "pass", "A": "pass"}),
        contract("C", "8S", {"A": "pass", "B": "pass"}),
    ]
    out = scored(game("sochi", deals))
    assert column(out, "pool") == {"A": "10", "B": "10", "C": "10"}
    assert column(out, "hill") == {"A": "0", "B": "0", "C": "-4"}
    assert whists(out) == {"A": {"B": "60"}, "B": {"C": "40"}, "C": {}}
    assert out["finished"] is True
