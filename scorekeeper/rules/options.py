"""Conventions and the options a table agrees on before play (docs/rules.md §7)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import Any

from .problems import N_, Problem

CONVENTIONS: tuple[str, ...] = ("sochi", "leningrad", "rostov", "hussar")

WHIST_SPLITS = ("greedy", "gentleman_on_remise", "gentleman")
TWO_WHISTER_QUOTAS = ("side", "personal")
ALLPASS_MODES = ("hill", "whists", "none")
OVERFLOWS = ("help", "keep")
ENDS = ("all_closed", "pool_sum", "first_closed")
HILL_DIVISORS = ("players", "opponents")
ALLPASS_EXITS_ON = ("any", "made")


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
    whist_split: str = "greedy"
    two_whister_quota: str = "side"
    ten_checked: bool = False
    half_whist: tuple[int, ...] = (6, 7)
    misere_value: int = 10
    misere_hill: int = 10
    allpass_mode: str = "hill"
    allpass_price: int = 1
    allpass_progression: tuple[int, ...] = (1, 2, 3)
    allpass_exit: tuple[int, ...] = (6,)
    allpass_min_amnesty: bool = False
    overflow: str = "help"
    end: str = "all_closed"
    hill_divisor: str = "players"
    stake: Decimal = Decimal("1")
    currency: str = ""
    allpass_exit_on: str = "any"
    """"any": any contract or misère ends an all-pass streak; "made": only one that writes
    into the declarer's pool (§4.5, seed 002)."""
    money_unit: Decimal = Decimal("0.01")
    """Money is rounded to multiples of this (§6): "0.01", "1", "5", "10"."""
    round_limit: int | None = None
    """The game also ends after this many full rounds (§5); None: no limit."""
    stalingrad: bool = False
    """A 6♠ must be whisted by both defenders (§7)."""

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
    "sochi": Options(),
    "leningrad": Options(
        pool_whists=20,
        whist_scale=Fraction(2),
        remise_scale=Fraction(2),
        whist_split="gentleman_on_remise",
        misere_hill=20,
        allpass_price=2,
        allpass_exit=(7,),
        overflow="keep",
        end="pool_sum",
    ),
    "rostov": Options(
        shortfall_rate=Fraction(1, 2),
        consolation=Fraction(10),
        whist_split="gentleman_on_remise",
        allpass_mode="whists",
        allpass_price=5,
        allpass_progression=(1,),
    ),
    "hussar": Options(
        consolation=Fraction(0),
        dealer_consolation=False,
        half_whist=(),
        allpass_mode="none",
        allpass_progression=(1,),
        allpass_exit=(),
        overflow="keep",
        end="first_closed",
    ),
}

#: How many players each convention seats.
PLAYER_COUNTS: dict[str, tuple[int, ...]] = {
    "sochi": (3, 4, 5),
    "leningrad": (3, 4, 5),
    "rostov": (3, 4, 5),
    "hussar": (2,),
}

OPTION_NAMES: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(Options))


def find_convention(name: object) -> str | None:
    """The convention's canonical name, or None if there is no such convention."""
    if not isinstance(name, str):
        return None
    key = name.strip().lower()
    return key if key in PRESETS else None


def resolve_options(convention: str, overrides: Mapping[str, Any]) -> tuple[Options, list[Problem]]:
    """Apply house-rule overrides to a preset; returns the options and the problems found."""
    problems: list[Problem] = []
    changes: dict[str, Any] = {}
    for key, raw in overrides.items():
        parser = _PARSERS.get(key)
        if parser is None:
            problems.append(
                Problem(
                    N_("unknown option {option}"), {"option": repr(key)}, field=f"options.{key}"
                )
            )
            continue
        try:
            changes[key] = parser(raw)
        except _BadOption as bad:
            why = Problem(bad.template, bad.params)
            problems.append(
                Problem(N_("option {option}: {why}"), {"option": key, "why": why}, f"options.{key}")
            )
    preset = PRESETS[convention]
    return dataclasses.replace(preset, **changes), problems


class _BadOption(ValueError):
    """An option's value that cannot be read: a message template and its values."""

    def __init__(self, template: str, **params: Any) -> None:
        super().__init__(template.format(**params) if params else template)
        self.template = template
        self.params = params


def _int(minimum: int) -> Any:
    def parse(raw: Any) -> int:
        if isinstance(raw, bool) or not isinstance(raw, int):
            raise _BadOption(N_("must be a whole number, not {value}"), value=repr(raw))
        if raw < minimum:
            raise _BadOption(
                N_("must be at least {minimum}, not {value}"), minimum=minimum, value=raw
            )
        return raw

    return parse


def _fraction(raw: Any) -> Fraction:
    if isinstance(raw, bool):
        raise _BadOption(N_("must be a number, not {value}"), value=repr(raw))
    try:
        if isinstance(raw, int):
            value = Fraction(raw)
        elif isinstance(raw, float):
            value = Fraction(str(raw))
        elif isinstance(raw, str):
            value = Fraction(raw.strip())
        else:
            raise _BadOption(N_("must be a number, not {value}"), value=repr(raw))
    except (ValueError, ZeroDivisionError):
        raise _BadOption(
            N_("must be a number like 1 or 1/2, not {value}"), value=repr(raw)
        ) from None
    if value < 0:
        raise _BadOption(N_("must not be negative, not {value}"), value=repr(raw))
    return value


def _consolation(raw: Any) -> Fraction | None:
    if raw == "value":
        return None
    return _fraction(raw)


def _bool(raw: Any) -> bool:
    if not isinstance(raw, bool):
        raise _BadOption(N_("must be true or false, not {value}"), value=repr(raw))
    return raw


def _choice(choices: tuple[str, ...]) -> Any:
    def parse(raw: Any) -> str:
        if raw not in choices:
            raise _BadOption(
                N_("must be one of {choices}, not {value}"),
                choices=", ".join(choices),
                value=repr(raw),
            )
        return str(raw)

    return parse


def _int_list(allowed: tuple[int, ...] | None, *, empty_ok: bool, minimum: int = 0) -> Any:
    def parse(raw: Any) -> tuple[int, ...]:
        if not isinstance(raw, list):
            raise _BadOption(N_("must be a list, not {value}"), value=repr(raw))
        if not raw and not empty_ok:
            raise _BadOption(N_("must not be empty"))
        out = []
        for item in raw:
            if isinstance(item, bool) or not isinstance(item, int):
                raise _BadOption(N_("must hold whole numbers, not {value}"), value=repr(item))
            if allowed is not None and item not in allowed:
                raise _BadOption(
                    N_("{value} is not allowed here ({allowed})"),
                    value=item,
                    allowed=", ".join(map(str, allowed)),
                )
            if item < minimum:
                raise _BadOption(N_("{value} is below {minimum}"), value=item, minimum=minimum)
            out.append(item)
        return tuple(out)

    return parse


def _stake(raw: Any) -> Decimal:
    if isinstance(raw, bool) or not isinstance(raw, str | int | float):
        raise _BadOption(N_("must be a number like 0.10"))
    try:
        value = Decimal(str(raw).strip())
    except InvalidOperation:
        raise _BadOption(N_("must be a number like 0.10")) from None
    if not value.is_finite() or value < 0:
        raise _BadOption(N_("must be a number like 0.10"))
    return value


def _money_unit(raw: Any) -> Decimal:
    if isinstance(raw, bool) or not isinstance(raw, str | int):
        raise _BadOption(f'must be a decimal string like "0.01", "1" or "5", not {raw!r}')
    try:
        value = Decimal(str(raw).strip())
    except InvalidOperation:
        raise _BadOption(f'must be a decimal string like "0.01", "1" or "5", not {raw!r}') from None
    if not value.is_finite() or value <= 0:
        raise _BadOption(f"must be more than 0, not {raw!r}")
    if value > 1_000_000:
        raise _BadOption(f"must be at most 1000000, not {raw!r}")
    if (value * 100) % 1 != 0:
        raise _BadOption(f"must have at most 2 decimals, not {raw!r}")
    return value


def _round_limit(raw: Any) -> int | None:
    if raw is None:
        return None
    if isinstance(raw, bool) or not isinstance(raw, int):
        raise _BadOption(f"must be a whole number of rounds or null, not {raw!r}")
    if raw < 1:
        raise _BadOption(f"must be at least 1 (or null for no limit), not {raw}")
    return raw


def _text(raw: Any) -> str:
    if not isinstance(raw, str):
        raise _BadOption(N_("must be text, not {value}"), value=repr(raw))
    if len(raw) > 20:
        raise _BadOption(N_("must be at most 20 characters"))
    return raw


_PARSERS: dict[str, Any] = {
    "pool_target": _int(1),
    "pool_whists": _int(1),
    "hill_whists": _int(1),
    "whist_scale": _fraction,
    "remise_scale": _fraction,
    "shortfall_rate": _fraction,
    "consolation": _consolation,
    "dealer_consolation": _bool,
    "whist_split": _choice(WHIST_SPLITS),
    "two_whister_quota": _choice(TWO_WHISTER_QUOTAS),
    "ten_checked": _bool,
    "half_whist": _int_list((6, 7), empty_ok=True),
    "misere_value": _int(0),
    "misere_hill": _int(0),
    "allpass_mode": _choice(ALLPASS_MODES),
    "allpass_price": _int(0),
    "allpass_progression": _int_list(None, empty_ok=False, minimum=0),
    "allpass_exit": _int_list((6, 7, 8, 9, 10), empty_ok=True),
    "allpass_min_amnesty": _bool,
    "overflow": _choice(OVERFLOWS),
    "end": _choice(ENDS),
    "hill_divisor": _choice(HILL_DIVISORS),
    "stake": _stake,
    "currency": _text,
    "allpass_exit_on": _choice(ALLPASS_EXITS_ON),
    "money_unit": _money_unit,
    "round_limit": _round_limit,
    "stalingrad": _bool,
}
assert set(_PARSERS) == set(OPTION_NAMES)
