"""Numbers from people and files: one parser, no exponents, sane bounds, and all of it renders.

`Fraction("1e10000000")` computes ten million digits: a form field or game file holding it
froze the whole server. Every number is now read by its shape first (rules/numbers.py, whose
own tests are in rules/test_rules_numbers.py); here the files, the forms and the CLI.
"""

from __future__ import annotations

import io
import json
import re
import subprocess
from typing import Any

import pytest

from scorekeeper import gamefile
from scorekeeper.games import create_from_game
from scorekeeper.rules import InvalidGame
from scorekeeper.rules.notation import MAX_ENTRIES
from scorekeeper.rules.numbers import MAX_AMOUNT, MAX_STAKE
from scorekeeper.store import Store

from ..harness import CLI, Web
from ..helpers import game_file, newest_game

PLAYERS = ["Anna", "Boris", "Vera"]


@pytest.mark.parametrize(
    "entry",
    [
        {"player": "A", "hill": "1e1000000"},
        {"player": "A", "hill": 10**200},
        {"player": "A", "pool": 1e308},
        {"player": "A", "whists_on": "B", "amount": "100000000000000000"},
    ],
)
def test_a_game_file_with_a_huge_amount_is_refused(entry: dict[str, Any]) -> None:
    data = game_file([{"type": "correction", "reason": "x", "entries": [entry]}])
    with pytest.raises(InvalidGame) as refused:
        gamefile.loads(json.dumps(data))
    assert "must be a number from -1000000 to 1000000" in str(refused.value)


def test_a_correction_has_a_bounded_number_of_entries() -> None:
    entries = [{"player": "A", "hill": 1}] * (MAX_ENTRIES + 1)
    data = game_file([{"type": "correction", "reason": "x", "entries": entries}])
    with pytest.raises(InvalidGame, match="at most"):
        gamefile.load(data)


def test_the_cli_refuses_a_huge_amount_at_once(tmp_path: Any) -> None:
    data = game_file(
        [{"type": "correction", "reason": "x", "entries": [{"player": "A", "hill": "1e1000000"}]}]
    )
    path = tmp_path / "huge.json"
    path.write_text(json.dumps(data))
    run = subprocess.run([str(CLI), "score", str(path)], capture_output=True, text=True, timeout=20)
    assert run.returncode == 2
    assert "must be a number from −1,000,000 to 1,000,000" in run.stderr


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("opt_whist_scale", "1e10000000"),
        ("opt_shortfall_rate", "1e99999999"),
        ("opt_consolation", "1e10000000"),
        ("opt_stake", "1000000000"),
        ("opt_stake", "1e9"),
        ("opt_pool_target", "1" + "0" * 18),
    ],
)
def test_the_new_game_form_refuses_huge_numbers_next_to_the_field(
    web: Web, store: Store, field: str, value: str
) -> None:
    result = web.send_new_game(**{field: value})
    assert result.status == 422
    shown = result.html.split(f'id="{field}-errors"')[1].split("</ul>")[0]
    assert re.search(r"1,?000|100", shown), result.errors()
    assert newest_game(store) is None


@pytest.mark.parametrize("amount", ["1e99999999", "100000000000000000", "1000001", "12e3"])
def test_the_deal_form_refuses_a_huge_correction(web: Web, store: Store, amount: str) -> None:
    token = web.new_game(PLAYERS)
    page, form = web.deal_form(token)
    web.fill_deal(form, PLAYERS, "correction", reason="x", entries=[("Anna", "hill", None, amount)])
    checked = web.check(page, form)
    assert checked.status == 422
    assert any("from −1,000,000 to 1,000,000" in e for e in checked.errors()), checked.errors()
    assert store.get_game(token).deals == []


def test_the_largest_accepted_numbers_render_everywhere(web: Web, store: Store) -> None:
    """Stake 10^6 × amounts of 10^6 whists in full corrections: every view still renders."""
    top = MAX_AMOUNT
    entries: list[dict[str, Any]] = []
    for writer in PLAYERS:
        for other in PLAYERS:
            if other != writer:
                entries.append({"player": writer, "whists_on": other, "amount": top})
    entries += [{"player": p, "hill": top} for p in PLAYERS]
    entries = (entries * MAX_ENTRIES)[:MAX_ENTRIES]
    entries[0] = {"player": "Anna", "whists_on": "Boris", "amount": top}
    deals = [{"type": "correction", "reason": "max", "entries": entries} for _ in range(30)]
    deals.append(
        {
            "type": "correction",
            "reason": "max",
            "entries": [
                {"player": "Anna", "pool": -top},
                {"player": "Boris", "hill": "-999999.999999"},
            ],
        }
    )
    data = game_file(
        deals,
        players=PLAYERS,
        options={
            "stake": str(MAX_STAKE),
            "whist_scale": 100,
            "consolation": 1000,
            "pool_target": 1000,
            "hill_whists": 1000,
            "pool_whists": 1000,
        },
        finished=True,
    )
    game = gamefile.loads(json.dumps(data))
    record = create_from_game(store, game)
    for mode, token in (("g", record.edit_token), ("v", record.view_token)):
        for suffix in ("", "/settlement", "/log", "/history", ".json", "/game.json"):
            page = web.get(f"/{mode}/{token}{suffix}")
            assert page.status == 200
        assert "Anna" in web.get(f"/{mode}/{token}").text()
    twin = json.loads(web.client.get(f"/v/{record.view_token}.json").data)
    assert twin["settlement"]["money"]
    pdf = web.client.get(f"/v/{record.view_token}/pulka.pdf")
    assert pdf.status_code == 200
    assert pdf.data.startswith(b"%PDF")
    downloaded = web.client.get(f"/g/{record.edit_token}/game.json").data
    assert gamefile.loads(downloaded).deals == game.deals
    assert io.BytesIO(downloaded).read(1) == b"{"
