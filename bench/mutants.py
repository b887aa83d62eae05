"""A seeded sample of mutants of the rules, and how many the rules tier kills.

    nice -n 19 python -m bench.mutants --seed 52 -n 30

Every place in the target's modules where one small change makes another program is a site:
an arithmetic operator swapped (+ for -, * for /, …), a comparison flipped (< for <=, == for
!=, in for not in, is for is not), `and` for `or`, a `not` dropped, a whole-number constant
plus one, True for False and back. The seed picks N sites; each mutant is written into a
copy of the repository at a commit (git archive: other people's unfinished work does not
count) and the tests are run there (`-x -q -n 0 -p no:randomly`). A mutant is killed when
the tests fail, or run past ten times the unmutated run (a loop that no longer ends). The
survivors are listed with their line, to read: some are equivalent (the same program), the
others want a test. `--site PATH:LINE` runs every mutant of one line instead of a sample.

    nice -n 19 python -m bench.mutants --area services --seed 53 -n 30

samples the services' write paths instead (games, company, tournament and club writes) and
runs their service tests. A survivor found the same program is listed in EQUIVALENT below,
with why: it is counted apart, not as killed, and the share killed is of the others.
"""

from __future__ import annotations

import argparse
import ast
import os
import random
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

SWAPS: dict[type, type] = {
    ast.Add: ast.Sub,
    ast.Sub: ast.Add,
    ast.Mult: ast.Div,
    ast.Div: ast.Mult,
    ast.FloorDiv: ast.Mult,
    ast.Mod: ast.FloorDiv,
    ast.Pow: ast.Mult,
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
    ast.And: ast.Or,
    ast.Or: ast.And,
}
SYMBOLS: dict[type, str] = {
    ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//",
    ast.Mod: "%", ast.Pow: "**", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=",
    ast.Eq: "==", ast.NotEq: "!=", ast.In: "in", ast.NotIn: "not in", ast.Is: "is",
    ast.IsNot: "is not", ast.And: "and", ast.Or: "or",
}  # fmt: skip


#: Where the mutants are drawn from, and the tests that are to kill them.
AREAS = {
    "rules": ("scorekeeper/rules", "tests/rules"),
    "services": (
        "scorekeeper/games/writes.py scorekeeper/company/writes.py "
        "scorekeeper/tournament/service.py scorekeeper/club/writes.py",
        "tests/games/test_games_service.py tests/company/test_company_writes.py "
        "tests/club/test_club.py tests/tournament/test_tournament_roster.py "
        "tests/tournament/test_tournament_late.py tests/tournament/test_tournament_service.py "
        "-k 'not postgresql'",
    ),
}

FINGERPRINT = "text = json.dumps(self.data, sort_keys=True, ensure_ascii=False)"

#: Mutants that are the same program, by (file, the line as written, the change): why.
EQUIVALENT = {
    ("scorekeeper/rules/scoring.py", "tricks = deal.talon_tricks or 0", "0 → 1"): (
        "_talon_bonus is only called when deal.talon_tricks is more than 0"
    ),
    (
        "scorekeeper/rules/notation.py",
        "if type(count) is not int or not 0 <= count <= 10:",
        "<= → <",
    ): (
        "the quick reading declines 0 or 10 tricks, and the full reading it falls back to "
        "reads the same deal (a test checks the two agree for any mapping)"
    ),
    (
        "scorekeeper/rules/notation.py",
        "if type(count) is not int or not 0 <= count <= 10:",
        "0 → 1",
    ): "as for <= → < on this line: 0 tricks are read by the full reading instead",
    **{
        ("scorekeeper/games/writes.py", FINGERPRINT, change): (
            "the fingerprint is made by the server alone, at Check and at Save, of a deal "
            "written by one function (deal_to_dict, its keys in one order): another stable "
            "text of the deal is as good a digest"
        )
        for change in ("True → False", "False → True")
    },
    (
        "scorekeeper/rules/numbers.py",
        "value = Fraction(raw) if -(10**_DIGITS) < raw < 10**_DIGITS else None",
        "10 → 11",
    ): (
        "every bound is under 10**9 (the largest is a million): an int past it is refused "
        "as out of range either way"
    ),
    ("scorekeeper/rules/payments.py", "for mask in range(1, full + 1):", "+ → -"): (
        "under the rules the same: another of the finest zero-sum partitions, as many "
        "groups (rules.md §6 fixes how many payments, not which of equally few)"
    ),
    (
        "scorekeeper/rules/scoring.py",
        "self._trick_whists_of_one(deal, whister, [whister], side, taken >= level)",
        ">= → >",
    ): (
        "the lone whister is the only defender passed, so there is no passer to share with "
        "and `made` is never read"
    ),
    ("scorekeeper/rules/scoring.py", "if rest > 0:", "> → >="): (
        "with nothing left the hill entry is 0, and an amount of 0 is never written"
    ),
    ("scorekeeper/rules/settlement.py", "unit: Fraction = Fraction(1, 100),", "100 → 101"): (
        "both callers pass the game's money_unit: the default is never used"
    ),
    (
        "scorekeeper/rules/scoring.py",
        "if entry.whists_on is not None and entry.amount is not None:",
        "and → or",
    ): "a correction entry holds whists_on and amount both or neither (reading refuses one)",
    (
        "scorekeeper/rules/tournament.py",
        "count = -(-players // 4) if table_size == 4 else players // 3",
        "// → *",
    ): (
        "the loop below lowers any larger count to the largest that seats three at every "
        "table, which is players // 3"
    ),
    (
        "scorekeeper/rules/company.py",
        "part = Sheet(game, sheet.results[:k], sheet.next_dealer, 0, None, _totals=totals)",
        "0 → 1",
    ): "the part's all-pass streak is never read: in_whists reads its totals only",
    ("scorekeeper/rules/seat.py", "@dataclass(frozen=True)", "True → False"): (
        "nothing writes a Seat's fields or hashes one: frozen only guards against a write"
    ),
}


@dataclass(frozen=True)
class Site:
    """One mutant: the file (relative to the repository), the site's place among the file's
    sites (in ast.walk order), its line, and what changes."""

    path: str
    index: int
    line: int
    change: str


def sites_of(tree: ast.AST) -> Iterator[tuple[ast.AST, int, int, str]]:
    """Each site of a module: (node, which operator of it or -1, line, the change in words)."""
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.BinOp | ast.AugAssign) and type(node.op) in SWAPS:
            yield node, -1, line, _said(node.op)
        elif isinstance(node, ast.BoolOp):
            yield node, -1, line, _said(node.op)
        elif isinstance(node, ast.Compare):
            for i, op in enumerate(node.ops):
                yield node, i, line, _said(op)
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            yield node, -1, line, "not dropped"
        elif _whole_number(node):
            yield node, -1, line, f"{node.value!r} → {node.value + 1!r}"  # type: ignore[attr-defined]
        elif isinstance(node, ast.Constant) and isinstance(node.value, bool):
            yield node, -1, line, f"{node.value} → {not node.value}"


def _said(op: ast.AST) -> str:
    return f"{SYMBOLS[type(op)]} → {SYMBOLS[SWAPS[type(op)]]}"


def _whole_number(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Constant)
        and isinstance(node.value, int)
        and not isinstance(node.value, bool)
    )


class _DropNot(ast.NodeTransformer):
    def __init__(self, target: ast.AST) -> None:
        self.target = target

    def visit_UnaryOp(self, node: ast.UnaryOp) -> ast.AST:
        self.generic_visit(node)
        return node.operand if node is self.target else node


def mutated(source: str, index: int) -> str:
    """The module's text with its index-th site changed."""
    tree = ast.parse(source)
    node, which, _, _ = list(sites_of(tree))[index]
    if isinstance(node, ast.BinOp | ast.AugAssign | ast.BoolOp):
        node.op = SWAPS[type(node.op)]()
    elif isinstance(node, ast.Compare):
        node.ops[which] = SWAPS[type(node.ops[which])]()
    elif isinstance(node, ast.UnaryOp):
        tree = _DropNot(node).visit(tree)
    elif isinstance(node, ast.Constant) and isinstance(node.value, bool):
        node.value = not node.value
    else:
        assert isinstance(node, ast.Constant) and isinstance(node.value, int)
        node.value = node.value + 1
    return ast.unparse(tree)


def all_sites(copy: Path, target: str) -> list[Site]:
    """Every site of the target's modules (folders or files, space-separated)."""
    found = []
    for where in (copy / name for name in target.split()):
        for path in sorted(where.rglob("*.py")) if where.is_dir() else [where]:
            relative = str(path.relative_to(copy))
            for index, (_, _, line, change) in enumerate(sites_of(ast.parse(path.read_text()))):
                found.append(Site(relative, index, line, change))
    return found


def checkout(ref: str, into: Path) -> None:
    """The repository's files at a commit (or the work tree as it is, for "WORKTREE")."""
    if ref == "WORKTREE":
        shutil.copytree(ROOT, into, dirs_exist_ok=True, ignore=shutil.ignore_patterns(".*"))
        return
    archive = subprocess.run(["git", "archive", ref], cwd=ROOT, capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)
    # The compiled catalogues are not committed (*.mo): the tests read the pages' words.
    babel = [sys.executable, "-m", "babel.messages.frontend", "compile"]
    subprocess.run(
        [*babel, "-d", str(into / "scorekeeper/translations")], capture_output=True, check=True
    )


def run_tests(copy: Path, tests: str, timeout: float) -> tuple[bool, float]:
    """(whether the tests passed, how long they ran); a run past the timeout fails."""
    command = [sys.executable, "-m", "pytest", *shlex.split(tests), "-x", "-q", "-n", "0"]
    command += ["-p", "no:randomly", "-p", "no:cacheprovider", "--timeout", str(int(timeout))]
    env = {**os.environ, "PYTHONPATH": str(copy), "PYTHONDONTWRITEBYTECODE": "1"}
    started = time.monotonic()
    try:
        done = subprocess.run(command, cwd=copy, env=env, capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return False, time.monotonic() - started
    return done.returncode == 0, time.monotonic() - started


def line_of(copy: Path, site: Site) -> str:
    return (copy / site.path).read_text().splitlines()[site.line - 1].strip()


def _chosen(copy: Path, args: argparse.Namespace) -> tuple[list[Site], str]:
    """The mutants to run, and how they were chosen in words: every one of the lines asked
    for (--site), else N of the target's drawn by the seed."""
    if args.site:
        places = [site.rsplit(":", 1) for site in args.site]
        files = dict.fromkeys(path for path, _ in places)
        sites = [site for path in files for site in all_sites(copy, path)]
        chosen = [site for site in sites if [site.path, str(site.line)] in places]
        return chosen, f"{len(chosen)} mutants of {len(places)} lines"
    sites = all_sites(copy, args.target)
    chosen = random.Random(args.seed).sample(sites, min(args.n, len(sites)))
    return chosen, f"{len(sites)} sites in {args.target}; {len(chosen)} drawn by seed {args.seed}"


def sample(copy: Path, args: argparse.Namespace) -> tuple[list[Site], list[Site]]:
    """Run the sampled mutants: (killed, survived)."""
    passed, took = run_tests(copy, args.tests, 3600)
    if not passed:
        sys.exit(f"the tests fail without a mutant ({args.ref}): nothing to measure")
    chosen, drawn = _chosen(copy, args)
    print(f"{drawn}; the unmutated run took {took:.0f} s", flush=True)
    killed: list[Site] = []
    survived: list[Site] = []
    for site in chosen:
        original = (copy / site.path).read_text()
        (copy / site.path).write_text(mutated(original, site.index))
        try:
            dead = not run_tests(copy, args.tests, max(60.0, 10 * took))[0]
        finally:
            (copy / site.path).write_text(original)
        (killed if dead else survived).append(site)
        print(f"{'killed ' if dead else 'SURVIVED'} {site.path}:{site.line} {site.change}: "
              f"{line_of(copy, site)}", flush=True)  # fmt: skip
    return killed, survived


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=52)
    parser.add_argument("-n", type=int, default=30, help="how many mutants")
    parser.add_argument("--area", choices=AREAS, default="rules", help="its target and tests")
    parser.add_argument("--target", help="folders or files, space-separated")
    parser.add_argument("--tests", help="pytest's arguments: test paths, space-separated")
    parser.add_argument("--ref", default="HEAD", help='a commit, or "WORKTREE"')
    parser.add_argument("--site", action="append", help="PATH:LINE, every mutant of it")
    args = parser.parse_args()
    target, tests = AREAS[args.area]
    args.target, args.tests = args.target or target, args.tests or tests
    return args


def main() -> None:
    args = arguments()
    with tempfile.TemporaryDirectory(prefix="mutants-") as folder:
        copy = Path(folder)
        checkout(args.ref, copy)
        killed, survived = sample(copy, args)
        same = {
            site: EQUIVALENT.get((site.path, line_of(copy, site), site.change)) for site in survived
        }
    alive = [site for site in survived if same[site] is None]
    total = len(killed) + len(alive)
    which = "the lines asked for" if args.site else f"seed {args.seed}"
    print(f"\n{which}: {len(killed)} of {total} non-equivalent killed "
          f"({100 * len(killed) / max(total, 1):.1f} %), {len(alive)} survived, "
          f"{len(survived) - len(alive)} equivalent")  # fmt: skip
    for site in survived:
        why = f" (equivalent: {same[site]})" if same[site] else ""
        print(f"  survived: {site.path}:{site.line} {site.change}{why}")


if __name__ == "__main__":
    main()
