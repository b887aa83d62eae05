"""Numbers from people and files: one parser, no exponents, sane bounds, and all of it renders.

`Fraction("1e10000000")` computes ten million digits: a form field or game file holding it
froze the whole server. Every number is now read by its shape first (rules/numbers.py).
"""

from __future__ import annotations

import io
import json
import re
import subprocess
from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest

from scorekeeper import gamefile
from scorekeeper.games import create_from_game
from scorekeeper.rules import InvalidGame, resolve_options
from scorekeeper.rules.notation import MAX_ENTRIES, parse_amount
from scorekeeper.rules.numbers import (
    AMOUNT,
    MAX_AMOUNT,
    MAX_STAKE,
    NumberError,
    read_number,
    read_stake,
)
from scorekeeper.store import Store

from .harness import ROOT, Web
from .helpers import game_file

HUGE = ["1e10000000", "1e99999999", "1E5", "2e0", "1e-3", "inf", "nan", "-inf", "0x10", "1_000"]
PLAYERS = ["Anna", "Boris", "Vera"]
CLI = ROOT / ".venv" / "bin" / "scorekeeper"


@pytest.mark.parametrize("text", HUGE)
def test_exponents_and_words_are_not_numbers(text: str) -> None:
    with pytest.raises(NumberError) as refused:
        read_number(text, AMOUNT)
    assert refused.value.reason == "form"
    assert parse_amount(text) is None


@pytest.mark.parametrize(
    "value", [10**200, 10**4000, -(10**7), 1e308, -1e308, 1000001, "1000000.5", "-1000001"]
)
def test_amounts_beyond_a_million_are_out_of_range(value: Any) -> None:
    with pytest.raises(NumberError) as refused:
        read_number(value, AMOUNT)
    assert refused.value.reason == "range"


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("10", Fraction(10)),
        ("-4", Fraction(-4)),
        ("−4", Fraction(-4)),
        ("2,5", Fraction(5, 2)),
        (" 1/3 ", Fraction(1, 3)),
        (2.5, Fraction(5, 2)),
        (1000000, Fraction(MAX_AMOUNT)),
        ("-1000000", Fraction(-MAX_AMOUNT)),
    ],
)
def test_plain_amounts_are_read_exactly(text: Any, value: Fraction) -> None:
    assert read_number(text, AMOUNT) == value


def test_the_stake_keeps_its_decimals_and_refuses_more() -> None:
    assert str(read_stake("0.10")) == "0.10"
    assert read_stake(1000000) == Decimal(MAX_STAKE)
    for bad in ("0.00001", "1e3", "1/2", "1000000.01", 10**4000, "-1"):
        with pytest.raises(NumberError):
            read_stake(bad)


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        ("whist_scale", "1e10000000", "Whists per trick: must be a number from 0 to 100"),
        ("shortfall_rate", "1e99999999", "Whister short of quota, hill per trick: must be"),
        ("consolation", "1e10000000", "Consolation per undertrick: must be a number from 0"),
        ("stake", "1e10000000", "Stake per whist: must be money from 0 to 1000000"),
        ("stake", 10**4000, "Stake per whist: must be money"),
        ("stake", "1000000000", "Stake per whist: must be money"),
        ("pool_target", 10**12, "Pool target: must be a whole number from 1 to 100000"),
        ("hill_whists", 0, "Whists per hill point: must be a whole number from 1 to 1000"),
        ("allpass_price", 2.5, "All-pass, price of a trick: must be a whole number"),
    ],
)
def test_options_out_of_range_are_named_by_their_label(key: str, value: Any, message: str) -> None:
    _, problems = resolve_options("sochi", {key: value})
    assert [p.field for p in problems] == [f"options.{key}"]
    assert message in str(problems[0])
    assert len(str(problems[0])) < 200


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


def _new_game_with(web: Web, **fields: str) -> Any:
    from scorekeeper.web.main.options import preset_values

    page = web.get("/new")
    form = page.form("new-game")
    for field, value in preset_values("sochi").items():
        form.set(**{field: ("y" if value else None) if isinstance(value, bool) else value})
    form.set(name="x", player_0="Anna", player_1="Boris", player_2="Vera", first_dealer="0")
    form.set(**fields)
    return web.submit(page, form)


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
    result = _new_game_with(web, **{field: value})
    assert result.status == 422
    shown = result.html.split(f'id="{field}-errors"')[1].split("</ul>")[0]
    assert re.search(r"1,?000|100", shown), result.errors()
    assert store.last_game_settings() is None


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
