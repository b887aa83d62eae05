"""A follower's card tells the last deals in words after every answer of the table: the words
of one entry are worked out once per state and language (games.Loaded.told), and are the
family's own words in every language, for either kind of table."""

from __future__ import annotations

import dataclasses
import gettext
import random
from pathlib import Path

from scorekeeper import gamefile, sample
from scorekeeper.games import Loaded, create_from_game, load
from scorekeeper.store import Store
from scorekeeper.wording import words_for


def _loaded(tmp_path: Path, convention: str, players: int) -> Loaded:
    data = sample.random_game(
        random.Random(5), 8, convention=convention, players=players, corrections=False
    )
    with Store(tmp_path / f"{convention}.sqlite") as store:
        record = create_from_game(store, gamefile.load(data))
        return load(store.get_game(record.edit_token))


def test_each_entry_is_told_once_per_language_as_the_family_tells_it(tmp_path: Path) -> None:
    for convention, players in (("sochi", 3), ("hussar", 2)):
        loaded = _loaded(tmp_path, convention, players)
        for locale in ("ru", "en", "sr_Latn"):
            words = words_for(locale).at_table(loaded.game)
            for position in range(len(loaded.sheet.results)):
                told = loaded.told(position, words)
                assert told == loaded.family.told(loaded.sheet, position, words)
                assert loaded.told(position, words) is told  # kept, not told again
        first_ru = loaded.told(0, words_for("ru").at_table(loaded.game))
        first_en = loaded.told(0, words_for("en").at_table(loaded.game))
        assert first_ru != first_en  # each language its own words


def test_words_of_their_own_are_never_kept(tmp_path: Path) -> None:
    loaded = _loaded(tmp_path, "sochi", 3)
    usual = words_for("en").at_table(loaded.game)

    class Loud(gettext.NullTranslations):
        def gettext(self, message: str) -> str:
            return "» " + message

    loud = dataclasses.replace(usual, translator=Loud())
    assert loaded.told(0, usual) != loaded.told(0, loud)
    assert loaded.told(0, loud) is not loaded.told(0, loud)
