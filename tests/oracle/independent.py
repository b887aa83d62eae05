"""An independent scorer of a game file, written from docs/rules.md and docs/game-format.md only.

It is a test oracle: it assumes the file is valid and checks nothing. `score_file(data)` returns
the same JSON structure as `scorekeeper score --settle`.

Readings chosen where docs/rules.md leaves room (the most literal one each time):

1. Trick-whist splitting (§4.3, greedy / gentleman_on_remise / gentleman) is defined "between
   whister and passer": it only applies to one whister and one passer. With two whisters each
   writes his own tricks and his own consolation whatever `whist_split` says; in Hussar (one
   defender, no passer) `whist_split` has no effect.
2. `gentleman` on a failed contract pools trick whists and both consolations and halves them,
   like `gentleman_on_remise`; on a made contract it halves the side's trick whists.
3. `two_whister_quota = personal` replaces the two-whister rules only; it still applies only
   when the contract is made ("Whister short of quota (only when the contract is made …)"),
   but without the `s < q` condition ("whatever the side took"). With `ten_checked`, a ten has
   no personal quota either ("no whister can be penalised").
4. `allpass_mode = whists`: the progression multiplier `m` is NOT applied (the formula is
   `allpass_price × t_j`), and the pool bonus is a flat 1 (no multiplier, no conversion).
5. `allpass_min_amnesty` uses the fewest tricks among the active players; the hill is written
   for `t − min`, the pool bonus still only for `t = 0`. It applies to hill mode only.
6. Overflow help (§5) applies to every pool write made by a deal (contract, half-whist,
   both-pass, misère, all-pass bonus), never to corrections. Pools already at or above the
   target take nothing; the helped are all other players with pool < target, four-player dealer
   included.
7. Hussar (§9): a ten is only checked (quota 0) whether the whister is alone or with the talon,
   whatever `ten_checked` says. "Alone on a seven or higher: 1 trick" covers seven to nine.
8. Hussar: every hill amount `x` (remise, whister shortfall, misère, correction hills, and the
   overflow remainder that "comes off the giver's hill", i.e. a negative amount) is written as
   `x × hill_whists` whists by the opponent on the player; hills stay 0.
9. Hussar: consolation (default 0 there) is still written by the single defender if an option
   sets it; a defender who passes is "both defenders pass" (§4.1): declarer pool += v.
10. `hill_divisor = opponents` divides both the hill and the pool parts of §6 by N − 1, i.e.
    both terms of the net formula are multiplied by N / (N − 1); whists are unaffected.
11. `finished` is true if the file says so, or if the end rule holds on the final sheet.
12. The all-pass streak is only reset by a contract or a misère; redeals and corrections leave
    it as it is. A both-pass or half-whist contract resets it too (it is a contract).
13. Money always has two decimals (stake per whist; the currency's minor unit is taken as 1/100).

Added for five players, penalties and the newer options (written from docs/rules.md §2, §4.3, §4.5,
§4.7, §5, §6 before reading the engine's code for them):

14. Five players: the dealer and the player on his left sit out; every player sitting out (4 or
    5 players) writes a remise's consolation `u × c` when `dealer_consolation` is on.
15. Penalty: offender hill += v × remise_scale (Hussar: converted to the opponent's whists);
    every other player at the table (all N − 1 of them, whatever `dealer_consolation` says)
    writes `c` (one undertrick's consolation) on the offender. No split, no pool write; the
    deal does not pass and the all-pass streak is untouched.
16. `allpass_exit_on = made`: only a deal that writes into the declarer's pool (made contract,
    both pass, half-whist, made misère) resets the streak; a failed contract or misère leaves
    the streak exactly as it was (the next all-pass takes the next step).
17. `money_unit`: exact money = net × stake; floor to multiples of the unit, missing units one
    each to the largest remainders (ties seating order), written with two decimals.
18. `round_limit`: the game is finished once the table deals (everything but corrections and
    penalties) reach `round_limit × N`.

Added for the ФСПР round (written from docs/rules.md §4.2, §4.3, §4.5, §4.8, §4.9, §5, §7 and
docs/game-format.md before reading the engine's code for them):

19. `talon_tricks` × v × whist_scale is written on the declarer on every contract deal that
    carries it (played, passed, half-whisted, returned, the dealer's whist): at 4 or 5 players
    by the dealer alone, otherwise split evenly among all the other players at the table.
20. A returned whist or the dealer's whist: the whister alone writes the side's tricks and, on
    a remise, one consolation; the half-whister and the passer nothing; those sitting out
    (other than a whisting dealer) their consolation when `dealer_consolation` is on. Only the
    returner answers for the quota, as one whister.
21. The all-pass zero bonus B and its form apply in hill mode; the whists mode keeps its flat
    pool 1, which a talon-playing dealer without `allpass_zero_dealer` does not get either.
22. `deal_limit`: the game is finished once the table deals reach it; `end = by_hand` never
    finishes on pools.
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

PRESETS: dict[str, dict[str, Any]] = {
    "sochi": {
        "pool_target": 10,
        "pool_whists": 10,
        "hill_whists": 10,
        "whist_scale": 1,
        "remise_scale": 1,
        "shortfall_rate": 1,
        "consolation": "value",
        "dealer_consolation": True,
        "whist_split": "greedy",
        "two_whister_quota": "side",
        "ten_checked": False,
        "half_whist": [6, 7],
        "misere_value": 10,
        "misere_hill": 10,
        "allpass_mode": "hill",
        "allpass_price": 1,
        "allpass_progression": [1, 2, 3],
        "allpass_exit": [6],
        "allpass_min_amnesty": False,
        "overflow": "help",
        "end": "all_closed",
        "hill_divisor": "players",
        "stake": "1",
        "currency": "",
        "allpass_exit_on": "any",
        "money_unit": "0.01",
        "round_limit": None,
        "stalingrad": False,
        "half_whist_tricks": "quota",
        "dealer_whist": False,
        "talon_bonus": False,
        "allpass_zero_bonus": "trick",
        "allpass_zero_form": "pool",
        "allpass_dealer_talon": False,
        "allpass_zero_dealer": True,
        "deal_limit": None,
    },
}
PRESETS["leningrad"] = {
    **PRESETS["sochi"],
    "pool_whists": 20,
    "whist_scale": 2,
    "remise_scale": 2,
    "whist_split": "gentleman_on_remise",
    "misere_hill": 20,
    "allpass_price": 2,
    "allpass_exit": [7],
    "overflow": "keep",
    "end": "pool_sum",
}
PRESETS["rostov"] = {
    **PRESETS["sochi"],
    "shortfall_rate": "1/2",
    "consolation": 10,
    "whist_split": "gentleman_on_remise",
    "allpass_mode": "whists",
    "allpass_price": 5,
    "allpass_progression": [1],
}
PRESETS["fspr"] = {
    **PRESETS["leningrad"],
    "whist_split": "gentleman",
    "two_whister_quota": "side_both",
    "dealer_whist": True,
    "talon_bonus": True,
    "allpass_exit_on": "whisted_made",
    "allpass_zero_bonus": "trick_points",
    "allpass_zero_form": "hill",
    "allpass_dealer_talon": True,
    "allpass_zero_dealer": False,
    "end": "by_hand",
}
PRESETS["hussar"] = {
    **PRESETS["sochi"],
    "consolation": 0,
    "half_whist": [],
    "allpass_mode": "none",
    "allpass_progression": [1],
    "overflow": "keep",
    "end": "first_closed",
}

VALUE = {6: 2, 7: 4, 8: 6, 9: 8, 10: 10}  # §3 value v
QUOTA = {6: 4, 7: 2, 8: 1, 9: 1, 10: 1}  # §3 defenders' quota q
HALF_QUOTA = {6: 2, 7: 1}  # §3 half quota
PERSONAL_QUOTA = {6: 2, 7: 1, 8: 1, 9: 1, 10: 1}  # §4.3 two_whister_quota = personal
HUSSAR_ALONE = {6: 2, 7: 1, 8: 1, 9: 1, 10: 0}  # §9
HUSSAR_TALON = {6: 4, 7: 2, 8: 1, 9: 1, 10: 0}  # §9


def frac(x: Any) -> Fraction:
    """A number or a string like "1/2" or "0.10" as an exact Fraction."""
    return Fraction(str(x))


class Scorer:
    """Replays the deal log onto a sheet of pools, hills and whists."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.players: list[str] = list(data["players"])
        self.n = len(self.players)
        self.convention: str = data["convention"]
        self.hussar = self.convention == "hussar"
        self.opt: dict[str, Any] = {**PRESETS[self.convention], **(data.get("options") or {})}
        self.pool = {p: Fraction(0) for p in self.players}
        self.hill = {p: Fraction(0) for p in self.players}
        self.whists = {p: {q: Fraction(0) for q in self.players if q != p} for p in self.players}
        self.target = frac(self.opt["pool_target"])
        self.pw = frac(self.opt["pool_whists"])
        self.hw = frac(self.opt["hill_whists"])
        self.dealer_index = self.players.index(data.get("first_dealer") or self.players[0])
        self.allpass_streak = 0
        self.table_deals = 0

    # --- seating -------------------------------------------------------------------------
    def clockwise_from(self, player: str) -> list[str]:
        """The other players clockwise, starting with the one on `player`'s left."""
        i = self.players.index(player)
        return [self.players[(i + k) % self.n] for k in range(1, self.n)]

    def sitting_out(self, dealer: str) -> list[str]:
        """§2: four players, the dealer sits out; five, the dealer and the next dealer."""
        i = self.players.index(dealer)
        if self.n == 4:
            return [dealer]
        if self.n == 5:
            return [dealer, self.players[(i + 1) % self.n]]
        return []

    def active(self, dealer: str) -> list[str]:
        """§2: the three (or two in Hussar) who do not sit out."""
        out = self.sitting_out(dealer)
        return [p for p in self.players if p not in out]

    def defenders(self, dealer: str, declarer: str) -> list[str]:
        """§2: first and second defender, clockwise from the declarer, skipping the dealer."""
        act = self.active(dealer)
        return [p for p in self.clockwise_from(declarer) if p in act]

    # --- writing -------------------------------------------------------------------------
    def write_whists(self, writer: str, on: str, amount: Fraction) -> None:
        self.whists[writer][on] += amount

    def write_hill(self, player: str, amount: Fraction) -> None:
        """§9: in Hussar a hill amount becomes the opponent's whists at hill_whists per point."""
        if self.hussar:
            (opponent,) = [p for p in self.players if p != player]
            self.whists[opponent][player] += amount * self.hw
        else:
            self.hill[player] += amount

    def write_pool(self, player: str, amount: Fraction) -> None:
        """A deal's pool write, with §5 overflow help when that option is on."""
        if self.opt["overflow"] != "help":
            self.pool[player] += amount
            return
        own = min(amount, max(Fraction(0), self.target - self.pool[player]))
        self.pool[player] += own
        rest = amount - own
        if rest <= 0:
            return
        order = self.clockwise_from(player)  # tie-break: next one clockwise from the giver
        open_players = [p for p in order if self.pool[p] < self.target]
        open_players.sort(key=lambda p: (-self.pool[p], order.index(p)))
        for helped in open_players:
            if rest <= 0:
                break
            given = min(rest, self.target - self.pool[helped])
            self.pool[helped] += given
            self.write_whists(player, helped, given * self.pw)
            rest -= given
        if rest > 0:
            self.write_hill(player, -rest * self.pw / self.hw)

    # --- deals ---------------------------------------------------------------------------
    def run(self, deals: list[dict[str, Any]]) -> None:
        for deal in deals:
            kind = deal["type"]
            if kind == "correction":
                self.correction(deal)
                continue
            if kind == "penalty":
                self.penalty(deal)
                continue
            dealer = self.players[self.dealer_index]
            self.table_deals += 1
            if kind == "contract":
                if self.resets_streak(deal):
                    self.allpass_streak = 0
                self.contract(deal, dealer)
            elif kind == "misere":
                exit_on = self.opt["allpass_exit_on"]
                made = deal["tricks"][deal["declarer"]] == 0
                if exit_on == "any" or (exit_on == "made" and made):
                    self.allpass_streak = 0
                self.misere(deal)
            elif kind == "allpass":
                self.allpass_streak += 1
                self.allpass(deal, dealer)
            # "redeal": no score, the deal passes.
            self.dealer_index = (self.dealer_index + 1) % self.n

    def resets_streak(self, deal: dict[str, Any]) -> bool:
        """§4.5 allpass_exit_on: "any" contract, or only one that writes the declarer's pool."""
        if self.opt["allpass_exit_on"] == "any":
            return True
        answers = deal["answers"].values()
        if not any(a in ("whist", "whist-talon", "whist-returned") for a in answers):
            # both passed or a half-whist: pool += v, but nobody whisted
            return self.opt["allpass_exit_on"] == "made"
        level = int(re.match(r"\d+", deal["contract"]).group())  # type: ignore[union-attr]
        return bool(deal["tricks"][deal["declarer"]] >= level)

    def penalty(self, deal: dict[str, Any]) -> None:
        """§4.7: a one-trick remise of the contract by the offender."""
        offender = deal["player"]
        level = int(re.match(r"\d+", deal["contract"]).group())  # type: ignore[union-attr]
        v = Fraction(VALUE[level])
        self.write_hill(offender, v * frac(self.opt["remise_scale"]))
        ws = frac(self.opt["whist_scale"])
        c = v * ws if self.opt["consolation"] == "value" else frac(self.opt["consolation"])
        for p in self.players:
            if p != offender:
                self.write_whists(p, offender, c)

    def correction(self, deal: dict[str, Any]) -> None:
        """§4.6: amounts written exactly as given (no overflow help)."""
        for entry in deal["entries"]:
            player = entry["player"]
            if "pool" in entry:
                self.pool[player] += frac(entry["pool"])
            if "hill" in entry:
                self.write_hill(player, frac(entry["hill"]))
            if "whists_on" in entry:
                self.write_whists(player, entry["whists_on"], frac(entry["amount"]))

    def contract(self, deal: dict[str, Any], dealer: str) -> None:
        declarer = deal["declarer"]
        level = int(re.match(r"\d+", deal["contract"]).group())  # type: ignore[union-attr]
        v = Fraction(VALUE[level])
        ws = frac(self.opt["whist_scale"])
        answers: dict[str, str] = deal["answers"]
        defs = self.defenders(dealer, declarer)
        self.talon(deal, dealer, v * ws)
        whisters = [p for p in defs if answers.get(p) in ("whist", "whist-talon")]
        passers = [p for p in defs if answers.get(p) == "pass"]
        half = [p for p in defs if answers.get(p) == "half-whist"]
        returned = [p for p in defs if answers.get(p) == "whist-returned"]
        if returned or dealer in answers and dealer not in defs:  # §4.8
            self.lone_whister(deal, dealer, (returned or [dealer])[0], level, v)
            return

        if half:  # §4.2
            self.half_whist(declarer, half[0], level, v * ws)
            return
        if not whisters:  # §4.1
            self.write_pool(declarer, v)
            return

        tricks: dict[str, int] = deal["tricks"]
        t_decl = tricks[declarer]
        side = 10 - t_decl
        per_trick = v * ws
        if t_decl >= level:  # §4.3 made
            self.write_pool(declarer, v)
            trick_whists = self.trick_whists(whisters, passers, tricks, side, per_trick, False)
            for writer, amount in trick_whists.items():
                self.write_whists(writer, declarer, amount)
            self.shortfall(deal, level, v, whisters, defs, tricks, side)
            return

        # §4.3 failed
        u = level - t_decl
        self.write_hill(declarer, u * v * frac(self.opt["remise_scale"]))
        c = v * ws if self.opt["consolation"] == "value" else frac(self.opt["consolation"])
        written = self.trick_whists(whisters, passers, tricks, side, per_trick, True)
        consolation = {p: u * c for p in defs}
        split = self.opt["whist_split"]
        if (
            not self.hussar
            and len(whisters) == 1
            and len(passers) == 1
            and split in ("gentleman_on_remise", "gentleman")
        ):
            total = sum(written.values(), Fraction(0)) + sum(consolation.values(), Fraction(0))
            written = {whisters[0]: total / 2, passers[0]: total / 2}
        else:
            for p, amount in consolation.items():
                written[p] = written.get(p, Fraction(0)) + amount
        for writer, amount in written.items():
            self.write_whists(writer, declarer, amount)
        if self.opt["dealer_consolation"]:
            for out in self.sitting_out(dealer):
                self.write_whists(out, declarer, u * c)

    def half_whist(self, declarer: str, half: str, level: int, per_trick: Fraction) -> None:
        """§4.2: the declarer's pool, and the half-whister's whists for h tricks."""
        self.write_pool(declarer, Fraction(VALUE[level]))
        h = Fraction(HALF_QUOTA[level])
        if self.opt["half_whist_tricks"] == "rest":
            h = Fraction(10 - level, 2)
        self.write_whists(half, declarer, h * per_trick)

    def talon(self, deal: dict[str, Any], dealer: str, per_trick: Fraction) -> None:
        """§4.9: the talon's quick tricks, written on the declarer."""
        quick = deal.get("talon_tricks", 0)
        if not quick:
            return
        amount = quick * per_trick
        if self.n >= 4:
            self.write_whists(dealer, deal["declarer"], amount)
            return
        others = [p for p in self.players if p != deal["declarer"]]
        for p in others:
            self.write_whists(p, deal["declarer"], amount / len(others))

    def lone_whister(
        self, deal: dict[str, Any], dealer: str, whister: str, level: int, v: Fraction
    ) -> None:
        """§4.8: a returned whist, or the dealer's whist."""
        declarer = deal["declarer"]
        ws = frac(self.opt["whist_scale"])
        t = deal["tricks"][declarer]
        side = 10 - t
        self.write_whists(whister, declarer, side * v * ws)
        if t >= level:
            self.write_pool(declarer, v)
            checked = level == 10 and self.opt["ten_checked"]
            returner = whister in self.defenders(dealer, declarer)  # not the dealer's whist
            if returner and side < QUOTA[level] and not checked:
                rate = frac(self.opt["shortfall_rate"])
                self.write_hill(whister, (QUOTA[level] - side) * v * rate)
            return
        u = level - t
        self.write_hill(declarer, u * v * frac(self.opt["remise_scale"]))
        c = v * ws if self.opt["consolation"] == "value" else frac(self.opt["consolation"])
        self.write_whists(whister, declarer, u * c)
        if self.opt["dealer_consolation"]:
            for out in self.sitting_out(dealer):
                if out != whister:
                    self.write_whists(out, declarer, u * c)

    def trick_whists(
        self,
        whisters: list[str],
        passers: list[str],
        tricks: dict[str, int],
        side: int,
        per_trick: Fraction,
        failed: bool,
    ) -> dict[str, Fraction]:
        """§4.3 trick whists of each defender (before any pooling of a failed contract)."""
        if len(whisters) == 2:
            return {w: tricks[w] * per_trick for w in whisters}
        whister = whisters[0]
        split = self.opt["whist_split"]
        if not self.hussar and passers and not failed and split == "gentleman":
            return {whister: side * per_trick / 2, passers[0]: side * per_trick / 2}
        return {whister: side * per_trick}

    def shortfall(
        self,
        deal: dict[str, Any],
        level: int,
        v: Fraction,
        whisters: list[str],
        defs: list[str],
        tricks: dict[str, int],
        side: int,
    ) -> None:
        """§4.3 whister short of quota (contract made), §9 Hussar quotas."""
        rate = frac(self.opt["shortfall_rate"])
        if self.hussar:
            talon = deal["answers"][whisters[0]] == "whist-talon"
            q = (HUSSAR_TALON if talon else HUSSAR_ALONE)[level]
            if side < q:
                self.write_hill(whisters[0], (q - side) * v * rate)
            return
        checked = level == 10 and self.opt["ten_checked"]
        if checked:
            return
        q = QUOTA[level]
        if len(whisters) == 1:
            if side < q:
                self.write_hill(whisters[0], (q - side) * v * rate)
            return
        if self.opt["two_whister_quota"] == "personal":
            for w in whisters:
                p = max(0, PERSONAL_QUOTA[level] - tricks[w])
                if p:
                    self.write_hill(w, p * v * rate)
            return
        if side >= q:
            return
        f = q - side
        if level in HALF_QUOTA:
            for w in whisters:
                p = max(0, HALF_QUOTA[level] - tricks[w])
                pays = min(p, f)
                if pays:
                    self.write_hill(w, pays * v * rate)
        elif self.opt["two_whister_quota"] == "side_both":
            for w in whisters:  # both whisters pay on 8, 9, 10
                self.write_hill(w, f * v * rate)
        else:
            self.write_hill(defs[1], f * v * rate)  # the second defender pays

    def misere(self, deal: dict[str, Any]) -> None:
        """§4.4."""
        declarer = deal["declarer"]
        t = deal["tricks"][declarer]
        if t == 0:
            self.write_pool(declarer, frac(self.opt["misere_value"]))
        else:
            self.write_hill(declarer, t * frac(self.opt["misere_hill"]))

    def allpass(self, deal: dict[str, Any], dealer: str) -> None:
        """§4.5: entries written player by player in seating order."""
        mode = self.opt["allpass_mode"]
        price = frac(self.opt["allpass_price"])
        progression = self.opt["allpass_progression"]
        m = frac(progression[min(self.allpass_streak, len(progression)) - 1])
        talon_dealer = self.opt["allpass_dealer_talon"] and self.n >= 4
        act = [
            p for p in self.players if p in self.active(dealer) or (talon_dealer and p == dealer)
        ]
        tricks = {p: deal["tricks"][p] for p in act}
        fewest = min(tricks.values())
        no_bonus = talon_dealer and not self.opt["allpass_zero_dealer"]
        if mode == "hill":
            base = fewest if self.opt["allpass_min_amnesty"] else 0
            for p in act:
                t = tricks[p]
                if t > 0 and t - base > 0:
                    self.write_hill(p, (t - base) * price * m)
                if t == 0 and not (no_bonus and p == dealer):
                    self.zero_bonus(p, price, m)
        elif mode == "whists":
            for p in act:
                if tricks[p] == fewest:
                    for j in act:
                        if tricks[j] > fewest:
                            self.write_whists(p, j, price * tricks[j])
                if tricks[p] == 0 and not (no_bonus and p == dealer):
                    self.write_pool(p, Fraction(1))

    def zero_bonus(self, player: str, price: Fraction, m: Fraction) -> None:
        """§4.5 allpass_zero_bonus and allpass_zero_form."""
        bonus = {
            "trick": price * m * self.hw / self.pw,
            "trick_points": price * m,
            "stage": m,
            "point": Fraction(1),
            "none": Fraction(0),
        }[self.opt["allpass_zero_bonus"]]
        if not bonus:
            return
        if self.opt["allpass_zero_form"] == "pool":
            self.write_pool(player, bonus)
        else:
            self.write_hill(player, -bonus * self.pw / self.hw)

    # --- end and settlement --------------------------------------------------------------
    def end_reached(self) -> bool:
        end = self.opt["end"]
        pools = list(self.pool.values())
        limit = self.opt["round_limit"]
        if limit is not None and self.table_deals >= int(limit) * self.n:
            return True
        cap = self.opt["deal_limit"]
        if cap is not None and self.table_deals >= int(cap):
            return True
        if end == "by_hand":
            return False
        if end == "all_closed":
            return all(p >= self.target for p in pools)
        if end == "pool_sum":
            return sum(pools, Fraction(0)) >= self.n * self.target
        return any(p >= self.target for p in pools)  # first_closed

    def settlement(self) -> dict[str, Any]:
        """§6."""
        n = self.n
        divisor = n if self.opt["hill_divisor"] == "players" else n - 1
        scale = Fraction(n, divisor)
        mean_pool = sum(self.pool.values(), Fraction(0)) / n
        mean_hill = sum(self.hill.values(), Fraction(0)) / n
        least_hill = min(self.hill.values())
        net = {}
        for i in self.players:
            balance = sum(
                (self.whists[i][j] - self.whists[j][i] for j in self.players if j != i),
                Fraction(0),
            )
            net[i] = (
                self.pw * scale * (self.pool[i] - mean_pool)
                - self.hw * scale * (self.hill[i] - mean_hill)
                + balance
            )
        stake = frac(self.opt["stake"])
        unit = frac(self.opt["money_unit"])
        exact = {p: net[p] * stake / unit for p in self.players}  # in units
        units = {p: exact[p].__floor__() for p in self.players}
        missing = -sum(units.values())
        by_remainder = sorted(
            self.players, key=lambda p: (-(exact[p] - units[p]), self.players.index(p))
        )
        for p in by_remainder[:missing]:
            units[p] += 1
        cents = {p: int(units[p] * unit * 100) for p in self.players}
        payments = []
        left = dict(cents)
        while any(left.values()):
            debtor = min(self.players, key=lambda p: (left[p], self.players.index(p)))
            creditor = min(self.players, key=lambda p: (-left[p], self.players.index(p)))
            amount = min(-left[debtor], left[creditor])
            payments.append({"from": debtor, "to": creditor, "amount": money(amount)})
            left[debtor] += amount
            left[creditor] -= amount
        return {
            "hill_after_amnesty": {p: str(self.hill[p] - least_hill) for p in self.players},
            "net": {p: str(net[p]) for p in self.players},
            "money": {p: money(cents[p]) for p in self.players},
            "payments": payments,
        }


def money(cents: int) -> str:
    """Whole hundredths as a decimal string with two decimals."""
    sign = "-" if cents < 0 else ""
    return f"{sign}{abs(cents) // 100}.{abs(cents) % 100:02d}"


def score_file(data: dict[str, Any], settle: bool = True) -> dict[str, Any]:
    """The sheet (and settlement) of a valid game file, as `scorekeeper score --settle` prints."""
    scorer = Scorer(data)
    scorer.run(data.get("deals") or [])
    finished = bool(data.get("finished")) or scorer.end_reached()
    out: dict[str, Any] = {
        "players": list(scorer.players),
        "sheet": {
            p: {
                "pool": str(scorer.pool[p]),
                "hill": str(scorer.hill[p]),
                "whists": {q: str(a) for q, a in scorer.whists[p].items()},
            }
            for p in scorer.players
        },
        "finished": finished,
    }
    if settle or finished:
        out["settlement"] = scorer.settlement()
    return out
