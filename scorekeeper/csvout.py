"""CSV files people open in a spreadsheet: numbers that stay numbers, text that never runs.

One helper for every CSV the server writes (the company's standings; a tournament's tables
may reuse it): `csv_bytes(rows, language)`.

- **Numbers in the reader's language.** A spreadsheet reads "12.5" as a number only where the
  decimal point is "."; Russian and Ukrainian spreadsheets expect a decimal comma and ";"
  between cells, and read UTF-8 only after a byte order mark. So for ru and uk the file is
  `;`-separated with decimal commas and starts with a BOM; for en it is `,`-separated with
  decimal points. Exact fractions (whists can be thirds) are written as decimals rounded to
  hundredths: the exact values stay in the company file.
- **Text never runs as a formula** (OWASP "CSV injection"): a text cell that starts with
  `=`, `+`, `-`, `@`, a tab or a carriage return gets a leading `'`, which spreadsheets show
  as text. Numbers are numbers, so "-5" written by this module as a number stays a number.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

from scorekeeper.rules.text import escaped

#: What starts a formula in Excel, LibreOffice and Google Sheets.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
#: Languages whose spreadsheets use a decimal comma (and so ";" between cells).
DECIMAL_COMMA = frozenset({"ru", "uk", "sr", "hr"})
_CENTS = Decimal("0.01")


def dialect(language: str) -> tuple[str, str, bool]:
    """(cell separator, decimal mark, byte order mark?) for a language code ("ru", "en-GB")."""
    if language.split("-")[0].split("_")[0].lower() in DECIMAL_COMMA:
        return ";", ",", True
    return ",", ".", False


def cell(value: object, decimal_mark: str = ".") -> str:
    """One cell's text: a number in the reader's notation, or text made safe."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, Fraction):
        if value.denominator == 1:
            return str(value.numerator)
        value = (Decimal(value.numerator) / Decimal(value.denominator)).quantize(
            _CENTS, rounding=ROUND_HALF_UP
        )
    if isinstance(value, Decimal):
        text = format(value, "f")
        return text.replace(".", decimal_mark)
    text = "" if value is None else escaped(str(value), newlines=True)  # shown, as on pages
    return safe_text(text)


def safe_text(text: str) -> str:
    """Text that a spreadsheet shows as text, never runs (a leading ' when it could)."""
    return f"'{text}" if text.startswith(FORMULA_STARTS) else text


def csv_bytes(rows: Iterable[Sequence[object]], language: str) -> bytes:
    """The rows (the first one the header) as a CSV file for a reader of `language`.

    Cells may be text, int, Decimal or Fraction (see the module's docstring)."""
    separator, mark, bom = dialect(language)
    out = io.StringIO()
    writer = csv.writer(out, delimiter=separator, lineterminator="\r\n")
    for row in rows:
        writer.writerow([cell(value, mark) for value in row])
    return ("\ufeff" if bom else "").encode() + out.getvalue().encode("utf-8")
