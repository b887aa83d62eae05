"""What people do through the pages, by the test client (`harness.Web`): a company and its
evenings, a tournament created, seated, played and closed, a club and its director's forms,
a file imported."""

from __future__ import annotations

import io
import json

from scorekeeper.games import load
from scorekeeper.store import Store
from scorekeeper.store.companies import Companies
from scorekeeper.store.tournaments import Tournaments

from .harness import NINE, Page, Web

# -- a company -------------------------------------------------------------------------------


def new_company(web: Web, roster=("Anna", "Boris", "Vera", "Gleb"), **fields) -> str:
    """Create a company through its form; returns its edit token."""
    page = web.get("/company/new")
    form = page.form("new-company")
    form.set(name="Fridays", roster="\n".join(roster), **fields)
    result = web.submit(page, form)
    assert result.status == 302, result.errors() or result.text()[:800]
    return result.response.headers["Location"].rsplit("/", 1)[-1].split("#")[0]


def start_evening(web: Web, store: Store, token: str, players: list[str]) -> str:
    """Tap "New evening" with these roster players ticked, then "Start"; the game's token."""
    company = web.get(f"/c/{token}")
    form = company.form("evening")
    ids = [str(p.id) for p in Companies(store).get(token).roster if p.name in players]
    form.set(player=ids)
    query = "&".join(f"player={i}" for i in form.fields["player"])
    page = web.get(f"/c/{token}/evening?{query}")
    started = web.submit(page, page.form("evening-form"))
    assert started.status == 302, started.errors() or started.text()[:800]
    return started.response.headers["Location"].rsplit("/", 1)[-1]


def finish(web: Web, game_token: str) -> None:
    """Finish the game by hand (Finish, then the confirmation)."""
    page = web.get(f"/g/{game_token}")
    asked = web.submit(page, page.form("/finish"))  # Finish asks first
    assert web.submit(asked, asked.form("finish-confirm")).status == 302


def play_some(web: Web, store: Store, game_token: str) -> None:
    """Two deals: the first active player makes a six nobody whists, the next a misère."""
    seats = store.get_game(game_token).players
    active = load(store.get_game(game_token)).sheet.next_active
    web.play(
        game_token,
        seats,
        "contract",
        declarer=active[0],
        contract="6S",
        answers={active[1]: "pass", active[2]: "pass"},
    )
    active = load(store.get_game(game_token)).sheet.next_active
    web.play(game_token, seats, "misere", declarer=active[1], tricks={active[1]: 0})


# -- a tournament ----------------------------------------------------------------------------

CONTRACTS = ["6S", "7S", "8S", "6C"]


def new_tournament(web: Web, roster=NINE, **fields) -> str:
    """Create a tournament through its form; returns its edit token."""
    page = web.get("/tournament/new")
    form = page.form("new-tournament")
    values = {"name": "December cup", "roster": "\n".join(roster), "rounds": "1"}
    values.update(fields)
    form.set(**values)
    result = web.submit(page, form)
    assert result.status == 302, result.errors() or result.text()[:800]
    return result.response.headers["Location"].rsplit("/", 1)[-1].split("#")[0]


def seat(web: Web, token: str) -> Page:
    """Seat the next tour as the director's page proposes; the page after it."""
    page = web.get(f"/t/{token}")
    done = web.submit(page, page.form("/seat"))
    assert done.status == 302
    return web.get(f"/t/{token}")


def play(web: Web, store: Store, game_token: str, deals: int, shift: int = 0) -> None:
    """Save deals at a table: each time the next active player declares a contract that
    both others pass (a different one each deal, so the table's results differ)."""
    for i in range(deals):
        record = store.get_game(game_token)
        active = load(record).sheet.next_active
        web.play(
            game_token,
            list(record.players),
            "contract",
            declarer=active[0],
            contract=CONTRACTS[(i + shift) % len(CONTRACTS)],
            answers={active[1]: "pass", active[2]: "pass"},
        )


def tables(store: Store, token: str, tour: int):
    """The tables of this tour, as stored."""
    return Tournaments(store).get(token).tour(tour)


def play_tour(web: Web, store: Store, token: str, tour: int) -> None:
    """Play a round of deals at every table of the tour (each table's results differ)."""
    for table in tables(store, token, tour):
        play(web, store, table.game.edit_token, len(table.game.players), shift=table.table_no)


def downloaded(web: Web, token: str) -> dict:
    """The tournament file the page hands out for download."""
    response = web.client.get(f"/t/{token}/tournament.json")
    assert response.status_code == 200
    assert "attachment" in response.headers["Content-Disposition"]
    return json.loads(response.get_data(as_text=True))


# -- a club ----------------------------------------------------------------------------------


def new_club(web: Web, name: str = "Пуля") -> str:
    """Create a club on the home page's way; its edit token."""
    page = web.get("/club/new")
    done = web.submit(page, page.form().set(name=name))
    assert done.status == 302
    return done.response.headers["Location"].rsplit("/", 1)[-1].split("#")[0]


def post(web: Web, token: str, action: str, **values: str) -> tuple[int, list[str]]:
    """Post one of the director's forms as the page draws it; the status and the errors."""
    page = web.get(f"/k/{token}")
    response = web.submit(page, page.form(f"/k/{token}/{action}").set(**values))
    shown = Page(response.response, response.url)
    return shown.status, shown.errors()


# -- a file imported, a tour closed ---------------------------------------------------------


def upload(web: Web, data: bytes, name: str = "game.json") -> Page:
    """Send a file through the import page; the page it answers with."""
    page = web.get("/import")
    form = page.form()
    response = web.client.post(
        "/import",
        data={**form.data(), "file": (io.BytesIO(data), name)},
        content_type="multipart/form-data",
    )
    return Page(response, "/import")


def close(web: Web, token: str, early: bool = False) -> None:
    """The director closes the tour (early: before every table has finished)."""
    page = web.get(f"/t/{token}")
    form = page.form("/close")
    if early:
        form.set(early="y")
    assert web.submit(page, form).status == 302
