"""The other entries and the end (docs/balkan.md, "Refe", "The end"): a refa, a correction,
a write-off, and a last deal scaled so that Σ bule comes to exactly 0."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from scorekeeper.rules.problems import N_, Problem

from .deals import BuleChange, Correction, SupeChange, WriteOff
from .state import Outcome, State
from .table import Table
from .why import Why


def refa_outcome(table: Table, number: int) -> Outcome:
    """Everyone said "dalje": a refa for every player, when one may be written."""
    writes = table.refa_writes
    if writes:
        why = Why(N_("refa: an open refa for every player"))
    elif table.state.under_hat():
        why = Why(
            N_("refa: nothing written, {name} is under the hat"),
            {"name": table.state.under_hat()[0]},
        )
    else:
        why = Why(
            N_("refa: nothing written, the most refe ({limit}) are reached"),
            {"limit": table.game.options.refe_max},
        )
    return Outcome(number, "refa", None, dealer=table.dealer, refe_written=writes, why=(why,))


def correction_outcome(
    entry: Correction, table: Table, number: int
) -> tuple[Outcome, list[Problem]]:
    """A correction written as given; refused when it leaves Σ bule below 0."""
    bule: dict[str, int] = {}
    supe: list[tuple[str, str, int]] = []
    for change in entry.entries:
        if isinstance(change, BuleChange):
            bule[change.player] = bule.get(change.player, 0) + change.bule
        elif isinstance(change, SupeChange):
            supe.append((change.player, change.supe_on, change.amount))
    why = correction_lines(entry)
    after = table.state.total + sum(bule.values())
    problems = []
    if after < 0:
        problems.append(
            Problem(
                N_("the correction leaves Σ bule at {total}, below 0"), {"total": after}, "entries"
            )
        )
    outcome = Outcome(
        number, "correction", entry, bule=bule, supe=tuple(supe), ends=after == 0, why=tuple(why)
    )
    return outcome, problems


def correction_lines(entry: Correction) -> list[Why]:
    """A correction in words: its reason, then each change as written."""
    why = [
        Why(N_("correction: {reason}"), {"reason": entry.reason})
        if entry.reason
        else Why(N_("correction"))
    ]
    for change in entry.entries:
        if isinstance(change, BuleChange):
            params = {"name": change.player, "amount": _signed(change.bule)}
            why.append(Why(N_("{name}: bule {amount}"), params))
        else:
            params = {
                "writer": change.player,
                "declarer": change.supe_on,
                "amount": _signed(change.amount),
            }
            why.append(Why(N_("{writer}: {amount} supe on {declarer}"), params))
    return why


def _signed(amount: int) -> str:
    return f"+{amount}" if amount > 0 else str(amount).replace("-", "−")


def write_off(state: State, left: str | None) -> dict[str, int]:
    """What each player writes off so that Σ bule = 0 (the one who left: 0)."""
    writers = [p for p in state.players if p != left]
    q, m = divmod(state.total, len(writers))
    ranked = sorted(writers, key=lambda p: (-state.bule[p], state.players.index(p)))
    amounts = {p: q + (1 if i < m else 0) for i, p in enumerate(ranked)}
    return {p: amounts.get(p, 0) for p in state.players}


def writeoff_outcome(entry: WriteOff | None, table: Table, number: int) -> Outcome:
    """The write-off (an entry, or the end of a partija finished by hand)."""
    left = entry.left if entry is not None else None
    state = table.state
    amounts = write_off(state, left)
    count = len(state.players) - (1 if left else 0)
    q, m = divmod(state.total, count)
    said = (
        N_("write-off: Σ bule {total} among {count} players: {q} each, {m} of them one more")
        if m
        else N_("write-off: Σ bule {total} among {count} players: {q} each")
    )
    why = [Why(said, {"total": state.total, "count": count, "q": q, "m": m})]
    if left:
        why.append(
            Why(
                N_("{name} left and keeps {amount} bule"),
                {"name": left, "amount": state.bule[left]},
            )
        )
    why += [
        Why(N_("{name} writes off {amount}"), {"name": p, "amount": a})
        for p, a in amounts.items()
        if p != left
    ]
    bule = {p: -a for p, a in amounts.items()}
    return Outcome(
        number, "writeoff", entry, bule=bule, write_off=amounts, ends=True, why=tuple(why)
    )


def scaled(outcome: Outcome, total: int) -> Outcome:
    """A played deal that would take Σ bule from S > 0 below 0, multiplied by r = S / (S − S');
    supe rounded to the nearest whole, halves up. Else the deal as it is."""
    after = total + sum(outcome.bule.values())
    if after > 0 or total <= 0:
        return outcome
    end = Why(N_("Σ bule = 0: the partija is over"))
    if after == 0:
        return replace(outcome, ends=True, why=(*outcome.why, end))
    r = Fraction(total, total - after)
    line = Why(
        N_("last deal: Σ bule would go from {before} to {after}; everything × {ratio}"),
        {"before": total, "after": after, "ratio": f"{r.numerator}/{r.denominator}"},
    )
    return replace(
        outcome,
        bule={p: _half_up(change * r) for p, change in outcome.bule.items()},
        supe=tuple((w, on, _half_up(amount * r)) for w, on, amount in outcome.supe),
        scale=r,
        ends=True,
        why=(*outcome.why, line, end),
    )


def _half_up(value: Fraction) -> int:
    """The nearest whole number, halves up."""
    return int((value + Fraction(1, 2)) // 1)
