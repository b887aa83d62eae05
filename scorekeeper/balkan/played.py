"""One played deal (docs/balkan.md, "One played deal"): its checks against the table, and
what it writes — the declarer's bule, the defence's supe, who falls."""

from __future__ import annotations

from scorekeeper.rules.problems import N_, Label, Problem

from .deals import CONTRACT_WORDS, TO_MAKE, TRICKS, Played
from .options import BetlKontraSupe, FollowerFall, FollowerQuota, PikKontra
from .state import FAILED, PASSED, Outcome
from .table import Table
from .why import Why, word

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

DEFENCE_STOPS_AT = 5


def players_of(deal: Played, active: tuple[str, ...]) -> tuple[str, ...]:
    """Who plays the hand (has a tricks entry): nobody when nobody follows; in betl and under
    kontra all active players; else the declarer, the followers and the invited one."""
    if deal.betl or deal.kontra:
        return active
    if not deal.followers:
        return ()
    return tuple(
        p for p in active if p == deal.declarer or p in deal.followers or p == deal.invited
    )


def check_played(deal: Played, table: Table) -> list[Problem]:
    """Every reason the deal cannot be written at this table."""
    problems: list[Problem] = []

    def bad(template: str, field: str | None = None, **params: Any) -> None:
        problems.append(Problem(template, params, field))

    active = table.active
    others = tuple(p for p in active if p != deal.declarer)
    for key, name in _named(deal):
        if name not in active:
            bad(N_("{key}: {name} sits out this deal"), key, key=Label(FIELD_WORDS[key]), name=name)
    if problems:
        return problems
    if deal.declarer in deal.followers:
        bad(N_("who follows: the declarer does not follow himself"), "followers")
    if deal.betl:
        _check_betl(deal, others, bad)
    else:
        _check_invited(deal, others, bad)
    _check_kontra(deal, table, bad)
    if not problems:
        _check_tricks(deal, table, bad)
    return problems


#: Each field of a played deal as the deal form says it (a refusal names no file key).
FIELD_WORDS = {
    "declarer": N_("declarer"),
    "followers": N_("who follows"),
    "invited": N_("invited"),
    "kontra_by": N_("who gave kontra"),
    "tricks": N_("tricks"),
}


def _named(deal: Played) -> list[tuple[str, str]]:
    named: list[tuple[str, str | None]] = [("declarer", deal.declarer)]
    named += [("followers", f) for f in deal.followers]
    named += [("invited", deal.invited), ("kontra_by", deal.kontra_by)]
    named += [("tricks", name) for name, _ in deal.tricks]
    return [(key, name) for key, name in named if name is not None]


def _check_betl(deal: Played, others: tuple[str, ...], bad: Any) -> None:
    if deal.followers and set(deal.followers) != set(others):
        bad(N_("in betl both other players follow: omit followers or list both"), "followers")
    if deal.invited:
        bad(N_("invited: nobody is invited in betl"), "invited")


def _check_invited(deal: Played, others: tuple[str, ...], bad: Any) -> None:
    if deal.invited is None:
        return
    if not deal.followers:
        bad(N_("invited: nobody follows, so nobody invites"), "invited")
    elif len(deal.followers) != 1:
        bad(
            N_(
                "invited: {name} cannot be invited beside {count} followers; "
                "only a lone follower invites"
            ),
            "invited",
            name=deal.invited,
            count=len(deal.followers),
        )
    elif deal.invited not in others or deal.invited in deal.followers:
        bad(
            N_("invited: {name} is not the player who did not follow"), "invited", name=deal.invited
        )


def _check_kontra(deal: Played, table: Table, bad: Any) -> None:
    options = table.game.options
    if deal.kontra > options.kontra_max:
        bad(
            N_("kontra: {level} is above the highest kontra of this partija ({limit})"),
            "kontra",
            level=deal.kontra,
            limit=options.kontra_max,
        )
    followers = (
        deal.followers if not deal.betl else tuple(p for p in table.active if p != deal.declarer)
    )
    if deal.kontra and deal.kontra_by is None:
        bad(N_("kontra: say who gave it"), "kontra_by")
    elif not deal.kontra and deal.kontra_by is not None:
        bad(
            N_("who gave kontra: {name} is named, but there is no kontra"),
            "kontra_by",
            name=deal.kontra_by,
        )
    elif deal.kontra_by is not None and deal.kontra_by not in followers:
        bad(
            N_("who gave kontra: {name} did not follow; only a follower gives kontra"),
            "kontra_by",
            name=deal.kontra_by,
        )
    pik = deal.contract == "pik" and not deal.igra and deal.followers and not deal.kontra
    if pik and options.pik_kontra == PikKontra.REQUIRED and table.refa_writes:
        bad(
            N_("a pik without kontra is not played while a refa may be written: write a refa"),
            "kontra",
        )


def _check_tricks(deal: Played, table: Table, bad: Any) -> None:
    playing = players_of(deal, table.active)
    if deal.betl:
        playing = (deal.declarer,)
    given = dict(deal.tricks)
    for name in given:
        if name not in playing:
            bad(N_("tricks: {name} did not play this hand"), f"tricks.{name}", name=name)
    for name in playing:
        if name not in given:
            bad(N_("tricks of {name} are missing"), f"tricks.{name}", name=name)
    if given.keys() != set(playing) or deal.betl or not playing:
        return
    declarer = given[deal.declarer]
    defence = sum(given.values()) - declarer
    if declarer < TO_MAKE and table.game.options.supe_cap:
        if defence > DEFENCE_STOPS_AT:
            bad(
                N_("the defence took {tricks} tricks; a failed hand stops at 5"),
                "tricks",
                tricks=defence,
            )
        elif defence < DEFENCE_STOPS_AT:
            bad(
                N_(
                    "the defence took {tricks} tricks; a failed hand goes on to the defence's fifth"
                ),
                "tricks",
                tricks=defence,
            )
    elif declarer + defence != TRICKS:
        bad(N_("the tricks add up to {total}, not 10"), "tricks", total=declarer + defence)


def score_played(deal: Played, table: Table, number: int) -> Outcome:
    """What the deal writes before a last deal's scaling."""
    refa = table.refa_doubles(deal.declarer)
    multiplier = 2**deal.kontra * (2 if refa else 1)
    unit = 2 * deal.value * multiplier
    why = [_unit_line(deal, unit, multiplier, refa)]
    sheet = _Writes(deal, unit, why)
    if deal.betl:
        made = deal.tricks_of(deal.declarer) == 0
        _betl(deal, table, sheet, made, multiplier)
    elif not deal.followers:
        made = True
        sheet.declarer(-unit, N_("nobody follows: {name} passes without play, bule −{amount}"))
    else:
        made = deal.tricks_of(deal.declarer) >= TO_MAKE
        _declarer(deal, table, sheet, made)
        _defence(deal, table, sheet, made)
    marked = (deal.declarer, PASSED if made else FAILED) if refa else None
    if marked is not None:
        template = N_("{name}'s refa: passed") if made else N_("{name}'s refa: failed")
        why.append(Why(template, {"name": deal.declarer}))
    return Outcome(
        number=number,
        kind="played",
        entry=deal,
        dealer=table.dealer,
        bule=sheet.bule,
        supe=tuple(sheet.supe),
        unit=unit,
        value=deal.value,
        multiplier=multiplier,
        refa_doubles=refa,
        made=made,
        falls=tuple(sheet.falls),
        refa_marked=marked,
        why=tuple(why),
    )


def _unit_line(deal: Played, unit: int, multiplier: int, refa: bool) -> Why:
    params = {
        "game": word(CONTRACT_WORDS[deal.contract, deal.igra]),
        "name": deal.declarer,
        "value": deal.value,
        "multiplier": multiplier,
        "unit": unit,
    }
    if deal.kontra and refa:
        template = N_(
            "{name}: {game}; kontra ×{kontra}, own refa ×2: u = 2 × {value} × {multiplier} = {unit}"
        )
    elif deal.kontra:
        template = N_("{name}: {game}; kontra ×{kontra}: u = 2 × {value} × {multiplier} = {unit}")
    elif refa:
        template = N_("{name}: {game}; own refa ×2: u = 2 × {value} × {multiplier} = {unit}")
    else:
        template = N_("{name}: {game}: u = 2 × {value} = {unit}")
    return Why(template, {**params, "kontra": 2**deal.kontra})


class _Writes:
    """What a deal writes, gathered with its lines."""

    def __init__(self, deal: Played, unit: int, why: list[Why]) -> None:
        self.deal, self.unit, self.why = deal, unit, why
        self.bule: dict[str, int] = {}
        self.supe: list[tuple[str, str, int]] = []
        self.falls: list[str] = []

    def declarer(self, amount: int, template: str, **params: Any) -> None:
        self.bule[self.deal.declarer] = self.bule.get(self.deal.declarer, 0) + amount
        self.why.append(
            Why(template, {"name": self.deal.declarer, "amount": abs(amount), **params})
        )

    def fall(self, player: str, amount: int, template: str, **params: Any) -> None:
        self.bule[player] = self.bule.get(player, 0) + amount
        self.falls.append(player)
        self.why.append(Why(template, {"name": player, "amount": amount, **params}))

    def write(self, writer: str, amount: int, template: str, **params: Any) -> None:
        self.supe.append((writer, self.deal.declarer, amount))
        params = {"writer": writer, "declarer": self.deal.declarer, "amount": amount, **params}
        self.why.append(Why(template, params))


def _declarer(deal: Played, table: Table, sheet: _Writes, made: bool) -> None:
    unit = sheet.unit
    if made:
        sheet.declarer(-unit, N_("{name} passes: bule −{amount}"))
    elif table.game.options.double_fall and unit > table.state.total:
        sheet.declarer(
            2 * unit,
            N_(
                "{name} fails and u is more than the bule left ({left}): "
                "double fall, bule +{amount}"
            ),
            left=table.state.total,
        )
    else:
        sheet.declarer(unit, N_("{name} fails: bule +{amount}"))


def _defence(deal: Played, table: Table, sheet: _Writes, made: bool) -> None:
    unit = sheet.unit
    defence = sum(t for p, t in deal.tricks if p != deal.declarer)
    if deal.kontra:
        giver = deal.kontra_by
        assert giver is not None
        sheet.write(
            giver,
            defence * unit,
            N_("{writer} gave kontra: {tricks} × {unit} = {amount} supe on {declarer}"),
            tricks=defence,
            unit=unit,
        )
        if made:
            sheet.fall(
                giver, unit, N_("{name} gave kontra and the declarer passed: falls, bule +{amount}")
            )
    elif deal.invited:
        caller = deal.followers[0]
        sheet.write(
            caller,
            defence * unit,
            N_("{writer} invited: {tricks} × {unit} = {amount} supe on {declarer}"),
            tricks=defence,
            unit=unit,
        )
        if defence < 4:
            sheet.fall(
                caller,
                unit,
                N_(
                    "{name} invited and the pair took {tricks} (fewer than 4): "
                    "falls, bule +{amount}"
                ),
                tricks=defence,
            )
    else:
        _followers(deal, table, sheet, made, defence)


def _followers(deal: Played, table: Table, sheet: _Writes, made: bool, defence: int) -> None:
    options, unit = table.game.options, sheet.unit
    pair_safe = (
        options.follower_quota == FollowerQuota.PAIR and len(deal.followers) == 2 and defence >= 4
    )
    only_if_made = options.follower_quota == FollowerQuota.EACH_IF_MADE
    half = options.follower_fall == FollowerFall.HALF and len(deal.followers) == 2
    for follower in deal.followers:
        tricks = deal.tricks_of(follower)
        sheet.write(
            follower,
            tricks * unit,
            N_("{writer}: {tricks} × {unit} = {amount} supe on {declarer}"),
            tricks=tricks,
            unit=unit,
        )
        if tricks < 2 and not pair_safe and (made or not only_if_made):
            sheet.fall(
                follower,
                unit // 2 if half else unit,
                N_("{name} took {tricks} (fewer than 2): falls, bule +{amount}"),
                tricks=tricks,
            )


def _betl(deal: Played, table: Table, sheet: _Writes, made: bool, multiplier: int) -> None:
    unit = sheet.unit
    others = tuple(p for p in table.active if p != deal.declarer)
    _declarer(deal, table, sheet, made)
    if made:
        if deal.kontra_by is not None:
            sheet.fall(
                deal.kontra_by,
                unit,
                N_("{name} gave kontra and the declarer passed: falls, bule +{amount}"),
            )
        return
    writers = others
    if (
        deal.kontra_by is not None
        and table.game.options.betl_kontra_supe == BetlKontraSupe.KONTRA_GIVER
    ):
        writers = (deal.kontra_by,)
    fixed = 10 * deal.value * multiplier
    for writer in writers:
        sheet.write(
            writer,
            fixed,
            N_(
                "{writer}: a failed betl, 10 × {value} × {multiplier} = {amount} supe on {declarer}"
            ),
            value=deal.value,
            multiplier=multiplier,
        )
