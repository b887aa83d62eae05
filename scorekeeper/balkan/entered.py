"""A Balkan entry as the deal form sends it: one mapping under game-file notation's keys whose
values are the form's texts, read into an entry or its problems by field (`rules.read_entered`
for the Russian family). Fields: "type", "declarer", "contract", "igra", "followers",
"invited", "kontra", "kontra_by", "tricks.<name>", "entries.<n>", "reason", "left"."""

from __future__ import annotations

from collections.abc import Mapping

from scorekeeper.rules.numbers import whole_text
from scorekeeper.rules.problems import N_, Problem

from .deals import Entry
from .notation import parse_entry
from .sheet import Sheet

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_TRUE = ("1", "on", "true", "yes")


def read_entered(raw: Mapping[str, Any], sheet: Sheet) -> tuple[Entry | None, list[Problem]]:
    """Read an entry as entered before the sheet's next entry: the entry (None with problems)
    and every problem, each at its field; checked against the sheet as a stored one is."""
    problems: list[Problem] = []
    data = _notation(raw, problems)
    if problems:
        return None, problems
    entry, problems = parse_entry(data, sheet.players)
    if entry is None:
        return None, problems
    _, problems = sheet.plus(entry)
    return (None, problems) if problems else (entry, [])


def _notation(raw: Mapping[str, Any], problems: list[Problem]) -> dict[str, Any]:
    """The entry in game-file notation: texts read as numbers, empty choices left out."""
    data: dict[str, Any] = {}
    for key, value in raw.items():
        if value is None or value == "" or value == []:
            continue
        if key == "igra":
            data[key] = value is True or str(value).lower() in _TRUE
        elif key == "kontra":
            data[key] = _whole(key, value, problems)
        elif key == "tricks" and isinstance(value, Mapping):
            data[key] = {
                n: _whole(f"tricks.{n}", t, problems)
                for n, t in value.items()
                if t not in (None, "")
            }
        elif key == "entries" and isinstance(value, list):
            rows = [(n, e) for n, e in enumerate(value, start=1) if not _blank(e)]
            data[key] = [_entry(n, e, problems) for n, e in rows]
        else:
            data[key] = value
    if "type" not in data:
        problems.append(Problem(N_("Choose what to record"), field="type"))
    return data


def _blank(row: Any) -> bool:
    """A row of the form left empty (the form offers more rows than a correction uses)."""
    return isinstance(row, Mapping) and all(v in (None, "") for v in row.values())


def _entry(n: int, raw: Any, problems: list[Problem]) -> Any:
    if not isinstance(raw, Mapping):
        return raw
    out = {k: v for k, v in raw.items() if v not in (None, "")}
    for key in ("bule", "amount"):
        if key in out:
            out[key] = _whole(f"entries.{n}", out[key], problems)
    return out


def _whole(field: str, text: Any, problems: list[Problem]) -> int | None:
    value = whole_text(text, digits=7)
    if value is None:
        problems.append(
            Problem(N_("write a whole number, not {value}"), {"value": str(text)[:20]}, field)
        )
    return value
