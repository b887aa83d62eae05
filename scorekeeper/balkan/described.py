"""An entry in words as it was entered, without the sheet around it (a game's history lists
every version of every entry, each away from its place): who declared what, who followed,
who was invited, the kontra, the tricks; a refa; a correction's changes; a write-off."""

from __future__ import annotations

from scorekeeper.rules.problems import N_

from .deals import CONTRACT_WORDS, Correction, Entry, Played, Refa, WriteOff
from .entries import correction_lines
from .why import Why, word

#: Each kontra level as players say it.
KONTRA_WORDS: dict[int, str] = {
    1: N_("kontra"),
    2: N_("rekontra"),
    3: N_("subkontra"),
    4: N_("mortkontra"),
}


def described(entry: Entry) -> tuple[Why, ...]:
    """The entry's lines, as entered (nothing of what it wrote: that needs the sheet)."""
    if isinstance(entry, Played):
        return _played(entry)
    if isinstance(entry, Refa):
        return (Why(N_("everyone said “dalje”: a refa")),)
    if isinstance(entry, Correction):
        return tuple(correction_lines(entry))
    if isinstance(entry, WriteOff):
        written = Why(N_("write-off: the bule left are written off"))
        if entry.left is None:
            return (written,)
        return (written, Why(N_("{name} left"), {"name": entry.left}))
    return ()


def _played(deal: Played) -> tuple[Why, ...]:
    game = word(CONTRACT_WORDS[deal.contract, deal.igra])
    out = [Why(N_("{name}: {game}"), {"name": deal.declarer, "game": game})]
    if deal.followers and not deal.betl:
        out.append(Why(N_("follow: {names}"), {"names": ", ".join(deal.followers)}))
    elif not deal.betl:
        out.append(Why(N_("nobody follows")))
    if deal.invited:
        out.append(Why(N_("invited: {name}"), {"name": deal.invited}))
    if deal.kontra:
        level = word(KONTRA_WORDS[deal.kontra])
        params = {"level": level, "factor": 2**deal.kontra, "name": deal.kontra_by or ""}
        out.append(Why(N_("{level} ×{factor}; kontra: {name}"), params))
    if deal.tricks:
        tricks = ", ".join(f"{p} {t}" for p, t in deal.tricks)
        out.append(Why(N_("tricks: {tricks}"), {"tricks": tricks}))
    return tuple(out)
