"""`scorekeeper score` starts lean: the web stack, the PDF and Babel are not imported.

Speed itself is measured by bench/bench_cli.py; here only what is imported, which is what
makes the command slow when it goes wrong.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from ..helpers import allpass, contract, game_file

HEAVY = {
    "flask",
    "werkzeug",
    "jinja2",
    "babel",
    "flask_babel",
    "wtforms",
    "flask_wtf",
    "weasyprint",
    "uvicorn",
    "segno",
    "hypercorn",
    "socket",
    "shutil",
}


def imported_after(*argv: str, watch: set[str] = HEAVY) -> tuple[list[str], str]:
    """Run the command line in a fresh interpreter; the watched modules it imported, its
    output."""
    code = (
        "import contextlib, io, json, sys\n"
        "from scorekeeper.cli import main\n"
        "out = io.StringIO()\n"
        "with contextlib.redirect_stdout(out):\n"
        f"    status = main({list(argv)!r})\n"
        f"heavy = sorted({{m.split('.')[0] for m in sys.modules}} & {watch!r})\n"
        "print(json.dumps({'status': status, 'heavy': heavy, 'out': out.getvalue()}))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    result = json.loads(done.stdout)
    assert result["status"] == 0, done.stderr
    return result["heavy"], result["out"]


def small_file(tmp_path: Path) -> Path:
    deals = [
        contract("A", "7S", {"B": "whist", "C": "pass"}, {"A": 7, "B": 3}),
        allpass(A=2, B=4, C=4),
    ]
    path = tmp_path / "game.json"
    path.write_text(json.dumps(game_file(deals)), encoding="utf-8")
    return path


def test_score_as_json_imports_no_web_pdf_or_babel(tmp_path: Path):
    # Nor typing: the rules name its types for the type checker only (issue 15).
    heavy, out = imported_after(
        "score", str(small_file(tmp_path)), "--settle", watch=HEAVY | {"typing"}
    )
    assert heavy == []
    assert json.loads(out)["players"] == ["A", "B", "C"]  # it did score the file


def test_score_as_text_imports_babel_but_not_the_web_or_pdf(tmp_path: Path):
    # Text words numbers the language's way (Babel); still no Flask, WeasyPrint, SQLite.
    heavy, out = imported_after(
        "score", str(small_file(tmp_path)), "--format", "text", "--lang", "ru"
    )
    assert heavy == ["babel"]
    assert "A" in out
