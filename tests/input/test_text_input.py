"""Names, game names and reasons: NFC, and no control, zero-width or bidi characters.

"Anna", "Anna\\u200b" and "Anna\\u200c" were three players; "\\u202eevil" showed as "live";
`score --format text` wrote a raw ESC[2J to the terminal.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from scorekeeper import gamefile
from scorekeeper.rules import InvalidGame
from scorekeeper.store import Store

from ..harness import CLI, Web
from ..helpers import game_file, newest_game
from ..rules.test_rules_text import BAD, COMPOSED, DECOMPOSED

PLAYERS = ["Anna", "Boris", "Vera"]


@pytest.mark.parametrize("ch", BAD)
def test_a_game_file_with_a_bad_name_is_refused(ch: str) -> None:
    data = game_file([], players=["Anna", f"Bo{ch}ris", "Vera"])
    with pytest.raises(InvalidGame, match="player 2: the name holds U\\+"):
        gamefile.loads(json.dumps(data))


def test_names_equal_after_normalising_are_one_player() -> None:
    data = game_file([], players=[COMPOSED, DECOMPOSED, "Vera"])
    with pytest.raises(InvalidGame, match="appears twice"):
        gamefile.loads(json.dumps(data))


def test_a_decomposed_name_is_read_composed() -> None:
    data = game_file(
        [{"type": "misere", "declarer": DECOMPOSED, "tricks": {DECOMPOSED: 0}}],
        players=[DECOMPOSED, "Boris", "Vera"],
    )
    game = gamefile.loads(json.dumps(data))
    assert game.players[0] == COMPOSED


def test_game_names_and_reasons_are_checked_in_a_file() -> None:
    data = game_file(
        [{"type": "correction", "reason": "\u202eevil", "entries": [{"player": "A", "hill": 1}]}]
    )
    with pytest.raises(InvalidGame, match="the reason holds U\\+202E"):
        gamefile.loads(json.dumps(data))
    data = {**game_file([]), "name": "Friday\x1b[2J"}
    with pytest.raises(InvalidGame, match="name holds U\\+001B"):
        gamefile.loads(json.dumps(data))


@pytest.mark.parametrize("command", ["score", "import"])
def test_the_cli_refuses_an_escape_in_a_name(tmp_path: Path, command: str) -> None:
    path = tmp_path / "g.json"
    path.write_text(json.dumps(game_file([], players=["Anna\x1b[2J", "Boris", "Vera"])))
    args = [CLI, command, str(path)]
    if command == "import":
        args += ["--db", str(tmp_path / "db.sqlite")]
    else:
        args += ["--format", "text"]
    run = subprocess.run(args, capture_output=True, text=True, timeout=60)
    assert run.returncode == 2
    assert "\x1b" not in run.stdout
    assert "the name holds U+001B" in run.stderr
    assert not (tmp_path / "db.sqlite").exists()


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"player_1": "Anna\u200b"}, "cannot hold U+200B"),
        ({"player_1": "\u202eevil"}, "cannot hold U+202E"),
        ({"player_1": "Bo\x00ris"}, "cannot hold U+0000"),
        ({"player_0": COMPOSED, "player_1": DECOMPOSED}, "Two players cannot have the same name"),
        ({"name": "Friday\x1b[2J"}, "cannot hold U+001B"),
        ({"name": "Fri\nday"}, "cannot hold U+000A"),
        ({"opt_currency": "EUR\u2066"}, "U+2066"),
    ],
)
def test_the_new_game_form_refuses_bad_text(
    web: Web, store: Store, fields: dict[str, str], message: str
) -> None:
    result = web.send_new_game(**fields)
    assert result.status == 422
    assert any(message in e for e in result.errors()), result.errors()
    assert newest_game(store) is None


def test_the_new_game_form_keeps_names_composed(web: Web, store: Store) -> None:
    result = web.send_new_game(player_0=DECOMPOSED, name=DECOMPOSED)
    assert result.status == 302
    game = newest_game(store)
    assert game is not None and game.players[0] == COMPOSED


@pytest.mark.parametrize("reason", ["\u202eevil", "zero\u200bwidth", "esc\x1b[2J"])
def test_a_correction_reason_is_checked_on_the_deal_form(
    web: Web, store: Store, reason: str
) -> None:
    token = web.new_game(PLAYERS)
    page, form = web.deal_form(token)
    web.fill_deal(form, PLAYERS, "correction", reason=reason, entries=[("Anna", "hill", None, "4")])
    checked = web.check(page, form)
    assert checked.status == 422
    assert any("the reason holds U+" in e for e in checked.errors()), checked.errors()
    assert store.get_game(token).deals == []


def test_the_web_import_refuses_bad_names(web: Web, store: Store) -> None:
    from ..flows import upload

    data = json.dumps(game_file([], players=["Anna", "Anna\u200b", "Anna\u200c"])).encode()
    response = upload(web, data).response
    assert response.status_code == 400
    assert "the name holds U+200B" in response.get_data(as_text=True)
    assert newest_game(store) is None
