"""The rules of Preferans scoring (docs/rules.md): pure Python, exact arithmetic, no I/O."""

from .contracts import Contract, ContractError, Suit
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
    Unreadable,
)
from .entered import read_entered
from .game import Game
from .notation import deal_to_dict, parse_deal
from .options import CONVENTIONS, PLAYER_COUNTS, PRESETS, Options, find_convention, resolve_options
from .problems import InvalidGame, Problem
from .reasons import Reason
from .scoring import (
    Column,
    DealResult,
    Entry,
    Sheet,
    active_players,
    defenders,
    replay,
    score,
    sitting_out,
)
from .seat import Seat, seat
from .settlement import Payment, Settlement, settle

__all__ = [
    "CONVENTIONS",
    "PLAYER_COUNTS",
    "PRESETS",
    "AllPassDeal",
    "Answer",
    "Column",
    "Contract",
    "ContractDeal",
    "ContractError",
    "Correction",
    "CorrectionEntry",
    "Deal",
    "DealResult",
    "Entry",
    "Game",
    "InvalidGame",
    "MisereDeal",
    "Options",
    "Payment",
    "Penalty",
    "Problem",
    "Reason",
    "Redeal",
    "Seat",
    "Settlement",
    "Sheet",
    "Suit",
    "Unreadable",
    "active_players",
    "deal_to_dict",
    "defenders",
    "find_convention",
    "parse_deal",
    "read_entered",
    "replay",
    "resolve_options",
    "score",
    "seat",
    "settle",
    "sitting_out",
]
