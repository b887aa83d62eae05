"""What can be wrong with a game or a deal, said so that a scorer can fix it."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def N_(message: str) -> str:
    """Mark a message for translation without translating it here (the rules layer is pure)."""
    return message


def as_written(value: Any, limit: int = 40, *, quoted: bool = True) -> str:
    """A bad value of a file for a one-line message, as the file writes it: a text in its
    double quotes (a control character escaped), null, true, a number, a list; never longer
    than `limit` characters. Every reader of a file (games of both families, options,
    seasons, tournaments) says a bad value this way. Not `quoted`: a printable text bare,
    for a message whose own words quote it (“{value}”)."""
    if isinstance(value, str):
        value = value[: limit + 1]  # enough to tell whether it is cut
    if isinstance(value, str) and not quoted and value.isprintable():
        text = value
    else:
        try:
            text = json.dumps(value, ensure_ascii=False, default=repr)
        except (ValueError, TypeError, RecursionError):  # a number too long to write, too deep
            text = repr(type(value).__name__)
    return text if len(text) <= limit else text[: limit - 3] + "..."


class Either(tuple[object, ...]):
    """Choices one of which is wanted, shown as "3, 4 or 5" (each language's "or" when
    shown to people)."""

    __slots__ = ()

    def __format__(self, spec: str) -> str:
        words = [str(item) for item in self]
        return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]

    def __str__(self) -> str:
        return format(self)


@dataclass(frozen=True)
class Label:
    """A name shown to people inside a problem (an option's label): translated when shown."""

    text: str

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class Problem:
    """One thing wrong with the input: a message template, its values, where it is."""

    template: str
    """English message with {name} placeholders; the key for translations."""
    params: Mapping[str, Any] = field(default_factory=dict)
    field: str | None = None
    """The input it concerns, e.g. "tricks", "answers.Boris", "contract", "options.stake"."""
    deal: int | None = None
    """1-based position of the deal in the log, or None for the game's settings."""

    def message(self) -> str:
        """The message in English, without the deal number."""
        return self.template.format(**self.params)

    def at_deal(self, deal: int) -> Problem:
        """The same problem, placed at a deal."""
        return Problem(self.template, self.params, self.field, deal)

    def __str__(self) -> str:
        if self.deal is None:
            return self.message()
        return f"deal {self.deal}: {self.message()}"


class InvalidGame(ValueError):
    """A game file or a deal that cannot be scored; `problems` says every reason."""

    def __init__(self, problems: list[Problem]) -> None:
        super().__init__("\n".join(str(p) for p in problems))
        self.problems = problems
