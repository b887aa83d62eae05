"""The Balkan family's options and its three presets (docs/balkan.md, "Options")."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum

from scorekeeper.rules.numbers import NumberError, bounds, read_stake, read_whole
from scorekeeper.rules.options import OPTION_LABELS as RUSSIAN_LABELS
from scorekeeper.rules.options import _BadOption, _money_unit, _text
from scorekeeper.rules.problems import N_, Label, Problem, as_written

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


class Preset(StrEnum):
    """The three presets: a club's majority, the Internet club, the national team final."""

    CLUB = "club"
    IKLUB = "iklub"
    SAVEZ = "savez"


class RefeCount(StrEnum):
    """What `refe_max` counts: refa entries that wrote refe, or the open refe one player holds."""

    WRITTEN = "written"
    OPEN = "open"


class PikKontra(StrEnum):
    """A plain pik needs a kontra while a refa would be allowed (required), or not (free)."""

    REQUIRED = "required"
    FREE = "free"


class FollowerQuota(StrEnum):
    """Who of the followers falls (bule + u) for taking fewer than two tricks."""

    EACH = "each"
    EACH_IF_MADE = "each_if_made"
    PAIR = "pair"


class FollowerFall(StrEnum):
    """What a follower who falls beside a second follower takes: u, or u / 2."""

    FULL = "full"
    HALF = "half"


class BetlKontraSupe(StrEnum):
    """Who writes a failed betl's supe under kontra."""

    KONTRA_GIVER = "kontra_giver"
    EACH = "each"


class ResultSign(StrEnum):
    """How results are printed: lower is better (as computed), or negated."""

    LOWER_BETTER = "lower_better"
    HIGHER_BETTER = "higher_better"


PRESETS_NAMES: tuple[str, ...] = tuple(p.value for p in Preset)
MAX_BULE = 100_000
MAX_REFE = 10_000
"""More refe than a partija of the most entries (5000) could ever write: no limit in practice."""


@dataclass(frozen=True)
class BalkanOptions:
    """Every option of one Balkan partija, resolved (the preset plus the table's changes)."""

    bule: int = 100
    refe_max: int | None = 2
    refe_count: RefeCount = RefeCount.WRITTEN
    refa_doubles_under_hat: bool = True
    kontra_max: int = 4
    pik_kontra: PikKontra = PikKontra.REQUIRED
    follower_quota: FollowerQuota = FollowerQuota.EACH
    follower_fall: FollowerFall = FollowerFall.FULL
    supe_cap: bool = True
    betl_kontra_supe: BetlKontraSupe = BetlKontraSupe.KONTRA_GIVER
    double_fall: bool = False
    result_sign: ResultSign = ResultSign.LOWER_BETTER
    stake: Decimal = Decimal("1")
    currency: str = ""
    money_unit: Decimal = Decimal("0.01")


PRESETS: dict[str, BalkanOptions] = {
    Preset.CLUB: BalkanOptions(),
    Preset.IKLUB: BalkanOptions(bule=200, refe_max=4, kontra_max=2, double_fall=True),
    Preset.SAVEZ: BalkanOptions(bule=400, refe_max=8, pik_kontra=PikKontra.FREE),
}

#: Each option's name for people (the key itself is the game file's).
OPTION_LABELS: dict[str, str] = {
    "bule": N_("Bule at the start"),
    "refe_max": N_("Most refe"),
    "refe_count": N_("Refe counted"),
    "refa_doubles_under_hat": N_("A refa doubles while someone is under the hat"),
    "kontra_max": N_("Highest kontra"),
    "pik_kontra": N_("Pik needs a kontra"),
    "follower_quota": N_("Who of the followers falls"),
    "follower_fall": N_("A follower falls"),
    "supe_cap": N_("A failed hand stops at the defence's fifth trick"),
    "betl_kontra_supe": N_("Supe of a failed betl under kontra"),
    "double_fall": N_("Double fall"),
    "result_sign": N_("Results printed"),
    "stake": N_("Stake per supa"),
    "currency": RUSSIAN_LABELS["currency"],
    "money_unit": RUSSIAN_LABELS["money_unit"],
}


def _show(raw: Any) -> str:
    """A bad option value for a message, short (rules/problems.as_written)."""
    return as_written(raw, 24)


def _bool(raw: Any) -> bool:
    if not isinstance(raw, bool):
        raise _BadOption(N_("{option}: must be true or false, not {value}"), value=_show(raw))
    return raw


def _choice(choices: type[StrEnum]) -> Callable[[Any], Any]:
    """One of the option's words (docs/balkan.md lists them); a refusal lists them all."""

    def parse(raw: Any) -> Any:
        if not isinstance(raw, str) or raw not in tuple(choices):
            raise _BadOption(
                N_("{option}: {value} is not one of {choices}"),
                value=_show(raw),
                choices=", ".join(choices),
            )
        return choices(raw)

    return parse


def _whole(low: int, high: int) -> Callable[[Any], int]:
    def parse(raw: Any) -> int:
        if isinstance(raw, str):
            raise NumberError("form")
        return read_whole(raw, bounds(low, high, whole=True))

    return parse


def _bule(raw: Any) -> int:
    value = _whole(2, MAX_BULE)(raw)
    if value % 2:
        raise _BadOption(N_("{option}: must be an even number, not {value}"), value=_show(raw))
    return value


def _refe_max(raw: Any) -> int | None:
    return None if raw is None else _whole(0, MAX_REFE)(raw)


_PARSERS: dict[str, Callable[[Any], Any]] = {
    "bule": _bule,
    "refe_max": _refe_max,
    "refe_count": _choice(RefeCount),
    "refa_doubles_under_hat": _bool,
    "kontra_max": _whole(0, 4),
    "pik_kontra": _choice(PikKontra),
    "follower_quota": _choice(FollowerQuota),
    "follower_fall": _choice(FollowerFall),
    "supe_cap": _bool,
    "betl_kontra_supe": _choice(BetlKontraSupe),
    "double_fall": _bool,
    "result_sign": _choice(ResultSign),
    "stake": read_stake,
    "currency": _text,
    "money_unit": _money_unit,
}

_LIMITS = {"bule": (2, MAX_BULE), "refe_max": (0, MAX_REFE), "kontra_max": (0, 4)}


def find_preset(name: object) -> str | None:
    """The preset named (its code), or None."""
    return name if isinstance(name, str) and name in PRESETS_NAMES else None


def resolve_options(
    preset: object, overrides: Mapping[str, Any]
) -> tuple[BalkanOptions, list[Problem]]:
    """The preset with the table's changes; returns the options and every problem found."""
    problems: list[Problem] = []
    changes: dict[str, Any] = {}
    for key, raw in overrides.items():
        parser = _PARSERS.get(key)
        field = f"options.{str(key)[:40]}"
        if parser is None:
            problems.append(Problem(N_("unknown option {option}"), {"option": _show(key)}, field))
            continue
        try:
            changes[key] = parser(raw)
        except NumberError:
            problems.append(_number_problem(key, raw))
        except _BadOption as bad:
            params = {"option": Label(OPTION_LABELS[key]), **bad.params}
            problems.append(Problem(bad.template, params, field))
    base = PRESETS.get(preset) if isinstance(preset, str) else None
    if base is None:
        shown = _show(preset)
        problems.append(
            Problem(
                N_("unknown convention {name} (club, iklub, savez)"), {"name": shown}, "convention"
            )
        )
        base = PRESETS[Preset.CLUB]
    return dataclasses.replace(base, **changes), problems


def _number_problem(key: str, raw: Any) -> Problem:
    params: dict[str, Any] = {"option": Label(OPTION_LABELS[key]), "value": _show(raw)}
    if key in _LIMITS:
        low, high = _LIMITS[key]
        template = N_("{option}: must be a whole number from {low} to {high}, not {value}")
        params.update(low=str(low), high=str(high))
    else:
        template = N_(
            "{option}: must be money from {low} to {high} with at most four decimals, "
            "like 0.10 (no exponents), not {value}"
        )
        params.update(low="0", high="1000000")
    return Problem(template, params, f"options.{key}")


def options_to_json(options: BalkanOptions) -> dict[str, Any]:
    """Every option in game-file notation."""
    out: dict[str, Any] = {}
    for f in dataclasses.fields(options):
        value = getattr(options, f.name)
        out[f.name] = str(value) if isinstance(value, Decimal) else value
    return out


#: Each preset's name for people.
PRESET_LABELS: dict[str, str] = {
    Preset.CLUB: N_("Club (100 bule, 2 refe)"),
    Preset.IKLUB: N_("Internet club (200 bule, 4 refe, rekontra at most)"),
    Preset.SAVEZ: N_("Team final (400 bule, 8 refe, pik without kontra)"),
}

#: Option values that are words, for the new-game form and the sheet.
VALUE_LABELS: dict[tuple[str, str], str] = {
    ("refe_count", RefeCount.WRITTEN): N_("refa entries that wrote refe"),
    ("refe_count", RefeCount.OPEN): N_("open refe one player holds"),
    ("pik_kontra", PikKontra.REQUIRED): N_(
        "a plain pik needs a kontra while a refa may be written"
    ),
    ("pik_kontra", PikKontra.FREE): N_("pik is played without kontra"),
    ("follower_quota", FollowerQuota.EACH): N_("each follower with fewer than 2 tricks"),
    ("follower_quota", FollowerQuota.EACH_IF_MADE): N_(
        "each follower with fewer than 2 tricks, when the declarer passed"
    ),
    ("follower_quota", FollowerQuota.PAIR): N_("two followers with 4 tricks together are safe"),
    ("follower_fall", FollowerFall.FULL): N_("the whole unit"),
    ("follower_fall", FollowerFall.HALF): N_("half the unit beside a second follower"),
    ("betl_kontra_supe", BetlKontraSupe.KONTRA_GIVER): N_("the kontra-giver alone"),
    ("betl_kontra_supe", BetlKontraSupe.EACH): N_("each follower"),
    ("result_sign", ResultSign.LOWER_BETTER): N_("lower is better"),
    ("result_sign", ResultSign.HIGHER_BETTER): N_("higher is better (negated)"),
}
