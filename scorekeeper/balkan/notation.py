"""Balkan entries in game-file notation (docs/game-format.md, "Balkan games"): read a JSON
dict into an entry and back. What depends on the sheet (who is active, the tricks' sums, the
limits of the options) is checked when the entry is replayed (`scoring`)."""

from __future__ import annotations

from collections.abc import Sequence

from scorekeeper.rules.notation import _DealReader, _show
from scorekeeper.rules.problems import N_, Problem

from .deals import (
    CONTRACTS,
    BuleChange,
    Correction,
    Entry,
    Played,
    Refa,
    SupeChange,
    Unread,
    WriteOff,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_KEYS: dict[str, tuple[set[str], set[str]]] = {
    # type: (required keys, optional keys)
    "played": (
        {"type", "declarer", "contract"},
        {"igra", "followers", "invited", "kontra", "kontra_by", "tricks", "dealer"},
    ),
    "refa": ({"type"}, {"dealer"}),
    "correction": ({"type", "entries"}, {"reason"}),
    "writeoff": ({"type"}, {"left"}),
}
ENTRY_KINDS: tuple[str, ...] = tuple(_KEYS)


def parse_entry(raw: Any, players: Sequence[str]) -> tuple[Entry | None, list[Problem]]:
    """Read one entry dict; returns the entry (None if unusable) and every problem found."""
    reader = _Reader(players)
    kind = reader.kind(raw)
    entry = reader.balkan_entry(kind, raw) if kind is not None else None
    return (entry if not reader.problems else None), reader.problems


def unread(raw: Any) -> Unread:
    """What stands in the log for an entry that cannot be read."""
    kind = raw.get("type") if isinstance(raw, dict) else None
    return Unread(kind if isinstance(kind, str) else "")


class _Reader(_DealReader):
    """The Russian reader's players, tricks and reason, with the Balkan entries."""

    KEYS = _KEYS
    NOT_AN_OBJECT = N_('an entry must be an object like {{"type": "played", ...}}')
    UNKNOWN_TYPE = N_("unknown entry type {kind} (played, refa, correction, writeoff)")

    def balkan_entry(self, kind: str, raw: dict[str, Any]) -> Entry | None:
        if kind == "correction":
            return self.balkan_correction(raw)
        if kind == "writeoff":
            left = self.player("left", raw["left"]) if "left" in raw else None
            return WriteOff(left)
        dealer = self.player("dealer", raw["dealer"]) if "dealer" in raw else None
        if kind == "refa":
            return Refa(dealer)
        return self.played(raw, dealer)

    def played(self, raw: dict[str, Any], dealer: str | None) -> Played | None:
        declarer = self.player("declarer", raw["declarer"])
        contract = raw["contract"]
        if contract not in CONTRACTS:
            self.bad(
                N_("contract: {value} is not one of {choices}"),
                "contract",
                value=_show(contract),
                choices=", ".join(CONTRACTS),
            )
        igra = raw.get("igra", False)
        if not isinstance(igra, bool):
            self.bad(N_("igra must be true or false"), "igra")
        followers = self.names("followers", raw.get("followers", []))
        invited = self.player("invited", raw["invited"]) if "invited" in raw else None
        kontra = raw.get("kontra", 0)
        if isinstance(kontra, bool) or not isinstance(kontra, int) or not 0 <= kontra <= 4:
            self.bad(
                N_("kontra must be a whole number from 0 to 4, not {value}"),
                "kontra",
                value=_show(kontra),
            )
            kontra = 0
        kontra_by = self.player("kontra_by", raw["kontra_by"]) if "kontra_by" in raw else None
        tricks = self.tricks(raw["tricks"]) if "tricks" in raw else {}
        if self.problems or declarer is None:
            return None
        return Played(
            declarer,
            contract,
            igra,
            tuple(followers),
            invited,
            kontra,
            kontra_by,
            tuple(tricks.items()),
            dealer,
        )

    def names(self, key: str, raw: Any) -> list[str]:
        """A list of players, each once."""
        if not isinstance(raw, list):
            self.bad(N_("{key} must be a list of names"), key, key=key)
            return []
        out: list[str] = []
        for value in raw:
            name = self.player(key, value)
            if name in out:
                self.bad(N_("{key}: {name} is named twice"), key, key=key, name=_show(name))
            elif name is not None:
                out.append(name)
        return out

    def balkan_correction(self, raw: dict[str, Any]) -> Correction | None:
        reason = self.reason(raw.get("reason", ""))
        items = self.entry_list(raw["entries"])
        if items is None:
            return None
        entries = [self.change(n, item) for n, item in enumerate(items, start=1)]
        if self.problems:
            return None
        return Correction(tuple(e for e in entries if e is not None), reason)

    def change(self, n: int, item: Any) -> BuleChange | SupeChange | None:
        """Entry n of a correction: a player's bule, or supe he writes on another."""
        where = f"entries.{n}"
        if not isinstance(item, dict) or not (
            set(item) == {"player", "bule"} or set(item) == {"player", "supe_on", "amount"}
        ):
            self.bad(
                N_(
                    'correction entry {n} must be {{"player", "bule"}} '
                    'or {{"player", "supe_on", "amount"}}'
                ),
                where,
                n=n,
            )
            return None
        player = item["player"]
        if not isinstance(player, str) or player not in self.players:
            self.bad(
                N_("correction entry {n}: {name} is not a player of this game"),
                where,
                n=n,
                name=_show(player),
            )
            return None
        amount = item.get("bule", item.get("amount"))
        if isinstance(amount, bool) or not isinstance(amount, int) or abs(amount) > 10**6:
            self.bad(
                N_(
                    "correction entry {n}: the amount must be a whole number "
                    "from {low} to {high}, not {value}"
                ),
                where,
                n=n,
                low="-1000000",
                high="1000000",
                value=_show(amount),
            )
            return None
        if "bule" in item:
            return BuleChange(player, amount)
        return self.supe(n, player, item["supe_on"], amount)

    def supe(self, n: int, player: str, on: Any, amount: int) -> SupeChange | None:
        """Supe written on another player of the game."""
        if isinstance(on, str) and on in self.players and on != player:
            return SupeChange(player, on, amount)
        if on == player:
            template = N_("correction entry {n}: {name} cannot write supe on their own name")
        else:
            template = N_("correction entry {n}: supe on {name}, who does not play in this game")
        self.bad(template, f"entries.{n}", n=n, name=_show(on) if on != player else player)
        return None


def entry_to_dict(entry: Entry) -> dict[str, Any]:
    """An entry in game-file notation (what the store keeps; parse_entry reads it back)."""
    if isinstance(entry, Played):
        return _played_dict(entry)
    if isinstance(entry, Refa):
        return {"type": "refa", **({"dealer": entry.dealer} if entry.dealer else {})}
    if isinstance(entry, WriteOff):
        return {"type": "writeoff", **({"left": entry.left} if entry.left else {})}
    if isinstance(entry, Correction):
        out: dict[str, Any] = {"type": "correction"}
        if entry.reason:
            out["reason"] = entry.reason
        out["entries"] = [
            {"player": c.player, "bule": c.bule}
            if isinstance(c, BuleChange)
            else {"player": c.player, "supe_on": c.supe_on, "amount": c.amount}
            for c in entry.entries
        ]
        return out
    return {"type": entry.kind}


def _played_dict(deal: Played) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "played", "declarer": deal.declarer, "contract": deal.contract}
    if deal.igra:
        out["igra"] = True
    out["followers"] = list(deal.followers)
    if deal.invited:
        out["invited"] = deal.invited
    if deal.kontra:
        out["kontra"] = deal.kontra
    if deal.kontra_by:
        out["kontra_by"] = deal.kontra_by
    if deal.tricks:
        out["tricks"] = dict(deal.tricks)
    if deal.dealer:
        out["dealer"] = deal.dealer
    return out
