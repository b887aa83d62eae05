"""Benchmark: what a table's evening costs on the phone, tap by tap, in real headless Chromium.

Run: .venv/bin/python bench/bench_taps.py [--deals 20] [--seed 5] [--verbose]

Four evenings of the kind the table plays (the hidden ones of issue 50's measurements are
drawn the same way): three players (Sochi), four (Leningrad), five (Rostov) and a Hussar
evening, each with corrections and penalties among the deals, entered at 375 × 667 and at
360 × 640 with the text 1.5 × larger. Each deal is drawn as the next legal one of the game
on the server (scorekeeper.sample.random_deal over the stored sheet) and entered the way the
scorer does it: Next deal on the sheet, only what differs from what the form shows (the
preset answers, the made-exactly tricks), Save. Before each tap the thumb looks at its
target: not wholly on the screen is a scroll, under something else is covered
(tests/chromium/test_web_browser_bars.Eye). Digits typed (a correction's amount) are
keystrokes, counted apart. A page load is a new document in the tab.

Prints, per evening and size: deals, taps a deal, keystrokes, scrolls, covered targets and
page loads a deal; then each size's total. Goal (issue 50): at most 5.8 taps a deal, 0 scrolls.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for tests.*

from scorekeeper.games import load  # noqa: E402
from scorekeeper.sample import random_deal  # noqa: E402
from scorekeeper.store import Store  # noqa: E402
from tests.browser import RealServer, launch, new_game, text_scale  # noqa: E402
from tests.chromium.test_web_browser_bars import Eye, _enter  # noqa: E402

#: (name, convention, players).
EVENINGS = [
    ("three, Sochi", "sochi", ["Anna", "Boris", "Vera"]),
    ("four, Leningrad", "leningrad", ["Anna", "Boris", "Vera", "Gleb"]),
    ("five, Rostov", "rostov", ["Anna", "Boris", "Vera", "Gleb", "Dasha"]),
    ("Hussar", "hussar", ["Anna", "Boris"]),
]
#: (label, viewport, text scale).
SIZES = [("375x667", (375, 667), 1.0), ("360x640 1.5x", (360, 640), 1.5)]
CORRECTION_AT, PENALTY_AT = 7, 12  # one of each on every evening at least
POOL = {"pool_target": "50"}


@dataclass
class Tally:
    """What one evening cost at one size."""

    deals: int = 0
    taps: int = 0
    keys: int = 0
    loads: int = 0
    missed: list[str] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        self.deals += other.deals
        self.taps += other.taps
        self.keys += other.keys
        self.loads += other.loads
        self.missed += other.missed

    def line(self, name: str) -> str:
        n = max(self.deals, 1)
        scrolls = sum(m.startswith("scroll") for m in self.missed)
        covered = len(self.missed) - scrolls
        return (
            f"{name:<28} {self.deals:>3} deals  taps/deal {self.taps / n:5.2f}  "
            f"keys/deal {self.keys / n:4.2f}  scrolls {scrolls}  covered {covered}  "
            f"page loads/deal {self.loads / n:4.2f}"
        )


def _next_deal(store: Store, token: str, rng: random.Random, number: int) -> dict[str, Any] | None:
    """The next legal deal of the stored game (None once it is over)."""
    sheet = load(store.get_game(token)).sheet
    if sheet.finished:
        return None
    while True:
        # Corrections of a pool or a hill (a correction of whists takes the same taps and one
        # more: whom they are written on).
        deal = random_deal(rng, sheet, corrections=False, penalties=True)
        if number == CORRECTION_AT or (number > CORRECTION_AT and rng.random() < 0.05):
            deal = {"type": "correction", "reason": "", "entries": [_correction(rng, sheet)]}
        if number == PENALTY_AT:
            deal = {"type": "penalty", "player": rng.choice(sheet.players), "contract": "7H"}
        if deal["type"] == "penalty":  # the form offers the levels the deal may be played at
            level = max(int(deal["contract"].rstrip("SCDHNT")), sheet.next_min_level or 6)
            deal["contract"] = f"{level}{deal['contract'].lstrip('0123456789')}"
        answers = deal.get("answers") or {}
        if "whist-returned" not in answers.values() and "dealer" not in deal:
            return deal


def _correction(rng: random.Random, sheet: Any) -> dict[str, Any]:
    player = rng.choice(list(sheet.players))
    return rng.choice([{"player": player, "hill": -4}, {"player": player, "pool": 2}])


def _by_seat(deal: dict[str, Any], players: list[str]) -> dict[str, Any]:
    """The deal as test_web_browser_bars._enter takes it: players by their seat's index, a
    correction's rows as (seat, column, amount)."""
    at = players.index
    out: dict[str, Any] = {}
    if "declarer" in deal:
        out["declarer"] = at(deal["declarer"])
    if deal["type"] == "penalty":
        out["offender"] = at(deal["player"])
    if "contract" in deal:
        out["contract"] = deal["contract"]
    out["answers"] = {at(p): a for p, a in (deal.get("answers") or {}).items()}
    out["tricks"] = {at(p): n for p, n in (deal.get("tricks") or {}).items()}
    out["entries"] = [
        (at(e["player"]), column, str(e[column]))
        for e in deal.get("entries") or []
        for column in ("pool", "hill")
        if column in e
    ]
    return out


def evening(browser: Any, server: RealServer, size: tuple[str, tuple[int, int], float],
            what: tuple[str, str, list[str]], deals: int, seed: int) -> Tally:  # fmt: skip
    """One evening entered by taps at one size."""
    label, (width, height), scale = size
    name, convention, players = what
    context = browser.new_context(viewport={"width": width, "height": height}, has_touch=True)
    text_scale(context, scale)
    page = context.new_page()
    tally, rng = Tally(), random.Random(f"{seed}-{name}")
    loads: list[str] = []
    page.on("load", lambda: loads.append(page.url))
    try:
        # A pool long enough for the evening (a Hussar pool of 10 closes in a few deals).
        token = new_game(page, server.url, players, convention=convention, house=POOL)
        with Store(server.db) as store:
            for number in range(1, deals + 1):
                deal = _next_deal(store, token, rng, number)
                if deal is None:
                    break
                loads.clear()
                eye = Eye(page, f"taps-{label.replace(' ', '')}-{convention}-{number}")
                eye.tap("#next-deal")
                page.wait_for_selector("#deal-form")
                by_seat = _by_seat(deal, players)
                _enter(eye, players, deal["type"], by_seat)
                keys = sum(len(a.lstrip("-")) for _, _, a in by_seat["entries"])
                with page.expect_navigation(wait_until="load"):
                    eye.tap("#save-button")
                tally.deals += 1
                tally.taps += eye.taps
                tally.keys += keys
                tally.loads += len(loads)
                tally.missed += [f"{m} (deal {number})" for m in eye.missed]
                if page.locator("#next-deal").count() == 0:
                    print(f"    {name}: no Next deal after deal {number} ({page.url})")
                    break
    finally:
        context.close()
    return tally


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=20, help="deals an evening (default 20)")
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--verbose", action="store_true", help="list every scroll and cover")
    args = parser.parse_args()
    where = Path(tempfile.mkdtemp(prefix="bench-taps-"))
    server = RealServer(where / "games.sqlite", where / "serve.log")
    server.wait_ready()
    try:
        with sync_playwright() as playwright:
            browser = launch(playwright)
            for size in SIZES:
                total = Tally()
                for what in EVENINGS:
                    tally = evening(browser, server, size, what, args.deals, args.seed)
                    print(tally.line(f"{size[0]}, {what[0]}"))
                    if args.verbose and tally.missed:
                        print("\n".join(f"    {m}" for m in tally.missed))
                    total.add(tally)
                print(tally_line := total.line(f"{size[0]}, all evenings"))
                print("-" * len(tally_line))
            browser.close()
    finally:
        server.stop()


if __name__ == "__main__":
    main()
