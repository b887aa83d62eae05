"""The table confirms: each player says on his own phone that a deal is right, or not so.

The service beside `games`: it checks an answer and writes it through the store in one short
transaction of its own table. It never opens the game's sheet, never touches the game's
version (a confirmation is not a change to the sheet, so no Save ever meets a conflict
because of one) and never replays anything. What the pages show is drawn from two small
queries: each deal's current revision, and each player's latest answer per deal.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from scorekeeper.refusals import Refused
from scorekeeper.rules.scoring import entry_class
from scorekeeper.rules.text import bad_character, normalize
from scorekeeper.store import GameRecord, Store
from scorekeeper.store.confirmations import (
    Confirmation,
    ConfirmationRefused,
    Confirmations,
    SeatClaim,
    Verdict,
    release_seat,
)

NOTE_MAX = 140
"""A note says what is not so in a few words."""

VERDICTS: tuple[Verdict, ...] = ("right", "wrong")


class AnswerRefused(Refused):
    """An answer that was not written; `reason` names why (the JSON answer says it too),
    `detail` fills the message."""

    def __init__(self, reason: str, detail: str = "") -> None:
        super().__init__(reason)
        self.reason, self.detail = reason, detail


@dataclass(frozen=True)
class DealAnswers:
    """The answers on the current revision of one live deal."""

    deal_id: int
    number: int
    """Counted among its kind, as on the sheet (Sheet.number_of): deal 11, correction 1."""
    revision: int
    kind: str = "deal"
    """What the entry is counted among: "deal", "correction" or "penalty"."""
    right: tuple[str, ...] = ()
    wrong: tuple[tuple[str, str], ...] = ()
    """(player, note) of each "not so"."""

    @property
    def disputed(self) -> bool:
        return bool(self.wrong)

    @property
    def answered(self) -> tuple[str, ...]:
        return (*self.right, *(p for p, _ in self.wrong))


@dataclass(frozen=True)
class TableAnswers:
    """What the table said about a game's deals, as the pages show it."""

    used: bool
    """Anybody ever answered on this game (else the pages show nothing of it)."""
    deals: list[DealAnswers] = field(default_factory=list)
    confirmed: list[tuple[str, int]] = field(default_factory=list)
    """Each player and the number of deals whose current revision he said is right."""
    claims: list[SeatClaim] = field(default_factory=list)
    """The seats a phone answers for (its first answer claimed it), in the order claimed."""

    @property
    def claimed_twice(self) -> list[SeatClaim]:
        """The seats another phone tried to answer for: the scorer is told."""
        return [c for c in self.claims if c.others]

    @property
    def disputed(self) -> list[DealAnswers]:
        return [d for d in self.deals if d.disputed]

    @property
    def answered(self) -> list[DealAnswers]:
        return [d for d in self.deals if d.right or d.wrong]

    def of(self, deal_id: int) -> DealAnswers | None:
        """The answers on one live deal."""
        return next((d for d in self.deals if d.deal_id == deal_id), None)

    @property
    def top(self) -> int:
        """The newest revision among the deals (0 without deals)."""
        return max((d.revision for d in self.deals), default=0)


def stamp(store: Store, token: str) -> int:
    """A number that changes with every answer on the game (0 before the first)."""
    return Confirmations(store).stamp(token)


def version_seen(store: Store, token: str) -> tuple[int, str, int]:
    """The game's (version, updated_at) and its answers' stamp, in one query."""
    return Confirmations(store).version_seen(token)


def unused(record: GameRecord) -> TableAnswers:
    """What a game nobody answered on shows (no query needed)."""
    return TableAnswers(used=False, confirmed=[(p, 0) for p in record.players])


def answers(store: Store, record: GameRecord) -> TableAnswers:
    """The answers on the current revision of each live deal of the game."""
    revisions, latest, claims = Confirmations(store).table(record.id)
    by_deal: dict[int, list[Confirmation]] = {}
    for answer in latest:
        if answer.revision == revisions.get(answer.deal_id):
            by_deal.setdefault(answer.deal_id, []).append(answer)
    deals = []
    counted = {"deal": 0, "correction": 0, "penalty": 0}
    for deal in record.deals:
        given = by_deal.get(deal.id, [])
        kind = entry_class(str(deal.data.get("type", "")))
        counted[kind] += 1
        deals.append(
            DealAnswers(
                deal_id=deal.id,
                number=counted[kind],
                kind=kind,
                revision=revisions.get(deal.id, 0),
                right=tuple(a.player for a in given if a.verdict == "right"),
                wrong=tuple((a.player, a.note) for a in given if a.verdict == "wrong"),
            )
        )
    counts = {p: 0 for p in record.players}
    for d in deals:
        for p in d.right:
            if p in counts:
                counts[p] += 1
    return TableAnswers(
        used=bool(latest),
        deals=deals,
        confirmed=list(counts.items()),
        claims=claims if latest else [],
    )


def release(store: Store, edit_token: str, player: str) -> bool:
    """The scorer lets a seat go: the next phone to answer for it claims it (a player's new
    phone, or the right one after somebody answered in his name). False if nobody held it."""
    return release_seat(store, edit_token, normalize(player.strip()))


def confirm(
    store: Store,
    token: str,
    *,
    deal_id: int,
    revision: int,
    player: str,
    verdict: str,
    note: str,
    request_key: str,
    phone: str = "",
) -> tuple[Confirmation, bool]:
    """Check and write one answer: (the answer, written). Raises AnswerRefused, or
    GameNotFound.
    With a phone (a hash of the id its cookie holds), a seat's answers come only from the
    phone that answered for it first, until the scorer releases it ("claimed" otherwise).

    AnswerRefused reasons: "verdict", "note" (a character a note may not hold: detail), "long",
    "key" (no request key, or one used for another answer), "player" (detail: the name),
    "deal", "changed", "many", "claimed" (see store.confirmations).
    """
    if verdict not in VERDICTS:
        raise AnswerRefused("verdict")
    note = normalize(" ".join(note.split()))
    bad = bad_character(note)
    if bad:
        raise AnswerRefused("note", bad)
    if len(note) > NOTE_MAX:
        raise AnswerRefused("long", str(NOTE_MAX))
    if not request_key or len(request_key) > 100:
        raise AnswerRefused("key")
    player = normalize(player.strip())
    try:
        return Confirmations(store).add(
            token,
            deal_id=deal_id,
            revision=revision,
            player=player,
            verdict="right" if verdict == "right" else "wrong",
            note=note,
            request_key=request_key,
            phone=phone,
        )
    except ConfirmationRefused as refused:
        named = refused.reason in ("player", "claimed")
        raise AnswerRefused(refused.reason, player if named else "") from None
