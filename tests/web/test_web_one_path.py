"""One path for every write: the service writes, a form sent again with its one-time key
and other values is refused as for deals, and pages with forms are never stored."""

from __future__ import annotations

import ast
from pathlib import Path

from scorekeeper.store import Store
from scorekeeper.store.companies import Companies

from ..flows import finish, new_company, play_some, start_evening
from ..harness import ROOT, Web

STORE_WRITES = {
    "add_deal",
    "update_deal",
    "delete_deal",
    "undo_last",
    "restore_revision",
    "set_finished",
    "play_on",
    "replace_token",
    "delete_game",
    "restore_game",
    "create_game",
    "create",
    "update_rules",
    "add_player",
    "rename_player",
    "attach",
    "add_payment",
    "delete_payment",
}


def test_a_payment_form_sent_again_with_another_amount_is_refused(web: Web, store: Store) -> None:
    token = new_company(web, roster=("Anna", "Boris", "Vera"))
    game_token = start_evening(web, store, token, ["Anna", "Boris", "Vera"])
    play_some(web, store, game_token)
    finish(web, game_token)
    page = web.get(f"/c/{token}")
    form = page.form("/pay")  # the first of the fewest payments, one tap
    assert web.submit(page, form).status == 302
    again = web.submit(page, form)  # the same tap sent twice: recorded once, no message
    assert again.status == 302
    first = form.value("amount")
    changed = web.submit(page, form.set(amount="1.25"))  # Back, another amount, Send
    assert changed.status == 409
    assert "already used" in changed.text()
    payments = Companies(store).get(token).payments
    assert len(payments) == 1 and str(payments[0].amount) == first


def test_pages_with_forms_are_never_stored(web: Web, store: Store) -> None:
    token = web.new_game(["Anna", "Boris", "Vera"])
    for url in (f"/g/{token}", f"/g/{token}/deal/new", "/new", f"/g/{token}/links"):
        response = web.client.get(url)
        assert response.headers.get("Cache-Control") == "no-store", url
    company = new_company(web, roster=("Anna", "Boris", "Vera"))
    assert web.client.get(f"/c/{company}").headers.get("Cache-Control") == "no-store"
    view = store.get_game(token).view_token
    assert web.client.get(f"/v/{view}").headers.get("Cache-Control") != "no-store"


def test_no_view_calls_a_store_write_or_another_view() -> None:
    """Views parse the request, call one service function and render (drawn from the code)."""
    web = ROOT / "scorekeeper" / "web"
    found: list[str] = []
    for path in sorted(Path(web).rglob("*.py")):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
                continue
            target = node.func.value
            on_store = isinstance(target, ast.Call) and getattr(target.func, "id", "") in (
                "get_store",
                "companies",
                "Companies",
            )
            if on_store and node.func.attr in STORE_WRITES:
                found.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.func.attr}")
        for node in ast.walk(tree):
            # Another blueprint's views (a blueprint's own package may import its bp).
            if (
                isinstance(node, ast.ImportFrom)
                and node.level >= 2
                and (node.module or "").endswith("routes")
            ):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno} imports another view")
    assert found == []
