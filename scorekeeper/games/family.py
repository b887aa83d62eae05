"""The rules families a stored game is played by: the Russian one (`rules`, the default) and
the Balkan one (`balkan`). A game's family is chosen when it is made and never changes; the
store keeps it with the game's resolved options (the key "family", absent for a Russian game,
as every game stored before there were two families). The game service asks the game's
family for everything that depends on the rules (reading the stored game and a deal, the
replay, the settlement, the report) and does the rest (store, versions, kept states) once.

A third family is one more `Family` here (and its web forms and drawings)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from scorekeeper import balkan, gamefile, gamefile_balkan, report, report_balkan, rules
from scorekeeper.balkan import CONTRACT_WORDS, KIND_LABELS
from scorekeeper.balkan.described import described
from scorekeeper.balkan.options import options_to_json
from scorekeeper.rules import Problem
from scorekeeper.rules.company import PlayFigures, play_figures
from scorekeeper.rules.scoring import entry_class
from scorekeeper.wording import Words

RUSSIAN, BALKAN = "russian", balkan.FAMILY
KEY = "family"
"""The key of the stored options that names a game's family (absent: Russian)."""


@dataclass(frozen=True)
class Told:
    """One entry of the log as the table is asked about it (a follower's ✓/✗ card)."""

    kind: str
    """What it is counted among: "deal", "correction" or "penalty"."""
    number: int
    """Its number among its kind, as on the sheet."""
    title: str
    details: str
    wrote: tuple[str, ...]
    """What it wrote, a line each, in words."""


@dataclass(frozen=True)
class Family:
    """What the game service needs of one family of rules; each part is a pure function."""

    name: str
    player_counts: Mapping[str, tuple[int, ...]]
    """The numbers of players each convention (preset) seats; others: `default_counts`."""
    default_counts: tuple[int, ...]

    def load(self, data: dict[str, Any], *, max_deals: int) -> Any:
        """A stored game (game-file notation) as the family's Game, unchecked."""
        raise NotImplementedError

    def replay(self, game: Any) -> tuple[Any, list[Problem]]:
        raise NotImplementedError

    def parse_deal(self, data: Any, players: Sequence[str]) -> tuple[Any, list[Problem]]:
        raise NotImplementedError

    def deal_to_dict(self, deal: Any) -> dict[str, Any]:
        raise NotImplementedError

    def read_entered(
        self, raw: Mapping[str, Any], sheet: Any, position: int | None
    ) -> tuple[Any, list[Problem]]:
        """A deal as the deal form has it, read for a new deal (position None) or for the
        deal at a 0-based position, at its place."""
        raise NotImplementedError

    def resolve_options(
        self, convention: str, overrides: Mapping[str, Any]
    ) -> tuple[dict[str, Any], list[Problem]]:
        """The convention's options with the table's changes, as the store keeps them."""
        raise NotImplementedError

    def settle(self, sheet: Any) -> Any:
        """The sheet's settlement: its `players`, each one's `net` (higher is better) and
        `money`, who pays whom (`payments`); what a company adds up of a finished game."""
        raise NotImplementedError

    def report(self, sheet: Any) -> dict[str, Any]:
        """What `scorekeeper score --settle` prints for this sheet."""
        raise NotImplementedError

    def result_at(self, sheet: Any, number: int) -> Any:
        """What the entry at a 1-based place wrote (its DealResult, its Outcome)."""
        raise NotImplementedError

    def number_of(self, sheet: Any, position: int, kind: str | None = None) -> int:
        """The number people give the entry at a 0-based position among its kind."""
        return int(sheet.number_of(position, kind))

    def stored(self, game: Any) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """A game read from a file as the store keeps it: its options, its deals."""
        raise NotImplementedError

    def dump(self, game: Any) -> dict[str, Any]:
        """The game's file (docs/game-format.md), as `load` reads it back."""
        raise NotImplementedError

    def finished(self, game: Any) -> Any:
        """The game finished by hand."""
        return replace(game, finished=True)

    def figures(self, sheet: Any) -> dict[str, PlayFigures]:
        """How each seat played, by seat name, as a company counts it (none: not counted)."""
        return {}

    def describe(self, data: dict[str, Any], players: Sequence[str], words: Words) -> str:
        """A stored entry (game-file notation) in words, away from its place in the log (a
        version in the history): what was entered; "" when it cannot be read."""
        raise NotImplementedError

    def told(self, sheet: Any, position: int, words: Words) -> Told:
        """The entry at a 0-based position in words, as a player confirms it."""
        raise NotImplementedError


class _Russian(Family):
    def load(self, data: dict[str, Any], *, max_deals: int) -> rules.Game:
        return gamefile.load(data, check=False, max_deals=max_deals, stored=True)

    def replay(self, game: Any) -> tuple[Any, list[Problem]]:
        return rules.replay(game)

    def parse_deal(self, data: Any, players: Sequence[str]) -> tuple[Any, list[Problem]]:
        return rules.parse_deal(data, tuple(players))

    def deal_to_dict(self, deal: Any) -> dict[str, Any]:
        return rules.deal_to_dict(deal)

    def read_entered(
        self, raw: Mapping[str, Any], sheet: Any, position: int | None
    ) -> tuple[Any, list[Problem]]:
        return rules.read_entered(
            raw, rules.seat(sheet, None if position is None else position + 1)
        )

    def resolve_options(
        self, convention: str, overrides: Mapping[str, Any]
    ) -> tuple[dict[str, Any], list[Problem]]:
        options, problems = rules.resolve_options(convention, dict(overrides))
        return options.to_json(), problems

    def settle(self, sheet: Any) -> Any:
        return rules.settle(sheet)

    def stored(self, game: Any) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        return game.options.to_json(), gamefile.dump(game)["deals"]

    def dump(self, game: Any) -> dict[str, Any]:
        return gamefile.dump(game)

    def report(self, sheet: Any) -> dict[str, Any]:
        return report.score_report(sheet, with_settlement=True)

    def result_at(self, sheet: Any, number: int) -> Any:
        return sheet.results[number - 1]

    def figures(self, sheet: Any) -> dict[str, PlayFigures]:
        names = list(sheet.players)
        return play_figures([(sheet, {n: n for n in names})], names)

    def describe(self, data: dict[str, Any], players: Sequence[str], words: Words) -> str:
        deal, _ = rules.parse_deal(data, tuple(players))
        if deal is None:
            return ""
        result = rules.DealResult(0, deal, None, (), 0, None, False)
        title = words.deal_title(result)
        details = words.deal_details(result, tuple(players))
        return f"{title} — {details}" if details else title

    def told(self, sheet: Any, position: int, words: Words) -> Told:
        result = sheet.results[position]
        return Told(
            entry_class(result.deal.kind),
            sheet.number_of(position),
            words.deal_title(result),
            words.deal_details(result, sheet.players),
            tuple(words.entry(e) for e in result.entries),
        )


class _Balkan(Family):
    def load(self, data: dict[str, Any], *, max_deals: int) -> balkan.BalkanGame:
        return gamefile_balkan.load(data, check=False, max_deals=max_deals, stored=True)

    def replay(self, game: Any) -> tuple[Any, list[Problem]]:
        return balkan.replay(game)

    def parse_deal(self, data: Any, players: Sequence[str]) -> tuple[Any, list[Problem]]:
        return balkan.parse_entry(data, players)

    def deal_to_dict(self, deal: Any) -> dict[str, Any]:
        return balkan.entry_to_dict(deal)

    def read_entered(
        self, raw: Mapping[str, Any], sheet: Any, position: int | None
    ) -> tuple[Any, list[Problem]]:
        if position is not None:  # an edit: read at its place, on the sheet before it
            sheet, _ = balkan.replay(sheet.game.with_deals(sheet.game.deals[:position]))
        return balkan.read_entered(raw, sheet)

    def resolve_options(
        self, convention: str, overrides: Mapping[str, Any]
    ) -> tuple[dict[str, Any], list[Problem]]:
        options, problems = balkan.resolve_options(convention, dict(overrides))
        return options_to_json(options) | {KEY: BALKAN}, problems

    def settle(self, sheet: Any) -> Any:
        return balkan.settle(sheet)

    def stored(self, game: Any) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        options = options_to_json(game.options) | {KEY: BALKAN}
        return options, gamefile_balkan.dump(game)["deals"]

    def dump(self, game: Any) -> dict[str, Any]:
        return gamefile_balkan.dump(game)

    def report(self, sheet: Any) -> dict[str, Any]:
        return report_balkan.score_report(sheet, with_settlement=True)

    def result_at(self, sheet: Any, number: int) -> Any:
        return sheet.outcomes[number - 1]

    def describe(self, data: dict[str, Any], players: Sequence[str], words: Words) -> str:
        entry, _ = balkan.parse_entry(data, players)
        if entry is None:
            return ""
        return "; ".join(report_balkan.say(words, why) for why in described(entry))

    def told(self, sheet: Any, position: int, words: Words) -> Told:
        outcome = sheet.outcomes[position]
        entry = outcome.entry
        title = words.gettext(KIND_LABELS.get(outcome.kind, outcome.kind))
        if isinstance(entry, balkan.Played):
            contract = words.gettext(CONTRACT_WORDS[(entry.contract, entry.igra)])
            title = f"{entry.declarer}: {contract}"
        lines = tuple(report_balkan.say(words, why) for why in outcome.why)
        if isinstance(entry, balkan.Correction):  # "Correction 1: renonce", its kind said once
            title, lines = (entry.reason, lines[1:]) if entry.reason else (lines[1], lines[2:])
        else:  # "Deal 3: Boža: karo", then what it wrote (not "Boža: karo" again)
            lines = _after_title(title, lines)
        return Told(entry_class(outcome.kind), sheet.number_of(position), title, "", lines)


def _after_title(title: str, lines: tuple[str, ...]) -> tuple[str, ...]:
    """An entry's lines after its title, the title not said again at their start."""
    if not lines or not lines[0].startswith(title):
        return lines
    rest = lines[0][len(title) :].lstrip(": ")
    return (rest, *lines[1:]) if rest else lines[1:]


FAMILIES: dict[str, Family] = {
    RUSSIAN: _Russian(RUSSIAN, rules.PLAYER_COUNTS, (3, 4, 5)),
    BALKAN: _Balkan(BALKAN, {}, (3, 4)),
}


def family_named(name: str | None) -> Family:
    """The family of this name (None or unknown: Russian, as every game made before)."""
    return FAMILIES.get(name or RUSSIAN, FAMILIES[RUSSIAN])


def family_of_options(options: Mapping[str, Any]) -> Family:
    """The family of a stored game, by its stored options."""
    return family_named(options.get(KEY))


def family_of_game(game: Any) -> Family:
    """The family of a game read from a file."""
    return family_named(getattr(game, "family", RUSSIAN))


def counts(family: Family, convention: str) -> tuple[int, ...]:
    """How many players this family's convention seats."""
    return tuple(family.player_counts.get(convention or "", family.default_counts))
