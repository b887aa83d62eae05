"""The game's write buttons: each is a form with a one-time key and the version it read."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from wtforms.validators import InputRequired, NumberRange

from scorekeeper.rules.options import OPTION_BOUNDS

from ..widgets import Between, WholeField, WriteForm


class FinishForm(WriteForm):
    """Finish the game now and keep its settlement."""


class ReopenForm(WriteForm):
    """Reopen a finished game so deals can be added again."""


class RescoreForm(WriteForm):
    """Replace the kept settlement with what the log computes now."""


_MAX_POOL = int(OPTION_BOUNDS["pool_target"].high)
POOL_BOUNDS = (1, _MAX_POOL)
"""The pool "Play on" may be raised to: at least 1, at most the option's bound."""


class ExtendForm(WriteForm):
    """Play on after the end rule was met: a larger pool target (an explicit re-score)."""

    pool_target = WholeField(
        _l("Play on to a pool of"),
        invalid=Between().filled(1, _MAX_POOL),
        validators=[
            InputRequired(Between().filled(1, _MAX_POOL)),
            NumberRange(min=1, max=_MAX_POOL, message=Between()),
        ],
    )
