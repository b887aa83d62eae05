"""The game's write buttons: each is a form with a one-time key and the version it read."""

from __future__ import annotations

from ..widgets import WriteForm


class FinishForm(WriteForm):
    """Finish the game now and keep its settlement."""


class ReopenForm(WriteForm):
    """Reopen a finished game so deals can be added again."""


class RescoreForm(WriteForm):
    """Replace the kept settlement with what the log computes now."""
