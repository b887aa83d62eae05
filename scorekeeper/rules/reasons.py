"""Why an amount was written: a code and its values, worded for people (the sheet's "why")."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from .problems import N_

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: The wording of every reason, as players say it: the web and the PDF translate these
#: templates and write the numbers of tricks with their noun ("whists: 4 tricks × 2").
TEMPLATES: dict[str, str] = {
    "made": N_("{contract} made"),
    "passed": N_("{contract}, both defenders passed"),
    "half_whist_pool": N_("{contract}, half-whist"),
    "half_whist": N_("half-whist: {quota} × {per}"),
    "remise": N_("remise, {down}: {undertricks} × {per}"),
    "consolation": N_("consolation, {down}: {undertricks} × {per}"),
    "trick_whists": N_("whists: {tricks} × {per}"),
    "split_whists": N_("whists halved: {total} ÷ 2, partner {partner}"),
    "shortfall": N_("short of quota: {tricks} × {per}"),
    "misere_made": N_("misère made"),
    "misere_failed": N_("misère: {tricks} × {per}"),
    "allpass_hill": N_("all-pass: {tricks} × {per}"),
    # The fewest tricks are free (allpass_min_amnesty): the subtraction is shown.
    "allpass_hill_free": N_("all-pass: {taken} − {free} = {tricks} × {per}"),
    "allpass_pool": N_("all-pass: no trick"),
    "allpass_zero_hill": N_("all-pass: no trick, {points} off the hill"),
    "talon_bonus": N_("talon bonus: {tricks} × {per}"),
    "talon_bonus_shared": N_("talon bonus, half: {tricks} × {per} ÷ 2"),
    "allpass_whists": N_("all-pass: {tricks} × {per}"),
    "help_pool": N_("pool closed with points given by {giver}"),
    "help_whists": N_("helped close the pool: {points} × {per}"),
    "overflow_hill": N_("pool overflow: {points} off the hill"),
    "correction": N_("correction: {reason}"),
    "penalty": N_("penalty on {contract}: 1 × {per}"),
    "penalty_consolation": N_("penalty on {contract}: consolation 1 × {per}"),
    "hussar_hill": N_("{what}; instead of the hill: {points} × {per}"),
}


@dataclass(frozen=True, slots=True)
class Reason:
    """Why one entry was written: a code from TEMPLATES and the values it names."""

    code: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        params = {k: str(v) for k, v in self.params.items()}
        return TEMPLATES[self.code].format(**params)
