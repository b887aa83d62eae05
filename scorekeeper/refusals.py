"""The one family of refusals: a service was asked for a write and wrote nothing.

Each service names its own kinds under `Refused` (games.writes: `GameRefused`; company.writes:
`CompanyRefused`; confirmations: `AnswerRefused`; tournament.service: `TournamentRefused`),
each kind a class with the values its message needs. No Flask here: the web turns a refusal
into its page or its JSON in one place (web/errors.py); the CLI and the tests catch them as
they are.
"""

from __future__ import annotations


class Refused(Exception):
    """Nothing was written; the subclass says why."""
