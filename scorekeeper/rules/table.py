"""The seat of one deal: what the rules allow at the table at that point of the log.

Who deals, who sits out, who answers and in what order, the lowest contract, which kinds of
deal, answers and levels are allowed, and whose tricks the scorer must give. The deal form
and its script ask this module; neither re-derives a rule (§2, §4.5, §7).

Built only on the scoring module's own helpers (`active_players`, `defenders`, `min_level`)
and the game's options, so that a richer seat model can replace its internals without the
page noticing: the page reads only `Table.to_json()`, whose shape is:

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
        "Boris": {                      # contract level, then the first defender's answer
          "7": {"first": ["whist", "pass"],
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

from .contracts import LEVELS
from .deals import Answer
from .scoring import Sheet, active_players, defenders, min_level

TRICKS_IN_A_DEAL = 10

_PLAYED = (Answer.WHIST, Answer.WHIST_TALON)


@dataclass(frozen=True)
class Table:
    """Where one deal stands at the table: its number, dealer, players and what is allowed."""

    number: int
    """1-based place in the log."""
    players: tuple[str, ...]
    dealer: str
    """Who deals it (for a correction: who would deal a deal entered there)."""
    min_level: int | None
    """The lowest contract after all-passes in a row (§4.5), None when any level goes."""
    hussar: bool
    half_whist_levels: tuple[int, ...]

    @property
    def active(self) -> list[str]:
        """The players in this deal (all but the dealer at a table of four, §2)."""
        return active_players(self.players, self.dealer)

    @property
    def sits_out(self) -> list[str]:
        """The players who take no part in this deal."""
        return [p for p in self.players if p not in self.active]

    def kinds(self) -> list[str]:
        """The kinds of entry allowed here (Hussar records a redeal, not an all-pass)."""
        if self.hussar:
            return ["contract", "misere", "redeal", "correction"]
        return ["contract", "misere", "allpass", "correction"]

    def levels(self) -> list[int]:
        """The contract levels allowed here (the all-pass exit)."""
        return [lv for lv in LEVELS if self.min_level is None or lv >= self.min_level]

    def all_answers(self) -> list[str]:
        """Every answer a defender may give in this game, whatever the level."""
        if self.hussar:
            return [a.value for a in (Answer.WHIST, Answer.WHIST_TALON, Answer.PASS)]
        answers = [Answer.WHIST, Answer.PASS]
        if self.half_whist_levels:
            answers.append(Answer.HALF_WHIST)
        return [a.value for a in answers]

    def defenders_of(self, declarer: str) -> list[str]:
        """The defenders of a declarer, in the order they answer (§2)."""
        return defenders(self.players, self.dealer, declarer)

    def answers_of(self, level: int, first: str | None) -> list[str]:
        """A defender's allowed answers: the first one's (first None) or the second's.

        Only the second defender, after the first passed, on a level the game allows,
        may half-whist (§4.4).
        """
        answers = [a for a in self.all_answers() if a != Answer.HALF_WHIST.value]
        if first == Answer.PASS.value and not self.hussar and level in self.half_whist_levels:
            answers.append(Answer.HALF_WHIST.value)
        return answers

    def tricks_needed(
        self, kind: str, declarer: str | None = None, answers: tuple[str, ...] = ()
    ) -> list[str]:
        """Whose tricks the scorer must give for a deal (answers in answer order).

        All-pass: every active player; misère: the declarer; a contract with one whister:
        the declarer; with two whisters: the declarer and both; nobody whisting: nobody.
        """
        if kind == "allpass":
            return self.active
        if declarer is None or declarer not in self.active:
            return []
        if kind == "misere":
            return [declarer]
        if kind != "contract":
            return []
        defs = self.defenders_of(declarer)
        whisters = [
            name
            for name, answer in zip(defs, answers, strict=False)
            if answer in {a.value for a in _PLAYED}
        ]
        if not whisters:
            return []
        if len(whisters) == len(defs) == 2:
            return [declarer, *whisters]
        return [declarer]

    def to_json(self) -> dict[str, Any]:
        """Everything above for the page's script, in the shape the module docstring shows."""
        declarers = {p: self.defenders_of(p) for p in self.active}
        answers: dict[str, dict[str, dict[str, list[str]]]] = {}
        contract_tricks: dict[str, dict[str, list[str]]] = {}
        for declarer, defs in declarers.items():
            by_level: dict[str, dict[str, list[str]]] = {}
            for level in self.levels():
                first = self.answers_of(level, None)
                by_level[str(level)] = {"first": first} | {
                    a: self.answers_of(level, a) for a in first
                }
            answers[declarer] = by_level
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
    game = sheet.game
    players = game.players
    if position is None:
        dealer, streak = sheet.next_dealer, sheet.allpass_streak
        number = len(sheet.results) + 1
    else:
        before = sheet.results[:position]
        dealt = sum(1 for r in before if r.dealer is not None)
        dealer = players[(players.index(game.first_dealer) + dealt) % len(players)]
        streak = sheet.results[position].allpass_streak
        number = position + 1
    return Table(
        number=number,
        players=players,
        dealer=dealer,
        min_level=min_level(game.options, streak),
        hussar=game.hussar,
        half_whist_levels=game.options.half_whist,
    )
