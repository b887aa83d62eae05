"""What the deal form asks before a Balkan entry: one value, `Turn`, computed from the sheet
(as `rules.seat` is for a Russian deal), never from the page."""

from __future__ import annotations

from dataclasses import dataclass

from .deals import CONTRACTS, KONTRA_LEVELS
from .notation import ENTRY_KINDS
from .options import PikKontra
from .sheet import Sheet


@dataclass(frozen=True)
class Turn:
    """The table before the next entry."""

    number: int
    """The entry's 1-based place in the log."""
    players: tuple[str, ...]
    dealer: str
    sitting_out: tuple[str, ...]
    """With 4 players the dealer; else nobody."""
    active: tuple[str, ...]
    """Who plays the next deal, from the dealer's right."""
    kinds: tuple[str, ...]
    """"played", "refa", "correction", "writeoff"; empty once the partija is over."""
    contracts: tuple[str, ...]
    kontra_levels: tuple[int, ...]
    """0 up to kontra_max."""
    refa_writes: bool
    """A refa entry now writes a refa for everyone (else it only passes the deal)."""
    pik_needs_kontra: bool
    """A plain pik with a follower is refused without kontra now (a refa is written instead)."""
    open_refe: dict[str, int]
    under_hat: tuple[str, ...]
    bule: dict[str, int]
    total: int
    """Σ bule."""
    supe_cap: bool
    """A failed hand stops at the defence's fifth trick (the pad offers defence sums of 5)."""
    ended: bool


def turn(sheet: Sheet) -> Turn:
    """Everything the deal form asks before the next entry of this sheet."""
    table = sheet.table
    options = sheet.options
    state = sheet.state
    ended = sheet.ended
    return Turn(
        number=len(sheet.outcomes) + 1,
        players=sheet.players,
        dealer=table.dealer,
        sitting_out=table.sitting_out,
        active=table.active,
        kinds=() if ended else ENTRY_KINDS,
        contracts=CONTRACTS,
        kontra_levels=KONTRA_LEVELS[: options.kontra_max + 1],
        refa_writes=table.refa_writes,
        pik_needs_kontra=options.pik_kontra == PikKontra.REQUIRED and table.refa_writes,
        open_refe={p: state.open_refe(p) for p in sheet.players},
        under_hat=state.under_hat(),
        bule={p: sheet.bule(p) for p in sheet.players},
        total=sheet.total,
        supe_cap=options.supe_cap,
        ended=ended,
    )
