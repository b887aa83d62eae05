"""An independent reading of a season file, written from season.md §2-§4 and §6.2 only.

A test oracle: it assumes the file is valid and checks nothing. Each game and each
tournament table (a game with the tournament's convention and options) is scored by the
independent game scorer (`independent.score_file`), never by the app. `season_report(data)` returns the parts of `scorekeeper season`'s JSON it computes:
`players`, `standings`, `rating_log`, the club's statistics (every key) and the club's
head-to-head.

Readings where season.md leaves room: on the 1st of a month the players decay in the
code-point order of their names; a decayed player's line comes before any table of that day.
"""

from __future__ import annotations

import math
import unicodedata
from datetime import date
from fractions import Fraction
from typing import Any

from .independent import PRESETS, score_file

TABLE_KINDS = {"contract", "misere", "allpass", "redeal"}


def key(name: str) -> str:
    """NFKC(casefold(NFKC(strip(name))))."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name.strip()).casefold())


def cents(value: Fraction) -> str:
    """A multiple of 1/100 with two decimals."""
    c = int(value * 100)
    assert Fraction(c, 100) == value
    sign = "-" if c < 0 else ""
    return f"{sign}{abs(c) // 100}.{abs(c) % 100:02d}"


class Who:
    """Seats to players (§2)."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.names = {p["id"]: p["name"] for p in data.get("players", [])}
        self.merges = {m["from"]: m["into"] for m in data.get("merges", [])}
        self.spelling: dict[Any, str] = {}

    def end(self, pid: int) -> int:
        while pid in self.merges:
            pid = self.merges[pid]
        return pid

    def seat(self, name: str, attached: int | None) -> Any:
        if attached is not None:
            return ("id", self.end(attached))
        for pid, directory_name in self.names.items():
            if key(directory_name) == key(name):
                return ("id", self.end(pid))
        player = ("name", key(name))
        if player not in self.spelling or name < self.spelling[player]:
            self.spelling[player] = name
        return player

    def name(self, player: Any) -> str:
        return self.names[player[1]] if player[0] == "id" else self.spelling[player]


def table_of(game: dict[str, Any]) -> dict[str, Any]:
    """x, D, over and the pair balances of a game, by the independent scorer."""
    scored = score_file(game)
    options = {**PRESETS[game["convention"]], **game.get("options", {})}
    players = scored["players"]
    n = len(players)
    d = n - 1 if options["hill_divisor"] == "opponents" else n
    sheet = scored["sheet"]

    def balance(i: str, j: str) -> Fraction:
        w = Fraction(sheet[i]["whists"][j]) - Fraction(sheet[j]["whists"][i])
        pools = Fraction(sheet[i]["pool"]) - Fraction(sheet[j]["pool"])
        hills = Fraction(sheet[i]["hill"]) - Fraction(sheet[j]["hill"])
        return (
            w
            + Fraction(options["pool_whists"]) * pools / d
            - Fraction(options["hill_whists"]) * hills / d
        )

    return {
        "players": players,
        "x": {p: Fraction(v) for p, v in scored["settlement"]["net"].items()},
        "D": sum(1 for deal in game.get("deals", []) if deal["type"] in TABLE_KINDS),
        "over": scored["finished"],
        "balance": {(i, j): balance(i, j) for i in players for j in players if i != j},
        "hussar": game["convention"] == "hussar",
    }


def tables_of(event: dict[str, Any]) -> list[tuple[int | None, int | None, dict[str, Any]]]:
    """An event's tables as game files: a game's one, a tournament's tour by tour."""
    if "game" in event:
        return [(None, None, event["game"])]
    t = event["tournament"]
    out = []
    for k, tour in enumerate(t["tours"], start=1):
        for j, table in enumerate(tour["tables"], start=1):
            game = {"format": "scorekeeper-game/1", "convention": t["convention"]}
            out.append((k, j, {**game, "options": t["options"], **table}))
    return out


WHISTS = ("whist", "whist-talon", "whist-returned")
COUNTS = (
    "deals_played", "misere_declared", "misere_caught", "whisted", "passed", "half_whisted",
    "allpass_played", "allpass_tricks", "allpass_zero", "penalties",
)  # fmt: skip


def log_counts(game: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """What each player did in a game's deal log (§3), read from the file's deals."""
    players = game["players"]
    n = len(players)
    dealer = players.index(game.get("first_dealer", players[0]))
    out = {p: {**dict.fromkeys(COUNTS, 0), "declared": {}, "made": {}} for p in players}
    for deal in game.get("deals", []):
        kind = deal["type"]
        if kind in TABLE_KINDS:
            d = dealer % n
            away = [] if n < 4 else [players[d]] if n == 4 else [players[d], players[(d + 1) % n]]
            dealer += 1
            if kind != "redeal":
                for p in players:
                    out[p]["deals_played"] += p not in away
        if kind == "contract":
            level = str(int("".join(ch for ch in deal["contract"] if ch.isdigit())))
            mine = out[deal["declarer"]]
            played = any(a in WHISTS for a in deal["answers"].values())
            made = not played or deal.get("tricks", {}).get(deal["declarer"], 0) >= int(level)
            mine["declared"][level] = mine["declared"].get(level, 0) + 1
            mine["made"][level] = mine["made"].get(level, 0) + made
            for p, a in deal["answers"].items():
                key = "whisted" if a in WHISTS else "passed" if a == "pass" else "half_whisted"
                out[p][key] += 1
        elif kind == "misere":
            out[deal["declarer"]]["misere_declared"] += 1
            out[deal["declarer"]]["misere_caught"] += deal["tricks"][deal["declarer"]] >= 1
        elif kind == "allpass":
            for p, t in deal["tricks"].items():
                out[p]["allpass_played"] += 1
                out[p]["allpass_tricks"] += t
                out[p]["allpass_zero"] += t == 0
        elif kind == "penalty":
            out[deal["player"]]["penalties"] += 1
    return out


def first_days(after: date, until: date) -> list[date]:
    out = []
    y, m = after.year, after.month
    while True:
        m += 1
        if m == 13:
            y, m = y + 1, 1
        day = date(y, m, 1)
        if day > until:
            return out
        out.append(day)


def season_report(data: dict[str, Any]) -> dict[str, Any]:
    who = Who(data)
    start_day = date.fromisoformat(data["from"])
    as_of = date.fromisoformat(data.get("as_of", data["to"]))
    events = sorted(
        enumerate(data["events"], start=1),
        key=lambda e: (date.fromisoformat(e[1]["played_on"]), e[0]),
    )
    games = []
    roster: set[Any] = set()
    for number, event in events:
        for tour, table, game in tables_of(event):
            t = table_of(game)
            t["counts"] = log_counts(game)
            seats = event.get("seats", {})
            t["who"] = [who.seat(s, seats.get(s)) for s in t["players"]]
            t["day"] = date.fromisoformat(event["played_on"])
            t["event"], t["tour"], t["table"] = number, tour, table
            t["friendly"] = event.get("friendly", False)
            games.append(t)
    for _, event in events:  # a roster name is a seat, at a table or not yet
        for name in event.get("tournament", {}).get("players", []):
            attached = event.get("seats", {})
            roster.add(who.seat(name, attached.get(name)))
    known = {("id", who.end(s["player"])) for s in data.get("start", [])} | roster
    known |= {p for g in games for p in g["who"]}
    R: dict[Any, Fraction] = {}
    n: dict[Any, int] = {}
    c: dict[Any, int] = {}
    last: dict[Any, date] = {}
    season_games: dict[Any, int] = {}
    season_last: dict[Any, date] = {}
    for s in data.get("start", []):
        p = ("id", who.end(s["player"]))
        R[p], n[p], c[p] = Fraction(s["rating"]), s["games"], s["deals"]
        last[p] = (
            date.fromisoformat(s["last_played"])
            if "last_played" in s
            else date.fromordinal(start_day.toordinal() - 1)
        )
    log: list[dict[str, Any]] = []

    def shown(p: Any) -> Fraction:
        r = R.get(p, Fraction(0))
        return r if n.get(p, 0) > 6 else min(Fraction(200), max(Fraction(-200), r))

    done = start_day

    def decay(until: date) -> None:
        nonlocal done
        for first in first_days(done, until):
            before = (
                date(first.year - 1, 12, 1)
                if first.month == 1
                else date(first.year, first.month - 1, 1)
            )
            for p in sorted(R, key=who.name):
                if last[p] < before and R[p] > 10:
                    R[p] -= 10
                    log.append(
                        {
                            "date": first.isoformat(),
                            "player": who.name(p),
                            "decay": "-10",
                            "after": cents(R[p]),
                        }
                    )
        done = max(done, until)

    rated = [
        g
        for g in games
        if g["over"] and not g["friendly"] and not g["hussar"]
        and 3 <= len(g["players"]) <= 5 and g["D"] >= 1
    ]  # fmt: skip
    before_tour: dict[Any, Fraction] = {}
    for k, g in enumerate(rated):
        decay(g["day"])
        if k == 0 or (rated[k - 1]["event"], rated[k - 1]["tour"]) != (g["event"], g["tour"]):
            together = [h for h in rated if (h["event"], h["tour"]) == (g["event"], g["tour"])]
            before_tour = {p: shown(p) for h in together for p in h["who"]}
        m = len(g["who"])
        S = [before_tour[p] for p in g["who"]]
        for i, p in enumerate(g["who"]):
            x = g["x"][g["players"][i]]
            perf = x * 20 / g["D"] + 2 * (sum(S) - S[i]) / (m - 1)
            old = R.get(p, Fraction(0))
            n[p] = n.get(p, 0) + 1
            c[p] = c.get(p, 0) + g["D"]
            w = Fraction(min(g["D"], 500), min(c[p], 500))
            R[p] = Fraction(math.floor(100 * (old + w * (perf - old)) + Fraction(1, 2)), 100)
            last[p] = season_last[p] = g["day"]
            season_games[p] = season_games.get(p, 0) + 1
            log.append({
                "date": g["day"].isoformat(), "event": g["event"], "tour": g["tour"], "table": g["table"],
                "player": who.name(p), "deals": g["D"], "result": str(x), "performance": str(perf),
                "before": cents(old), "after": cents(R[p]),
            })  # fmt: skip
    decay(as_of)
    return {
        "players": sorted(
            (
                {
                    "player": who.name(p),
                    "id": p[1] if p[0] == "id" else None,
                    "merged": sorted(
                        who.names[m] for m in who.merges if p[0] == "id" and who.end(m) == p[1]
                    ),
                }
                for p in known
            ),
            key=lambda row: row["player"],
        ),  # fmt: skip
        "standings": standings(R, n, c, season_games, season_last, shown, who),
        "rating_log": log,
        "statistics": statistics(games, who),
        "head_to_head": pairs(games, who),
    }


def standings(R, n, c, season_games, season_last, shown, who) -> list[dict[str, Any]]:  # type: ignore[no-untyped-def]
    established = sorted((p for p in R if n[p] > 6), key=lambda p: (-shown(p), who.name(p)))
    provisional = sorted((p for p in R if n[p] <= 6), key=lambda p: (-shown(p), who.name(p)))
    out = []
    for p in established + provisional:
        est = n[p] > 6
        out.append({
            "place": 1 + sum(1 for q in established if shown(q) > shown(p)) if est else None,
            "player": who.name(p), "id": p[1] if p[0] == "id" else None,
            "rating": cents(shown(p)), "provisional": not est,
            "category": min(10, max(1, math.floor((shown(p) + 360) / 72) + 1)) if est else None,
            "games": n[p], "season_games": season_games.get(p, 0), "deals": c[p],
            "last_played": season_last[p].isoformat() if p in season_last else None,
        })  # fmt: skip
    return out


def statistics(games: list[dict[str, Any]], who: Who) -> dict[str, dict[str, Any]]:
    rows: dict[str, list[tuple[date, Fraction, int, bool]]] = {}
    counts: dict[str, list[dict[str, Any]]] = {}
    for g in games:
        if not g["over"]:
            continue
        xs = [g["x"][s] for s in g["players"]]
        for i, p in enumerate(g["who"]):
            won = xs[i] == max(xs) and xs[i] > 0
            rows.setdefault(who.name(p), []).append((g["day"], xs[i], g["D"], won))
            counts.setdefault(who.name(p), []).append(g["counts"][g["players"][i]])
    out = {}
    for name in sorted(rows):
        mine = rows[name]
        xs = [x for _, x, _, _ in mine]
        signs = [1 if x > 0 else -1 for x in xs if x != 0]
        runs: list[int] = []
        for s in signs:
            if runs and (runs[-1] > 0) == (s > 0):
                runs[-1] += s
            else:
                runs.append(s)
        deals = sum(d for _, _, d, _ in mine)
        out[name] = {
            "games": len(mine), "evenings": len({day for day, _, _, _ in mine}), "deals": deals,
            "net": str(sum(xs, Fraction(0))),
            "net_per_deal": str(sum(xs, Fraction(0)) / deals if deals else Fraction(0)),
            "wins": sum(1 for *_, won in mine if won),
            "plus": sum(1 for x in xs if x > 0), "minus": sum(1 for x in xs if x < 0),
            "even": sum(1 for x in xs if x == 0),
            "largest_win": str(max(Fraction(0), max(xs))), "largest_loss": str(min(Fraction(0), min(xs))),
            "longest_plus_streak": max([r for r in runs if r > 0], default=0),
            "longest_minus_streak": max([-r for r in runs if r < 0], default=0),
            "current_streak": runs[-1] if runs else 0,
            "longest_game": max(d for _, _, d, _ in mine),
        }  # fmt: skip
        for k in COUNTS:
            out[name][k] = sum(c[k] for c in counts[name])
        for k in ("declared", "made"):
            out[name][k] = {
                lv: sum(c[k].get(lv, 0) for c in counts[name]) for lv in "6 7 8 9 10".split()
            }
    return out


def pairs(games: list[dict[str, Any]], who: Who) -> list[dict[str, Any]]:
    found: dict[tuple[str, str], list[Any]] = {}
    for g in games:
        if not g["over"]:
            continue
        for i, a in enumerate(g["who"]):
            for j, b in enumerate(g["who"]):
                if who.name(a) < who.name(b):
                    row = found.setdefault((who.name(a), who.name(b)), [0, Fraction(0)])
                    row[0] += 1
                    row[1] += g["balance"][(g["players"][i], g["players"][j])]
    return [
        {"players": list(k), "games": v[0], "balance": str(v[1])} for k, v in sorted(found.items())
    ]
