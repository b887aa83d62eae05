"""Deals in game-file notation (docs/game-format.md): read a JSON dict into a Deal and back."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from .contracts import Contract, ContractError
from .deals import (
    AllPassDeal,
    Answer,
    ContractDeal,
    Correction,
    CorrectionEntry,
    Deal,
    MisereDeal,
    Penalty,
    Redeal,
)
from .numbers import AMOUNT, NumberError, read_number
from .problems import N_, Problem
from .text import bad_character

_KEYS: dict[str, tuple[set[str], set[str]]] = {
    # type: (required keys, optional keys)
    "contract": ({"type", "declarer", "contract", "answers"}, {"dealer", "tricks"}),
    "misere": ({"type", "declarer", "tricks"}, {"dealer"}),
    "allpass": ({"type", "tricks"}, {"dealer"}),
    "correction": ({"type", "entries"}, {"reason"}),
    "redeal": ({"type"}, {"dealer"}),
    "penalty": ({"type", "player", "contract"}, set()),
}
_ENTRY_KEYS = {"player", "pool", "hill", "whists_on", "amount"}
_ALLOWED = {kind: required | optional for kind, (required, optional) in _KEYS.items()}
_ANSWER_OF = {answer.value: answer for answer in Answer}
_CONTRACTS: dict[str, Contract] = {}
"""Contracts already read, by their text (there are only a few dozen)."""

MAX_REASON = 500
MAX_ENTRIES = 24
"""Entries in one correction (a few per player is plenty)."""


def parse_deal(raw: Any, players: Sequence[str]) -> tuple[Deal | None, list[Problem]]:
    """Read one deal dict; returns the deal (None if unusable) and every problem found."""
    if type(raw) is dict:
        quick = _well_formed(raw, players)
        if quick is not None:
            return quick, []
    problems: list[Problem] = []

    def bad(template: str, field: str | None = None, **params: Any) -> None:
        problems.append(Problem(template, params, field))

    if not isinstance(raw, dict):
        bad(N_('a deal must be an object like {{"type": "contract", ...}}'))
        return None, problems
    kind = raw.get("type")
    if not isinstance(kind, str) or kind not in _KEYS:
        if "type" not in raw:
            bad(N_("the deal has no type"), "type")
        else:
            bad(
                N_(
                    "unknown deal type {kind} "
                    "(contract, misere, allpass, correction, penalty, redeal)"
                ),
                "type",
                kind=_show(kind),
            )
        return None, problems
    required, optional = _KEYS[kind]
    allowed = _ALLOWED[kind]
    for key in raw:
        if key not in allowed:
            bad(
                N_("unknown key {key} in a {kind} deal"),
                key if isinstance(key, str) else None,
                key=_show(key),
                kind=kind,
            )
    for key in sorted(required - set(raw)):
        bad(N_("a {kind} deal needs {key}"), key, kind=kind, key=_show(key))
    if problems:
        return None, problems

    def player(key: str, value: Any) -> str | None:
        if not isinstance(value, str) or value not in players:
            bad(N_("{key}: {name} is not a player of this game"), key, key=key, name=_show(value))
            return None
        return value

    dealer = player("dealer", raw["dealer"]) if "dealer" in raw else None

    if kind == "correction":
        return _parse_correction(raw, players, problems)
    if kind == "redeal":
        return (Redeal(dealer) if not problems else None), problems
    if kind == "penalty":
        offender = player("player", raw["player"])
        fine = _contract(raw["contract"], bad)
        if problems or offender is None or fine is None:
            return None, problems
        return Penalty(offender, fine), problems

    tricks = _parse_tricks(raw.get("tricks"), players, problems) if "tricks" in raw else {}
    if kind == "allpass":
        return (AllPassDeal(tricks or {}, dealer) if not problems else None), problems
    declarer = player("declarer", raw["declarer"])
    if kind == "misere":
        if problems or declarer is None:
            return None, problems
        return MisereDeal(declarer, tricks or {}, dealer), problems

    contract = _contract(raw["contract"], bad)
    answers: dict[str, Answer] = {}
    raw_answers = raw["answers"]
    if not isinstance(raw_answers, dict):
        bad(N_('answers must be an object like {{"Boris": "whist"}}'), "answers")
    else:
        for name, answer in raw_answers.items():
            who = player("answers", name)
            try:
                parsed = Answer(answer)
            except ValueError:
                bad(
                    N_("answers: {answer} is not an answer (whist, pass, half-whist, whist-talon)"),
                    f"answers.{name}",
                    answer=_show(answer),
                )
                continue
            if who is not None:
                answers[who] = parsed
    if problems or declarer is None or contract is None:
        return None, problems
    return ContractDeal(declarer, contract, answers, tricks or {}, dealer), problems


def _well_formed(raw: dict[str, Any], players: Sequence[str]) -> Deal | None:
    """The deal, when it is a plain well-formed contract, misère, all-pass or penalty (of a
    contract already read); else None (and
    the full reading below says what is wrong). Most deals of a long game take this path."""
    kind = raw.get("type")
    if kind == "penalty":
        offender, code = raw.get("player"), raw.get("contract")
        if len(raw) != 3 or type(offender) is not str or offender not in players:
            return None
        fine = _CONTRACTS.get(code) if type(code) is str else None
        return Penalty(offender, fine) if fine is not None else None
    if kind not in ("contract", "misere", "allpass"):
        return None
    keys = raw.keys()
    if not (keys <= _ALLOWED[kind] and _KEYS[kind][0] <= keys):
        return None
    dealer = raw.get("dealer")
    if dealer is not None and (type(dealer) is not str or dealer not in players):
        return None
    tricks: dict[str, int] = {}
    if "tricks" in raw:
        given = raw["tricks"]
        if type(given) is not dict:
            return None
        for name, count in given.items():
            if type(name) is not str or name not in players:
                return None
            if type(count) is not int or not 0 <= count <= 10:
                return None
            tricks[name] = count
    if kind == "allpass":
        return AllPassDeal(tricks, dealer)
    declarer = raw["declarer"]
    if type(declarer) is not str or declarer not in players:
        return None
    if kind == "misere":
        return MisereDeal(declarer, tricks, dealer)
    code = raw["contract"]
    contract = _CONTRACTS.get(code) if type(code) is str else None
    if contract is None:
        if type(code) is not str or len(code) > 10:
            return None
        try:
            contract = Contract.parse(code)
        except ContractError:
            return None
        if len(_CONTRACTS) < 200:
            _CONTRACTS[code] = contract
    given_answers = raw["answers"]
    if type(given_answers) is not dict:
        return None
    answers: dict[str, Answer] = {}
    for name, text in given_answers.items():
        answer = _ANSWER_OF.get(text) if type(text) is str else None
        if answer is None or type(name) is not str or name not in players:
            return None
        answers[name] = answer
    return ContractDeal(declarer, contract, answers, tricks, dealer)


def _contract(raw: Any, bad: Any) -> Contract | None:
    try:
        return Contract.parse(raw)
    except ContractError:
        bad(
            N_("{text} is not a contract: write a level 6 to 10 and S, C, D, H or NT (e.g. 7S)"),
            "contract",
            text=_show(raw),
        )
        return None


def _parse_tricks(
    raw: Any, players: Sequence[str], problems: list[Problem]
) -> dict[str, int] | None:
    if not isinstance(raw, dict):
        problems.append(Problem(N_('tricks must be an object like {{"Anna": 5}}'), {}, "tricks"))
        return None
    tricks: dict[str, int] = {}
    for name, count in raw.items():
        if not isinstance(name, str) or name not in players:
            problems.append(
                Problem(
                    N_("tricks: {name} is not a player of this game"),
                    {"name": _show(name)},
                    "tricks",
                )
            )
            continue
        if isinstance(count, bool) or not isinstance(count, int):
            problems.append(
                Problem(
                    N_("tricks of {name} must be a whole number, not {count}"),
                    {"name": name, "count": _show(count)},
                    f"tricks.{name}",
                )
            )
            continue
        if not 0 <= count <= 10:
            problems.append(
                Problem(
                    N_("tricks of {name} must be 0 to 10, not {count}"),
                    {"name": name, "count": count},
                    f"tricks.{name}",
                )
            )
            continue
        tricks[name] = count
    return tricks


def _parse_correction(
    raw: dict[str, Any], players: Sequence[str], problems: list[Problem]
) -> tuple[Deal | None, list[Problem]]:
    def bad(template: str, field: str | None = None, **params: Any) -> None:
        problems.append(Problem(template, params, field))

    reason = raw.get("reason", "")
    if not isinstance(reason, str):
        bad(N_("reason must be text"), "reason")
        reason = ""
    elif len(reason) > MAX_REASON:
        bad(N_("reason is too long (at most {limit} characters)"), "reason", limit=MAX_REASON)
    elif (char := bad_character(reason, newlines=True)) is not None:
        bad(N_("the reason holds {char}: remove it"), "reason", char=char)
    entries_raw = raw["entries"]
    if not isinstance(entries_raw, list) or not entries_raw:
        bad(N_("a correction needs a non-empty list of entries"), "entries")
        return None, problems
    if len(entries_raw) > MAX_ENTRIES:
        bad(N_("a correction has at most {limit} entries"), "entries", limit=MAX_ENTRIES)
        return None, problems
    entries = []
    for n, item in enumerate(entries_raw, start=1):
        where = f"entries.{n}"
        if not isinstance(item, dict):
            bad(N_("correction entry {n} must be an object"), where, n=n)
            continue
        unknown = [k for k in item if k not in _ENTRY_KEYS]
        for key in unknown:
            bad(N_("correction entry {n}: unknown key {key}"), where, n=n, key=_show(key))
        name = item.get("player")
        if not isinstance(name, str) or name not in players:
            bad(
                N_("correction entry {n}: {name} is not a player of this game"),
                where,
                n=n,
                name=_show(name),
            )
            continue
        amounts: dict[str, Fraction] = {}
        for key in ("pool", "hill", "amount"):
            if key in item:
                value = parse_amount(item[key])
                if value is None:
                    bad(
                        N_(
                            "correction entry {n}: {key} must be a number from {low} to {high}"
                            " like 10, -4 or 2.5 (no exponents), not {value}"
                        ),
                        where,
                        n=n,
                        key=key,
                        low=AMOUNT.low_text,
                        high=AMOUNT.high_text,
                        value=_show(item[key]),
                    )
                else:
                    amounts[key] = value
        on = item.get("whists_on")
        if ("whists_on" in item) != ("amount" in item):
            bad(N_("correction entry {n}: whists need both whists_on and amount"), where, n=n)
            continue
        if "whists_on" in item:
            if not isinstance(on, str) or on not in players:
                bad(
                    N_("correction entry {n}: whists_on {name} is not a player of this game"),
                    where,
                    n=n,
                    name=_show(on),
                )
                continue
            if on == name:
                bad(
                    N_("correction entry {n}: {name} cannot write whists on himself"),
                    where,
                    n=n,
                    name=name,
                )
                continue
        if not ({"pool", "hill", "whists_on"} & set(item)):
            bad(
                N_("correction entry {n} writes nothing: give pool, hill or whists_on and amount"),
                where,
                n=n,
            )
            continue
        entries.append(
            CorrectionEntry(
                name,
                amounts.get("pool"),
                amounts.get("hill"),
                on if isinstance(on, str) else None,
                amounts.get("amount"),
                raw=dict(item),
            )
        )
    if problems:
        return None, problems
    return Correction(reason, tuple(entries)), problems


def parse_amount(value: Any) -> Fraction | None:
    """An exact amount (|amount| ≤ 10^6) from an int, a decimal or fraction string, or a
    float; None if not one (exponents are refused unread: see numbers.py)."""
    try:
        return read_number(value, AMOUNT)
    except NumberError:
        return None


def deal_to_dict(deal: Deal) -> dict[str, Any]:
    """The deal in game-file notation."""
    out: dict[str, Any] = {"type": deal.kind}
    if isinstance(deal, Correction):
        if deal.reason:
            out["reason"] = deal.reason
        out["entries"] = [dict(e.raw) if e.raw else _entry_dict(e) for e in deal.entries]
        return out
    if isinstance(deal, Penalty):
        out["player"] = deal.player
        out["contract"] = deal.contract.code()
        return out
    if deal.dealer is not None:
        out["dealer"] = deal.dealer
    if isinstance(deal, ContractDeal):
        out["declarer"] = deal.declarer
        out["contract"] = deal.contract.code()
        out["answers"] = {name: answer.value for name, answer in deal.answers.items()}
        if deal.tricks:
            out["tricks"] = dict(deal.tricks)
    elif isinstance(deal, MisereDeal):
        out["declarer"] = deal.declarer
        out["tricks"] = dict(deal.tricks)
    elif isinstance(deal, AllPassDeal):
        out["tricks"] = dict(deal.tricks)
    return out


def _entry_dict(entry: CorrectionEntry) -> dict[str, Any]:
    out: dict[str, Any] = {"player": entry.player}
    for key in ("pool", "hill"):
        value = getattr(entry, key)
        if value is not None:
            out[key] = int(value) if value.denominator == 1 else str(value)
    if entry.whists_on is not None and entry.amount is not None:
        out["whists_on"] = entry.whists_on
        out["amount"] = int(entry.amount) if entry.amount.denominator == 1 else str(entry.amount)
    return out


def _show(value: Any) -> str:
    """A short, safe rendering of a bad value for a message."""
    if isinstance(value, str):
        # A control character (a newline, ESC) is shown escaped: one problem, one line.
        text = f'"{value[:40]}"' if value[:40].isprintable() else repr(value[:40])
    elif isinstance(value, int) and not isinstance(value, bool) and abs(value) > 10**40:
        text = str(value)[:40]  # a huge number: its first digits are enough
    else:
        text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
