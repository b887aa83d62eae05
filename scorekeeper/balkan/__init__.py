"""The Balkan family of Preferans scoring (docs/balkan.md): bule counted down to a zero sum,
supe on the declarer, refe, kontra. Pure Python, exact, no I/O, beside `rules` (whose
problems, numbers, names, money rounding and payments it uses)."""

from .deals import (
    CONTRACT_WORDS,
    CONTRACTS,
    KIND_LABELS,
    REFA_STATES,
    VALUES,
    BuleChange,
    Correction,
    Entry,
    Played,
    Refa,
    SupeChange,
    Unread,
    WriteOff,
)
from .entered import read_entered
from .game import FAMILY, BalkanGame
from .notation import ENTRY_KINDS, entry_to_dict, parse_entry, unread
from .options import (
    OPTION_LABELS,
    PRESET_LABELS,
    PRESETS,
    PRESETS_NAMES,
    VALUE_LABELS,
    BalkanOptions,
    find_preset,
    resolve_options,
)
from .settlement import BalkanSettlement, settle
from .sheet import Sheet, preview, replay, score
from .state import Outcome
from .turn import Turn, turn
from .why import Why

__all__ = [
    "CONTRACTS",
    "CONTRACT_WORDS",
    "ENTRY_KINDS",
    "FAMILY",
    "KIND_LABELS",
    "OPTION_LABELS",
    "PRESETS",
    "PRESETS_NAMES",
    "PRESET_LABELS",
    "REFA_STATES",
    "VALUES",
    "VALUE_LABELS",
    "BalkanGame",
    "BalkanOptions",
    "BalkanSettlement",
    "BuleChange",
    "Correction",
    "Entry",
    "Outcome",
    "Played",
    "Refa",
    "Sheet",
    "SupeChange",
    "Turn",
    "Unread",
    "Why",
    "WriteOff",
    "entry_to_dict",
    "find_preset",
    "parse_entry",
    "preview",
    "read_entered",
    "replay",
    "resolve_options",
    "score",
    "settle",
    "turn",
    "unread",
]
