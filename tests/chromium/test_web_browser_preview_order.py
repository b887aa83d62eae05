"""Browser tier: the live preview never shows an answer about the form as it was before the
last tap. The preview asks the server 120 ms after a tap (a Check); a Check already on its
way when the scorer taps again must not show, nor enable Save, when its answer comes back
before the newer Check goes out (seen in a full run: misère with Vera's two tricks read
"Vera: pool +10", the answer for none).

Playwright's clock holds the page's timers (paused: on a loaded machine the taps before the
first Check were more than 120 ms apart, and a Check went out before the test let it), so
the order is forced: the first Check is held by routing until after the second tap, then
let through while the second waits for its 120 ms.
"""

from __future__ import annotations

from typing import Any

import pytest

from ..browser import (
    SMALL_PHONE,
    _tap_tricks,
    _Thumb,
    clocked_form,
    held_requests,
    new_game,
    pumped,
)
from ..harness import seats, until

pytestmark = pytest.mark.browser

PLAYERS = ["Anna", "Boris", "Vera"]

#: Every text the preview shows, in order, with the marks the test writes between them.
_SHOWN = """window.__shown = [];
{
  document.addEventListener("DOMContentLoaded", () => {
    const preview = document.getElementById("preview");
    if (!preview) return;
    new MutationObserver(() => window.__shown.push(preview.innerText)).observe(
      preview, { childList: true, subtree: true, characterData: true });
  });
}"""


def test_an_answer_to_the_form_before_the_last_tap_never_shows(
    chromium: Any, real_server: Any
) -> None:
    context = chromium.new_context(viewport=SMALL_PHONE)
    try:
        page = context.new_page()
        token = new_game(page, real_server.url, PLAYERS)
        held = held_requests(page, "**/deal/check", first=True)
        page.add_init_script(_SHOWN)
        clocked_form(page, real_server.url, token, paused=True)
        thumb, seat = _Thumb(page), seats(PLAYERS)
        thumb.choice("kind", "misere")
        thumb.choice("declarer", seat["Vera"])
        page.clock.run_for(500)  # the first Check goes out: held
        until(pumped(page, lambda: bool(held)), "the first Check sent")

        page.evaluate("window.__shown.push('-- the second tap --')")
        _tap_tricks(thumb, PLAYERS, {"Vera": 2})
        assert page.get_attribute("#preview", "aria-busy") == "true"  # a screen reader waits
        with page.expect_event("requestfinished", lambda r: "/deal/check" in r.url):
            held[0].continue_()  # its answer comes back while the second waits its 120 ms
        page.evaluate("window.__shown.push('-- the first answer read --')")
        page.clock.run_for(500)  # the second Check goes out and is answered
        page.wait_for_function("() => /hill/.test(document.getElementById('preview').innerText)")
        page.wait_for_selector("#save-button:not([disabled])")
        assert page.get_attribute("#preview", "aria-busy") is None

        shown: list[str] = page.evaluate("window.__shown")
        after = shown[shown.index("-- the second tap --") + 1 :]
        assert not [text for text in after if "pool +10" in text], shown
        assert "Vera: hill +20" in page.inner_text("#preview")  # misère, two tricks × 10
    finally:
        context.close()
