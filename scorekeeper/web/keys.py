"""One-time keys of write forms: what makes a form sent twice write once."""

from __future__ import annotations

import uuid


def new_key() -> str:
    """A one-time key for one write form (uuid4)."""
    return uuid.uuid4().hex
