"""A key written twice in one JSON object (docs/game-format.md "The deals": "a key written
twice in one object is an error, not the last one winning"): every reader of a file refuses
it at its entry, through one helper (`gamefile.written_twice`): a Russian game file
(`scorekeeper score` exits 2, the web import says it and creates nothing), a season file
(docs/season.md, `scorekeeper season`), a company file and a tournament file."""

from __future__ import annotations

import io
import json
import unicodedata
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from scorekeeper.cli import main
from scorekeeper.company import file as company_file
from scorekeeper.rules import InvalidGame
from scorekeeper.store import Store
from scorekeeper.tournament import file as tournament_file

from .attacks.test_fuzz_cli import COMPANY_FILE
from .harness import Web
from .helpers import allpass, contract, count, game_file
from .season.build import game_event, season
from .tournament.helpers import base

DEALS = [contract("A", "6S", {"B": "whist", "C": "pass"}, {"A": 6, "B": 4}), allpass(A=4, B=3, C=3)]


def russian_text() -> str:
    """A Sochi file whose deal 1 writes A's tricks twice (6, then 4: the last would win),
    whose deal 2 writes its type twice, and whose top writes its players twice."""
    text = json.dumps(game_file(DEALS), ensure_ascii=False)
    text = text.replace('"A": 6, "B": 4}', '"A": 6, "B": 4, "A": 4}', 1)
    text = text.replace('{"type": "allpass"', '{"type": "allpass", "type": "allpass"', 1)
    return text.replace('"players":', '"players": ["A", "B", "C"], "players":', 1)


LINES = [
    'the key "players" is written twice',
    'deal 1: tricks: the key "A" is written twice',
    'deal 2: the key "type" is written twice',
]


def test_scorekeeper_score_refuses_a_russian_file_writing_a_key_twice(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """docs/game-format.md "The deals": one line per key written twice, naming its deal, exit 2
    and nothing on stdout; a name written once composed and once decomposed is one key."""
    path = tmp_path / "game.json"
    path.write_text(russian_text(), encoding="utf-8")
    assert main(["score", str(path), "--lang", "en"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.splitlines() == LINES
    names = ["Ана", "Boža", "C"]
    deal = contract("Ана", "6S", {"Boža": "pass", "C": "pass"})
    text = json.dumps(game_file([deal], players=names), ensure_ascii=False)
    nfd = unicodedata.normalize("NFD", "Boža")
    path.write_text(text.replace('"Boža": "pass"', f'"Boža": "pass", "{nfd}": "pass"'))
    assert main(["score", str(path), "--lang", "en"]) == 2
    assert capsys.readouterr().err.splitlines() == [
        'deal 1: answers: the key "Boža" is written twice'
    ]
    path.write_text(text)
    assert main(["score", str(path), "--lang", "en"]) == 0  # the same file, each key once


def test_the_web_import_refuses_a_russian_file_writing_a_key_twice(
    web: Web, client: FlaskClient, store: Store
) -> None:
    """docs/game-format.md "The deals": the import page names each key written twice at its deal
    (in the page's language) and creates no game."""
    upload = web.get("/import").form("").data()
    for lang, first in (("en", LINES[1]), ("ru", "раздача 1: ")):
        data = {**upload, "file": (io.BytesIO(russian_text().encode()), "game.json")}
        response = client.post("/import", data=data, headers={"Accept-Language": lang})
        assert response.status_code == 400
        html = response.get_data(as_text=True)
        assert first in html.replace("&#34;", '"').replace("&quot;", '"')
    assert count(store, "games") == 0


def test_scorekeeper_season_refuses_a_key_written_twice_at_its_event(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """docs/season.md (`scorekeeper season`: one line per problem naming the entry, exit 2):
    a key written twice in event 2's game is said at event 2."""
    events = [game_event("2026-10-01", {"A": 10, "B": -10, "C": 0}, 3)] * 2
    text = json.dumps(season(events), ensure_ascii=False)
    at = text.rindex('"type": "contract"')
    text = text[:at] + '"type": "contract", ' + text[at:]
    path = tmp_path / "season.json"
    path.write_text(text, encoding="utf-8")
    assert main(["season", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.splitlines() == ['event 2: game.deals.3: the key "type" is written twice']


def test_a_company_file_writing_a_key_twice_is_refused_at_its_game() -> None:
    """A company file's game is read as a game file: the key written twice is said at its game."""
    text = json.dumps(COMPANY_FILE).replace(
        '"played_on":', '"played_on": "2026-11-19", "played_on":'
    )
    with pytest.raises(InvalidGame) as refused:
        company_file.loads(text)
    assert [str(p.message()) for p in refused.value.problems] == [
        'game 1: the key "played_on" is written twice'
    ]


def test_a_tournament_file_writing_a_key_twice_is_refused_at_its_tour(
    web: Web, client: FlaskClient
) -> None:
    """A tournament file's key written twice is said at its tour (`scorekeeper tournament`
    and the web import alike), and nothing is created."""
    text = json.dumps(base(), ensure_ascii=False).replace(
        '"tables": [{', '"tables": [{"a": 1, "a": 1, ', 1
    )
    line = 'tour 1: tables.1: the key "a" is written twice'
    with pytest.raises(tournament_file.InvalidTournament) as refused:
        tournament_file.loads(text)
    assert refused.value.problems[0] == line
    upload = web.get("/tournament/import").form("").data()
    data = {**upload, "file": (io.BytesIO(text.encode()), "cup.json")}
    response = client.post("/tournament/import", data=data)
    assert response.status_code == 400
    assert line in response.get_data(as_text=True).replace("&#34;", '"')
