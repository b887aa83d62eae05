"""The fewest payments are truly the fewest: n - (most zero-sum groups), and every debt squares."""

from __future__ import annotations

from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules.company import settle_up
from scorekeeper.rules.payments import EXACT_UP_TO, fewest, largest_first, zero_sum_groups
from scorekeeper.rules.settlement import fewest_payments


def _squares(balance: dict[str, Decimal], transfers: list[tuple[str, str, Decimal]]) -> None:
    left = dict(balance)
    for payer, payee, amount in transfers:
        assert amount > 0
        assert left[payer] < 0 < left[payee]
        left[payer] += amount
        left[payee] -= amount
    assert all(v == 0 for v in left.values()), left


def _most_groups(values: list[Decimal]) -> int:
    """The most zero-sum groups of the non-zero values, by trying every partition."""
    items = [v for v in values if v != 0]

    def partitions(rest: list[Decimal]):  # noqa: ANN202 - a test's own generator
        if not rest:
            yield []
            return
        first, others = rest[0], rest[1:]
        for part in partitions(others):
            for i in range(len(part)):
                yield [*part[:i], [first, *part[i]], *part[i + 1 :]]
            yield [[first], *part]

    return max(
        (len(p) for p in partitions(items) if all(sum(g) == 0 for g in p)),
        default=0,
    )


def test_the_issue_case_needs_three_payments_not_four() -> None:
    owed = {p: Decimal(v) for p, v in zip("ABCDE", (40, 30, 30, -60, -40), strict=True)}
    assert len(largest_first(owed, list(owed))) == 4  # the old answer
    transfers = settle_up(owed, list(owed))
    assert len(transfers) == 3
    _squares(owed, [(t.payer, t.payee, t.amount) for t in transfers])
    # The evening's own settlement keeps the rules' largest-first payments (rules §6).
    assert len(fewest_payments(owed, tuple(owed))) == 4


def test_largest_first_is_kept_when_it_is_already_fewest() -> None:
    owed = {"A": Decimal("-30"), "B": Decimal("10"), "C": Decimal("20")}
    assert fewest(owed, list(owed)) == largest_first(owed, list(owed))


balances = st.lists(
    st.integers(min_value=-400, max_value=400).map(lambda c: Decimal(c) / 4),
    min_size=1,
    max_size=7,
).map(lambda v: [*v, -sum(v)])


@settings(max_examples=300, deadline=None)
@given(balances)
def test_payments_are_people_owed_or_owing_less_the_most_zero_sum_groups(values) -> None:
    names = [f"p{i}" for i in range(len(values))]
    owed = dict(zip(names, values, strict=True))
    transfers = fewest(owed, names)
    _squares(owed, transfers)
    nonzero = sum(1 for v in values if v != 0)
    assert len(transfers) == nonzero - _most_groups(values)


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.integers(min_value=1, max_value=60), min_size=EXACT_UP_TO, max_size=EXACT_UP_TO),
    st.randoms(use_true_random=False),
)
def test_sixteen_people_owing_are_still_exact(amounts, rng) -> None:
    # Sixteen balances in any order: the groups found are zero-sum and cover everyone owing.
    values = [Decimal(a) for a in amounts[:-1]]
    values = [v if i % 2 else -v for i, v in enumerate(values)]
    values.append(-sum(values))
    rng.shuffle(values)
    names = [f"p{i}" for i in range(len(values))]
    owed = dict(zip(names, values, strict=True))
    groups = zero_sum_groups(owed, names)
    assert all(sum(owed[p] for p in g) == 0 for g in groups)
    assert sorted(p for g in groups for p in g) == sorted(p for p in names if owed[p])
    transfers = fewest(owed, names)
    _squares(owed, transfers)
    assert len(transfers) == sum(len(g) - 1 for g in groups)


def test_groups_of_three_are_found_among_sixteen() -> None:
    trios = [(5, 7, -12), (3, 11, -14), (2, 9, -11), (4, 13, -17), (6, 10, -16)]
    values = [Decimal(v) for t in trios for v in t] + [Decimal(0)]
    order = [f"p{i}" for i in (7, 0, 12, 3, 9, 14, 1, 5, 10, 2, 13, 6, 4, 11, 8, 15)]
    owed = dict(zip(order, values, strict=True))
    transfers = fewest(owed, sorted(owed))
    _squares(owed, transfers)
    assert len(transfers) == 10  # 15 people owed or owing, five groups
