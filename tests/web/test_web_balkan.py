"""A Balkan partija entered through the web by taps (the Flask test client, an SQLite file):
the sheet the pages show is the one `gamefile_balkan` scores from the same entries."""

from __future__ import annotations

import io
import json
import subprocess
from pathlib import Path
from typing import Any

from flask.testing import FlaskClient

from scorekeeper import balkan, gamefile_balkan, games, report_balkan
from scorekeeper.store import Store

from ..balkan.helpers import petak_file
from ..browser import ARTIFACTS
from ..harness import Page, Web


def _imported(web: Web, client: FlaskClient, deals: list[dict[str, Any]]) -> str:
    data = petak_file() | {"deals": deals}
    upload = web.get("/import").form("").data()
    body = io.BytesIO(json.dumps(data).encode())
    response = client.post("/import", data={**upload, "file": (body, "petak.json")})
    assert response.status_code == 302, response.get_data(as_text=True)[:800]
    return response.headers["Location"].rsplit("/", 1)[-1]


def _tap(web: Web, token: str, taps: dict[str, str | list[str]]) -> Page:
    """Open the deal form, tap these choices, Save."""
    page = web.get(f"/g/{token}/deal/new")
    form = page.form("deal-form")
    form.set(**taps, action="save")
    return web.submit(page, form)


def _as_file(store: Store, token: str) -> dict[str, Any]:
    record = store.get_game(token)
    game = gamefile_balkan.load(games.file_data(record))
    return report_balkan.score_report(balkan.replay(game)[0], with_settlement=True)


def test_a_partija_entered_by_taps_is_scored_as_its_file(
    web: Web, client: FlaskClient, store: Store
) -> None:
    token = _imported(web, client, [])
    sheet = web.get(f"/g/{token}")
    dalje = web.submit(sheet, sheet.form("bk-next"), button=("dalje", "1"))
    assert dalje.status == 302
    followed = _tap(
        web,
        token,
        {
            "declarer": "Ana",
            "contract": "tref",
            "followers": ["Boža"],
            "invited": "Ceca",
            "kontra": "2",
            "kontra_by": "Boža",
            "tricks.Ana": "7",
            "tricks.Boža": "2",
        },
    )
    assert followed.status == 302, followed.errors() or followed.text()[:1500]
    betl = _tap(
        web, token, {"declarer": "Boža", "contract": "betl", "igra": "1", "tricks.Boža": "0"}
    )
    assert betl.status == 302, betl.errors() or betl.text()[:1500]
    expected = petak_file()
    expected["deals"] = expected["deals"][:3]
    want = report_balkan.score_report(
        balkan.replay(gamefile_balkan.load(expected))[0], with_settlement=True
    )
    assert _as_file(store, token) == want
    page = web.get(f"/g/{token}").text()
    settlement = want["settlement"]
    for pay in settlement["payments"]:
        assert f"{pay['from']} → {pay['to']}: {pay['amount']}" in page
    for player in want["players"]:
        bule = want["sheet"][player]["bule"]
        assert f" {bule} " in page.replace("−", "-")


def test_a_refused_deal_says_why_next_to_the_field_and_writes_nothing(
    web: Web, client: FlaskClient, store: Store
) -> None:
    token = _imported(web, client, [])
    page = _tap(web, token, {"declarer": "Ana", "contract": "karo", "tricks.Ana": "6"})
    assert page.status == 422
    assert "tricks" in " ".join(page.errors()).lower()
    assert store.get_game(token).deals == []


def test_undo_a_balkan_entry_from_the_page_and_put_it_back(
    web: Web, client: FlaskClient, store: Store
) -> None:
    petak = petak_file()["deals"]
    token = _imported(web, client, petak[:3])
    confirm = web.get(f"/g/{token}/undo")
    assert "betl" in confirm.text()
    done = web.submit(confirm, confirm.form(""))
    assert done.status == 302
    assert len(store.get_game(token).deals) == 2
    history = web.get(f"/g/{token}/history")
    assert history.status == 200


def _new_form(web: Web, players: list[str], **fields: str) -> Page:
    page = web.get("/new")
    form = page.form("new-game")
    for i in range(5):
        form.set(**{f"player_{i}": players[i] if i < len(players) else ""})
    form.set(family="balkan", **fields)
    return web.submit(page, form)


def test_the_new_game_form_makes_a_balkan_game_of_its_preset(web: Web, store: Store) -> None:
    made = _new_form(web, ["Ana", "Boža", "Ceca", "Dule"], balkan_preset="iklub", bk_bule="150")
    assert made.status == 302, made.errors() or made.text()[:1500]
    token = made.response.headers["Location"].rsplit("/", 1)[-1]
    record = store.get_game(token)
    assert record.convention == "iklub" and record.options["family"] == "balkan"
    assert record.options["bule"] == 150 and record.options["refe_max"] == 4
    page = web.get(f"/g/{token}").text()
    assert "Ana" in page and " 150 " in page and "Dule sits out" not in page  # Ana deals


def test_the_new_game_form_refuses_a_balkan_table_of_five_and_a_bad_option(web: Web) -> None:
    five = _new_form(web, ["Ana", "Boža", "Ceca", "Dule", "Eva"])
    assert five.status == 422 and "Write three or four names" in five.text()
    bad = _new_form(web, ["Ana", "Boža", "Ceca"], bk_bule="1")
    assert bad.status == 422
    assert any("2" in e for e in bad.errors()), bad.errors()


def test_the_pdf_draws_the_paper_results_and_payments(
    web: Web, client: FlaskClient, store: Store, tmp_path: Path
) -> None:
    petak = petak_file()["deals"]
    token = _imported(web, client, petak)
    response = client.get(f"/g/{token}/pulka.pdf")
    assert response.status_code == 200 and response.data.startswith(b"%PDF")
    pdf = tmp_path / "petak.pdf"
    pdf.write_bytes(response.data)
    text = subprocess.run(
        ["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout
    want = _as_file(store, token)
    settlement = want["settlement"]
    assert "Results" in text  # the partija ended by a write-off
    rows = {
        line.split()[0]: line.split()[1:]
        for line in text.replace("−", "-").splitlines()
        if line.split()
    }
    for player in want["players"]:
        keys = ("bule", "supe_written", "supe_against", "result")
        assert rows[player][:4] == [str(settlement[key][player]) for key in keys], rows[player]
    for pay in settlement["payments"]:
        assert f"{pay['from']} → {pay['to']}: {pay['amount']}" in text
    ARTIFACTS.mkdir(parents=True, exist_ok=True)  # git-ignored: absent in a fresh checkout
    subprocess.run(
        [
            "pdftoppm",
            "-png",
            "-r",
            "60",
            "-f",
            "1",
            "-l",
            "1",
            str(pdf),
            str(ARTIFACTS / "balkan-pdf"),
        ],
        check=True,
    )


def test_a_balkan_deal_is_changed_in_its_form_and_every_page_of_the_game_opens(
    web: Web, client: FlaskClient, store: Store
) -> None:
    petak = petak_file()["deals"]
    token = _imported(web, client, petak[:2])
    tref = store.get_game(token).deals[1]
    page = web.get(f"/g/{token}/deal/{tref.id}/edit")
    form = page.form("deal-form")
    assert form.value("declarer") == "Ana" and form.value("tricks.Ana") == "7"
    form.set(**{"tricks.Ana": "6", "tricks.Boža": "3", "tricks.Ceca": "1"}, action="save")
    assert web.submit(page, form).status == 302
    assert store.get_game(token).deals[1].data["tricks"] == {"Ana": 6, "Boža": 3, "Ceca": 1}
    for path in ("/log", "/settlement"):
        assert client.get(f"/g/{token}{path}").status_code == 302
    assert client.get(f"/g/{token}/chart.svg").status_code == 404
    assert client.get(f"/g/{token}/history").status_code == 200


def test_a_company_of_russian_evenings_refuses_a_balkan_game(
    web: Web, client: FlaskClient, store: Store
) -> None:
    from scorekeeper.store.companies import Companies

    from ..flows import new_company

    company = new_company(web, roster=("Ana", "Boža", "Ceca"))
    token = _imported(web, client, [])
    page = web.get(f"/c/{company}")
    result = web.submit(page, page.form("/attach").set(link=token))
    assert result.status == 422
    assert "Balkan rules" in " ".join(result.errors()), result.errors()
    assert Companies(store).get(company).games == []
