"""Where the app's files are: templates/, static/ and translations/.

In a source checkout `templates/` and `static/` sit at the top of the project, beside the
package; a built wheel carries them inside the package (setup.py maps them there at build
time). Both layouts are looked up here, the installed one first.
"""

from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parent


def data_dir(name: str) -> Path:
    """The folder `name` ("templates" or "static") of this copy of the app."""
    inside = PACKAGE / name
    if inside.is_dir():
        return inside
    return PACKAGE.parent / name


TEMPLATES = data_dir("templates")
STATIC = data_dir("static")
TRANSLATIONS = PACKAGE / "translations"
