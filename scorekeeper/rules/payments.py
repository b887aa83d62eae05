"""The fewest payments that square a set of balances.

Squaring n people with a non-zero balance takes n - k payments, where k is the largest
number of groups they can be split into with each group summing to zero: a group of m
people needs m - 1 payments (each payment squares at most one person, the last squares two)
and can always do with that many. So the fewest payments come from the finest zero-sum
partition, found exactly by a dynamic programme over subsets for up to EXACT_UP_TO people
with a non-zero balance (after pairing off equal and opposite balances, which some finest
partition always does). Beyond that bound the answer is the largest-first one: at most
n - 1 payments, and still exact whenever the balances pair off.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal
from functools import lru_cache

EXACT_UP_TO = 16
"""People with a non-zero balance (left after pairing off) for whom the minimum is exact."""

Transfer = tuple[str, str, Decimal]
"""(payer, payee, amount)."""


def largest_first(balance: Mapping[str, Decimal], order: Sequence[str]) -> list[Transfer]:
    """The largest debtor pays the largest creditor until all are square (ties in `order`):
    at most one payment fewer than the people with a non-zero balance."""
    left = {p: balance[p] for p in order}
    out: list[Transfer] = []
    while True:
        debtors = [p for p in order if left[p] < 0]
        creditors = [p for p in order if left[p] > 0]
        if not debtors or not creditors:
            return out
        payer = min(debtors, key=lambda p: (left[p], order.index(p)))
        payee = max(creditors, key=lambda p: (left[p], -order.index(p)))
        amount = min(-left[payer], left[payee])
        out.append((payer, payee, amount))
        left[payer] += amount
        left[payee] -= amount


def zero_sum_groups(balance: Mapping[str, Decimal], order: Sequence[str]) -> list[list[str]]:
    """The people with a non-zero balance split into as many zero-sum groups as can be (the
    exact maximum up to EXACT_UP_TO people left after pairing off; beyond, one group for the
    rest). The balances must sum to zero."""
    people = [p for p in order if balance[p] != 0]
    groups: list[list[str]] = []
    # An equal and opposite pair is a group of its own in some finest partition.
    rest: list[str] = []
    for p in people:
        mate = next((q for q in rest if balance[q] == -balance[p]), None)
        if mate is None:
            rest.append(p)
        else:
            rest.remove(mate)
            groups.append([mate, p])
    if len(rest) > EXACT_UP_TO:
        return [*groups, rest] if rest else groups
    for part in _finest(tuple(balance[p] for p in rest)):
        groups.append([rest[i] for i in part])
    return sorted(groups, key=lambda g: min(order.index(p) for p in g))


@lru_cache(maxsize=256)
def _finest(values: tuple[Decimal, ...]) -> tuple[tuple[int, ...], ...]:
    """The indices of `values` (summing to zero) split into the most zero-sum groups.

    best[mask] is the most zero-sum sets in a chain of subsets of mask, each one element
    larger than the last, ending at mask: taking the differences of consecutive zero-sum
    sets of the best chain of the whole gives the finest partition.
    """
    n = len(values)
    if n == 0:
        return ()
    full = (1 << n) - 1
    total = [Decimal(0)] * (full + 1)
    best = [0] * (full + 1)
    for mask in range(1, full + 1):
        low = mask & -mask
        total[mask] = total[mask ^ low] + values[low.bit_length() - 1]
        most, bits = 0, mask
        while bits:
            bit = bits & -bits
            bits ^= bit
            if best[mask ^ bit] > most:
                most = best[mask ^ bit]
        best[mask] = most + (total[mask] == 0)
    # Walk back down the best chain, cutting a group at each zero-sum set.
    parts: list[tuple[int, ...]] = []
    mask, since = full, full
    while mask:
        bits = mask
        while bits:
            bit = bits & -bits
            bits ^= bit
            if best[mask ^ bit] == best[mask] - (total[mask] == 0):
                break
        mask ^= bit
        if total[mask] == 0:
            cut = since ^ mask
            parts.append(tuple(i for i in range(n) if cut >> i & 1))
            since = mask
    return tuple(reversed(parts))


def fewest(balance: Mapping[str, Decimal], order: Sequence[str]) -> list[Transfer]:
    """The fewest payments that square everyone (see the module's note for the bound).

    When the largest-first answer is already as short, it is the one returned (its pairs
    are the natural ones at the table); otherwise each zero-sum group settles largest-first.
    """
    plain = largest_first(balance, order)
    groups = zero_sum_groups(balance, order)
    needed = sum(len(g) - 1 for g in groups)
    if len(plain) <= needed:
        return plain
    out: list[Transfer] = []
    for group in groups:
        out.extend(largest_first(balance, [p for p in order if p in group]))
    return out
