"""A stored company read as the rules see it: its evenings, standings, balance and figures."""

from __future__ import annotations

import datetime
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Literal

from scorekeeper.company.currency import currency_problem
from scorekeeper.games import load
from scorekeeper.games.family import BALKAN, Family, family_of_options
from scorekeeper.rules import Payment
from scorekeeper.rules.company import (
    Evening,
    PaymentMade,
    PlayFigures,
    Settled,
    Standing,
    balance,
    in_period,
    merge_figures,
    running,
    settle_up,
    settled_evening,
    standings,
)
from scorekeeper.store.companies import CompanyGame, CompanyRecord

Period = Literal["month", "year", "all"]
PERIODS: tuple[Period, ...] = ("month", "year", "all")


def period_bounds(
    period: str, today: datetime.date
) -> tuple[datetime.date | None, datetime.date | None]:
    """The first and last day of this month or year (None, None for all time)."""
    if period == "month":
        start = today.replace(day=1)
        following = (start + datetime.timedelta(days=32)).replace(day=1)
        return start, following - datetime.timedelta(days=1)
    if period == "year":
        return today.replace(month=1, day=1), today.replace(month=12, day=31)
    return None, None


def key_of(game: CompanyGame) -> str:
    """The key an evening of this game carries (the game's stored id)."""
    return str(game.game.id)


def roster_map(game: CompanyGame) -> dict[str, str]:
    """The game's seat names → roster ids as text."""
    return {name: str(pid) for name, pid in game.players.items()}


@dataclass(frozen=True)
class Facts:
    """What the company needs of one state of a game: over or not, its settlement, and its
    play figures by seat name. Small, so many are kept (the sheets themselves are not)."""

    finished: bool
    settlement: Settled
    """The settlement of the game's family (rules.Settlement, balkan.BalkanSettlement)."""
    figures: dict[str, PlayFigures]


_FACTS: OrderedDict[tuple[object, ...], Facts] = OrderedDict()
_FACTS_LOCK = threading.Lock()
_FACTS_MAX = 4096


def facts_of(game: CompanyGame) -> Facts:
    """The game's facts, replayed once per state of the game (its token, version, time)."""
    record = game.game
    key = (record.view_token, record.version, record.updated_at)
    with _FACTS_LOCK:
        kept = _FACTS.get(key)
        if kept is not None:
            _FACTS.move_to_end(key)
            return kept
    loaded = load(record)
    family, sheet = loaded.family, loaded.sheet
    facts = Facts(
        finished=sheet.finished,
        settlement=family.settle(sheet),
        figures=family.figures(sheet),
    )
    with _FACTS_LOCK:
        _FACTS[key] = facts
        while len(_FACTS) > _FACTS_MAX:
            _FACTS.popitem(last=False)
    return facts


def evenings_of(company: CompanyRecord) -> list[tuple[CompanyGame, Evening]]:
    """Every finished game of the company with the evening its settlement makes."""
    out = []
    for game in company.games:
        if in_other_currency(company, game):
            continue  # never summed with the company's money (company/currency.py)
        facts = facts_of(game)
        if not facts.finished:
            continue
        day = datetime.date.fromisoformat(game.played_on)
        out.append((game, settled_evening(key_of(game), day, facts.settlement, roster_map(game))))
    return out


def in_other_currency(company: CompanyRecord, game: CompanyGame) -> bool:
    """A game whose money is in another currency than the company's: shown apart."""
    return currency_problem(company.options, game.game.options) is not None


def family_of(company: CompanyRecord) -> Family:
    """The family of rules the company's evenings are played by (its house rules say it,
    as a game's options do; absent: Russian). A company never mixes families."""
    return family_of_options(company.options)


def result_sign(company: CompanyRecord) -> int:
    """How the company's results are shown beside the net it sums (higher is better): −1 for
    a Balkan company whose results are lower-better (balkan.md, "Result and money")."""
    lower = company.options.get("result_sign", "lower_better") == "lower_better"
    return -1 if family_of(company).name == BALKAN and lower else 1


def payments_of(company: CompanyRecord) -> list[PaymentMade]:
    """The payments recorded, in the rules' terms."""
    return [
        PaymentMade(
            str(p.payer),
            str(p.payee),
            Decimal(p.amount),
            datetime.date.fromisoformat(p.paid_on),
            None if p.game_id is None else str(p.game_id),
        )
        for p in company.payments
    ]


@dataclass
class Overview:
    """Everything the company page shows, for one period."""

    company: CompanyRecord
    period: str
    names: dict[str, str]
    """Roster id (text) → name today."""
    evenings: list[tuple[CompanyGame, Evening]]
    """The finished evenings of the period, oldest first."""
    playing: list[CompanyGame]
    """Games not finished yet (they count once finished)."""
    standings: list[Standing]
    figures: dict[str, PlayFigures]
    owed: dict[str, Decimal]
    """Who is owed (+) or owes (−) now, over all time, payments included."""
    settle_up: list[Payment]
    running: list[dict[str, Decimal]] = field(default_factory=list)
    """Money summed after each evening of the period, for the chart."""
    apart: list[CompanyGame] = field(default_factory=list)
    """Games in another currency: listed, never summed with the company's money."""
    family: str = "russian"
    """The family of rules of the company's evenings."""
    sign: int = 1
    """The results as shown: net × sign (result_sign)."""


def overview(company: CompanyRecord, period: str, today: datetime.date) -> Overview:
    """The company's standings for a period and its balance now."""
    ids = [str(p.id) for p in company.roster]
    every = evenings_of(company)
    start, end = period_bounds(period, today)
    kept = {e.key for e in in_period([e for _, e in every], start, end)}
    chosen = [(g, e) for g, e in every if e.key in kept]
    owed = balance([e for _, e in every], payments_of(company), ids)
    finished = {key_of(g) for g, _ in every}
    return Overview(
        company=company,
        period=period,
        names={str(p.id): p.name for p in company.roster},
        evenings=chosen,
        playing=[
            g
            for g in company.games
            if key_of(g) not in finished and not in_other_currency(company, g)
        ],
        standings=standings([e for _, e in chosen], ids),
        figures=merge_figures([(facts_of(g).figures, roster_map(g)) for g, _ in chosen], ids),
        owed=owed,
        settle_up=settle_up(owed, ids),
        running=running([e for _, e in chosen], ids),
        apart=[g for g in company.games if in_other_currency(company, g)],
        family=family_of(company).name,
        sign=result_sign(company),
    )
