"""A deal as a scorer enters it: one mapping in game-file notation whose values are the texts
the deal form sent, read against the seat into a `Deal`, or its problems by field.

This is the deal form's one parser (as game-file notation has `parse_deal`): the form only
gathers its fields under the notation's keys (a player chosen by name, None when none is
chosen; every other value as it was typed); here the texts are read (a contract, tricks,
amounts, the reason), what the chosen kind does not use is left aside, and what is missing
is said at its field in the form's words ("Choose the declarer"). A deal that reads so is
then read as game-file notation, so that it holds to every rule a stored deal holds to.

The fields of the problems are those of game-file notation: "type", "declarer", "player",
"contract", "reason", "tricks.Anna", "entries" and "entries.2" (the 1-based entry among
those given).
"""

from __future__ import annotations

from collections.abc import Mapping

from .contracts import Contract, ContractError
from .deals import Answer, Deal
from .notation import parse_amount, parse_deal
from .problems import N_, Problem
from .seat import Seat
from .text import normalize

TYPE_CHECKING = False
if TYPE_CHECKING:  # the types are named for the type checker only: `score` never imports typing
    from typing import Any

#: The number of tricks as the form offers them.
_TRICK_COUNTS = {str(n): n for n in range(11)}
_WHISTS = (Answer.WHIST.value, Answer.WHIST_TALON.value, Answer.WHIST_RETURNED.value)
#: The talon's quick tricks as the form offers them (§4.9).
_TALON_COUNTS = {str(n): n for n in range(4)}


def read_entered(raw: Mapping[str, Any], seat: Seat) -> tuple[Deal | None, list[Problem]]:
    """Read a deal as entered at this seat; returns the deal (None if it has problems) and
    every problem found, each at its field."""
    problems: list[Problem] = []
    data = _notation(raw, seat, problems)
    if data is None or problems:
        return None, problems
    return parse_deal(data, seat.players)


def _notation(raw: Mapping[str, Any], seat: Seat, problems: list[Problem]) -> dict[str, Any] | None:
    """The deal in game-file notation, read from the texts its kind uses."""
    kind = raw.get("type")
    if kind not in seat.kinds:
        problems.append(Problem(N_("Choose what to record"), field="type"))
        return None
    if kind == "redeal":
        return {"type": "redeal"}
    if kind == "correction":
        return _correction(raw, seat.players, problems)
    if kind == "penalty":
        return _penalty(raw, seat.players, problems)
    if kind == "allpass":
        return {"type": "allpass", "tricks": _tricks(raw, seat, problems, seat.allpass_takers())}
    declarer = raw.get("declarer")
    if declarer not in seat.players:
        problems.append(Problem(N_("Choose the declarer"), field="declarer"))
        return None
    if kind == "misere":
        return {"type": "misere", "declarer": declarer, "tricks": _tricks(raw, seat, problems)}
    contract = _contract(raw.get("contract"), problems)
    if contract is None:
        return None
    given = raw.get("answers") or {}
    answerers = seat.defenders_of(declarer)
    if seat.dealer_may_whist:
        answerers.append(seat.dealer)  # the dealer's whist (§4.8): the rules say when
    answers = {p: given[p] for p in answerers if given.get(p)}
    data: dict[str, Any] = {
        "type": "contract",
        "declarer": declarer,
        "contract": contract,
        "answers": answers,
    }
    talon = raw.get("talon_tricks")
    if talon not in (None, ""):
        count = _TALON_COUNTS.get(str(talon))
        if count is None:
            problems.append(
                Problem(N_("Quick tricks in the talon are 0 to 3"), field="talon_tricks")
            )
        data["talon_tricks"] = count
    if any(answer in _WHISTS for answer in answers.values()):
        data["tricks"] = _tricks(raw, seat, problems)
    return data


def _contract(text: Any, problems: list[Problem]) -> str | None:
    """The contract's code (7S, 10NT), or None after saying that none is chosen."""
    try:
        return Contract.parse(text or "").code()
    except ContractError:
        problems.append(Problem(N_("Choose the contract"), field="contract"))
        return None


def _tricks(
    raw: Mapping[str, Any], seat: Seat, problems: list[Problem], takers: tuple[str, ...] = ()
) -> dict[str, int]:
    """The tricks given for the deal's players, or for `takers` (none given: not in the
    result)."""
    given = raw.get("tricks") or {}
    out: dict[str, int] = {}
    for name in takers or seat.active:
        text = given.get(name)
        if text in (None, ""):
            continue
        count = _TRICK_COUNTS.get(str(text))
        if count is None:
            problems.append(Problem(N_("Tricks are 0 to 10"), field=f"tricks.{name}"))
            continue
        out[name] = count
    return out


def _penalty(
    raw: Mapping[str, Any], players: tuple[str, ...], problems: list[Problem]
) -> dict[str, Any] | None:
    """A fine (§4.7): who is fined (anybody at the table) and the contract of the deal it
    happened in."""
    offender = raw.get("player")
    if offender not in players:
        problems.append(Problem(N_("Choose who is fined"), field="player"))
    contract = _contract(raw.get("contract"), problems)
    if offender not in players or contract is None:
        return None
    return {"type": "penalty", "player": offender, "contract": contract}


def _correction(
    raw: Mapping[str, Any], players: tuple[str, ...], problems: list[Problem]
) -> dict[str, Any] | None:
    """A correction: why, and the entries it writes (each at its 1-based place)."""
    reason = normalize(str(raw.get("reason") or "").strip().replace("\r\n", "\n"))
    if not reason:
        problems.append(Problem(N_("Say why the correction is made"), field="reason"))
    given = list(raw.get("entries") or [])
    entries = [_entry(n, item, players, problems) for n, item in enumerate(given, start=1)]
    if not given:
        problems.append(Problem(N_("Write at least one amount"), field="entries"))
    if problems:
        return None
    return {"type": "correction", "reason": reason, "entries": entries}


def _entry(
    n: int, item: Mapping[str, Any], players: tuple[str, ...], problems: list[Problem]
) -> dict[str, Any] | None:
    """Entry n: a player's pool or hill, or whists on another player, and its amount."""
    where = f"entries.{n}"
    player = item.get("player")
    if player not in players:
        problems.append(Problem(N_("Choose the player"), field=where))
        return None
    column = next((key for key in ("pool", "hill", "amount") if key in item), "amount")
    amount = parse_amount(str(item.get(column) or "").strip())
    if amount is None:
        problems.append(
            Problem(
                N_(
                    "Write an amount from −1,000,000 to 1,000,000 whists, e.g. 10, −4 or 2.5 "
                    "(no exponents)"
                ),
                field=where,
            )
        )
        return None
    value: Any = int(amount) if amount.denominator == 1 else str(amount)
    if "whists_on" in item:
        on = item["whists_on"]
        if on not in players:
            problems.append(Problem(N_("Choose whom the whists are written on"), field=where))
            return None
        return {"player": player, "whists_on": on, "amount": value}
    if column in ("pool", "hill"):
        return {"player": player, column: value}
    problems.append(Problem(N_("Choose pool, hill or whists"), field=where))
    return None
