"""Names are read in composed Unicode (NFC) and written back so, and the format documents say
so (issue 50, item 9): a game file whose player is "Е" with a combining diaeresis is the
player "Ё" in the file the app writes back."""

from __future__ import annotations

import json
import unicodedata

from scorekeeper import gamefile

from ..harness import ROOT

DECOMPOSED = "Е\u0308ва"


def test_a_game_file_is_written_back_in_composed_form() -> None:
    text = json.dumps({"format": gamefile.FORMAT, "convention": "sochi",
                       "players": [DECOMPOSED, "Boris", "Vera"], "deals": []})  # fmt: skip
    written = gamefile.dump(gamefile.loads(text))
    assert written["players"][0] == "Ёва" == unicodedata.normalize("NFC", DECOMPOSED)
    assert written["first_dealer"] == "Ёва"


def test_the_format_documents_say_names_are_written_in_nfc() -> None:
    for doc in ("docs/game-format.md", "docs/tournament.md"):
        text = (ROOT / doc).read_text(encoding="utf-8")
        assert "composed Unicode (NFC)" in text, doc
