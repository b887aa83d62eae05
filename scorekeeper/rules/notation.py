"""Deals in game-file notation (docs/game-format.md): read a JSON dict into a Deal and back."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

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
from .problems import N_, Problem, as_written
from .text import bad_character

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_KEYS: dict[str, tuple[set[str], set[str]]] = {
    # type: (required keys, optional keys)
    "contract": ({"type", "declarer", "contract", "answers"}, {"dealer", "tricks", "talon_tricks"}),
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

MAX_TALON_TRICKS = 3
"""Quick tricks in the talon: two aces (§4.9)."""
MAX_REASON = 500
MAX_ENTRIES = 24
"""Entries in one correction (a few per player is plenty)."""


def parse_deal(raw: Any, players: Sequence[str]) -> tuple[Deal | None, list[Problem]]:
    """Read one deal dict; returns the deal (None if unusable) and every problem found."""
    if type(raw) is dict:
        quick = _well_formed(raw, players)
        if quick is not None:
            return quick, []
    reader = _DealReader(players)
    kind = reader.kind(raw)
    deal = reader.deal(kind, raw) if kind is not None else None
    return (deal if not reader.problems else None), reader.problems


def _well_formed(raw: dict[str, Any], players: Sequence[str]) -> Deal | None:
    """The deal, when it is a plain well-formed contract, misère, all-pass or penalty (of a
    contract already read); else None (and
    the full reading below says what is wrong). Most deals of a long game take this path."""
    kind = raw.get("type")
    if kind == "penalty":
        return _well_formed_penalty(raw, players)
    if kind not in ("contract", "misere", "allpass"):
        return None
    keys = raw.keys()
    if not (keys <= _ALLOWED[kind] and _KEYS[kind][0] <= keys):
        return None
    dealer = raw.get("dealer")  # null is no dealer: the full reading refuses it as written
    if "dealer" in raw and (type(dealer) is not str or dealer not in players):
        return None
    tricks = _well_formed_tricks(raw["tricks"], players) if "tricks" in raw else {}
    if tricks is None:
        return None
    if kind == "allpass":
        return AllPassDeal(tricks, dealer)
    declarer = raw["declarer"]
    if type(declarer) is not str or declarer not in players:
        return None
    if kind == "misere":
        return MisereDeal(declarer, tricks, dealer)
    talon = raw.get("talon_tricks")
    if "talon_tricks" in raw and not _talon_sound(talon):
        return None
    contract = _well_formed_contract(raw["contract"])
    if contract is None:
        return None
    given_answers = raw["answers"]
    if type(given_answers) is not dict:
        return None
    answers: dict[str, Answer] = {}
    for name, text in given_answers.items():
        answer = _ANSWER_OF.get(text) if type(text) is str else None
        if answer is None or type(name) is not str or name not in players:
            return None
        answers[name] = answer
    return ContractDeal(declarer, contract, answers, tricks, dealer, talon)


def _well_formed_penalty(raw: dict[str, Any], players: Sequence[str]) -> Penalty | None:
    """A penalty of a player of the game, fined a contract already read; else None."""
    offender, code = raw.get("player"), raw.get("contract")
    if len(raw) != 3 or type(offender) is not str or offender not in players:
        return None
    fine = _CONTRACTS.get(code) if type(code) is str else None
    return Penalty(offender, fine) if fine is not None else None


def _well_formed_tricks(given: Any, players: Sequence[str]) -> dict[str, int] | None:
    """A deal's tricks: players of the game, each 0 to 10; else None."""
    if type(given) is not dict:
        return None
    tricks: dict[str, int] = {}
    for name, count in given.items():
        if type(name) is not str or name not in players:
            return None
        if type(count) is not int or not 0 <= count <= 10:
            return None
        tricks[name] = count
    return tricks


def _well_formed_contract(code: Any) -> Contract | None:
    """A contract's code read (and remembered, up to 200 codes); None if it is not one."""
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
    return contract


def _talon_sound(talon: Any) -> bool:
    """0 to 3 talon_tricks (§4.9)."""
    return type(talon) is int and 0 <= talon <= MAX_TALON_TRICKS


class _DealReader:
    """Reads one deal the quick path did not take, noting every problem on the way: a deal
    with any problem is not used."""

    def __init__(self, players: Sequence[str]) -> None:
        self.players = players
        self.problems: list[Problem] = []

    def bad(self, template: str, field: str | None = None, **params: Any) -> None:
        self.problems.append(Problem(template, params, field))

    #: The keys of each type (required, optional), and what is said of a deal that is no
    #: object or of an unknown type: the Balkan family's reader says its own.
    KEYS = _KEYS
    NOT_AN_OBJECT = N_('a deal must be an object like {{"type": "contract", ...}}')
    UNKNOWN_TYPE = N_(
        "unknown deal type {kind} (contract, misere, allpass, correction, penalty, redeal)"
    )

    def kind(self, raw: Any) -> str | None:
        """The deal's type, when the deal is an object of a known type with its keys."""
        if not isinstance(raw, dict):
            self.bad(self.NOT_AN_OBJECT)
            return None
        kind = raw.get("type")
        if not isinstance(kind, str) or kind not in self.KEYS:
            if "type" not in raw:
                self.bad(N_("the deal has no type"), "type")
            else:
                self.bad(self.UNKNOWN_TYPE, "type", kind=_show(kind))
            return None
        required, optional = self.KEYS[kind]
        for key in raw:
            if key not in required and key not in optional:
                self.bad(
                    N_("unknown key {key} in a {kind} deal"),
                    key if isinstance(key, str) else None,
                    key=_show(key),
                    kind=kind,
                )
        for key in sorted(required - set(raw)):
            self.bad(N_("a {kind} deal needs {key}"), key, kind=kind, key=_show(key))
        return None if self.problems else kind

    def deal(self, kind: str, raw: dict[str, Any]) -> Deal | None:
        """The deal of this kind (its keys are known to be there)."""
        if kind == "correction":
            return self.correction(raw)
        if kind == "penalty":
            offender = self.player("player", raw["player"])
            fine = self.contract(raw["contract"])
            if offender is None or fine is None:
                return None
            return Penalty(offender, fine)
        dealer = self.player("dealer", raw["dealer"]) if "dealer" in raw else None
        if kind == "redeal":
            return Redeal(dealer)
        tricks = self.tricks(raw["tricks"]) if "tricks" in raw else {}
        if kind == "allpass":
            return AllPassDeal(tricks, dealer)
        declarer = self.player("declarer", raw["declarer"])
        if kind == "misere":
            return MisereDeal(declarer, tricks, dealer) if declarer is not None else None
        contract = self.contract(raw["contract"])
        answers = self.answers(raw["answers"])
        talon = self.talon_tricks(raw["talon_tricks"]) if "talon_tricks" in raw else None
        if declarer is None or contract is None:
            return None
        return ContractDeal(declarer, contract, answers, tricks, dealer, talon)

    def talon_tricks(self, raw: Any) -> int | None:
        """The talon's quick tricks, 0 to 3 (§4.9)."""
        if isinstance(raw, bool) or not isinstance(raw, int) or not 0 <= raw <= MAX_TALON_TRICKS:
            self.bad(
                N_("talon_tricks must be 0, 1, 2 or 3 (quick tricks in the talon), not {value}"),
                "talon_tricks",
                value=_show(raw),
            )
            return None
        return raw

    def player(self, key: str, value: Any) -> str | None:
        if not isinstance(value, str) or value not in self.players:
            self.bad(
                N_("{key}: {name} is not a player of this game"), key, key=key, name=_show(value)
            )
            return None
        return value

    def contract(self, raw: Any) -> Contract | None:
        try:
            return Contract.parse(raw)
        except ContractError:
            self.bad(
                N_(
                    "{text} is not a contract: write a level 6 to 10 and S, C, D, H or NT (e.g. 7S)"
                ),
                "contract",
                text=_show(raw),
            )
            return None

    def answers(self, raw: Any) -> dict[str, Answer]:
        """Each defender's answer, by name."""
        answers: dict[str, Answer] = {}
        if not isinstance(raw, dict):
            self.bad(N_('answers must be an object like {{"Boris": "whist"}}'), "answers")
            return answers
        for name, answer in raw.items():
            who = self.player("answers", name)
            try:
                parsed = Answer(answer)
            except ValueError:
                self.bad(
                    N_(
                        "answers: {answer} is not an answer "
                        "(whist, pass, half-whist, whist-returned, whist-talon)"
                    ),
                    f"answers.{name}",
                    answer=_show(answer),
                )
                continue
            if who is not None:
                answers[who] = parsed
        return answers

    def tricks(self, raw: Any) -> dict[str, int]:
        """Tricks taken, by name (the players written correctly)."""
        tricks: dict[str, int] = {}
        if not isinstance(raw, dict):
            self.bad(N_('tricks must be an object like {{"Anna": 5}}'), "tricks")
            return tricks
        for name, count in raw.items():
            if not isinstance(name, str) or name not in self.players:
                self.bad(
                    N_("tricks: {name} is not a player of this game"), "tricks", name=_show(name)
                )
            elif isinstance(count, bool) or not isinstance(count, int):
                self.bad(
                    N_("tricks of {name} must be a whole number, not {count}"),
                    f"tricks.{name}",
                    name=name,
                    count=_show(count),
                )
            elif not 0 <= count <= 10:
                self.bad(
                    N_("tricks of {name} must be 0 to 10, not {count}"),
                    f"tricks.{name}",
                    name=name,
                    count=count,
                )
            else:
                tricks[name] = count
        return tricks

    # -- a correction -----------------------------------------------------------------------

    def correction(self, raw: dict[str, Any]) -> Deal | None:
        reason = self.reason(raw.get("reason", ""))
        items = self.entry_list(raw["entries"])
        if items is None:
            return None
        entries = [self.entry(n, item) for n, item in enumerate(items, start=1)]
        return Correction(reason, tuple(e for e in entries if e is not None))

    def entry_list(self, items: Any) -> list[Any] | None:
        """A correction's entries: a non-empty list of at most MAX_ENTRIES (else None, said;
        the Balkan family's corrections are read so too)."""
        if not isinstance(items, list) or not items:
            self.bad(N_("a correction needs a non-empty list of entries"), "entries")
            return None
        if len(items) > MAX_ENTRIES:
            self.bad(N_("a correction has at most {limit} entries"), "entries", limit=MAX_ENTRIES)
            return None
        return items

    def reason(self, reason: Any) -> str:
        if not isinstance(reason, str):
            self.bad(N_("reason must be text"), "reason")
            return ""
        if len(reason) > MAX_REASON:
            self.bad(
                N_("reason is too long (at most {limit} characters)"), "reason", limit=MAX_REASON
            )
        elif (char := bad_character(reason, newlines=True)) is not None:
            self.bad(N_("the reason holds {char}: remove it"), "reason", char=char)
        return reason

    def entry(self, n: int, item: Any) -> CorrectionEntry | None:
        """Entry n of a correction: a player's pool, hill, or whists on another player."""
        where = f"entries.{n}"
        if not isinstance(item, dict):
            self.bad(N_("correction entry {n} must be an object"), where, n=n)
            return None
        for key in item:
            if key not in _ENTRY_KEYS:
                self.bad(N_("correction entry {n}: unknown key {key}"), where, n=n, key=_show(key))
        name = item.get("player")
        if not isinstance(name, str) or name not in self.players:
            self.bad(
                N_("correction entry {n}: {name} is not a player of this game"),
                where,
                n=n,
                name=_show(name),
            )
            return None
        amounts = self.entry_amounts(n, item)
        if not self.entry_whists_sound(n, item, name):
            return None
        if not ({"pool", "hill", "whists_on"} & set(item)):
            self.bad(
                N_("correction entry {n} writes nothing: give pool, hill or whists_on and amount"),
                where,
                n=n,
            )
            return None
        on = item.get("whists_on")
        return CorrectionEntry(
            name,
            amounts.get("pool"),
            amounts.get("hill"),
            on if isinstance(on, str) else None,
            amounts.get("amount"),
            raw=dict(item),
        )

    def entry_amounts(self, n: int, item: dict[str, Any]) -> dict[str, Fraction]:
        """The entry's pool, hill and whist amount, those given and readable."""
        amounts: dict[str, Fraction] = {}
        for key in ("pool", "hill", "amount"):
            if key in item:
                value = parse_amount(item[key])
                if value is None:
                    self.bad(
                        N_(
                            "correction entry {n}: {key} must be a number from {low} to {high}"
                            " like 10, -4 or 2.5 (no exponents), not {value}"
                        ),
                        f"entries.{n}",
                        n=n,
                        key=key,
                        low=AMOUNT.low_text,
                        high=AMOUNT.high_text,
                        value=_show(item[key]),
                    )
                else:
                    amounts[key] = value
        return amounts

    def entry_whists_sound(self, n: int, item: dict[str, Any], name: str) -> bool:
        """Whists come with both whists_on and amount, written on another player."""
        where = f"entries.{n}"
        if ("whists_on" in item) != ("amount" in item):
            self.bad(N_("correction entry {n}: whists need both whists_on and amount"), where, n=n)
            return False
        if "whists_on" not in item:
            return True
        on = item["whists_on"]
        if not isinstance(on, str) or on not in self.players:
            self.bad(
                N_("correction entry {n}: whists_on {name} is not a player of this game"),
                where,
                n=n,
                name=_show(on),
            )
            return False
        if on == name:
            self.bad(
                N_("correction entry {n}: {name} cannot write whists on their own name"),
                where,
                n=n,
                name=name,
            )
            return False
        return True


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
        if deal.talon_tricks is not None:
            out["talon_tricks"] = deal.talon_tricks
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
    """A bad value for a message (rules/problems.as_written)."""
    return as_written(value)
