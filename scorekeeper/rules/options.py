"""Conventions and the options a table agrees on before play (docs/rules.md §7)."""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum
from fractions import Fraction

from .numbers import STAKE, Bounds, NumberError, bounds, read_number, read_stake, read_whole
from .problems import N_, Label, Problem, as_written
from .text import bad_character, normalize

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, TypeVar


class Convention(StrEnum):
    """The conventions (§7), Hussar the two-handed game (§9), and the ФСПР preset."""

    SOCHI = "sochi"
    LENINGRAD = "leningrad"
    ROSTOV = "rostov"
    HUSSAR = "hussar"
    FSPR = "fspr"
    """The Russian sport federation's tournament Leningrad, four players (§7)."""


CONVENTIONS: tuple[str, ...] = tuple(c.value for c in Convention)


class WhistSplit(StrEnum):
    """One whister, one passer: who writes the side's trick whists (§4.3)."""

    GREEDY = "greedy"
    GENTLEMAN_ON_REMISE = "gentleman_on_remise"
    GENTLEMAN = "gentleman"


class TwoWhisterQuota(StrEnum):
    """Two whisters short of the quota on a made contract: judged together or each (§4.3)."""

    SIDE = "side"
    PERSONAL = "personal"
    SIDE_BOTH = "side_both"
    """As `side`, but on 8, 9, 10 both whisters pay when the side took nothing."""


class AllpassMode(StrEnum):
    """How an all-pass is scored (§4.5)."""

    HILL = "hill"
    WHISTS = "whists"
    NONE = "none"


class AllpassExitOn(StrEnum):
    """What ends a streak of all-passes (§4.5)."""

    ANY = "any"
    MADE = "made"
    WHISTED_MADE = "whisted_made"
    """Only a made contract somebody whisted."""


class Overflow(StrEnum):
    """Points above the pool target: help open pools, or stay (§5)."""

    HELP = "help"
    KEEP = "keep"


class EndRule(StrEnum):
    """When the game ends (§5)."""

    ALL_CLOSED = "all_closed"
    POOL_SUM = "pool_sum"
    FIRST_CLOSED = "first_closed"
    BY_HAND = "by_hand"
    """The pools never end the game: only finishing it by hand (or a limit) does."""


class HalfWhistTricks(StrEnum):
    """How many tricks a half-whist is written for (§4.2)."""

    QUOTA = "quota"
    REST = "rest"


class AllpassZeroBonus(StrEnum):
    """The zero-trick all-pass bonus, in pool points (§4.5)."""

    TRICK = "trick"
    TRICK_POINTS = "trick_points"
    STAGE = "stage"
    POINT = "point"
    NONE = "none"


class AllpassZeroForm(StrEnum):
    """Where the zero-trick bonus is written: into the pool, or off the hill (§4.5)."""

    POOL = "pool"
    HILL = "hill"


class HillDivisor(StrEnum):
    """The hill is divided by the number of players or of opponents (§6)."""

    PLAYERS = "players"
    OPPONENTS = "opponents"


#: Each choice's values in game-file notation, in the order the form lists them.
WHIST_SPLITS: tuple[str, ...] = tuple(c.value for c in WhistSplit)
TWO_WHISTER_QUOTAS: tuple[str, ...] = tuple(c.value for c in TwoWhisterQuota)
ALLPASS_MODES: tuple[str, ...] = tuple(c.value for c in AllpassMode)
OVERFLOWS: tuple[str, ...] = tuple(c.value for c in Overflow)
ENDS: tuple[str, ...] = tuple(c.value for c in EndRule)
HILL_DIVISORS: tuple[str, ...] = tuple(c.value for c in HillDivisor)
ALLPASS_EXITS_ON: tuple[str, ...] = tuple(c.value for c in AllpassExitOn)
HALF_WHIST_TRICKS: tuple[str, ...] = tuple(c.value for c in HalfWhistTricks)
ALLPASS_ZERO_BONUSES: tuple[str, ...] = tuple(c.value for c in AllpassZeroBonus)
ALLPASS_ZERO_FORMS: tuple[str, ...] = tuple(c.value for c in AllpassZeroForm)


@dataclass(frozen=True)
class Options:
    """Every scoring option of one game, fully resolved (preset plus house rules)."""

    pool_target: int = 10
    pool_whists: int = 10
    hill_whists: int = 10
    whist_scale: Fraction = Fraction(1)
    remise_scale: Fraction = Fraction(1)
    shortfall_rate: Fraction = Fraction(1)
    consolation: Fraction | None = None
    """Whists per undertrick; None means "value" (v × whist_scale)."""
    dealer_consolation: bool = True
    whist_split: WhistSplit = WhistSplit.GREEDY
    two_whister_quota: TwoWhisterQuota = TwoWhisterQuota.SIDE
    ten_checked: bool = False
    half_whist: tuple[int, ...] = (6, 7)
    misere_value: int = 10
    misere_hill: int = 10
    allpass_mode: AllpassMode = AllpassMode.HILL
    allpass_price: int = 1
    allpass_progression: tuple[int, ...] = (1, 2, 3)
    allpass_exit: tuple[int, ...] = (6,)
    allpass_min_amnesty: bool = False
    overflow: Overflow = Overflow.HELP
    end: EndRule = EndRule.ALL_CLOSED
    hill_divisor: HillDivisor = HillDivisor.PLAYERS
    stake: Decimal = Decimal("1")
    currency: str = ""
    allpass_exit_on: AllpassExitOn = AllpassExitOn.ANY
    """"any": any contract or misère ends an all-pass streak; "made": only one that writes
    into the declarer's pool (§4.5, seed 002)."""
    money_unit: Decimal = Decimal("0.01")
    """Money is rounded to multiples of this (§6): "0.01", "1", "5", "10"."""
    round_limit: int | None = None
    """The game also ends after this many full rounds (§5); None: no limit."""
    stalingrad: bool = False
    """A 6♠ must be whisted by both defenders (§7)."""
    half_whist_tricks: HalfWhistTricks = HalfWhistTricks.QUOTA
    """A half-whist is written for the half quota, or for half the tricks not contracted (§4.2)."""
    dealer_whist: bool = False
    """4 or 5 players: the dealer may whist after pass – half-whist – pass (§4.8)."""
    talon_bonus: bool = False
    """Whists for the quick tricks in the talon, the deal's `talon_tricks` (§4.9)."""
    allpass_zero_bonus: AllpassZeroBonus = AllpassZeroBonus.TRICK
    """The zero-trick all-pass bonus in pool points (§4.5, hill mode)."""
    allpass_zero_form: AllpassZeroForm = AllpassZeroForm.POOL
    """The bonus written into the pool, or the same whists taken off the hill (§4.5)."""
    allpass_dealer_talon: bool = False
    """4 or 5 players: the dealer plays the all-pass talon and is scored for its tricks (§4.5)."""
    allpass_zero_dealer: bool = True
    """With `allpass_dealer_talon`: the dealer also gets the zero-trick bonus (§4.5)."""
    deal_limit: int | None = None
    """The game also ends after this many deals at the table (§5); None: no limit."""

    def consolation_per_undertrick(self, value: int) -> Fraction:
        """Whists each defender writes per undertrick on a contract of this value (§4.3)."""
        if self.consolation is None:
            return value * self.whist_scale
        return self.consolation

    def to_json(self) -> dict[str, Any]:
        """Every option in game-file notation (the keys of `options`)."""
        out: dict[str, Any] = {}
        for field in dataclasses.fields(self):
            value = getattr(self, field.name)
            if value is None:
                out[field.name] = "value" if field.name == "consolation" else None
            else:
                out[field.name] = _option_to_json(value)
        return out


def _option_to_json(value: Any) -> Any:
    if isinstance(value, StrEnum):
        return value.value
    if isinstance(value, bool | int | str):
        return value
    if isinstance(value, Fraction):
        return int(value) if value.denominator == 1 else str(value)
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, tuple):
        return list(value)
    raise TypeError(value)  # pragma: no cover


PRESETS: dict[str, Options] = {
    Convention.SOCHI: Options(),
    Convention.LENINGRAD: Options(
        pool_whists=20,
        whist_scale=Fraction(2),
        remise_scale=Fraction(2),
        whist_split=WhistSplit.GENTLEMAN_ON_REMISE,
        misere_hill=20,
        allpass_price=2,
        allpass_exit=(7,),
        overflow=Overflow.KEEP,
        end=EndRule.POOL_SUM,
    ),
    Convention.ROSTOV: Options(
        shortfall_rate=Fraction(1, 2),
        consolation=Fraction(10),
        whist_split=WhistSplit.GENTLEMAN_ON_REMISE,
        allpass_mode=AllpassMode.WHISTS,
        allpass_price=5,
        allpass_progression=(1,),
    ),
    Convention.HUSSAR: Options(
        consolation=Fraction(0),
        dealer_consolation=False,
        half_whist=(),
        allpass_mode=AllpassMode.NONE,
        allpass_progression=(1,),
        allpass_exit=(),
        overflow=Overflow.KEEP,
        end=EndRule.FIRST_CLOSED,
    ),
}
#: ФСПР (§7): Leningrad with ten values changed.
PRESETS[Convention.FSPR] = dataclasses.replace(
    PRESETS[Convention.LENINGRAD],
    whist_split=WhistSplit.GENTLEMAN,
    two_whister_quota=TwoWhisterQuota.SIDE_BOTH,
    dealer_whist=True,
    talon_bonus=True,
    allpass_exit_on=AllpassExitOn.WHISTED_MADE,
    allpass_zero_bonus=AllpassZeroBonus.TRICK_POINTS,
    allpass_zero_form=AllpassZeroForm.HILL,
    allpass_dealer_talon=True,
    allpass_zero_dealer=False,
    end=EndRule.BY_HAND,
)

#: How many players each convention seats.
PLAYER_COUNTS: dict[str, tuple[int, ...]] = {
    Convention.SOCHI: (3, 4, 5),
    Convention.LENINGRAD: (3, 4, 5),
    Convention.ROSTOV: (3, 4, 5),
    Convention.HUSSAR: (2,),
    Convention.FSPR: (3, 4),
}

OPTION_NAMES: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(Options))


def find_convention(name: object) -> str | None:
    """The convention's canonical name, or None if there is no such convention."""
    if not isinstance(name, str):
        return None
    key = name.strip().lower()
    return key if key in PRESETS else None


#: Each option's label as the new-game form shows it (the same words, so translated alike).
OPTION_LABELS: dict[str, str] = {
    "pool_target": N_("Pool target"),
    "pool_whists": N_("Whists per pool point"),
    "hill_whists": N_("Whists per hill point"),
    "whist_scale": N_("Whists per trick"),
    "remise_scale": N_("Remise, hill per undertrick"),
    "shortfall_rate": N_("Whister short of quota, hill per trick"),
    "consolation": N_("Consolation per undertrick"),
    "dealer_consolation": N_("Those sitting out write consolation too (4 or 5 players)"),
    "whist_split": N_("One whister, one passer"),
    "two_whister_quota": N_("Two whisters' quota"),
    "ten_checked": N_("A ten is checked (no quota)"),
    "half_whist": N_("Half-whist"),
    "misere_value": N_("Misère made, pool"),
    "misere_hill": N_("Misère failed, hill per trick"),
    "allpass_mode": N_("All-pass is scored as"),
    "allpass_price": N_("All-pass, price of a trick"),
    "allpass_progression": N_("All-pass multipliers in a row"),
    "allpass_exit": N_("Lowest contract after all-passes"),
    "allpass_min_amnesty": N_("All-pass: the fewest tricks are free"),
    "overflow": N_("Points above the pool target"),
    "end": N_("The game ends when"),
    "hill_divisor": N_("The hill is divided by"),
    "stake": N_("Stake per whist"),
    "currency": N_("Currency"),
    "allpass_exit_on": N_("All-passes end with"),
    "money_unit": N_("Money rounding"),
    "round_limit": N_("Number of rounds"),
    "stalingrad": N_("Stalingrad (6♠ whisted by both)"),
    "half_whist_tricks": N_("Tricks a half-whist is written for"),
    "dealer_whist": N_("The dealer may whist after pass – half-whist – pass (4 or 5 players)"),
    "talon_bonus": N_("Whists for quick tricks in the talon"),
    "allpass_zero_bonus": N_("All-pass, bonus for no trick"),
    "allpass_zero_form": N_("All-pass, the bonus for no trick is written"),
    "allpass_dealer_talon": N_("All-pass: the dealer plays the talon (4 or 5 players)"),
    "allpass_zero_dealer": N_("All-pass: the dealer gets the bonus for no trick too"),
    "deal_limit": N_("Number of deals"),
}

#: The range of every numeric option (docs/limits.md); anything outside is refused.
OPTION_BOUNDS: dict[str, Bounds] = {
    "pool_target": bounds(1, 100_000, whole=True),
    "pool_whists": bounds(1, 1000, whole=True),
    "hill_whists": bounds(1, 1000, whole=True),
    "whist_scale": bounds(0, 100),
    "remise_scale": bounds(0, 100),
    "shortfall_rate": bounds(0, 100),
    "consolation": bounds(0, 1000),
    "misere_value": bounds(0, 1000, whole=True),
    "misere_hill": bounds(0, 1000, whole=True),
    "allpass_price": bounds(0, 1000, whole=True),
    "allpass_progression": bounds(0, 100, whole=True),
    "stake": STAKE,
}
MAX_PROGRESSION = 20
"""At most this many all-pass multipliers."""
MAX_CURRENCY = 20


def changed_options(convention: str, options: Options) -> dict[str, Any]:
    """Every option that differs from the convention's preset, in game-file notation (the
    house rules a sheet names beside its preset)."""
    preset = PRESETS.get(convention, Options()).to_json()
    return {key: value for key, value in options.to_json().items() if preset[key] != value}


def option_label(key: str) -> Label:
    """An option's label for a message (the key itself for an unknown option)."""
    return Label(OPTION_LABELS.get(key, key))


def resolve_options(convention: str, overrides: Mapping[str, Any]) -> tuple[Options, list[Problem]]:
    """Apply house-rule overrides to a preset; returns the options and the problems found."""
    problems: list[Problem] = []
    changes: dict[str, Any] = {}
    for key, raw in overrides.items():
        parser = _PARSERS.get(key)
        if parser is None:
            problems.append(
                Problem(
                    N_("unknown option {option}"),
                    {"option": json.dumps(str(key)[:40], ensure_ascii=False)},
                    field=f"options.{str(key)[:40]}",
                )
            )
            continue
        try:
            changes[key] = parser(raw)
        except NumberError as bad:
            problems.append(number_problem(key, raw, bad))
        except _BadOption as bad:
            problems.append(
                Problem(
                    bad.template,
                    {"option": option_label(key), **bad.params},
                    field=f"options.{key}",
                )
            )
    preset = PRESETS.get(convention)
    if preset is None:  # a form's value not in the list: a problem, never a KeyError
        shown = json.dumps(str(convention)[:40], ensure_ascii=False)
        problems.append(
            Problem(
                N_("unknown convention {name} (sochi, leningrad, rostov, hussar, fspr)"),
                {"name": shown},
                field="convention",
            )
        )
        preset = PRESETS[Convention.SOCHI]
    return dataclasses.replace(preset, **changes), problems


def number_problem(key: str, raw: Any, error: NumberError) -> Problem:
    """The problem with a numeric option's value, in docs/rules.md §7 terms."""
    limits = OPTION_BOUNDS[key]
    params = {
        "option": option_label(key),
        "low": limits.low_text,
        "high": limits.high_text,
        "value": _show(raw),
    }
    if key == "stake":
        template = N_(
            "{option}: must be money from {low} to {high} with at most four decimals, "
            "like 0.10 (no exponents), not {value}"
        )
    elif limits.whole:
        template = N_("{option}: must be a whole number from {low} to {high}, not {value}")
    elif error.reason == "range":
        template = N_("{option}: must be from {low} to {high}, not {value}")
    else:
        template = N_(
            "{option}: must be a number from {low} to {high} like 2, 0.5 or 1/2 "
            "(no exponents), not {value}"
        )
    return Problem(template, params, field=f"options.{key}")


def _show(value: Any) -> str:
    """A bad option value for a message, short (rules/problems.as_written)."""
    return as_written(value, 24, quoted=False)


class _BadOption(ValueError):
    """An option value that is not allowed: a message template ({option} and params)."""

    def __init__(self, template: str, **params: Any) -> None:
        super().__init__(template)
        self.template = template
        self.params = params


def _int(key: str) -> Callable[[Any], int]:
    def parse(raw: Any) -> int:
        if isinstance(raw, str):  # a game file writes whole numbers as numbers
            raise NumberError("form")
        return read_whole(raw, OPTION_BOUNDS[key])

    return parse


def _fraction(key: str) -> Callable[[Any], Fraction]:
    def parse(raw: Any) -> Fraction:
        return read_number(raw, OPTION_BOUNDS[key])

    return parse


def _consolation(raw: Any) -> Fraction | None:
    if raw == "value":
        return None
    return read_number(raw, OPTION_BOUNDS["consolation"])


def _bool(raw: Any) -> bool:
    if not isinstance(raw, bool):
        raise _BadOption(N_("{option}: must be true or false, not {value}"), value=_show(raw))
    return raw


if TYPE_CHECKING:
    _Choice = TypeVar("_Choice", bound=StrEnum)


def _choice(choices: type[_Choice]) -> Callable[[Any], _Choice]:
    def parse(raw: Any) -> _Choice:
        if not isinstance(raw, str) or raw not in tuple(choices):
            raise _BadOption(
                N_("{option}: “{value}” is not one of its values (docs/rules.md §7 lists them)"),
                choices=", ".join(choices),
                value=_show(raw),
            )
        return choices(raw)

    return parse


def _int_list(
    allowed: tuple[int, ...] | None, *, empty_ok: bool, minimum: int = 0
) -> Callable[[Any], tuple[int, ...]]:
    def parse(raw: Any) -> tuple[int, ...]:
        if not isinstance(raw, list):
            raise _BadOption(
                N_("{option}: must be a list of numbers, not {value}"), value=_show(raw)
            )
        if not raw and not empty_ok:
            raise _BadOption(N_("{option}: must not be empty"))
        if len(raw) > MAX_PROGRESSION:
            raise _BadOption(N_("{option} holds at most {limit} numbers"), limit=MAX_PROGRESSION)
        out = []
        for item in raw:
            if isinstance(item, bool) or not isinstance(item, int):
                raise _BadOption(
                    N_("{option}: must hold whole numbers, not {value}"), value=_show(item)
                )
            if allowed is not None and item not in allowed:
                raise _BadOption(
                    N_("{option}: {value} is not allowed here ({allowed})"),
                    value=_show(item),
                    allowed=", ".join(map(str, allowed)),
                )
            if not minimum <= item <= 100:
                raise _BadOption(
                    N_("{option}: {value} is not from {low} to {high}"),
                    value=_show(item),
                    low=minimum,
                    high=100,
                )
            out.append(item)
        return tuple(out)

    return parse


def _stake(raw: Any) -> Decimal:
    return read_stake(raw)


_MONEY_UNIT = re.compile(r"([0-9]{1,7})(?:\.([0-9]{1,2}))?")


def _money_unit(raw: Any) -> Decimal:
    """§6: a positive decimal with at most two places ("0.01", "1", "5"); read by its shape
    first, so no exponent is ever computed."""
    text = str(raw).strip() if isinstance(raw, str | int) and not isinstance(raw, bool) else ""
    if len(text) > 12 or _MONEY_UNIT.fullmatch(text) is None:
        raise _BadOption(
            N_(
                '{option}: must be a decimal with at most two decimals, like "0.01", "1" or "5", '
                "not {value}"
            ),
            value=_show(raw),
        )
    value = Decimal(text)
    if not 0 < value <= 1_000_000:
        raise _BadOption(
            N_("{option}: must be more than 0 and at most 1000000, not {value}"), value=_show(raw)
        )
    return value


def _limit(raw: Any) -> int | None:
    if raw is None:
        return None
    if isinstance(raw, bool) or not isinstance(raw, int) or not 1 <= raw <= 1000:
        raise _BadOption(
            N_(
                "{option}: must be a whole number from 1 to 1000, or empty for no limit, "
                "not {value}"
            ),
            value=_show(raw),
        )
    return raw


def _text(raw: Any) -> str:
    if not isinstance(raw, str):
        raise _BadOption(N_("{option}: must be text, not {value}"), value=_show(raw))
    if len(raw) > MAX_CURRENCY:
        raise _BadOption(N_("{option}: at most {limit} characters"), limit=MAX_CURRENCY)
    char = bad_character(raw)
    if char is not None:
        raise _BadOption(N_("{option} holds {char}: remove it"), char=char)
    return normalize(raw)


#: Each option's reader: its value in game-file notation → its value in Options.
_PARSERS: dict[str, Callable[[Any], object]] = {
    "pool_target": _int("pool_target"),
    "pool_whists": _int("pool_whists"),
    "hill_whists": _int("hill_whists"),
    "whist_scale": _fraction("whist_scale"),
    "remise_scale": _fraction("remise_scale"),
    "shortfall_rate": _fraction("shortfall_rate"),
    "consolation": _consolation,
    "dealer_consolation": _bool,
    "whist_split": _choice(WhistSplit),
    "two_whister_quota": _choice(TwoWhisterQuota),
    "ten_checked": _bool,
    "half_whist": _int_list((6, 7), empty_ok=True),
    "misere_value": _int("misere_value"),
    "misere_hill": _int("misere_hill"),
    "allpass_mode": _choice(AllpassMode),
    "allpass_price": _int("allpass_price"),
    "allpass_progression": _int_list(None, empty_ok=False, minimum=0),
    "allpass_exit": _int_list((6, 7, 8, 9, 10), empty_ok=True),
    "allpass_min_amnesty": _bool,
    "overflow": _choice(Overflow),
    "end": _choice(EndRule),
    "hill_divisor": _choice(HillDivisor),
    "stake": _stake,
    "currency": _text,
    "allpass_exit_on": _choice(AllpassExitOn),
    "money_unit": _money_unit,
    "round_limit": _limit,
    "stalingrad": _bool,
    "half_whist_tricks": _choice(HalfWhistTricks),
    "dealer_whist": _bool,
    "talon_bonus": _bool,
    "allpass_zero_bonus": _choice(AllpassZeroBonus),
    "allpass_zero_form": _choice(AllpassZeroForm),
    "allpass_dealer_talon": _bool,
    "allpass_zero_dealer": _bool,
    "deal_limit": _limit,
}
assert set(_PARSERS) == set(OPTION_NAMES)
