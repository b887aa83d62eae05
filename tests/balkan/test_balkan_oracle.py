"""Differential test: the Balkan engine against an independent scorer written from the
specification alone (tests/oracle/balkan_independent.py), on random valid partije of 3 and 4
players with refe, kontra, invitations, betl, corrections, scaled last deals and write-offs."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper import gamefile_balkan, report_balkan
from scorekeeper.balkan import score

from ..oracle import balkan_independent as oracle
from .helpers import partija

CONTRACTS = ("pik", "karo", "herc", "tref", "betl", "sans")


def random_options(rng: random.Random) -> dict[str, Any]:
    pick = rng.choice
    return {
        "bule": pick((10, 20, 40, 100)),
        "refe_max": pick((None, 0, 1, 2, 3)),
        "refe_count": pick(("written", "open")),
        "refa_doubles_under_hat": pick((True, False)),
        "kontra_max": pick((0, 1, 2, 4)),
        "pik_kontra": pick(("required", "free")),
        "follower_quota": pick(("each", "each_if_made", "pair")),
        "follower_fall": pick(("full", "half")),
        "supe_cap": pick((True, False)),
        "betl_kontra_supe": pick(("kontra_giver", "each")),
        "double_fall": pick((True, False)),
        "result_sign": pick(("lower_better", "higher_better")),
        "stake": pick(("1", "0.1", "0.25", "3")),
        "money_unit": pick(("0.01", "1", "5")),
    }


def split(rng: random.Random, total: int, people: list[str]) -> dict[str, int]:
    """`total` tricks among `people`, at random."""
    out = dict.fromkeys(people, 0)
    for _ in range(total):
        out[rng.choice(people)] += 1
    return out


def kontra(rng: random.Random, opt: dict[str, Any], givers: list[str]) -> dict[str, Any]:
    if not givers or opt["kontra_max"] == 0 or rng.random() < 0.6:
        return {}
    return {"kontra": rng.randint(1, opt["kontra_max"]), "kontra_by": rng.choice(givers)}


def random_played(rng: random.Random, s: dict[str, Any]) -> dict[str, Any]:
    opt = s["opt"]
    _, active = oracle.dealer_and_active(s)
    declarer = rng.choice(active)
    others = [p for p in active if p != declarer]
    deal: dict[str, Any] = {
        "type": "played",
        "declarer": declarer,
        "contract": rng.choice(CONTRACTS),
    }
    if rng.random() < 0.3:
        deal["igra"] = True
    if deal["contract"] == "betl":
        deal.update(kontra(rng, opt, others))
        deal["tricks"] = {declarer: rng.choice((0, 0, 1, 3))}
        return deal
    followers = rng.sample(others, rng.choice((0, 1, 2, 2)))
    deal["followers"] = followers
    if not followers:
        return deal
    if len(followers) == 1 and rng.random() < 0.4:
        deal["invited"] = next(p for p in others if p not in followers)
    deal.update(kontra(rng, opt, followers))
    pik = deal["contract"] == "pik" and not deal.get("igra") and not deal.get("kontra")
    if pik and opt["pik_kontra"] == "required" and oracle.refa_allowed(s):
        deal["igra"] = True
    playing = (
        active
        if deal.get("kontra")
        else [declarer, *followers, *[deal.get("invited")] * ("invited" in deal)]
    )
    defence = [p for p in playing if p != declarer]
    if rng.random() < 0.6:
        taken = rng.randint(6, 10)
        deal["tricks"] = {declarer: taken, **split(rng, 10 - taken, defence)}
    else:
        taken = rng.randint(0, 5)
        rest = 5 if opt["supe_cap"] else 10 - taken
        deal["tricks"] = {declarer: taken, **split(rng, rest, defence)}
    return deal


def random_correction(rng: random.Random, s: dict[str, Any]) -> dict[str, Any] | None:
    players = s["players"]
    entries: list[dict[str, Any]] = []
    for _ in range(rng.randint(1, 3)):
        who = rng.choice(players)
        if rng.random() < 0.5:
            entries.append({"player": who, "bule": rng.randint(-15, 15)})
        else:
            on = rng.choice([p for p in players if p != who])
            entries.append({"player": who, "supe_on": on, "amount": rng.randint(-20, 60)})
    change = sum(e.get("bule", 0) for e in entries)
    return (
        {"type": "correction", "entries": entries}
        if sum(s["bule"].values()) + change >= 0
        else None
    )


def random_partija(seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    players = ["Ana", "Boža", "Ceca", "Dejan"][: rng.choice((3, 3, 4))]
    data = partija([], players=tuple(players), convention=rng.choice(("club", "iklub", "savez")))
    data["options"] = random_options(rng)
    data["first_dealer"] = rng.choice(players)
    s = oracle.new_state(data)
    for _ in range(rng.randint(0, 40)):
        if s["over"]:
            break
        roll = rng.random()
        if roll < 0.7:
            deal: dict[str, Any] | None = random_played(rng, s)
        elif roll < 0.85:
            deal = {"type": "refa"}
        elif roll < 0.97:
            deal = random_correction(rng, s)
        else:
            deal = {
                "type": "writeoff",
                **({"left": rng.choice(players)} if rng.random() < 0.5 else {}),
            }
        if deal is not None:
            data["deals"].append(deal)
            oracle.run(s, deal)
    data["finished"] = rng.random() < 0.2
    return data


def engine(data: dict[str, Any]) -> dict[str, Any]:
    return report_balkan.score_report(score(gamefile_balkan.load(data)), with_settlement=True)


@settings(max_examples=400, deadline=None)
@given(st.integers(0, 2**32))
def test_the_engine_agrees_with_the_independent_scorer(seed: int) -> None:
    data = random_partija(seed)
    assert engine(data) == oracle.score_balkan(data, settle=True)


def test_the_random_partije_reach_every_corner() -> None:
    """The generator is not idle: over a fixed set of seeds it makes scaled last deals, hats,
    refe played both ways, kontra, invitations, four players and every way of ending."""
    seen: set[str] = set()
    for seed in range(300):
        data = random_partija(seed)
        sheet = score(gamefile_balkan.load(data))
        for o in sheet.outcomes:
            seen.update({"scaled"} if o.scale is not None else set())
            seen.update({f"refa-{o.refa_marked[1]}"} if o.refa_marked else set())
            deal = data["deals"][o.number - 1] if o.number <= len(data["deals"]) else {}
            seen.update(k for k in ("kontra", "invited") if deal.get(k))
        seen.update({f"ended-{sheet.ended_by}", f"players-{len(sheet.players)}"})
        seen.update({"hat"} if any("hat" in sheet.column(p) for p in sheet.players) else set())
    assert seen >= {
        "scaled",
        "refa-passed",
        "refa-failed",
        "kontra",
        "invited",
        "hat",
        "ended-zero",
        "ended-writeoff",
        "ended-None",
        "players-3",
        "players-4",
    }
