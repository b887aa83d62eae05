"""Random valid games in game-file notation: for property tests, benchmarks and demos."""

from __future__ import annotations

import random
from typing import Any

from scorekeeper import gamefile
from scorekeeper.rules import Game, Sheet, defenders, parse_deal, replay
from scorekeeper.rules.options import AllpassMode, Convention

SUITS = ("S", "C", "D", "H", "NT")
NAMES = ("Anna", "Boris", "Vera", "Gleb", "Dasha")

#: The options added with five players and penalties (docs/rules.md §4.5, §5, §6, §7); drawn only
#: when asked for, so that older seeds still make the same games.
NEWER_OPTIONS: dict[str, list[Any]] = {
    "allpass_exit_on": ["any", "made"],
    "money_unit": ["0.01", "0.05", "1", "5", "10"],
    "round_limit": [None, 1, 2, 3, 5],
    "stalingrad": [True, False],
}


#: The conventions a game is drawn from when none is named (the four older ones, so that older
#: seeds still make the same games).
DRAWN_CONVENTIONS = ("sochi", "leningrad", "rostov", "hussar")

#: The options of the ФСПР round (docs/rules.md §4.2–§4.9, §5), drawn only with `newest`.
NEWEST_OPTIONS: dict[str, list[Any]] = {
    "allpass_zero_bonus": ["trick", "trick_points", "stage", "point", "none"],
    "allpass_zero_form": ["pool", "hill"],
    "allpass_dealer_talon": [True, False],
    "allpass_zero_dealer": [True, False],
    "allpass_exit_on": ["any", "made", "whisted_made"],
    "two_whister_quota": ["side", "personal", "side_both"],
    "half_whist_tricks": ["quota", "rest"],
    "dealer_whist": [True, False],
    "talon_bonus": [True, False],
    "end": ["all_closed", "pool_sum", "first_closed", "by_hand"],
    "deal_limit": [None, 5, 12],
}


def random_options(rng: random.Random, convention: str, *, newer: bool = False) -> dict[str, Any]:
    """A few random house rules over the preset (`newer`: the newer options too)."""
    choices: dict[str, list[Any]] = {
        "pool_target": [10, 20, 30],
        "whist_split": ["greedy", "gentleman_on_remise", "gentleman"],
        "two_whister_quota": ["side", "personal"],
        "ten_checked": [True, False],
        "half_whist": [[6, 7], [6], []],
        "consolation": ["value", 0, 10],
        "shortfall_rate": [1, "1/2"],
        "allpass_mode": ["hill", "whists"],
        "allpass_progression": [[1, 2, 3], [1], [1, 2]],
        "allpass_exit": [[6], [7], [7, 8]],
        "allpass_min_amnesty": [True, False],
        "overflow": ["help", "keep"],
        "end": ["all_closed", "pool_sum", "first_closed"],
        "hill_divisor": ["players", "opponents"],
        "dealer_consolation": [True, False],
        "pool_whists": [10, 20],
        "stake": ["1", "0.10", "0.03"],
    }
    if convention == Convention.HUSSAR:
        for key in ("allpass_mode", "allpass_progression", "allpass_exit", "half_whist"):
            choices.pop(key)
    keys = rng.sample(sorted(choices), rng.randint(0, 5))
    out = {k: rng.choice(choices[k]) for k in keys}
    if newer:
        extra = dict(NEWER_OPTIONS)
        if convention == Convention.HUSSAR:
            extra.pop("allpass_exit_on")
            extra.pop("stalingrad")
        for key in rng.sample(sorted(extra), rng.randint(1, len(extra))):
            out[key] = rng.choice(extra[key])
    return out


def random_game(
    rng: random.Random,
    deals: int,
    *,
    convention: str | None = None,
    players: int | None = None,
    options: dict[str, Any] | None = None,
    corrections: bool = True,
    penalties: bool = False,
    newest: bool = False,
) -> dict[str, Any]:
    """A valid game file with up to `deals` deals (fewer if the game ends first); `newest`
    also draws the answers of the ФСПР round (a returned whist, the dealer's whist)."""
    convention = convention or rng.choice(DRAWN_CONVENTIONS)
    count = 2 if convention == Convention.HUSSAR else (players or rng.choice((3, 4)))
    names = list(NAMES[:count])
    data: dict[str, Any] = {
        "format": gamefile.FORMAT,
        "name": f"Random {convention} {rng.randint(1, 999)}",
        "convention": convention,
        "options": options if options is not None else random_options(rng, convention),
        "players": names,
        "first_dealer": rng.choice(names),
        "finished": False,
        "deals": [],
    }
    game = gamefile.load(data, max_deals=gamefile.FORMAT_MAX_DEALS)
    sheet, _ = replay(game)
    for _ in range(deals):
        if sheet.finished:
            break
        raw = random_deal(rng, sheet, corrections=corrections, penalties=penalties, newest=newest)
        data["deals"].append(raw)
        deal, problems = parse_deal(raw, game.players)
        assert deal is not None and not problems, problems
        sheet, problems = sheet.plus(deal)  # one deal on top, not a replay of the evening
        assert not problems, problems
    return data


def random_deal(
    rng: random.Random,
    sheet: Sheet,
    *,
    corrections: bool = True,
    penalties: bool = False,
    newest: bool = False,
) -> dict[str, Any]:
    """A deal that is legal as the next one of this sheet."""
    game = sheet.game
    if penalties and rng.random() < 0.05:
        return {
            "type": "penalty",
            "player": rng.choice(game.players),
            "contract": f"{rng.choice((6, 7, 8, 9, 10))}{rng.choice(SUITS)}",
        }
    roll = rng.random()
    if corrections and roll < 0.04:
        return _random_correction(rng, game.players)
    if game.hussar and roll < 0.12:
        return {"type": "redeal"}
    active = sheet.next_active
    if not game.hussar and game.options.allpass_mode != AllpassMode.NONE and roll < 0.25:
        return {"type": "allpass", "tricks": _allpass_tricks(rng, sheet, active)}
    declarer = rng.choice(active)
    if roll < 0.33:
        tricks = rng.choice((0, 0, 0, 1, 2))
        return {"type": "misere", "declarer": declarer, "tricks": {declarer: tricks}}
    return _random_contract(rng, sheet, declarer, newest=newest)


def _allpass_tricks(rng: random.Random, sheet: Sheet, active: list[str]) -> dict[str, int]:
    """The all-pass tricks: the active players', and the dealer's when he plays the talon."""
    dealer = sheet.next_dealer
    if not (sheet.options.allpass_dealer_talon and dealer not in active):
        return split_tricks(rng, active)
    own = rng.choice((0, 0, 1, 2))
    tricks = {dealer: own, **split_tricks(rng, active, 10 - own)}
    return {p: tricks[p] for p in sheet.players if p in tricks}


def _random_correction(rng: random.Random, players: tuple[str, ...]) -> dict[str, Any]:
    """A correction of one entry: a hill, a pool or whists."""
    player = rng.choice(players)
    other = rng.choice([p for p in players if p != player])
    entry = rng.choice(
        [
            {"player": player, "hill": rng.randint(-5, 10)},
            {"player": player, "pool": rng.randint(0, 2)},
            {"player": player, "whists_on": other, "amount": rng.randint(-10, 30)},
        ]
    )
    return {"type": "correction", "reason": "random fix", "entries": [entry]}


def _random_contract(
    rng: random.Random, sheet: Sheet, declarer: str, *, newest: bool = False
) -> dict[str, Any]:
    """A contract the declarer may play next, its answers, and the tricks when whisted."""
    game = sheet.game
    floor = sheet.next_min_level or 6
    level = rng.choice([lv for lv in (6, 6, 6, 7, 7, 8, 9, 10) if lv >= floor] or [floor])
    contract = f"{level}{rng.choice(SUITS)}"
    defs = defenders(game.players, sheet.next_dealer, declarer)
    answers = _random_answers(rng, game, defs, level, contract)
    if newest and answers.get(defs[-1]) == "half-whist":
        _overrule(rng, sheet, answers, defs)
    deal: dict[str, Any] = {
        "type": "contract",
        "declarer": declarer,
        "contract": contract,
        "answers": answers,
    }
    if rng.random() < 0.1:
        deal["dealer"] = sheet.next_dealer
    if newest and game.options.talon_bonus and rng.random() < 0.7:
        deal["talon_tricks"] = rng.choice((0, 1, 1, 2, 3))
    whisters = [p for p, a in answers.items() if a in ("whist", "whist-talon", "whist-returned")]
    if whisters:
        own = min(10, max(0, level + rng.choice((-3, -2, -1, -1, 0, 0, 0, 0, 1, 2))))
        rest = split_tricks(rng, [p for p in sheet.next_active if p != declarer], 10 - own)
        tricks = {declarer: own, **rest}
        if len(whisters) == 1 and rng.random() < 0.5:
            tricks = {declarer: own}
        deal["tricks"] = tricks
    return deal


def _overrule(rng: random.Random, sheet: Sheet, answers: dict[str, str], defs: list[str]) -> None:
    """After pass – half-whist: sometimes the first defender returns the whist, or (4 or 5
    players, `dealer_whist`) the dealer whists (§4.8)."""
    roll = rng.random()
    dealer = sheet.next_dealer
    if roll < 0.3:
        answers[defs[0]] = "whist-returned"
    elif roll < 0.6 and sheet.options.dealer_whist and dealer not in sheet.next_active:
        answers[dealer] = "whist"


def _random_answers(
    rng: random.Random, game: Game, defs: list[str], level: int, contract: str
) -> dict[str, str]:
    """The defenders' answers this game allows: in Hussar one defender, who may take the
    talon; a half-whist where the options allow it; both whist a 6♠ with Stalingrad."""
    opts = game.options
    if game.hussar:
        return {defs[0]: rng.choice(("whist", "whist-talon", "pass"))}
    first = rng.choice(("whist", "pass", "pass"))
    second = rng.choice(("whist", "pass"))
    if first == "pass" and level in opts.half_whist and rng.random() < 0.2:
        second = "half-whist"
    if opts.stalingrad and contract == "6S":
        return {defs[0]: "whist", defs[1]: "whist"}
    return {defs[0]: first, defs[1]: second}


def split_tricks(rng: random.Random, players: list[str], total: int = 10) -> dict[str, int]:
    """Deal `total` tricks at random among players."""
    counts = dict.fromkeys(players, 0)
    for _ in range(total):
        counts[rng.choice(players)] += 1
    return counts
