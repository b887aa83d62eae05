"""Tournament files for the tests: a valid one of six players and two tours to change, its
refusals, and its report worked out again straight from the specification's words."""

from __future__ import annotations

import copy
from fractions import Fraction as F
from typing import Any

import pytest

from scorekeeper.tournament import file as tf

TOUR_1 = {
    "tables": [
        {
            "players": ["Vera", "Anna", "Petro"],
            "first_dealer": "Anna",
            "finished": False,
            "deals": [
                {
                    "type": "contract",
                    "declarer": "Vera",
                    "contract": "6S",
                    "answers": {"Petro": "whist", "Anna": "pass"},
                    "tricks": {"Vera": 6, "Petro": 4},
                },
                {"type": "allpass", "tricks": {"Vera": 2, "Anna": 4, "Petro": 4}},
                {"type": "misere", "declarer": "Petro", "tricks": {"Petro": 1}},
            ],
        },
        {
            "name": "by the window",
            "players": ["Boris", "Olena", "Dmitri"],
            "first_dealer": "Olena",
            "deals": [
                {
                    "type": "contract",
                    "declarer": "Dmitri",
                    "contract": "7H",
                    "answers": {"Boris": "whist", "Olena": "whist"},
                    "tricks": {"Dmitri": 5, "Boris": 3, "Olena": 2},
                }
            ],
        },
    ]
}


TOUR_2 = {
    "tables": [
        {"players": ["Olena", "Vera", "Boris"], "first_dealer": "Boris", "deals": []},
        {"players": ["Dmitri", "Anna", "Petro"], "first_dealer": "Anna", "deals": []},
    ]
}


def base(**changes: Any) -> dict[str, Any]:
    """A valid tournament of six players, two tours (tour 2 just seated)."""
    data: dict[str, Any] = {
        "format": "scorekeeper-tournament/1",
        "name": "December cup",
        "convention": "sochi",
        "options": {"round_limit": 1, "stake": "0.10"},
        "table_size": 3,
        "scale": {"bands": [[200, "1"], [650, "1/10"], [None, "0"]]},
        "players": ["Anna", "Boris", "Vera", "Dmitri", "Olena", "Petro"],
        "withdrawn": [],
        "tours": [copy.deepcopy(TOUR_1), copy.deepcopy(TOUR_2)],
    }
    data.update(changes)
    return data


def problems(data: Any) -> list[str]:
    with pytest.raises(tf.InvalidTournament) as caught:
        tf.parse_tournament(data)
    assert caught.value.problems == [str(p) for p in caught.value.located]
    return caught.value.problems


def seat(tour: int, table: int, data: dict[str, Any], **changes: Any) -> dict[str, Any]:
    data["tours"][tour - 1]["tables"][table - 1].update(changes)
    return data


def oracle(data: dict[str, Any]) -> dict[str, Any]:
    """The report worked out again from the file, straight from the specification's words:
    nets from the game engine, everything else written out afresh."""
    from scorekeeper import gamefile
    from scorekeeper.rules import score, settle

    bands = [
        (None if u is None else F(u), F(f) if isinstance(f, int) else F(f))
        for u, f in data.get("scale", {}).get("bands", [])
    ]

    def convert(x: F) -> F:
        if not bands:
            return x
        total, low = F(0), F(0)
        for upto, factor in bands:
            high = abs(x) if upto is None else upto
            total += max(F(0), min(abs(x), high) - low) * factor
            if upto is not None:
                low = upto
        return total if x >= 0 else -total

    roster = data["players"]
    sums = {p: [F(0), F(0), 0, 0] for p in roster}  # points, whists, tours, wins
    tours = []
    for tour in data["tours"]:
        tables = []
        for table in tour["tables"]:
            game = gamefile.load(
                {"format": "scorekeeper-game/1", "convention": data["convention"],
                 "options": data["options"], **table}
            )  # fmt: skip
            sheet = score(game)
            net = settle(sheet).net
            top = max(net.values())
            for p, x in net.items():
                sums[p][0] += convert(x)
                sums[p][1] += x
                sums[p][2] += 1
                sums[p][3] += int(x == top and any(v != 0 for v in net.values()))
            tables.append(
                {
                    "players": table["players"],
                    "finished": sheet.finished,
                    "results": {p: str(x) for p, x in net.items()},
                    "points": {p: str(convert(x)) for p, x in net.items()},
                }
            )
        tours.append({"tables": tables})
    keys = {p: tuple(v[:2]) + (v[3],) for p, v in sums.items()}
    order = sorted(roster, key=lambda p: (tuple(-k for k in keys[p]), p))
    standings = [
        {
            "place": 1 + sum(1 for q in roster if keys[q] > keys[p]),
            "player": p,
            "points": str(sums[p][0]),
            "whists": str(sums[p][1]),
            "tours": sums[p][2],
            "table_wins": sums[p][3],
        }
        for p in order
    ]
    gone = {w["player"] for w in data["withdrawn"]}
    left = [p for p in order if p not in gone]
    n = len(left)
    seating: list[list[str]] = []
    if n >= 3:
        count = -(-n // 4) if data["table_size"] == 4 else n // 3
        while count > 1 and n < 3 * count:
            count -= 1
        sizes = [n // count + (1 if i < n % count else 0) for i in range(count)]
        for size in sizes:
            seating.append(left[:size])
            left = left[size:]
    return {"standings": standings, "tours": tours, "next_tour": seating}
