"""`scorekeeper export`: a game's PDF written to a file, drawn as its family draws it (the
Russian sheet by render.pdf, a Balkan partija by render.pdf_balkan)."""

from __future__ import annotations

import os
import tempfile
from datetime import date
from pathlib import Path
from typing import Any

from scorekeeper.render import pdf
from scorekeeper.render.pdf_balkan import balkan_pdf


def export_pdf(game: Any, out: Path | None = None, *, exports_dir: Path, **kw: Any) -> Path:
    """Write the score sheet of a game of either family to `out`, or to
    exports_dir/<name>-<date>.pdf; returns the path."""
    if out is None:
        day = pdf.parse_time(kw.get("created_at"))
        out = exports_dir / pdf.export_name(game.name, day.date() if day else date.today())
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    data = _family_pdf(game, **kw)
    # Write beside the target, then rename: a reader never sees half a PDF.
    fd, tmp = tempfile.mkstemp(dir=out.parent, prefix=".export-", suffix=".pdf")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, out)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return out


def _family_pdf(game: Any, **kw: Any) -> bytes:
    """The PDF as the game's family draws it (a Balkan partija: render.pdf_balkan)."""
    from scorekeeper import balkan, gamefile

    if not isinstance(game, balkan.BalkanGame):
        return pdf.sheet_pdf(game, **kw)
    if len(game.deals) > gamefile.MAX_DEALS:
        raise pdf.TooLongForPdf(len(game.deals), gamefile.MAX_DEALS)
    return balkan_pdf(balkan.replay(game)[0], name=game.name, locale=kw.get("locale"))
