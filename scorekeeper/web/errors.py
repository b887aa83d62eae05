"""Every refusal and error as the person sees it, in one place: a page, or for the deal form's
script the JSON of a final refusal.

The services refuse a write with one family of exceptions (scorekeeper.refusals.Refused: a
game's, a company's, a tournament's, a confirmation's); the store raises its errors (a link
that names no game, a read-only link, the database out of reach). The handlers here turn
each into what the person sees, registered once for the whole app; a view that answers a
refusal on its own page (the deal form keeps its input, a tournament's write goes back to
its section) takes the words from here.

The deal form's script keeps every Save on the phone until the server has answered it, and
sends it again by itself while there is no answer (no connection, a server error). Some
answers are final: the game is over, its tour was closed, its link was replaced, it was
deleted, it is read-only now, the deal being changed is gone. Sent again, such a Save would
be refused again for ever; so the answer says so in one shape, whatever the reason:

    {"saved": false, "final": "<reason>", "refused": "<why, in the page's language>", ...}

with a status that says the same (403, 404, 409, 410). The script then drops the Save from
the phone's queue and shows why, with the deal as it was entered, until the scorer has read
it (static/app.js: Pending, Refusals). Without the script the same refusals are pages.
"""

from __future__ import annotations

from typing import Literal

from flask import (
    Flask,
    current_app,
    jsonify,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import _, ngettext
from werkzeug.wrappers import Response

from scorekeeper import confirmations
from scorekeeper.company import writes as company_writes
from scorekeeper.company.currency import OTHER_CURRENCY
from scorekeeper.company.writes import CompanyRefused
from scorekeeper.confirmations import AnswerRefused
from scorekeeper.games.family import BALKAN
from scorekeeper.games.writes import Conflict, TourClosed, TournamentTable
from scorekeeper.rules import InvalidGame
from scorekeeper.rules.problems import N_
from scorekeeper.store import (
    DealNotFound,
    GameNotFound,
    ReadOnlyAccess,
    RequestKeyReused,
    StorageUnavailable,
    StoreError,
)
from scorekeeper.tournament import service as tournament

from . import flashes
from .flashes import Said, flash_said
from .i18n import words
from .keys import new_key

Reason = Literal["game_over", "tour_closed", "read_only", "link_gone", "game_deleted", "deal_gone"]

#: The status of each final refusal.
STATUS: dict[Reason, int] = {
    "game_over": 409,
    "tour_closed": 403,
    "read_only": 403,
    "link_gone": 404,
    "game_deleted": 410,
    "deal_gone": 404,
}


def wants_json() -> bool:
    """A Save sent by the deal form's script (it reads the answer as JSON): the one test of
    its X-Save header."""
    return request.headers.get("X-Save") == "json"


def final(reason: Reason, message: str) -> Response:
    """The final refusal of a Save, for the script: nothing was written, never will be."""
    body: dict[str, object] = {
        "saved": False,
        "final": reason,
        "refused": message,
        "ok": False,
        "top": [],
        "errors": {},
        "later": [],
        "entries": [],
        "checked": "",
    }
    return make_response(jsonify(body), STATUS[reason])


# -- the store's errors ----------------------------------------------------------------------


def error_page(status: int, title: str, message: str) -> tuple[str, int]:
    """A plain page saying what went wrong, with the HTTP status."""
    return render_template("error.html", title=title, message=message, status=status), status


def _not_found(_error: Exception) -> tuple[str, int] | Response:
    if wants_json():
        return final("link_gone", link_gone_message())
    return error_page(
        404,
        _("Not found"),
        _("There is no such game or page here. Check the link you were given."),
    )


def _game_not_found(_error: Exception) -> tuple[str, int] | Response:
    """A game's link that opens no game and never did (or whose game was deleted for good):
    said so, with what to check. A replaced link says it was replaced (web/games/links.py:
    only whoever held it can open that page)."""
    if wants_json():
        return final("link_gone", link_gone_message())
    return error_page(
        404,
        _("This link opens no game"),
        _(
            "There is no game at this link. Check that the whole link was copied, or ask "
            "the scorer for the game's link."
        ),
    )


def replaced_page() -> tuple[str, int] | Response:
    """What a game's link opens once the scorer replaced it: that it was replaced and whom to
    ask (404: nothing of the game; only whoever held the link can see this page)."""
    if wants_json():
        return final(
            "link_gone",
            str(_("No game is written through this link any more: the scorer replaced it.")),
        )
    return error_page(
        404,
        _("This link was replaced"),
        _(
            "The scorer replaced this link with a new one: it opens nothing any more. Ask "
            "the scorer for the new link."
        ),
    )


def link_gone_message() -> str:
    """Why a write through an edit link that names no game now was refused."""
    return str(
        _(
            "No game is written through this link any more: it was replaced by a new link, "
            "or the game is gone."
        )
    )


def _deal_not_found(_error: Exception) -> tuple[str, int] | Response:
    message = _("This deal is not on the sheet any more (it was deleted).")
    if wants_json():
        return final("deal_gone", message)
    return error_page(404, _("Not found"), message)


def _read_only_link(_error: Exception) -> tuple[str, int] | Response:
    message = _("This link only shows the game. Ask the scorer for the edit link to change it.")
    if wants_json():
        return final("read_only", message)
    return error_page(403, _("Read-only link"), message)


def _key_reused(_error: Exception) -> tuple[str, int]:
    return error_page(
        409, _("Already sent"), _("This form was already used for something else. Reload it.")
    )


def _unavailable(error: Exception) -> tuple[str, int, dict[str, str]]:
    # The details (with the file's path) go to the server's log only, never to the page.
    current_app.logger.error("storage unavailable: %s", error)
    page, status = error_page(
        503,
        _("The score sheet cannot be reached"),
        _(
            "The games database is not available right now (%(why)s). Nothing was lost on "
            "this phone's side: wait a moment and try again, or tell whoever runs the server.",
            why=words().storage(getattr(error, "reason", "")),
        ),
    )
    return page, status, {"Retry-After": "5"}


def _broken_game(error: InvalidGame) -> tuple[str, int]:
    return error_page(
        500,
        _("This game cannot be read"),
        "; ".join(str(p) for p in error.problems),
    )


# -- a game's refusals -----------------------------------------------------------------------


def tour_closed_message(tour: int, table: int) -> str:
    """Why a table of a closed tour is read-only."""
    return flashes.shown(tour_closed_said(tour, table))


def tour_closed_said(tour: int, table: int) -> Said:
    """Why a table of a closed tour is read-only, to say in the page's language."""
    return flashes.said(
        N_(
            "Tour %(tour)s is closed: the game of table %(table)s counts in the tournament's "
            "standings as it is and can no longer be changed."
        ),
        tour=tour,
        table=table,
    )


def read_only_game(message: str, reason: Reason) -> Response:
    """The answer to a write to a read-only game (403): a page saying why, or for the deal
    form's script (which keeps a deal it could not send) a final refusal it shows and drops."""
    if wants_json():
        return final(reason, message)
    page, status = error_page(403, _("Read-only game"), message)
    return make_response(page, status)


def _tour_closed(error: TourClosed) -> Response:
    """A write to a table of a closed tour (the tour closed while the form was open):
    nothing was written; said, and back to the game."""
    if wants_json():
        return read_only_game(tour_closed_message(error.tour, error.table), "tour_closed")
    flash_said(tour_closed_said(error.tour, error.table))
    token = (request.view_args or {}).get("token", "")
    return redirect(url_for("games.show", mode="g", token=token))


def table_message(tour: int, table: int) -> str:
    """Why a tournament table's game cannot be deleted from its scorer link."""
    return str(
        _(
            "This game is table %(table)s of tour %(tour)s of a tournament: it cannot be "
            "deleted from the scorer's link. The director can give the table a new scorer "
            "link, or close the tour early.",
            tour=tour,
            table=table,
        )
    )


def _tournament_table(error: TournamentTable) -> Response:
    """Delete, or Finish now too early, asked for a tournament table's game: refused (403),
    with the reason."""
    if error.finishing:
        return read_only_game(finish_message(error.tour, error.table), "read_only")
    if error.rematch:
        message = _(
            "This game is table %(table)s of tour %(tour)s of a tournament: there is no "
            "rematch here. The director seats the next tour; each table gets its new game.",
            tour=error.tour,
            table=error.table,
        )
        return read_only_game(str(message), "read_only")
    return read_only_game(table_message(error.tour, error.table), "read_only")


def finish_message(tour: int, table: int) -> str:
    """Why a tournament table cannot be finished from its phone before its deals are played."""
    return str(
        _(
            "Table %(table)s plays tour %(tour)s to its last deal: it cannot be finished "
            "from here. If time runs out, the director closes the tour early.",
            tour=tour,
            table=table,
        )
    )


#: What the scorer is told when another phone changed the game since the form was read.
CONFLICT = N_("Another phone changed this game in the meantime. Look at it and try again.")


def conflict_message() -> str:
    """What the scorer is told when another phone changed the game since the form was read."""
    return str(_(CONFLICT))


def _conflict(_error: Conflict) -> Response:
    """A write another phone got in first (nothing was written): said, and back to the game.
    The deal form handles its own conflicts (it keeps the input)."""
    flash_said(CONFLICT)
    token = (request.view_args or {}).get("token", "")
    return redirect(url_for("games.show", mode="g", token=token))


# -- a tournament's refusals -----------------------------------------------------------------


def said(refused: tournament.TournamentRefused) -> str:
    """What a refused tournament write means, in words (the director's page shows it)."""
    return flashes.shown(refusal(refused))


def refusal(refused: tournament.TournamentRefused) -> Said:
    """What a refused tournament write means, to say in the language of the page showing it."""
    if isinstance(refused, tournament.TablesUnfinished):
        return flashes.ngettext(
            "%(num)d table has not finished: tick the box to close the tour now.",
            "%(num)d tables have not finished: tick the box to close the tour now.",
            refused.count,
        )
    if isinstance(refused, tournament.WithdrawnAfter):
        return flashes.said(
            N_(
                "%(name)s left after this tour: a tour with a withdrawal after it cannot be "
                "reopened."
            ),
            name=refused.name,
        )
    if isinstance(refused, tournament.JoinedAfter):
        return flashes.said(
            N_("%(name)s joined before tour %(tour)s: take the name off first, then reopen."),
            name=refused.name,
            tour=refused.tour,
        )
    return flashes.said(
        _TOURNAMENT.get(type(refused), N_("There is no such table in the tournament."))
    )


_TOURNAMENT: dict[type[tournament.TournamentRefused], str] = {
    tournament.TourPlaying: N_("A tour is being played: close it first."),
    tournament.NoTourPlaying: N_("No tour is being played."),
    tournament.TableHasDeals: N_("A table has saved a deal: the seating can no longer be undone."),
    tournament.CannotReopen: N_(
        "Only the last tour can be reopened, while no later tour is seated."
    ),
    tournament.TournamentOver: N_("The tournament is over: its last tour is played."),
    tournament.TooFewPlayers: N_("Fewer than three players are left: no tour can be seated."),
    tournament.Unscorable: N_(
        "The tournament cannot be scored as it stands: see the problems on the page."
    ),
    tournament.TypedLater: N_("Only tour 1 can be typed: later tours follow the standings."),
    tournament.NoSuchPlayer: N_("There is no such player in the tournament."),
}


# -- a company's refusals --------------------------------------------------------------------


def said_company(refused: CompanyRefused) -> str:
    """What a refused company write means, in words (said next to the field it concerns)."""
    return flashes.shown(company_refusal(refused))


def company_refusal(refused: CompanyRefused) -> Said:
    """What a refused company write means, to say in the language of the page showing it."""
    if isinstance(refused, company_writes.NameTaken):
        return flashes.said(N_("%(name)s is already a player of the company."), name=refused.name)
    if isinstance(refused, company_writes.ReadOnlyLink):
        return flashes.said(N_("This is the game's read-only link: paste its edit link."))
    if isinstance(refused, company_writes.OtherCurrency):
        return flashes.said(OTHER_CURRENCY, game=refused.game, company=refused.company)
    if isinstance(refused, company_writes.InAClub):
        return flashes.said(
            N_(
                "This game is in a club on its own, and the company is in a club: detach the game "
                "from its club first, then attach it here."
            )
        )
    if isinstance(refused, company_writes.InOtherCompany):
        return flashes.said(N_("This game already belongs to another company."))
    if isinstance(refused, company_writes.FamilyKept) and refused.company == BALKAN:
        return flashes.said(
            N_("The company's evenings are played by the Balkan rules: it keeps them.")
        )
    if isinstance(refused, company_writes.FamilyKept):
        return flashes.said(
            N_("The company's evenings are played by the Russian rules: it keeps them.")
        )
    if isinstance(refused, company_writes.OtherFamily) and refused.game == BALKAN:
        return flashes.said(
            N_(
                "This game is played by the Balkan rules; the company's evenings by the Russian "
                "ones: their results do not add up."
            )
        )
    if isinstance(refused, company_writes.OtherFamily):
        return flashes.said(
            N_(
                "This game is played by the Russian rules; the company's evenings by the Balkan "
                "ones: their results do not add up."
            )
        )
    if isinstance(refused, company_writes.PlayersToPick):
        if refused.counts == (2,):
            return flashes.said(N_("Hussar is played by two: pick two players"))
        return flashes.said(N_("Pick two players (Hussar), or three, four or five"))
    if isinstance(refused, company_writes.SeatsRefused):
        return flashes.said(N_("Each seat needs a different player of the company"))
    if isinstance(refused, company_writes.DealerRefused):
        return flashes.said(N_("Choose who deals first among the players"))
    return flashes.said(N_("No game has this link."))


# -- a confirmation's refusal ----------------------------------------------------------------


#: The status of each refused answer (any other: 400).
_ANSWER_STATUS = {"changed": 409, "deal": 409, "key": 409, "many": 429, "claimed": 403}


def _answer_refused(refused: AnswerRefused) -> Response:
    """An answer from the read-only link that was not written: why, as JSON, with a fresh
    request key (the phone may answer again)."""
    reason, detail = refused.reason, refused.detail
    messages = {
        "incomplete": _("The answer came incomplete: reload the page and try again."),
        "verdict": _("Say whether the deal is right or not so."),
        "note": _("A note may not hold %(character)s.", character=detail),
        "long": ngettext(
            "A note holds at most %(num)d character.",
            "A note holds at most %(num)d characters.",
            confirmations.NOTE_MAX,
        ),
        "key": _("This answer was already sent."),
        "player": _("%(name)s does not play this game.", name=detail),
        "deal": _("This deal is no longer on the sheet."),
        "changed": _("The scorer changed this deal meanwhile: look at it again."),
        "many": _("Too many answers on this deal."),
        "claimed": _(
            "Another phone already answers for the player “%(name)s”. If that was your phone, ask "
            "the scorer to release the seat.",
            name=detail,
        ),
    }
    body = {"error": messages.get(reason, reason), "reason": reason, "request_key": new_key()}
    response = jsonify(body)
    response.status_code = _ANSWER_STATUS.get(reason, 400)
    response.headers["Cache-Control"] = "no-store"
    return response


def init_app(app: Flask) -> None:
    """Register the answer to every refusal and store error."""
    app.register_error_handler(GameNotFound, _game_not_found)
    app.register_error_handler(404, _not_found)
    app.register_error_handler(DealNotFound, _deal_not_found)
    app.register_error_handler(ReadOnlyAccess, _read_only_link)
    app.register_error_handler(403, _read_only_link)
    app.register_error_handler(RequestKeyReused, _key_reused)
    app.register_error_handler(StorageUnavailable, _unavailable)
    app.register_error_handler(StoreError, _unavailable)
    app.register_error_handler(InvalidGame, _broken_game)
    app.register_error_handler(Conflict, _conflict)
    app.register_error_handler(TourClosed, _tour_closed)
    app.register_error_handler(TournamentTable, _tournament_table)
    app.register_error_handler(AnswerRefused, _answer_refused)
