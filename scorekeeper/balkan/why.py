"""Why an entry wrote what it wrote: lines with a template and its values, worded for people
(`Words.line`) by the sheet, the deal form's preview and `score --format text`."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from scorekeeper.rules.problems import Label

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


@dataclass(frozen=True, slots=True)
class Why:
    """One line of an entry's explanation: an English template ({name} fields) and its values."""

    template: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        return self.template.format(**{k: str(v) for k, v in self.params.items()})


def word(text: str) -> Label:
    """A Balkan word inside a line (a contract, a refa's state), translated when shown."""
    return Label(text)
