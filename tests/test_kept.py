"""The one bounded map of values kept between requests (scorekeeper.kept)."""

from __future__ import annotations

from scorekeeper.kept import Kept


def test_kept_values_stay_within_their_bound_and_the_least_recently_used_goes_first() -> None:
    kept: Kept[str, int] = Kept(2)
    made: list[str] = []

    def make(key: str) -> int:
        made.append(key)
        return len(made)

    assert kept.get_or_make("a", lambda: make("a")) == 1
    assert kept.get_or_make("b", lambda: make("b")) == 2
    assert kept.get_or_make("a", lambda: make("a")) == 1  # kept: not made again
    kept.put("c", 3)  # "b" was used least recently: it goes
    assert kept.get("b") is None and list(kept) == ["a", "c"]
    assert kept.get_or_make("b", lambda: make("b")) == 3
    assert made == ["a", "b", "b"] and len(kept.values()) == 2
    kept.clear()
    assert kept.values() == []
