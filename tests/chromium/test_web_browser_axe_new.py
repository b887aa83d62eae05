"""axe-core finds nothing (WCAG 2.1 A/AA) on what issue 50 added: the paper's totals form and
its settlement, a deal form with a kept deal put back (its card and Throw-it-away), and the
page a follower is shown when its game was deleted. The language links of the page's top are
left out: what they say is another change's."""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper.store import Store

from ..browser import axe_violations, new_game, tap_choice

pytestmark = pytest.mark.browser

THREE = ["Anna", "Boris", "Vera"]


def _ours(page: Any) -> list[str]:
    return [
        v
        for v in axe_violations(page)
        if not (v.startswith("label-content-name-mismatch") and "lang" in v)
    ]


def test_axe_finds_nothing_on_what_issue_50_added(
    phone: tuple[Any, str, list[str]], store: Store
) -> None:
    page, server, _problems = phone
    found: dict[str, list[str]] = {}
    page.goto(f"{server}/paper?lang=ru")
    found["paper form"] = _ours(page)
    for i, name in enumerate(THREE):
        page.fill(f"#player_{i}", name)
    page.fill("#pool_0", "10")
    page.fill("#whists_1_0", "12")
    with page.expect_navigation():
        page.locator("#paper-settle").click()
    found["paper settled"] = _ours(page)
    token = new_game(page, server, THREE)
    page.goto(f"{server}/g/{token}/deal/new")
    tap_choice(page, "kind", "contract")
    tap_choice(page, "declarer", "0")
    page.wait_for_function(
        "Object.keys(localStorage).some(k => k.startsWith('scorekeeper.draft.'))"
    )
    page.reload()
    page.wait_for_selector("#draft")
    found["deal form with its kept deal"] = _ours(page)
    view = store.get_game(token).view_token
    store.delete_game(token)
    page.goto(f"{server}/v/{view}")
    found["deleted game's link"] = _ours(page)
    assert found == dict.fromkeys(found, []), found
