"""An independent scorer of a Balkan game file, written from the specification of the Balkan
family (§B1–§B12) alone, importing nothing of scorekeeper. It is a test oracle: it assumes the
file is valid and checks nothing. `score_balkan(data, settle=...)` returns the JSON object of
`scorekeeper score` (§B12); `refa_allowed`, `dealer_and_active` and `run` help a test build
valid random games.

Readings taken where the text leaves room (the same a club would take):
1. Active players with 4 are the three who do not deal; who plays a hand is the declarer, the
   followers and the invited one, or all active players under kontra and in betl.
2. "u > the sum of all bule before the deal" (double fall) compares with Σ bule of all players.
3. A correction's column value is written once per entry, after its net change.
4. A final write-off (`finished: true`) is written on the sheet (columns) like a writeoff entry.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

VALUE = {"pik": 2, "karo": 3, "herc": 4, "tref": 5, "betl": 6, "sans": 7}
PRESET = {
    "club": {
        "bule": 100,
        "refe_max": 2,
        "refe_count": "written",
        "refa_doubles_under_hat": True,
        "kontra_max": 4,
        "pik_kontra": "required",
        "follower_quota": "each",
        "follower_fall": "full",
        "supe_cap": True,
        "betl_kontra_supe": "kontra_giver",
        "double_fall": False,
        "result_sign": "lower_better",
        "stake": "1",
        "money_unit": "0.01",
    },
}
PRESET["iklub"] = {
    **PRESET["club"],
    "bule": 200,
    "refe_max": 4,
    "kontra_max": 2,
    "double_fall": True,
}
PRESET["savez"] = {**PRESET["club"], "bule": 400, "refe_max": 8, "pik_kontra": "free"}


def new_state(data: dict[str, Any]) -> dict[str, Any]:
    opt = {**PRESET[data["convention"]], **data.get("options", {})}
    players = list(data["players"])
    return {
        "opt": opt,
        "players": players,
        "bule": {p: opt["bule"] for p in players},
        "col": {p: [str(opt["bule"])] for p in players},
        "supe": {p: {q: 0 for q in players if q != p} for p in players},
        "supe_log": [],
        "refe": {p: [] for p in players},
        "refa_entries_written": 0,
        "dealer_index": players.index(data.get("first_dealer", players[0])),
        "over": None,
        "write_off": {p: 0 for p in players},
    }


def dealer_and_active(s: dict[str, Any]) -> tuple[str, list[str]]:
    ps = s["players"]
    dealer = ps[s["dealer_index"] % len(ps)]
    if len(ps) == 3:
        return dealer, list(ps)
    return dealer, [p for p in ps if p != dealer]


def refa_allowed(s: dict[str, Any]) -> bool:
    if any(b < 0 for b in s["bule"].values()):
        return False
    mx = s["opt"]["refe_max"]
    if mx is None:
        return True
    if s["opt"]["refe_count"] == "written":
        return s["refa_entries_written"] < mx
    return all(r.count("open") < mx for r in s["refe"].values())


def change_bule(s: dict[str, Any], p: str, d: int) -> None:
    old = s["bule"][p]
    new = old + d
    if old >= 0 and new < 0:
        s["col"][p].append("hat")
    if old < 0 and new >= 0:
        s["col"][p].append("hat-crossed")
    s["col"][p].append(str(new))
    s["bule"][p] = new


def played(s: dict[str, Any], d: dict[str, Any]) -> None:
    opt = s["opt"]
    decl = d["declarer"]
    dealer, active = dealer_and_active(s)
    under = any(b < 0 for b in s["bule"].values())
    R = 1
    if "open" in s["refe"][decl] and (opt["refa_doubles_under_hat"] or not under):
        R = 2
    k = d.get("kontra", 0)
    M = 2**k * R
    V = VALUE[d["contract"]] + (1 if d.get("igra") else 0)
    u = 2 * V * M
    tricks = d.get("tricks", {})
    bule: dict[str, Fraction] = {}
    supe: list[tuple[str, str, Fraction]] = []
    betl = d["contract"] == "betl"
    follow = list(d.get("followers", []))
    S = sum(s["bule"].values())
    if betl:
        passed = tricks[decl] == 0
        follow = [p for p in active if p != decl]
    elif not follow:
        passed = True
    else:
        passed = tricks[decl] >= 6
    if passed:
        bule[decl] = Fraction(-u)
    else:
        bule[decl] = Fraction(2 * u if opt["double_fall"] and u > S else u)

    def fall(p: str, amount: int) -> None:
        bule[p] = bule.get(p, Fraction(0)) + amount

    kb = d.get("kontra_by")
    if betl:
        if passed and kb:
            fall(kb, u)
        if not passed:
            writers = [kb] if kb and opt["betl_kontra_supe"] == "kontra_giver" else follow
            for w in writers:
                supe.append((w, decl, Fraction(10 * V * M)))
    elif follow:
        D = sum(t for p, t in tricks.items() if p != decl)
        if k >= 1:
            supe.append((kb, decl, Fraction(D * u)))
            if passed:
                fall(kb, u)
        elif d.get("invited"):
            supe.append((follow[0], decl, Fraction(D * u)))
            if D < 4:
                fall(follow[0], u)
        else:
            for f in follow:
                supe.append((f, decl, Fraction(tricks[f] * u)))
            q = opt["follower_quota"]
            for f in follow:
                falls = tricks[f] < 2
                if q == "each_if_made":
                    falls = falls and passed
                if q == "pair" and len(follow) == 2 and D >= 4:
                    falls = False
                if falls:
                    half = opt["follower_fall"] == "half" and len(follow) == 2
                    fall(f, u // 2 if half else u)
    S2 = S + sum(bule.values())
    r = Fraction(1)
    if S > 0 and S2 < 0:
        r = Fraction(S, S - S2)
    for p in s["players"]:
        if p in bule and bule[p] != 0:
            x = bule[p] * r
            assert x.denominator == 1
            change_bule(s, p, int(x))
    for w, on, a in supe:
        x = a * r
        rounded = int((x * 2 + 1) // 2)
        s["supe"][w][on] += rounded
        s["supe_log"].append((w, on, rounded))
    if R == 2:
        i = s["refe"][decl].index("open")
        s["refe"][decl][i] = "passed" if passed else "failed"
    s["dealer_index"] += 1
    if sum(s["bule"].values()) == 0:
        s["over"] = "zero"


def refa(s: dict[str, Any]) -> None:
    if refa_allowed(s):
        s["refa_entries_written"] += 1
        for p in s["players"]:
            s["refe"][p].append("open")
    s["dealer_index"] += 1


def correction(s: dict[str, Any], d: dict[str, Any]) -> None:
    net: dict[str, int] = {}
    for e in d["entries"]:
        if "bule" in e:
            net[e["player"]] = net.get(e["player"], 0) + e["bule"]
        else:
            s["supe"][e["player"]][e["supe_on"]] += e["amount"]
            s["supe_log"].append((e["player"], e["supe_on"], e["amount"]))
    for p in s["players"]:
        if net.get(p):
            change_bule(s, p, net[p])
    if sum(s["bule"].values()) == 0:
        s["over"] = "zero"


def writeoff_amounts(s: dict[str, Any], left: str | None) -> dict[str, int]:
    who = [p for p in s["players"] if p != left]
    S = sum(s["bule"].values())
    q = S // len(who)
    m = S - len(who) * q
    order = sorted(who, key=lambda p: (-s["bule"][p], s["players"].index(p)))
    out = {p: 0 for p in s["players"]}
    for i, p in enumerate(order):
        out[p] = q + 1 if i < m else q
    return out


def writeoff(s: dict[str, Any], left: str | None) -> None:
    amounts = writeoff_amounts(s, left)
    for p in s["players"]:
        if amounts[p]:
            change_bule(s, p, -amounts[p])
    s["write_off"] = amounts
    s["over"] = "writeoff"


def run(s: dict[str, Any], d: dict[str, Any]) -> None:
    t = d["type"]
    if t == "played":
        played(s, d)
    elif t == "refa":
        refa(s)
    elif t == "correction":
        correction(s, d)
    else:
        writeoff(s, d.get("left"))


def money_split(net: dict[str, Fraction], players: list[str], unit: Fraction) -> dict[str, str]:
    """Round down to the unit, the missing units to the largest remainders (seat order)."""
    units = {p: net[p] / unit for p in players}
    low = {p: units[p].numerator // units[p].denominator for p in players}
    missing = -sum(low.values())
    order = sorted(players, key=lambda p: (-(units[p] - low[p]), players.index(p)))
    for p in order[:missing]:
        low[p] += 1
    return {p: _two(Fraction(low[p]) * unit) for p in players}


def _two(x: Fraction) -> str:
    cents = x * 100
    assert cents.denominator == 1
    c = int(cents)
    sign = "-" if c < 0 else ""
    c = abs(c)
    return f"{sign}{c // 100}.{c % 100:02d}"


def payments(money: dict[str, Fraction], players: list[str]) -> list[dict[str, str]]:
    left = dict(money)
    out = []
    while True:
        debt = [p for p in players if left[p] < 0]
        cred = [p for p in players if left[p] > 0]
        if not debt or not cred:
            return out
        payer = min(debt, key=lambda p: (left[p], players.index(p)))
        payee = max(cred, key=lambda p: (left[p], -players.index(p)))
        a = min(-left[payer], left[payee])
        out.append({"from": payer, "to": payee, "amount": _two(a)})
        left[payer] += a
        left[payee] -= a


def score_balkan(data: dict[str, Any], *, settle: bool = False) -> dict[str, Any]:
    s = new_state(data)
    for d in data["deals"]:
        run(s, d)
    if data.get("finished") and s["over"] is None:
        writeoff(s, None)
    ps = s["players"]
    out: dict[str, Any] = {
        "family": "balkan",
        "players": ps,
        "sum_bule": str(sum(s["bule"].values())),
        "finished": s["over"] is not None,
        "sheet": {},
    }
    for i, p in enumerate(ps):
        left, right = ps[i - 1], ps[(i + 1) % len(ps)]
        out["sheet"][p] = {
            "bule": str(s["bule"][p]),
            "column": s["col"][p],
            "supe_on": {q: str(v) for q, v in s["supe"][p].items()},
            "left": str(s["supe"][p][left]),
            "right": str(s["supe"][p][right]),
            "refe": s["refe"][p],
        }
    if s["over"] is not None or settle:
        out["settlement"] = settlement(s)
    return out


def settlement(s: dict[str, Any]) -> dict[str, Any]:
    ps = s["players"]
    if s["over"] is None:
        off = writeoff_amounts(s, None)
        ended = "now"
        final = {p: s["bule"][p] - off[p] for p in ps}
    else:
        off = s["write_off"] if s["over"] == "writeoff" else {p: 0 for p in ps}
        ended = s["over"]
        final = dict(s["bule"])
    W = {p: sum(s["supe"][p].values()) for p in ps}
    A = {p: sum(s["supe"][q][p] for q in ps if q != p) for p in ps}
    res = {p: 10 * final[p] - W[p] + A[p] for p in ps}
    stake = Fraction(s["opt"]["stake"])
    unit = Fraction(s["opt"]["money_unit"])
    money = money_split({p: -res[p] * stake for p in ps}, ps, unit)
    sign = -1 if s["opt"]["result_sign"] == "higher_better" else 1
    return {
        "ended_by": ended,
        "write_off": {p: str(off[p]) for p in ps},
        "bule": {p: str(final[p]) for p in ps},
        "supe_written": {p: str(W[p]) for p in ps},
        "supe_against": {p: str(A[p]) for p in ps},
        "result": {p: str(sign * res[p]) for p in ps},
        "money": money,
        "payments": payments({p: Fraction(money[p]) for p in ps}, ps),
    }
