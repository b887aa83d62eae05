"""Time the PDF export of a 300-deal game and report its size (targets: < 2 s, < 300 KB),
and what bounds that time.

The export has two phases: the page (replaying the log, wording every deal, drawing the
pulka and the chart as SVG: sheet_html) and WeasyPrint's layout and writing of it. Each is
timed by the wall clock and by this process's CPU time: when the CPU time is about the wall
time the export is bound by the processor (one core: WeasyPrint is single-threaded), and on
a loaded machine its wall time grows by the share of a core it gets (a 30 s PDF is a 2 s
PDF given a fifteenth of a core). The server bounds how many are drawn at once (PDF_SLOTS).

Run from the project root: `.venv/bin/python bench/bench_pdf.py [DEALS]`.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scorekeeper.render.export import export_pdf  # noqa: E402
from scorekeeper.render.pdf import TEMPLATES, sheet_html  # noqa: E402
from tests.render.test_render_pdf import long_game  # noqa: E402

TIME_TARGET = 2.0
SIZE_TARGET = 300 * 1024


def _pages(path: Path) -> str:
    """The page count as pdfinfo reports it, or "?" without poppler-utils."""
    if shutil.which("pdfinfo") is None:
        return "?"
    info = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True, check=False)
    lines = [x for x in info.stdout.splitlines() if x.startswith("Pages:")]
    return lines[0].split()[1] if lines else "?"


def _phases(game: object) -> dict[str, tuple[float, float]]:
    """(wall, CPU) seconds of the page's HTML and of WeasyPrint's layout, warm."""
    from weasyprint import HTML

    out = {}
    wall, cpu = time.perf_counter(), time.process_time()
    html = sheet_html(game)  # type: ignore[arg-type]
    out["page (html, svg)"] = (time.perf_counter() - wall, time.process_time() - cpu)
    wall, cpu = time.perf_counter(), time.process_time()
    HTML(string=html, base_url=str(TEMPLATES)).write_pdf()
    out["weasyprint layout"] = (time.perf_counter() - wall, time.process_time() - cpu)
    return out


def main() -> int:
    """Export once cold (WeasyPrint imported on first use) and three times warm."""
    deals = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    game = long_game(["Anna", "Boris", "Vera"], deals, name="Bench game")
    with tempfile.TemporaryDirectory() as tmp:
        exports = Path(tmp)
        start = time.perf_counter()
        path = export_pdf(game, exports_dir=exports)
        cold = time.perf_counter() - start
        warm = []
        for _ in range(3):
            start = time.perf_counter()
            path = export_pdf(game, exports_dir=exports)
            warm.append(time.perf_counter() - start)
        size = path.stat().st_size
        pages = _pages(path)
    best = min(warm)
    phases = _phases(game)
    print(f"deals:              {deals}")
    print(f"first export:       {cold:.2f} s (includes importing WeasyPrint)")
    print(f"warm export (best): {best:.2f} s  target < {TIME_TARGET:.0f} s")
    print(f"warm exports:       {', '.join(f'{t:.2f}' for t in warm)} s")
    print(f"size:               {size / 1024:.0f} KB  target < {SIZE_TARGET // 1024} KB")
    print(f"pages:              {pages}")
    for name, (wall, cpu) in phases.items():
        print(f"{name:<20}{wall:.2f} s wall, {cpu:.2f} s CPU ({cpu / wall:.0%} of the wall time)")
    layout = phases["weasyprint layout"][0] / sum(w for w, _ in phases.values())
    cpu_share = sum(c for _, c in phases.values()) / sum(w for w, _ in phases.values())
    bound = "the processor" if cpu_share > 0.8 else "waiting (a loaded machine, I/O)"
    print(f"bounded by:         {bound}; WeasyPrint's layout is {layout:.0%} of the time")
    return 0 if best < TIME_TARGET and size < SIZE_TARGET else 1


if __name__ == "__main__":
    raise SystemExit(main())
