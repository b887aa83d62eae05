"""Every option of docs/rules.md §7 as a form field: its kind, label, help, and JSON conversion."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask_babel import lazy_gettext as _l

from scorekeeper.rules import PRESETS
from scorekeeper.rules.numbers import whole_text
from scorekeeper.rules.options import (
    ALLPASS_EXITS_ON,
    ALLPASS_MODES,
    ALLPASS_ZERO_BONUSES,
    ALLPASS_ZERO_FORMS,
    ENDS,
    HALF_WHIST_TRICKS,
    HILL_DIVISORS,
    OVERFLOWS,
    TWO_WHISTER_QUOTAS,
    WHIST_SPLITS,
)
from scorekeeper.wording import NAMED_VALUE_LABELS, OPTION_LABELS, VALUE_LABELS

# kind: int | optint | number | consolation | bool | choice | levels | list | stake | text


@dataclass(frozen=True)
class OptionSpec:
    """One option's field: name (the game-file key), kind, label, help, choices."""

    name: str
    kind: str
    label: Any
    help: Any = ""
    choices: tuple[tuple[str, Any], ...] = ()

    @property
    def field(self) -> str:
        """The form field's name."""
        return f"opt_{self.name}"


#: The words of each choice, the same as the PDF's (scorekeeper.wording).
CHOICE_LABELS: dict[str, Any] = {key: _l(text) for key, text in VALUE_LABELS.items()}


def _spec(
    name: str, kind: str, help: Any = "", choices: tuple[tuple[str, Any], ...] = ()
) -> OptionSpec:
    """An option's field, labelled with the words of the PDF (scorekeeper.wording)."""
    return OptionSpec(name, kind, _l(OPTION_LABELS[name]), help, choices)


def _choices(values: tuple[str, ...], name: str = "") -> tuple[tuple[str, Any], ...]:
    """Each value with its words (an option's own words first, for "none" and "hill")."""
    return tuple(
        (
            v,
            _l(NAMED_VALUE_LABELS[name, v])
            if (name, v) in NAMED_VALUE_LABELS
            else CHOICE_LABELS[v],
        )
        for v in values
    )


#: The options in the order of docs/rules.md §7; pool target, stake and currency come first.
MAIN: tuple[OptionSpec, ...] = (
    _spec("pool_target", "int", _l("The game ends when pools reach it")),
    _spec("stake", "stake", _l("Money per whist, e.g. 0.10")),
    _spec("currency", "text", _l("Shown with the money, e.g. EUR")),
    _spec("money_unit", "stake", _l("0.01 for cents; 1, 5 or 10 for whole units of the currency")),
    _spec(
        "round_limit", "optint", _l("The game also ends after this many rounds; empty: no limit")
    ),
    _spec("deal_limit", "optint", _l("The game also ends after this many deals; empty: no limit")),
)
HOUSE: tuple[OptionSpec, ...] = (
    _spec("pool_whists", "int"),
    _spec("hill_whists", "int"),
    _spec("whist_scale", "number", _l("× the contract value")),
    _spec("remise_scale", "number", _l("× the value")),
    _spec("shortfall_rate", "number", _l("× the value; 1/2 for half")),
    _spec("consolation", "consolation", _l("Empty: the value × whists per trick; or a number")),
    _spec("dealer_consolation", "bool"),
    _spec("whist_split", "choice", choices=_choices(WHIST_SPLITS)),
    _spec("two_whister_quota", "choice", choices=_choices(TWO_WHISTER_QUOTAS)),
    _spec("ten_checked", "bool"),
    _spec("half_whist", "levels", choices=(("6", "6"), ("7", "7"))),
    _spec("half_whist_tricks", "choice", choices=_choices(HALF_WHIST_TRICKS)),
    _spec("dealer_whist", "bool"),
    _spec("talon_bonus", "bool"),
    _spec("misere_value", "int"),
    _spec("misere_hill", "int"),
    _spec("allpass_mode", "choice", choices=_choices(ALLPASS_MODES)),
    _spec("allpass_price", "int"),
    _spec("allpass_progression", "list", _l("e.g. 1, 2, 3")),
    _spec("allpass_exit", "list", _l("e.g. 7 or 6, 7, 8; empty: no limit")),
    _spec("allpass_min_amnesty", "bool"),
    _spec(
        "allpass_zero_bonus",
        "choice",
        choices=_choices(ALLPASS_ZERO_BONUSES, "allpass_zero_bonus"),
    ),
    _spec("allpass_zero_form", "choice", choices=_choices(ALLPASS_ZERO_FORMS, "allpass_zero_form")),
    _spec("allpass_dealer_talon", "bool"),
    _spec("allpass_zero_dealer", "bool"),
    _spec("allpass_exit_on", "choice", choices=_choices(ALLPASS_EXITS_ON)),
    _spec("stalingrad", "bool"),
    _spec("overflow", "choice", choices=_choices(OVERFLOWS)),
    _spec("end", "choice", choices=_choices(ENDS)),
    _spec("hill_divisor", "choice", choices=_choices(HILL_DIVISORS)),
)
ALL: tuple[OptionSpec, ...] = MAIN + HOUSE

#: Options that cannot change a game of these conventions or player counts, so the form does
#: not show them there: Hussar has no dealer, no half-whist, one defender and no all-pass
#: (§9); only a table of four has a dealer who sits out and may write consolation.
NOT_FOR: dict[str, dict[str, Any]] = {
    "opt_dealer_consolation": {"conventions": ["hussar"], "players": [4]},
    "opt_half_whist": {"conventions": ["hussar"]},
    "opt_whist_split": {"conventions": ["hussar"]},
    "opt_two_whister_quota": {"conventions": ["hussar"]},
    "opt_allpass_mode": {"conventions": ["hussar"]},
    "opt_allpass_price": {"conventions": ["hussar"]},
    "opt_allpass_progression": {"conventions": ["hussar"]},
    "opt_allpass_exit": {"conventions": ["hussar"]},
    "opt_allpass_min_amnesty": {"conventions": ["hussar"]},
    "opt_allpass_exit_on": {"conventions": ["hussar"]},
    "opt_stalingrad": {"conventions": ["hussar"]},
    "opt_hill_divisor": {"conventions": ["hussar"]},
    "opt_half_whist_tricks": {"conventions": ["hussar"]},
    "opt_dealer_whist": {"conventions": ["hussar"], "players": [4, 5]},
    "opt_allpass_zero_bonus": {"conventions": ["hussar"]},
    "opt_allpass_zero_form": {"conventions": ["hussar"]},
    "opt_allpass_dealer_talon": {"conventions": ["hussar"], "players": [4, 5]},
    "opt_allpass_zero_dealer": {"conventions": ["hussar"], "players": [4, 5]},
}


def to_form(spec: OptionSpec, value: Any) -> Any:
    """An option's JSON value as its field's data."""
    if spec.kind == "levels":
        return [str(v) for v in value]
    if spec.kind == "list":
        return ", ".join(str(v) for v in value)
    if spec.kind == "consolation":
        return "" if value == "value" else str(value)
    if spec.kind == "optint":
        return "" if value is None else str(value)
    if spec.kind in ("number", "stake"):
        return str(value)
    return value


class BadValue(ValueError):
    """A field's text cannot be an option value."""


def from_form(spec: OptionSpec, data: Any) -> Any:
    """A field's data as the option's JSON value; raises BadValue."""
    if spec.kind == "levels":
        levels = [whole_text(v, digits=2) for v in (data or [])]
        if any(level is None for level in levels):
            raise BadValue(_l("write whole numbers separated by commas"))
        return sorted(level for level in levels if level is not None)
    if spec.kind == "list":
        text = (data or "").replace(";", ",")
        items = [part.strip() for part in text.split(",") if part.strip()]
        numbers = [whole_text(item, digits=4) for item in items]
        if any(n is None or n < 0 for n in numbers) or len(items) > 100:
            raise BadValue(_l("write whole numbers separated by commas"))
        return numbers
    if spec.kind == "consolation":
        text = (data or "").strip()
        return "value" if not text else _number(text)
    if spec.kind == "number":
        return _number((data or "").strip())
    if spec.kind == "optint":
        text = (data or "").strip()
        if not text:
            return None
        number = whole_text(text)
        if number is None or number < 0:
            raise BadValue(_l("write a whole number, or leave it empty"))
        return number
    if spec.kind == "stake":
        return (data or "").strip().replace(",", ".")
    if spec.kind == "text":
        return (data or "").strip()
    return data


def _number(text: str) -> Any:
    text = text.replace(",", ".")
    number = whole_text(text)
    return text if number is None else number


@dataclass(frozen=True)
class HouseSet:
    """A one-tap set of house rules: a preset with a few options changed (docs/rules.md §7)."""

    key: str
    convention: str
    changes: tuple[tuple[str, Any], ...]
    label: Any
    help: Any


#: The seeds' literal readings, offered on the new-game page (docs/rules.md §7, end).
HOUSE_SETS: tuple[HouseSet, ...] = (
    HouseSet(
        "sochi-003",
        "sochi",
        (("allpass_progression", [1]), ("hill_divisor", "opponents")),
        _l("Sochi, no all-pass progression, hill split between the opponents"),
        _l("all-passes always at 1; each hill divided by the number of opponents"),
    ),
    HouseSet(
        "leningrad-002",
        "leningrad",
        (("allpass_exit_on", "made"),),
        _l("Leningrad, all-passes end only with a game written into the pool"),
        _l("after a failed contract or misère the all-passes go on"),
    ),
)


def house_set(key: object) -> HouseSet | None:
    """The house-rule set with this key, if any."""
    return next((h for h in HOUSE_SETS if h.key == key), None)


def preset_values(convention: str) -> dict[str, Any]:
    """A preset's options as field data, by field name (for the form and for the script)."""

    values = PRESETS[convention].to_json()
    return {spec.field: to_form(spec, values[spec.name]) for spec in ALL}
