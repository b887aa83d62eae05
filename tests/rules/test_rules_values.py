"""The rules' values cannot be changed once made: the kept game states, drawn pages and
standings are shared between requests and threads, and are safe only because nothing can
change them in place (dataclasses with frozen=True)."""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from typing import Any

import pytest

from scorekeeper.rules import PRESETS, Game, Problem
from scorekeeper.rules import company as company_rules
from scorekeeper.rules import tournament as tournament_rules
from scorekeeper.rules.deals import CorrectionEntry
from scorekeeper.rules.reasons import Reason

VALUES: list[tuple[Any, str, Any]] = [
    (Problem("the deal has no type", {}, field="type"), "field", "contract"),
    (Reason("pool", {}), "code", "hill"),
    (CorrectionEntry("Anna", hill=Fraction(2)), "hill", Fraction(20)),
    (
        Game(
            convention="sochi",
            options=PRESETS["sochi"],
            players=("Anna", "Boris", "Vera"),
            first_dealer="Anna",
            deals=(),
        ),
        "players",
        ("Anna", "Boris", "Eve"),
    ),
    (company_rules.Standing("Anna", evenings=1, net=Fraction(3)), "net", Fraction(30)),
    (
        tournament_rules.Standing(
            place=1, player="Anna", points=Fraction(3), whists=Fraction(3), tours=1, table_wins=1
        ),
        "points",
        Fraction(30),
    ),
]


@pytest.mark.parametrize(
    ("value", "name", "other"), VALUES, ids=[type(v[0]).__qualname__ for v in VALUES]
)
def test_a_kept_value_cannot_be_changed_in_place(value: Any, name: str, other: Any) -> None:
    before = getattr(value, name)
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(value, name, other)
    assert getattr(value, name) == before
