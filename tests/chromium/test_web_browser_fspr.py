"""Browser tier: the ФСПР deals by taps (issue 46 item 2) — the returned whist, the dealer's
whist, the talon's quick tricks and the dealer's all-pass tricks — at 375 × 667, 360 × 640
with 1.5× text and 320 × 568 with 1.5× text: each tap in reach without a scroll, no key
typed, each kind at most one tap more than the same deal in plain Leningrad, and the deal
stored as the rules read it. The taps are printed (-s) for the closing note."""

from __future__ import annotations

import json
from typing import Any

import pytest

from scorekeeper.store import Store

from ..browser import new_game, save_ready, text_scale
from .test_web_browser_bars import Eye

pytestmark = pytest.mark.browser

FOUR = ["Anna", "Boris", "Vera", "Gleb"]
SIZES = [(375, 667, 1.0), (360, 640, 1.5), (320, 568, 1.5)]
KINDS = ["returned whist", "dealer's whist", "talon's quick tricks", "all-pass with the dealer"]


def _deal(kind: str, table: dict[str, Any], fspr: bool) -> dict[str, Any]:
    """The deal of a kind at this seat, by names: what is tapped (the ФСПР part only at a
    ФСПР table) and what the rules store."""
    dealer, active = table["dealer"], table["active"]
    declarer = active[0]
    first, second = table["declarers"][declarer]
    if kind == "all-pass with the dealer":
        tricks = dict(zip(active, (3, 3, 4), strict=True))
        if fspr:
            tricks = {**dict(zip(active, (3, 3, 3), strict=True)), dealer: 1}
        return {"kind": "allpass", "tricks": tricks}
    deal: dict[str, Any] = {"kind": "contract", "declarer": declarer, "contract": "6S"}
    if kind == "returned whist":
        # Pass – half-whist, then the first returns the whist (offered only after the half).
        deal["answers"] = {first: "whist-returned" if fspr else "pass", second: "half-whist"}
        deal["taps"] = [(first, "pass"), (second, "half-whist")]
        deal["taps"] += [(first, "whist-returned")] if fspr else []
    elif kind == "dealer's whist":
        deal["answers"] = {first: "pass", second: "half-whist"} | (
            {dealer: "whist"} if fspr else {}
        )
    else:
        answers = {first: "pass", second: "whist"}
        deal |= {"contract": "7S", "answers": answers, "talon": 1 if fspr else None}
    deal["tricks"] = {declarer: int(deal["contract"][0])}
    return deal


def _enter(eye: Eye, players: list[str], deal: dict[str, Any]) -> None:
    """Tap the deal: only what differs from what the page shows."""
    page = eye.page
    seat = {p: str(i) for i, p in enumerate(players)}
    eye.choice("kind", deal["kind"])
    if "declarer" in deal:
        eye.choice("declarer", seat[deal["declarer"]])
        eye.choice("contract", deal["contract"])
    for who, answer in deal.get("taps") or (deal.get("answers") or {}).items():
        eye.choice(f"answer_{seat[who]}", answer)
    if deal.get("talon") is not None:
        eye.choice("talon_tricks", str(deal["talon"]))
    for who, count in deal["tricks"].items():
        chip = f'#trickpad .chip[data-seat="{seat[who]}"]'
        if not page.is_visible(chip) or page.locator(f"{chip} b").inner_text() == str(count):
            continue  # not asked, or filled in by the page (made exactly, the rest of ten)
        if page.locator(chip).get_attribute("aria-pressed") != "true":
            eye.tap(chip)
        eye.tap(f'#trickpad .num[data-n="{count}"]')
    save_ready(page, f"{eye.where} (missed: {eye.missed})")


def _play(eye: Eye, server: str, token: str, kind: str, fspr: bool) -> dict[str, Any]:
    page = eye.page
    page.goto(f"{server}/g/{token}")
    eye.tap("#next-deal")
    page.wait_for_selector("#deal-form")
    table = json.loads(page.get_attribute("#deal-form", "data-table") or "{}")
    deal = _deal(kind, table, fspr)
    _enter(eye, FOUR, deal)
    with page.expect_navigation(wait_until="domcontentloaded"):
        eye.tap("#save-button")
    return deal


def _stored(deal: dict[str, Any]) -> dict[str, Any]:
    """What the rules store for the deal tapped (game-file notation)."""
    if deal["kind"] == "allpass":
        return {"type": "allpass", "tricks": deal["tricks"]}
    out = {k: deal[k] for k in ("declarer", "contract", "answers")} | {"type": "contract"}
    if (
        any(a in ("whist", "whist-returned") for a in deal["answers"].values())
        or len(deal["answers"]) < 2
    ):
        out["tricks"] = deal["tricks"]
    if deal.get("talon") is not None:
        out["talon_tricks"] = deal["talon"]
    return out


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}-{s}x" for w, h, s in SIZES])
def test_fspr_deals_by_taps(
    chromium: Any, real_server: Any, store: Store, size: tuple[int, int, float]
) -> None:
    width, height, scale = size
    taps: dict[str, dict[str, int]] = {}
    missed: list[str] = []
    lost: list[str] = []
    context = chromium.new_context(viewport={"width": width, "height": height}, has_touch=True)
    text_scale(context, scale)
    page = context.new_page()
    try:
        for convention in ("leningrad", "fspr"):
            fspr = convention == "fspr"
            token = new_game(page, real_server.url, FOUR, convention=convention)
            for kind in KINDS:
                eye = Eye(page, f"fspr-{width}x{height}-{convention}-{kind.split()[0]}")
                deal = _play(eye, real_server.url, token, kind, fspr)
                taps.setdefault(kind, {})[convention] = eye.taps
                missed += [f"{convention} {kind}: {m}" for m in eye.missed]
                lost += [f"{convention} {kind}: {m}" for m in eye.lost]
                if fspr:
                    data = store.get_game(token).deals[-1].data
                    expected = _stored(deal)
                    assert {k: data.get(k) for k in expected} == expected, (kind, data)
            assert "cannot be scored" not in page.inner_text("main")
    finally:
        context.close()
    print(f"{width}x{height} {scale}x taps (leningrad, fspr):", taps)
    print(f"{width}x{height} {scale}x choices tapped twice (the first chose nothing):", lost)
    assert not missed, missed
    for kind, by in taps.items():
        assert by["fspr"] <= by["leningrad"] + 1, (kind, by)


def test_the_dealers_whist_is_taken_back_by_a_second_tap(chromium: Any, real_server: Any) -> None:
    context = chromium.new_context(viewport={"width": 375, "height": 667}, has_touch=True)
    page = context.new_page()
    try:
        token = new_game(page, real_server.url, FOUR, convention="fspr")
        eye = Eye(page, "fspr-untap")
        page.goto(f"{real_server.url}/g/{token}")
        eye.tap("#next-deal")
        page.wait_for_selector("#deal-form")
        table = json.loads(page.get_attribute("#deal-form", "data-table") or "{}")
        seat = {p: str(i) for i, p in enumerate(FOUR)}
        declarer = table["active"][0]
        first, second = table["declarers"][declarer]
        dealer = f"#answer_{seat[table['dealer']]}"
        eye.choice("declarer", seat[declarer])
        eye.choice("contract", "6S")
        assert not page.is_visible(dealer)  # not after whist – whist
        eye.choice(f"answer_{seat[first]}", "pass")
        eye.choice(f"answer_{seat[second]}", "half-whist")
        assert page.is_visible(dealer)
        whist = f'{dealer} input[value="whist"]'
        eye.tap(f'{dealer} .tap[data-value="whist"]')
        assert page.is_checked(whist)
        eye.tap(f'{dealer} .tap[data-value="whist"]')
        assert not page.is_checked(whist)
        eye.choice(f"answer_{seat[first]}", "whist-returned")  # the first returns it instead
        assert not page.is_visible(dealer)
        assert not eye.missed, eye.missed
    finally:
        context.close()
