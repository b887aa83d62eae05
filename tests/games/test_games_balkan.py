"""A Balkan partija is a game of the same store and the same game service as a Russian one:
made with its family, entered deal by deal as the deal form sends it, changed, taken off,
undone and put back, and always the sheet `gamefile_balkan` scores from the same file."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from scorekeeper import balkan, gamefile_balkan, games, report_balkan
from scorekeeper.games import writes
from scorekeeper.games.family import BALKAN
from scorekeeper.store import Store

from ..balkan.helpers import PETAK, petak_file
from ..harness import Web

PLAYERS = ["Ana", "Boža", "Ceca"]

#: A partija as the deal form sends it: a refa, a followed tref with a kontra, a betl.
FORMS: list[dict[str, Any]] = [
    {"type": "refa"},
    {
        "type": "played",
        "declarer": "Ana",
        "contract": "tref",
        "followers": ["Boža"],
        "invited": "Ceca",
        "kontra": "2",
        "kontra_by": "Boža",
        "tricks": {"Ana": "7", "Boža": "2", "Ceca": "1"},
    },
    {
        "type": "played",
        "declarer": "Boža",
        "contract": "betl",
        "igra": "1",
        "tricks": {"Boža": "0"},
    },
]


def _new(store: Store, *, convention: str = "club", seats: list[str] = PLAYERS) -> games.Loaded:
    record = writes.new_game(
        store,
        name="Petak",
        convention=convention,
        family=BALKAN,
        overrides={"bule": 60, "stake": "0.1"},
        seats=seats,
        first_dealer="2",
    )
    return games.load(record)


def _save(store: Store, loaded: games.Loaded, raw: dict[str, Any], key: str) -> games.Loaded:
    written = writes.save_entered(
        store, loaded, None, raw, base_version=loaded.record.version, request_key=key
    )
    return written.state


def _scored(loaded: games.Loaded) -> dict[str, Any]:
    """The same game read back from its file and scored by the Balkan game file's reader."""
    game = gamefile_balkan.load(json.loads(json.dumps(games.file_data(loaded.record))))
    return report_balkan.score_report(balkan.replay(game)[0], with_settlement=True)


def test_a_balkan_partija_is_stored_entered_and_scored_as_its_file(store: Store) -> None:
    loaded = _new(store)
    assert loaded.family.name == BALKAN
    assert games.file_data(loaded.record)["family"] == "balkan"
    for n, raw in enumerate(FORMS):
        loaded = _save(store, loaded, raw, f"key-{n}")
    assert [o.kind for o in loaded.sheet.outcomes] == ["refa", "played", "played"]
    cold = games.load(store.get_game(loaded.record.edit_token))
    assert cold.report() == loaded.report() == _scored(loaded)
    expected = petak_file()
    expected["deals"] = expected["deals"][:3]
    assert cold.report() == report_balkan.score_report(
        balkan.replay(gamefile_balkan.load(expected))[0], with_settlement=True
    )


def test_change_delete_undo_restore_a_balkan_deal(store: Store) -> None:
    loaded = _new(store)
    for n, raw in enumerate(FORMS):
        loaded = _save(store, loaded, raw, f"key-{n}")
    tref = loaded.record.deals[1]
    changed = dict(FORMS[1], tricks={"Ana": "6", "Boža": "3", "Ceca": "1"})
    written = writes.save_entered(
        store, loaded, tref.id, changed, base_version=loaded.record.version, request_key="ch"
    )
    assert written.number == 2 and written.state.sheet.outcomes[1].made is True
    assert written.state.report() == _scored(written.state)
    after = writes.undo_last(
        store, written.state, base_version=written.state.record.version, request_key="undo"
    ).state
    assert len(after.sheet.game.deals) == 2
    revision = next(r for r in store.revisions(after.record.edit_token) if r.action == "delete")
    back = writes.restore_revision(
        store, after, revision.id, base_version=after.record.version, request_key="back"
    ).state
    assert [o.kind for o in back.sheet.outcomes] == ["refa", "played", "played"]
    assert back.report() == _scored(back)


def test_a_refused_balkan_deal_is_not_written_and_names_its_field(store: Store) -> None:
    loaded = _new(store)
    raw = dict(FORMS[1], kontra="2", kontra_by="Ceca")  # Ceca did not follow
    with pytest.raises(writes.Invalid) as refused:
        _save(store, loaded, raw, "bad")
    assert any(p.field == "kontra_by" for p in refused.value.check.problems)
    assert store.get_game(loaded.record.edit_token).deals == []


def test_a_balkan_game_seats_three_or_four_and_knows_its_presets(store: Store) -> None:
    with pytest.raises(writes.NotSeated) as five:
        _new(store, seats=[*PLAYERS, "Dule", "Eva"])
    assert five.value.problems[0].template == "Write three or four names"
    with pytest.raises(writes.NotCreated) as unknown:
        _new(store, convention="sochi")
    assert any(p.field == "convention" for p in unknown.value.problems)
    savez = _new(store, convention="savez", seats=[*PLAYERS, "Dule"])
    assert savez.sheet.options.refe_max == 8 and len(savez.game.players) == 4


def test_a_balkan_file_imported_and_finished_keeps_its_family(store: Store) -> None:
    game = gamefile_balkan.load(petak_file())
    record = games.create_from_game(store, game)
    loaded = games.load(record)
    assert loaded.family.name == BALKAN
    assert loaded.report() == _scored(loaded)
    assert loaded.sheet.ended_by == "writeoff"
    done = writes.set_finished(
        store, loaded, True, base_version=loaded.record.version, request_key="fin"
    ).state
    assert done.record.finished_snapshot == done.report()


def test_a_balkan_file_imported_through_the_web_downloads_as_it_was(
    web: Web, client: FlaskClient, store: Store
) -> None:
    upload = web.get("/import").form("").data()
    response = client.post(
        "/import", data={**upload, "file": (io.BytesIO(PETAK.read_bytes()), "petak.json")}
    )
    assert response.status_code == 302, response.get_data(as_text=True)[:800]
    token = response.headers["Location"].rsplit("/", 1)[-1]
    assert games.load(store.get_game(token)).family.name == BALKAN
    exported = client.get(f"/g/{token}/game.json")
    assert exported.status_code == 200
    data = json.loads(exported.data)
    assert data["family"] == "balkan"
    again, first = gamefile_balkan.load(data), gamefile_balkan.load(petak_file())
    assert again.options == first.options and again.deals == first.deals  # options resolved
    assert report_balkan.score_report(balkan.score(again)) == report_balkan.score_report(
        balkan.score(first)
    )


def test_a_balkan_game_keeps_its_family_through_copy_db_and_a_backup(
    store_location: str, tmp_path: Path
) -> None:
    from scorekeeper.store.copy import backup_to_sqlite, copy_locations

    with Store(store_location) as source:
        loaded = _new(source)
        for n, raw in enumerate(FORMS):
            loaded = _save(source, loaded, raw, f"key-{n}")
        token, report = loaded.record.edit_token, loaded.report()
        backup = tmp_path / "backup.sqlite"
        backup_to_sqlite(source, backup)
    copied = tmp_path / "copied.sqlite"
    copy_locations(store_location, str(copied))
    for where in (copied, backup):
        with Store(str(where)) as again:
            games.forget_kept()  # opened cold: replayed from what the copy holds
            opened = games.load(again.get_game(token))
            assert opened.family.name == BALKAN and opened.report() == report
