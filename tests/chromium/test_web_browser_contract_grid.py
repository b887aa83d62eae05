"""Browser tier: the contract grid (issue 50, item 6). Reopened from "Contract: 8♥ — change"
by keyboard, focus is on the chosen 8♥, not on 6♠; each contract's accessible name holds
what the cell shows, then its words («8♥ — восемь червей»), so a voice-control user saying
either hits it (WCAG 2.5.3, label in name)."""

from __future__ import annotations

from typing import Any

import pytest

from ..browser import NAMES, ax_controls, new_game, tap_choice

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("lang", ["ru", "uk", "en"])
def test_the_reopened_grid_is_on_the_chosen_contract_and_names_hold_what_is_shown(
    chromium: Any, real_server: Any, lang: str
) -> None:
    context = chromium.new_context(viewport={"width": 375, "height": 667})
    page = context.new_page()
    try:
        token = new_game(page, real_server.url, NAMES[lang], lang=lang)
        page.goto(f"{real_server.url}/g/{token}/deal/new")
        tap_choice(page, "kind", "contract")
        tap_choice(page, "declarer", "0")
        shown = {
            code: page.inner_text(f'#contract .tap[data-value="{code}"] span').strip()
            for code in ("6S", "8H", "10NT")
        }
        radios = [n for role, n in ax_controls(page, "#contract") if role == "radio"]
        assert len(radios) == 25, radios
        for code, label in shown.items():
            assert any(n.startswith(label + " — ") for n in radios), (code, label, radios[:6])
        assert all(len(n.split(" — ")) == 2 and n.split(" — ")[1] for n in radios), radios[:6]

        tap_choice(page, "contract", "8H")
        chip = page.locator("#contract-chip")
        assert chip.is_visible() and shown["8H"] in chip.inner_text()
        chip.focus()
        page.keyboard.press("Enter")
        focused = page.evaluate("[document.activeElement.name, document.activeElement.value]")
        assert focused == ["contract", "8H"]
        # And Escape folds it again, back on the button.
        page.keyboard.press("Escape")
        assert page.evaluate("document.activeElement.id") == "contract-chip"
    finally:
        context.close()
