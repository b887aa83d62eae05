"""Time the PDF export of a 300-deal game and report its size (targets: < 2 s, < 300 KB).

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

from scorekeeper.render.pdf import export_pdf  # noqa: E402
from tests.test_render_pdf import long_game  # noqa: E402

TIME_TARGET = 2.0
SIZE_TARGET = 300 * 1024


def _pages(path: Path) -> str:
    """The page count as pdfinfo reports it, or "?" without poppler-utils."""
    if shutil.which("pdfinfo") is None:
        return "?"
    info = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True, check=False)
    lines = [x for x in info.stdout.splitlines() if x.startswith("Pages:")]
    return lines[0].split()[1] if lines else "?"


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
    print(f"deals:              {deals}")
    print(f"first export:       {cold:.2f} s (includes importing WeasyPrint)")
    print(f"warm export (best): {best:.2f} s  target < {TIME_TARGET:.0f} s")
    print(f"warm exports:       {', '.join(f'{t:.2f}' for t in warm)} s")
    print(f"size:               {size / 1024:.0f} KB  target < {SIZE_TARGET // 1024} KB")
    print(f"pages:              {pages}")
    return 0 if best < TIME_TARGET and size < SIZE_TARGET else 1


if __name__ == "__main__":
    raise SystemExit(main())
