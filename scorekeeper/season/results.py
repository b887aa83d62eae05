"""One game's result as the season counts it, computed once from the game and kept.

A `TableResult` is all the season's statistics and rating need of one game or tournament
table: who sat (seat names in seating order), how many deals `D` were dealt, each seat's
result `x` (higher is better: the net in whists of the settlement), the pair balances for
head-to-head, whether it is over, whether its kind may be rated, and what each seat did in
the deal log. Nothing here depends on the club: a web page can keep these per game version
and compute a season from them without replaying a game. Another family of games (Balkan:
`x` = −its lower-is-better result) gives a `TableResult` of its own the same way.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from scorekeeper import balkan
from scorekeeper.balkan.settlement import SUPE_PER_BULA
from scorekeeper.rules import Sheet
from scorekeeper.rules.deals import AllPassDeal, ContractDeal, Deal, MisereDeal, Penalty
from scorekeeper.rules.scoring import active_players
from scorekeeper.rules.settlement import in_whists

LEVELS = (6, 7, 8, 9, 10)
"""The contract levels the statistics count declared and made contracts of."""
RATED_SIZES = (3, 4, 5)
"""Tables of these sizes may be rated (Hussar never, season.md §4.2)."""
_WHISTS = frozenset({"whist", "whist-talon", "whist-returned"})


@dataclass
class DealCounts:
    """What one seat did in a game's deal log (season.md §3's deal statistics)."""

    deals_played: int = 0
    declared: dict[int, int] = field(default_factory=lambda: dict.fromkeys(LEVELS, 0))
    made: dict[int, int] = field(default_factory=lambda: dict.fromkeys(LEVELS, 0))
    misere_declared: int = 0
    misere_caught: int = 0
    whisted: int = 0
    passed: int = 0
    half_whisted: int = 0
    allpass_played: int = 0
    allpass_tricks: int = 0
    allpass_zero: int = 0
    penalties: int = 0


@dataclass(frozen=True)
class TableResult:
    """One game or tournament table as the season counts it (see the module)."""

    seats: tuple[str, ...]
    """The seat names in seating order."""
    deals: int
    """`D`: deals dealt (contract, misère, all-pass, redeal)."""
    result: Mapping[str, Fraction]
    """`x` per seat, higher better; they sum to zero."""
    over: bool
    """Finished by hand, by its end rule or its limits."""
    ratable: bool
    """Of a kind the rating counts (3 to 5 players, not Hussar); friendliness aside."""
    balance: Mapping[str, Mapping[str, Fraction]] = field(default_factory=dict)
    """balance[i][j]: the pair balance from i's side (empty: no head-to-head balance)."""
    counts: Mapping[str, DealCounts] = field(default_factory=dict)
    """What each seat did in the deal log (empty: a family without these statistics)."""


def from_sheet(sheet: Sheet) -> TableResult:
    """A Preferans game's result: `x` is each player's net in the settlement (rules §6)."""
    steps = in_whists(sheet)
    players = sheet.players
    counts = {p: DealCounts() for p in players}
    for result in sheet.results:
        count_deal(result.deal, active_players(players, result.dealer), counts)
    return TableResult(
        seats=players,
        deals=sheet.deal_count(),
        result=dict(steps.net),
        over=sheet.finished,
        ratable=len(players) in RATED_SIZES and not sheet.game.hussar,
        balance=steps.pair_balance,
        counts=counts,
    )


def count_deal(deal: Deal, active: list[str], counts: dict[str, DealCounts]) -> None:
    """Add one entry of the log to the seats' counts (`active`: who plays it)."""
    if isinstance(deal, ContractDeal | MisereDeal | AllPassDeal):
        for player in active:
            counts[player].deals_played += 1
    if isinstance(deal, ContractDeal):
        _contract(deal, counts)
    elif isinstance(deal, MisereDeal):
        counts[deal.declarer].misere_declared += 1
        counts[deal.declarer].misere_caught += deal.tricks.get(deal.declarer, 0) >= 1
    elif isinstance(deal, AllPassDeal):
        for player, tricks in deal.tricks.items():
            mine = counts[player]
            mine.allpass_played += 1
            mine.allpass_tricks += tricks
            mine.allpass_zero += tricks == 0
    elif isinstance(deal, Penalty):
        counts[deal.player].penalties += 1


def _contract(deal: ContractDeal, counts: dict[str, DealCounts]) -> None:
    """A contract: the declarer's level declared (and made: not played, or enough tricks),
    each defender's answer."""
    level = deal.contract.level
    mine = counts[deal.declarer]
    mine.declared[level] += 1
    played = deal.played or any(a.value in _WHISTS for a in deal.answers.values())
    mine.made[level] += not played or deal.tricks.get(deal.declarer, 0) >= level
    for player, answer in deal.answers.items():
        if answer.value in _WHISTS:
            counts[player].whisted += 1
        elif answer.value == "pass":
            counts[player].passed += 1
        elif answer.value == "half-whist":
            counts[player].half_whisted += 1


_BALKAN_DEALS = frozenset({"played", "refa"})
"""The entries of a Balkan partija that are deals (corrections and write-offs are not)."""


def from_balkan(sheet: balkan.Sheet) -> TableResult:
    """A Balkan partija's result (docs/season.md, "A Balkan game"): `x` = −its result
    (10 × b − W + A, in supe, lower better), `D` its deals (played and refa), the same
    constants of the rating; the pair balance of i and j is the supe i wrote on j less those j
    wrote on i, less 10 × (b_i − b_j) / N, so that a player's balances sum to his `x` (the
    final bule sum to 0). No deal-log statistics: the Russian family's keys name nothing here."""
    settled = balkan.settle(sheet)
    players = sheet.players
    n = len(players)
    balance = {
        i: {
            j: sheet.supe_on(i, j)
            - sheet.supe_on(j, i)
            - Fraction(SUPE_PER_BULA * (settled.bule[i] - settled.bule[j]), n)
            for j in players
            if j != i
        }
        for i in players
    }
    return TableResult(
        seats=players,
        deals=sum(1 for o in sheet.outcomes if o.kind in _BALKAN_DEALS),
        result=settled.net,
        over=sheet.finished,
        ratable=n in RATED_SIZES,
        balance=balance,
    )
