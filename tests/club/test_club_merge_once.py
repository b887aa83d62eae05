"""A directory player is merged at most once (season.md §2, §6.1 "an id is merged at most
once"): the director's page says so by name, not as a cycle, and writes nothing; undoing
the merge frees him to be merged again."""

from __future__ import annotations

from scorekeeper.store import Store
from scorekeeper.store.clubs import Clubs

from ..flows import new_club, post
from ..harness import Web


def test_a_player_merged_already_is_named_and_the_merge_undone_frees_him(
    web: Web, store: Store
) -> None:
    token = new_club(web)
    for name in ("Дмитрий", "Дима", "Дмитро"):
        assert post(web, token, "player", player=name)[0] == 302
    ids = {p.name: p.id for p in Clubs(store).get(token).players}
    merge = {"from_id": str(ids["Дима"]), "into_id": str(ids["Дмитрий"])}
    assert post(web, token, "merge", **merge)[0] == 302
    again = {"from_id": str(ids["Дима"]), "into_id": str(ids["Дмитро"])}
    assert post(web, token, "merge", **again) == (
        400,
        ["Дима is merged already: undo that merge first."],
    )
    assert [(m.from_id, m.into_id) for m in Clubs(store).get(token).merges] == [
        (ids["Дима"], ids["Дмитрий"])
    ]
    assert post(web, token, "unmerge", merge=str(Clubs(store).get(token).merges[0].id))[0] == 302
    assert post(web, token, "merge", **again)[0] == 302
    assert [(m.from_id, m.into_id) for m in Clubs(store).get(token).merges] == [
        (ids["Дима"], ids["Дмитро"])
    ]


def test_a_player_merged_into_himself_is_still_a_cycle(web: Web, store: Store) -> None:
    token = new_club(web)
    for name in ("Дима", "Анна"):
        assert post(web, token, "player", player=name)[0] == 302
    pid = str(Clubs(store).get(token).players[0].id)
    assert post(web, token, "merge", from_id=pid, into_id=pid) == (
        400,
        ["This merge would make a cycle."],
    )
    assert not Clubs(store).get(token).merges
