"""Build step that pyproject.toml cannot declare: put the app's files into the package.

The product keeps `templates/` and `static/` at the top of the project; a wheel carries them
inside the `scorekeeper` package (found by `scorekeeper/paths.py`), together with the `.mo`
translations compiled here from the `.po` files, so a wheel built from a clean clone speaks
Russian and Ukrainian.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent


class BuildWithData(build_py):
    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):  # an editable install reads the checkout
            return
        target = Path(self.build_lib) / "scorekeeper"
        for name in ("templates", "static"):
            dest = target / name
            if dest.exists():
                shutil.rmtree(dest)
            shutil.copytree(ROOT / name, dest, ignore=shutil.ignore_patterns("__pycache__"))
        compile_translations(ROOT / "scorekeeper" / "translations", target / "translations")


def compile_translations(source: Path, dest: Path) -> None:
    """messages.po → messages.mo for every language (Babel, as `pybabel compile` does)."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    for po in sorted(source.glob("*/LC_MESSAGES/messages.po")):
        mo = dest / po.relative_to(source).with_suffix(".mo")
        mo.parent.mkdir(parents=True, exist_ok=True)
        with po.open("rb") as f:
            catalog = read_po(f, locale=po.parts[-3])
        with mo.open("wb") as f:
            write_mo(f, catalog)


setup(cmdclass={"build_py": BuildWithData})
