"""Benchmark: `scorekeeper score` on a small file, the whole process, beside `python -c pass`.

Run: .venv/bin/python bench/bench_cli.py [--runs 21] [--deals 12] [--format json|text]

Runs the installed console script (`<venv>/bin/scorekeeper score FILE`) and the bare
interpreter (`python -c pass`) alternately, N times each, in one run; prints both medians,
the difference (what the command itself costs) and the ratio. The bar (issue 15): the
whole process ≤ 80 ms. Also lists the heavy packages a `score` run imports (none expected).

Wall time on a shared machine is noisy, so the CPU time (user + sys) of each child is
printed too. An installed wheel carries its compiled bytecode; an editable install run with
PYTHONDONTWRITEBYTECODE=1 would compile every module on every run. So the children keep
their bytecode in a temporary PYTHONPYCACHEPREFIX (warmed by one run first), unless
--no-bytecode asks for the compile-every-time case.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from scorekeeper.sample import random_game

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.cli.test_cli_imports import HEAVY as HEAVY_MODULES  # noqa: E402

CLI = Path(sys.executable).with_name("scorekeeper")
HEAVY = sorted(HEAVY_MODULES)
"""What `score` must not import (the web, the PDF, the servers): the import test's list."""


def cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(command: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU seconds of one run of the command."""
    cpu_before = cpu()
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, env=env)
    return time.perf_counter() - start, cpu() - cpu_before


def heavy_imports(path: Path, fmt: str, env: dict[str, str]) -> list[str]:
    """The heavy top-level packages in sys.modules after `score` ran in this interpreter."""
    code = (
        "import sys, contextlib, io\n"
        "from scorekeeper.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    main(['score', {str(path)!r}, '--format', {fmt!r}])\n"
        f"print(sorted({{m.split('.')[0] for m in sys.modules}} & {set(HEAVY)!r}))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env
    )
    return list(json.loads(out.stdout.strip().replace("'", '"')))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=21)
    parser.add_argument("--deals", type=int, default=12)
    parser.add_argument("--format", choices=("json", "text"), default="json")
    parser.add_argument("--no-bytecode", action="store_true", help="compile on every run")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ)
        if args.no_bytecode:
            env["PYTHONDONTWRITEBYTECODE"] = "1"
            env.pop("PYTHONPYCACHEPREFIX", None)
        else:
            env.pop("PYTHONDONTWRITEBYTECODE", None)
            env["PYTHONPYCACHEPREFIX"] = str(Path(tmp) / "pycache")
        path = Path(tmp) / "small.json"
        data = random_game(random.Random(7), args.deals, convention="sochi", players=3)
        path.write_text(json.dumps(data), encoding="utf-8")
        score = [str(CLI), "score", str(path), "--format", args.format]
        bare = [sys.executable, "-c", "pass"]
        for command in (score, bare):  # warm the file cache (and the bytecode)
            subprocess.run(command, check=True, stdout=subprocess.DEVNULL, env=env)
        runs: dict[str, list[tuple[float, float]]] = {"cli": [], "bare": []}
        for _ in range(args.runs):  # alternate, so a busy moment hits both alike
            runs["cli"].append(timed(score, env))
            runs["bare"].append(timed(bare, env))

        def ms(name: str, i: int) -> tuple[float, float]:
            values = [run[i] * 1000 for run in runs[name]]
            return statistics.median(values), min(values)

        cli, cli_min = ms("cli", 0)
        floor, floor_min = ms("bare", 0)
        cli_cpu, _ = ms("cli", 1)
        floor_cpu, _ = ms("bare", 1)
        print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        print(
            f"small file: {args.deals} deals, --format {args.format}, {args.runs} runs each, "
            f"{'compiled on every run' if args.no_bytecode else 'bytecode cached'}"
        )
        print(f"{'':36}{'wall median':>12}{'wall min':>10}{'CPU median':>12}")
        print(
            f"{'scorekeeper score (whole process)':36}{cli:10.1f}ms{cli_min:8.1f}ms"
            f"{cli_cpu:10.1f}ms   bar 80 ms: {'met' if cli <= 80 else 'MISSED'}"
        )
        print(f"{'python -c pass':36}{floor:10.1f}ms{floor_min:8.1f}ms{floor_cpu:10.1f}ms")
        print(
            f"the command's own cost: {cli - floor:.1f} ms wall, {cli_cpu - floor_cpu:.1f} ms "
            f"CPU; ratio {cli / floor:.1f}x"
        )
        heavy = heavy_imports(path, args.format, env)
        print(f"heavy packages imported by score: {', '.join(heavy) or 'none'}")


if __name__ == "__main__":
    main()
