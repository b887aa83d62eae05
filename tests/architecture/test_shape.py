"""The shape of the package: no function longer than the house's limit (issue 34), and none
near it without a reason (issue 52)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from ..harness import ROOT

PACKAGE = ROOT / "scorekeeper"

LIMIT = 60
"""The most lines a function may take, from its `def` line to its last line."""

ALLOWED: set[tuple[str, str]] = set()
"""Functions allowed over the limit, as (path inside the package, name): none."""

NEAR = 50
"""A function of NEAR to LIMIT lines is most often two things glued together: it needs a reason
in REASONS. The limit is a guard, not a target (issue 52): split by meaning, never to fit."""

REASONS: dict[tuple[str, str], str] = {}
"""Functions of NEAR to LIMIT lines, as (path inside the package, name): why each is one thing."""


def long_functions(package: Path = PACKAGE, limit: int = LIMIT) -> list[tuple[str, str, int]]:
    """Every function (methods and nested ones included) longer than `limit` lines, as
    (path inside the package, name, lines)."""
    found = []
    for path in sorted(package.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                assert node.end_lineno is not None
                lines = node.end_lineno - node.lineno + 1
                if lines > limit:
                    found.append((path.relative_to(package).as_posix(), node.name, lines))
    return found


def test_no_function_is_over_the_limit() -> None:
    over = [
        f"{path}: {name} ({lines} lines)"
        for path, name, lines in long_functions()
        if (path, name) not in ALLOWED
    ]
    assert over == []


def test_no_function_near_the_limit_without_a_reason() -> None:
    near = [
        f"{path}: {name} ({lines} lines)"
        for path, name, lines in long_functions(limit=NEAR - 1)
        if lines <= LIMIT and (path, name) not in REASONS
    ]
    assert near == [], "split by meaning, or give the reason in REASONS"


def test_every_reason_names_a_function_near_the_limit() -> None:
    """A reason outlives its function's length: once it is split (or grows over), the line goes."""
    near = {(path, name) for path, name, lines in long_functions(limit=NEAR - 1) if lines <= LIMIT}
    assert sorted(set(REASONS) - near) == []
    assert all(reason.strip() for reason in REASONS.values())


@pytest.mark.parametrize("lines, near", [(NEAR - 1, False), (NEAR, True), (LIMIT, True)])
def test_a_function_is_near_the_limit_from_its_50th_line(
    tmp_path: Path, lines: int, near: bool
) -> None:
    body = "".join(f"    x{i} = {i}\n" for i in range(lines - 1))
    (tmp_path / "m.py").write_text(f"def f():\n{body}", encoding="utf-8")
    assert bool(long_functions(tmp_path, limit=NEAR - 1)) is near


@pytest.mark.parametrize("lines, over", [(LIMIT, False), (LIMIT + 1, True)])
def test_a_function_is_counted_from_def_to_its_last_line(
    tmp_path: Path, lines: int, over: bool
) -> None:
    body = "".join(f"    x{i} = {i}\n" for i in range(lines - 1))
    (tmp_path / "m.py").write_text(f"def f():\n{body}", encoding="utf-8")
    assert bool(long_functions(tmp_path)) is over


def test_no_blueprint_imports_the_home_pages() -> None:
    """The new-game forms' shared parts live beside the blueprints (web/gameforms.py,
    web/options.py): the company and tournament blueprints never import the main one."""
    web = PACKAGE / "web"
    found = []
    for path in sorted(web.glob("*/*.py")):
        if path.parent.name == "main":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                module = ("." * node.level) + (node.module or "")
                if module.startswith("..main") or module.startswith("scorekeeper.web.main"):
                    found.append(f"{path.relative_to(PACKAGE).as_posix()}: {module}")
    assert found == []


# .venv/bin/python -m tests.architecture.test_shape: every one over, allowed too
if __name__ == "__main__":
    for path, name, lines in long_functions():
        print(f"{path}: {name} ({lines} lines){' (allowed)' if (path, name) in ALLOWED else ''}")
    for path, name, lines in long_functions(limit=NEAR - 1):
        if lines <= LIMIT:
            print(f"{path}: {name} ({lines} lines, near): {REASONS.get((path, name), 'no reason')}")
