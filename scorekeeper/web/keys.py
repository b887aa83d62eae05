"""One-time keys of write forms: what makes a form sent twice write once."""

from __future__ import annotations

import os


def new_key() -> str:
    """A one-time key for one write form: 128 random bits as 32 hex digits (uuid4's form;
    without building a UUID, a fifth of the time, and a page draws two)."""
    return os.urandom(16).hex()
