"""How the `scorekeeper` command ends: with main()'s status; a command that drew a PDF leaves
without the interpreter's teardown, where WeasyPrint's C libraries are closed in no fixed
order (a finished `export` once died of signal 11 there), its output flushed first."""

from __future__ import annotations

import importlib.metadata
import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from scorekeeper import cli

from ..helpers import contract, game_file


class _Left(Exception):
    def __init__(self, status: int) -> None:
        self.status = status


def _fake_exit(status: int) -> None:
    raise _Left(status)


def test_the_installed_command_runs_the_exit_path() -> None:
    scripts = importlib.metadata.entry_points(group="console_scripts")
    assert {e.value for e in scripts if e.name == "scorekeeper"} == {"scorekeeper.cli:run"}
    main = Path(cli.__file__).with_name("__main__.py").read_text(encoding="utf-8")
    assert "run()" in main


def test_an_export_leaves_at_once_with_its_output_flushed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = tmp_path / "game.json"
    deal = contract("A", "6S", {"B": "whist", "C": "pass"}, {"A": 6, "B": 4, "C": 0})
    source.write_text(json.dumps(game_file([deal], players=["A", "B", "C"])))
    out = tmp_path / "sheet.pdf"
    flushed: list[str] = []

    class Stream(io.StringIO):
        def flush(self) -> None:
            flushed.append(self.getvalue())

    monkeypatch.setattr(sys, "argv", ["scorekeeper", "export", str(source), "--out", str(out)])
    monkeypatch.setattr(sys, "stdout", Stream())
    monkeypatch.setattr(cli.os, "_exit", _fake_exit)
    with pytest.raises(_Left) as left:
        cli.run()
    assert left.value.status == 0
    assert out.read_bytes().startswith(b"%PDF")
    assert any(str(out.resolve()) in text for text in flushed), flushed


def test_a_command_that_drew_no_pdf_exits_as_usual(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    missing = tmp_path / "nothing.json"
    monkeypatch.delitem(sys.modules, "weasyprint", raising=False)
    monkeypatch.setattr(sys, "argv", ["scorekeeper", "score", str(missing)])
    called: list[Any] = []
    monkeypatch.setattr(cli.os, "_exit", called.append)
    with pytest.raises(SystemExit) as ended:
        cli.run()
    assert ended.value.code not in (0, None)
    assert called == []
