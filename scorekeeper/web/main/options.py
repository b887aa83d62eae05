"""Every option of rules.md §7 as a form field: its kind, label, help, and JSON conversion."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask_babel import lazy_gettext as _l

from scorekeeper.rules import PRESETS
from scorekeeper.rules.options import (
    ALLPASS_MODES,
    ENDS,
    HILL_DIVISORS,
    OVERFLOWS,
    TWO_WHISTER_QUOTAS,
    WHIST_SPLITS,
)

# kind: int | number | consolation | bool | choice | levels | list | stake | text


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


CHOICE_LABELS: dict[str, Any] = {
    "greedy": _l("greedy: the whister writes all the side's whists"),
    "gentleman_on_remise": _l("gentleman on a remise: shared in half when the contract fails"),
    "gentleman": _l("gentleman: always shared in half"),
    "side": _l("the side's quota"),
    "personal": _l("each whister's own quota"),
    "hill": _l("hill for each trick"),
    "whists": _l("whists on those who took more"),
    "none": _l("no all-pass"),
    "help": _l("helps open pools"),
    "keep": _l("stays, counted at the settlement"),
    "all_closed": _l("every pool closed"),
    "pool_sum": _l("the pools add up to players × target"),
    "first_closed": _l("the first pool closed"),
    "players": _l("the number of players"),
    "opponents": _l("the number of opponents"),
}


def _choices(values: tuple[str, ...]) -> tuple[tuple[str, Any], ...]:
    return tuple((v, CHOICE_LABELS[v]) for v in values)


#: The options in the order of rules.md §7; pool target, stake and currency come first.
MAIN: tuple[OptionSpec, ...] = (
    OptionSpec("pool_target", "int", _l("Pool target"), _l("The game ends when pools reach it")),
    OptionSpec("stake", "stake", _l("Stake per whist"), _l("Money per whist, e.g. 0.10")),
    OptionSpec("currency", "text", _l("Currency"), _l("Shown with the money, e.g. EUR")),
)
HOUSE: tuple[OptionSpec, ...] = (
    OptionSpec("pool_whists", "int", _l("Whists per pool point")),
    OptionSpec("hill_whists", "int", _l("Whists per hill point")),
    OptionSpec("whist_scale", "number", _l("Whists per trick"), _l("× the contract value")),
    OptionSpec("remise_scale", "number", _l("Remise, hill per undertrick"), _l("× the value")),
    OptionSpec(
        "shortfall_rate",
        "number",
        _l("Whister short of quota, hill per trick"),
        _l("× the value; 1/2 for half"),
    ),
    OptionSpec(
        "consolation",
        "consolation",
        _l("Consolation per undertrick"),
        _l("Empty: the value × whists per trick; or a number"),
    ),
    OptionSpec("dealer_consolation", "bool", _l("The dealer writes consolation too (4 players)")),
    OptionSpec("whist_split", "choice", _l("One whister, one passer"), "", _choices(WHIST_SPLITS)),
    OptionSpec(
        "two_whister_quota", "choice", _l("Two whisters' quota"), "", _choices(TWO_WHISTER_QUOTAS)
    ),
    OptionSpec("ten_checked", "bool", _l("A ten is checked (no quota)")),
    OptionSpec("half_whist", "levels", _l("Half-whist allowed on"), "", (("6", "6"), ("7", "7"))),
    OptionSpec("misere_value", "int", _l("Misère made, pool")),
    OptionSpec("misere_hill", "int", _l("Misère failed, hill per trick")),
    OptionSpec("allpass_mode", "choice", _l("All-pass is scored as"), "", _choices(ALLPASS_MODES)),
    OptionSpec("allpass_price", "int", _l("All-pass, price of a trick")),
    OptionSpec(
        "allpass_progression",
        "list",
        _l("All-pass multipliers in a row"),
        _l("e.g. 1, 2, 3"),
    ),
    OptionSpec(
        "allpass_exit",
        "list",
        _l("Lowest contract after all-passes in a row"),
        _l("e.g. 7 or 6, 7, 8; empty: no limit"),
    ),
    OptionSpec("allpass_min_amnesty", "bool", _l("All-pass: the fewest tricks are free")),
    OptionSpec("overflow", "choice", _l("Points above the pool target"), "", _choices(OVERFLOWS)),
    OptionSpec("end", "choice", _l("The game ends when"), "", _choices(ENDS)),
    OptionSpec("hill_divisor", "choice", _l("The hill is divided by"), "", _choices(HILL_DIVISORS)),
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
}


def to_form(spec: OptionSpec, value: Any) -> Any:
    """An option's JSON value as its field's data."""
    if spec.kind == "levels":
        return [str(v) for v in value]
    if spec.kind == "list":
        return ", ".join(str(v) for v in value)
    if spec.kind == "consolation":
        return "" if value == "value" else str(value)
    if spec.kind in ("number", "stake"):
        return str(value)
    return value


class BadValue(ValueError):
    """A field's text cannot be an option value."""


def from_form(spec: OptionSpec, data: Any) -> Any:
    """A field's data as the option's JSON value; raises BadValue."""
    if spec.kind == "levels":
        return sorted(int(v) for v in (data or []))
    if spec.kind == "list":
        text = (data or "").replace(";", ",")
        items = [part.strip() for part in text.split(",") if part.strip()]
        if not all(item.isdigit() for item in items):
            raise BadValue(_l("write whole numbers separated by commas"))
        return [int(item) for item in items]
    if spec.kind == "consolation":
        text = (data or "").strip()
        return "value" if not text else _number(text)
    if spec.kind == "number":
        return _number((data or "").strip())
    if spec.kind == "stake":
        return (data or "").strip().replace(",", ".")
    if spec.kind == "text":
        return (data or "").strip()
    return data


def _number(text: str) -> Any:
    text = text.replace(",", ".")
    return int(text) if text.isdigit() else text


def preset_values(convention: str) -> dict[str, Any]:
    """A preset's options as field data, by field name (for the form and for the script)."""

    values = PRESETS[convention].to_json()
    return {spec.field: to_form(spec, values[spec.name]) for spec in ALL}
