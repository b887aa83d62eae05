"""Games of named players for the club's tests and bench: a random valid Sochi game of three
(scorekeeper.sample) with its seats renamed, stored as an import would store it."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence

from scorekeeper import gamefile, games
from scorekeeper.sample import NAMES, random_game
from scorekeeper.store import GameRecord, Store


def stored_game(
    store: Store, rng: random.Random, names: Sequence[str], deals: int = 8
) -> GameRecord:
    """A game of these three players with up to `deals` random deals, stored."""
    data = random_game(rng, deals, convention="sochi", players=3, corrections=False)
    data["finished"] = True  # only a table that is over counts
    text = json.dumps(data, ensure_ascii=False)
    for old, new in zip(NAMES, names, strict=False):
        text = text.replace(json.dumps(old), json.dumps(new, ensure_ascii=False))
    return games.create_from_game(store, gamefile.loads(text))
