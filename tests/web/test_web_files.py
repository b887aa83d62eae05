"""Game files in and out: download, upload, and the JSON twin of the game page."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from scorekeeper import gamefile
from scorekeeper.store import Store

from ..flows import upload
from ..harness import CLI, ROOT, Web
from ..helpers import newest_game

PLAYERS = ["Anna", "Boris", "Vera"]

GAME = {
    "format": "scorekeeper-game/1",
    "name": "Friday at Boris's",
    "convention": "leningrad",
    "options": {"pool_target": 10, "stake": "0.10", "currency": "EUR"},
    "players": ["Anna", "Boris", "Vera"],
    "first_dealer": "Vera",
    "finished": False,
    "deals": [
        {
            "type": "contract",
            "declarer": "Anna",
            "contract": "7♠",
            "answers": {"Boris": "whist", "Vera": "pass"},
            "tricks": {"Anna": 5, "Boris": 3, "Vera": 2},
        },
        {
            "type": "contract",
            "declarer": "Boris",
            "contract": "6NT",
            "answers": {"Vera": "pass", "Anna": "pass"},
        },
        {
            "type": "contract",
            "declarer": "Boris",
            "contract": "7H",
            "answers": {"Vera": "pass", "Anna": "half-whist"},
        },
        {"type": "misere", "declarer": "Vera", "tricks": {"Vera": 1}},
        {"type": "allpass", "tricks": {"Anna": 0, "Boris": 4, "Vera": 6}},
        {
            "type": "correction",
            "reason": "renonce",
            "entries": [
                {"player": "Boris", "hill": 10},
                {"player": "Anna", "whists_on": "Boris", "amount": 20},
                {"player": "Vera", "pool": 2},
            ],
        },
    ],
}


@pytest.fixture
def imported(web: Web) -> str:
    result = upload(web, json.dumps(GAME, ensure_ascii=False).encode())
    assert result.status == 302, result.errors()
    return result.response.headers["Location"].rsplit("/", 1)[-1]


def test_upload_creates_the_game_with_resolved_options(
    web: Web, store: Store, imported: str
) -> None:
    game = store.get_game(imported)
    assert game.name == "Friday at Boris's"
    assert game.players == PLAYERS and game.first_dealer == "Vera"
    assert game.options["pool_whists"] == 20  # Leningrad's, written out in full
    assert game.options["stake"] == "0.10"
    assert len(game.deals) == 6
    assert game.deals[0].data["contract"] == "7S"
    assert "The game file was opened as a new game." in web.get(f"/g/{imported}").text()


def test_download_then_upload_gives_the_same_game(web: Web, store: Store, imported: str) -> None:
    response = web.client.get(f"/g/{imported}/game.json")
    assert response.status_code == 200
    assert response.headers["Content-Disposition"].startswith("attachment")
    data = json.loads(response.get_data(as_text=True))
    assert data["options"] == store.get_game(imported).options
    assert data["deals"] == [d.data for d in store.get_game(imported).deals]
    again = upload(web, response.get_data())
    token = again.response.headers["Location"].rsplit("/", 1)[-1]
    second = web.client.get(f"/g/{token}/game.json").get_json()
    assert second == data
    assert gamefile.load(second) == gamefile.load(data)


def test_the_json_twin_is_what_the_cli_prints_for_the_exported_file(
    web: Web, imported: str, tmp_path: Path
) -> None:
    exported = tmp_path / "game.json"
    exported.write_bytes(web.client.get(f"/v/{imported}/game.json").get_data())
    cli = subprocess.run(
        [str(CLI), "score", "--settle", str(exported)], capture_output=True, check=True
    )
    expected = json.loads(cli.stdout)
    assert web.client.get(f"/g/{imported}.json").get_json() == expected
    view = web.client.get(f"/g/{imported}").get_data(as_text=True)
    view_token = view.split("/v/")[1].split('"')[0].split("<")[0]
    twin = web.client.get(f"/v/{view_token}.json")
    assert twin.mimetype == "application/json"
    assert twin.get_json() == expected
    assert expected["settlement"]["payments"]  # a real settlement, not an empty one


def test_the_json_twin_of_a_finished_game(web: Web, imported: str, tmp_path: Path) -> None:
    page = web.get(f"/g/{imported}")
    web.submit(page, page.form("/finish").set(confirm="yes"))
    exported = tmp_path / "game.json"
    exported.write_bytes(web.client.get(f"/g/{imported}/game.json").get_data())
    assert json.loads(exported.read_text())["finished"] is True
    cli = subprocess.run(
        [sys.executable, "-m", "scorekeeper.cli", "score", "--settle", str(exported)],
        capture_output=True,
        check=True,
        cwd=ROOT,
    )
    assert web.client.get(f"/g/{imported}.json").get_json() == json.loads(cli.stdout)


@pytest.mark.parametrize(
    ("data", "problem"),
    [
        (b"{not json", "not valid JSON"),
        (b"[]", "a game file must be a JSON object"),
        (json.dumps({**GAME, "convention": "minsk"}).encode(), "unknown convention"),
        (
            json.dumps({**GAME, "deals": [{"type": "allpass", "tricks": {"Anna": 9}}]}).encode(),
            "deal 1: tricks missing: Boris",
        ),
        (json.dumps({**GAME, "colour": "red"}).encode(), 'unknown key "colour"'),
    ],
)
def test_a_bad_file_lists_its_problems_and_creates_nothing(
    web: Web, store: Store, data: bytes, problem: str
) -> None:
    result = upload(web, data)
    assert result.status == 400
    assert "Nothing was created" in result.text()
    assert any(problem in p for p in result.errors()), result.errors()
    assert newest_game(store) is None


def test_upload_without_a_file(web: Web, store: Store) -> None:
    page = web.get("/import")
    result = web.submit(page, page.form())
    assert result.status == 400
    assert "Choose a file" in result.errors()


def test_upload_needs_the_password_when_set(app, web: Web, store: Store) -> None:  # type: ignore[no-untyped-def]
    app.config["PASSWORD"] = "secret"
    result = upload(web, json.dumps(GAME).encode())
    assert result.status == 400
    assert "Wrong password" in result.errors()
    assert newest_game(store) is None


def test_pdf_download(web: Web, imported: str) -> None:
    response = web.client.get(f"/g/{imported}/pulka.pdf")
    assert response.status_code == 200
    assert response.mimetype == "application/pdf"
    assert response.get_data().startswith(b"%PDF")
