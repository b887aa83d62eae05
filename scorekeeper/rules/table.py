"""The seat of one deal: what the rules allow at the table at that point of the log.

Who deals, who sits out, who answers and in what order, the lowest contract, which kinds of
deal, answers and levels are allowed, and whose tricks the scorer must give. The deal form
and its script ask this module; neither re-derives a rule (§2, §4.5, §7).

A thin view of the rules' own seat (`scorekeeper.rules.seat.Seat`: five players, Stalingrad
and the round included) shaped for the deal form: the page reads only `Table.to_json()`,
whose shape is:

    {
      "number": 7,                      # 1-based place of the deal in the log
      "players": ["Anna", "Boris", "Vera", "Gleb"],   # seating (clockwise) order
      "dealer": "Anna",
      "sits_out": ["Anna"],             # players not in this deal ([] at three)
      "active": ["Boris", "Vera", "Gleb"],
      "kinds": ["contract", "misere", "allpass", "correction"],
      "levels": [6, 7, 8, 9, 10],       # contract levels allowed (the all-pass exit)
      "min_level": 6 | null,            # the exit's floor when one applies, else null
      "declarers": {                    # every possible declarer → the defenders, in the
        "Boris": ["Vera", "Gleb"]       # order they answer (clockwise from the declarer)
      },
      "answers": {                      # answers a defender may give, by declarer, then
        "Boris": {                      # contract, then the first defender's answer
          "7S": {"first": ["whist", "pass"],
                "pass": ["whist", "pass", "half-whist"],
                "whist": ["whist", "pass"], ...}
        }
      },
      "tricks": {                       # whose tricks are asked, by kind of deal:
        "allpass": ["Boris", "Vera", "Gleb"],
        "misere": {"Boris": ["Boris"]},                     # by declarer
        "contract": {"Boris": {"whist,pass": ["Boris"],     # by declarer, then the
                               "whist,whist": ["Boris", "Vera", "Gleb"],  # answers in
                               "pass,pass": []}}            # answer order, comma-joined
      },
      "tricks_total": 10                # tricks of all the active players add up to this
    }

A kind added to the rules (a penalty, say) only adds to "kinds" and, if it needs tricks, to
"tricks"; a fifth seat only adds names to the lists.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product
from typing import Any

from .contracts import LEVELS, Contract, Suit
from .deals import Answer
from .scoring import Sheet
from .seat import Seat, seat

TRICKS_IN_A_DEAL = 10

#: The order the form shows the answers in (whists first, half-whist last).
_SHOWN_ORDER = (Answer.WHIST, Answer.WHIST_TALON, Answer.PASS, Answer.HALF_WHIST)

#: The kinds of entry the deal form can read (the seat may allow them all).
FORM_KINDS = ("contract", "misere", "allpass", "redeal", "correction", "penalty")


@dataclass(frozen=True)
class Table:
    """Where one deal stands at the table: its number and the rules' seat for it."""

    number: int
    """1-based place in the log."""
    seat: Seat

    @property
    def players(self) -> tuple[str, ...]:
        """Everybody at the table, clockwise."""
        return self.seat.players

    @property
    def dealer(self) -> str:
        """Who deals it (for a correction: who would deal a deal entered there)."""
        return self.seat.dealer

    @property
    def min_level(self) -> int | None:
        """The lowest contract after all-passes in a row (§4.5), None when any level goes."""
        return self.seat.min_level

    @property
    def hussar(self) -> bool:
        """A table of two (§9)."""
        return self.seat.hussar

    @property
    def active(self) -> list[str]:
        """The players in this deal (§2: at four the dealer sits out, at five two do)."""
        return list(self.seat.active)

    @property
    def sits_out(self) -> list[str]:
        """The players who take no part in this deal."""
        return list(self.seat.sitting_out)

    def kinds(self) -> list[str]:
        """The kinds of entry allowed here (Hussar records a redeal, not an all-pass)."""
        return [k for k in self.seat.kinds if k in FORM_KINDS]

    def levels(self) -> list[int]:
        """The contract levels allowed here (the all-pass exit)."""
        return [lv for lv in LEVELS if self.min_level is None or lv >= self.min_level]

    def contracts(self) -> list[Contract]:
        """Every contract allowed here, lowest first."""
        return [Contract(lv, suit) for lv in self.levels() for suit in Suit]

    def all_answers(self) -> list[str]:
        """Every answer a defender may give in this game, whatever the contract: what the
        seat allows any defender on any contract (Answer's order)."""
        declarer = self.seat.active[0]
        allowed = {
            answer
            for contract in self.contracts()
            for answers in self.seat.answers(declarer, contract).values()
            for answer in answers
        }
        return [a.value for a in _SHOWN_ORDER if a in allowed]

    def defenders_of(self, declarer: str) -> list[str]:
        """The defenders of a declarer, in the order they answer (§2). For a player who does
        not play this deal, every player who does: a form read against a later seat (a Save
        sent again) then reads the same answers, and the rules say what is wrong."""
        if declarer not in self.seat.active:
            return [p for p in self.seat.active if p != declarer]
        return list(self.seat.defenders(declarer))

    def answers_of(self, declarer: str, contract: Contract, first: str | None) -> list[str]:
        """A defender's allowed answers: the first one's (first None) or the second's after
        the first answered `first` (half-whist only after a pass, §4.2; Stalingrad, §7)."""
        defs = self.defenders_of(declarer)
        if first is None or len(defs) < 2:
            allowed = self.seat.answers(declarer, contract)[defs[0]]
        else:
            allowed = self.seat.answers(declarer, contract, Answer(first))[defs[1]]
        return [a.value for a in allowed]

    def tricks_needed(
        self, kind: str, declarer: str | None = None, answers: tuple[str, ...] = ()
    ) -> list[str]:
        """Whose tricks the scorer must give for a deal (answers in answer order).

        All-pass: every active player; misère: the declarer; a contract with one whister:
        the declarer; with two whisters: the declarer and both; nobody whisting: nobody.
        """
        if kind == "allpass":
            return self.active
        if declarer is None or declarer not in self.active or kind not in ("misere", "contract"):
            return []
        if kind == "misere":
            return list(self.seat.tricks_needed(declarer, {}))
        defs = self.defenders_of(declarer)
        given = {d: Answer(a) for d, a in zip(defs, answers, strict=False) if a}
        if len(given) < len(defs):
            return []
        return list(self.seat.tricks_needed(declarer, given))

    def to_json(self) -> dict[str, Any]:
        """Everything above for the page's script, in the shape the module docstring shows."""
        declarers = {p: self.defenders_of(p) for p in self.active}
        answers: dict[str, dict[str, dict[str, list[str]]]] = {}
        contract_tricks: dict[str, dict[str, list[str]]] = {}
        for declarer, defs in declarers.items():
            by_contract: dict[str, dict[str, list[str]]] = {}
            for contract in self.contracts():
                first = self.answers_of(declarer, contract, None)
                by_contract[contract.code()] = {"first": first} | {
                    a: self.answers_of(declarer, contract, a) for a in first
                }
            answers[declarer] = by_contract
            combos: dict[str, list[str]] = {}
            for combo in product(self.all_answers(), repeat=len(defs)):
                combos[",".join(combo)] = self.tricks_needed("contract", declarer, combo)
            contract_tricks[declarer] = combos
        return {
            "number": self.number,
            "players": list(self.players),
            "dealer": self.dealer,
            "sits_out": self.sits_out,
            "active": self.active,
            "kinds": self.kinds(),
            "levels": self.levels(),
            "min_level": self.min_level,
            "declarers": declarers,
            "answers": answers,
            "tricks": {
                "allpass": self.tricks_needed("allpass"),
                "misere": {p: self.tricks_needed("misere", p) for p in self.active},
                "contract": contract_tricks,
            },
            "tricks_total": TRICKS_IN_A_DEAL,
        }


def table(sheet: Sheet, position: int | None = None) -> Table:
    """The seat of a new deal (position None) or of the deal at a 0-based position."""
    if position is None:
        return Table(number=len(sheet.results) + 1, seat=seat(sheet))
    return Table(number=position + 1, seat=seat(sheet, position + 1))
