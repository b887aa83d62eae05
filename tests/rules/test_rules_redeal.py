"""A redeal in any convention (docs/game-format.md: "`redeal` — nothing else"; "a `redeal`
does [pass the deal]"; its first example is a Sochi game that ends in one): it writes
nothing, passes the deal, counts toward a round (docs/rules.md §5) and leaves an all-pass streak
and its lowest contract as they were (§4.5: only a contract or a misère resets it)."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from flask.testing import FlaskClient

from scorekeeper import gamefile, report, rules
from scorekeeper.rules import InvalidGame
from scorekeeper.store import Store

from ..harness import Web
from ..helpers import allpass, contract, game, the_format_example
from ..oracle.independent import score_file

REDEAL = {"type": "redeal"}


def scored(data: dict[str, Any]) -> dict[str, Any]:
    out = report.score_report(rules.score(gamefile.load(data)), with_settlement=True)
    assert {k: v for k, v in out.items() if k != "rules"} == score_file(data)
    return out


def test_the_format_example_scores():
    """The Sochi example, deal by deal (Vera deals first): Anna's 7♠ down two with Boris
    whisting: hill 8, Boris 28, Vera 8; Boris' 6NT passed: pool 2; Boris' 7♥ half-whisted by
    Anna: pool 4 more, Anna 4 on him; Vera's misère with a trick: hill 10; the all-pass 0/4/6
    (after a misère, ×1): Anna pool 1, Boris hill 4, Vera 6; the correction: Boris hill 10,
    Anna 20 on Boris, Vera pool 2; the penalty on Vera with 7♥: hill 4, Anna and Boris 4 each;
    the redeal: nothing."""
    out = scored(the_format_example())
    sheet = out["sheet"]
    assert {p: (s["pool"], s["hill"]) for p, s in sheet.items()} == {
        "Anna": ("1", "8"),
        "Boris": ("6", "14"),
        "Vera": ("2", "20"),
    }
    assert sheet["Anna"]["whists"] == {"Boris": "24", "Vera": "4"}
    assert sheet["Boris"]["whists"] == {"Anna": "28", "Vera": "4"}
    assert sheet["Vera"]["whists"] == {"Anna": "8", "Boris": "0"}
    assert out["settlement"]["net"] == {"Anna": "32", "Boris": "38", "Vera": "-70"}


def test_a_redeal_passes_the_deal_and_keeps_the_all_pass_streak():
    """Leningrad, C deals first: all-pass (C deals) 0/4/6 at 2 a trick; the redeal (A deals);
    B deals the second all-pass, still the second in a row: 4 a trick: B 8 + 16, C 12 + 24."""
    out = scored(game("leningrad", [allpass(A=0, B=4, C=6), REDEAL, allpass(A=0, B=4, C=6)]))
    assert {p: s["hill"] for p, s in out["sheet"].items()} == {"A": "0", "B": "24", "C": "36"}
    assert out["sheet"]["A"]["pool"] == "3"
    with pytest.raises(InvalidGame, match="deal 3: after all-pass .* at least 7"):
        gamefile.load(
            game(
                "leningrad",
                [allpass(A=0, B=4, C=6), REDEAL, contract("B", "6S", {"C": "pass", "A": "pass"})],
            )
        )
    with pytest.raises(InvalidGame, match="deal 2: it is A's deal, not C's"):
        gamefile.load(game("sochi", [REDEAL, {**REDEAL, "dealer": "C"}]))


def test_redeals_count_toward_the_round_limit():
    """§5 round_limit 1 with three players: three deals of any kind end the game."""
    data = game("sochi", [REDEAL, contract("B", "6S", {"C": "pass", "A": "pass"}), REDEAL])
    data["options"] = {"round_limit": 1}
    assert scored(data)["finished"] is True


def test_the_format_example_imports_through_the_web(web: Web, client: FlaskClient, store: Store):
    upload = web.get("/import").form("").data()
    body = json.dumps(the_format_example()).encode()
    response = client.post("/import", data={**upload, "file": (io.BytesIO(body), "g.json")})
    assert response.status_code == 302, response.get_data(as_text=True)[:800]
    token = response.headers["Location"].rsplit("/", 1)[-1]
    assert client.get(f"/g/{token}").status_code == 200
    assert client.get(f"/g/{token}/log").status_code == 200
    pdf = client.get(f"/g/{token}/pulka.pdf")
    assert pdf.status_code == 200 and pdf.data.startswith(b"%PDF")
    again = json.loads(client.get(f"/g/{token}/game.json").data)
    last = store.get_game(token).deals[-1].id
    assert client.get(f"/g/{token}/deal/{last}/edit").status_code == 200
    assert again["deals"][-1] == REDEAL
