"""A Balkan game at the table: the sheet as Balkan players draw it (three columns a player:
supe on the left neighbour | bule | supe on the right one, hats, refe as triangles), and its
deal form by taps. The game page and the deal views hand a Balkan game here; the writes go
through the one game service (games.writes.save_entered), as a Russian deal's do."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from flask import jsonify, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from scorekeeper import balkan
from scorekeeper.balkan import CONTRACT_WORDS, KIND_LABELS, PRESET_LABELS, REFA_STATES, turn
from scorekeeper.games import Loaded, writes
from scorekeeper.games.family import BALKAN
from scorekeeper.render import paper_balkan
from scorekeeper.report_balkan import say
from scorekeeper.rules.problems import N_, Problem
from scorekeeper.store import DealRecord

from . import errors
from .context import remember_loaded
from .flashes import flash_said
from .i18n import words
from .storage import get_store
from .widgets import WriteForm

Page = str | Response | tuple[str, int]

TRICKS = tuple(range(11))


def is_balkan(loaded: Loaded) -> bool:
    """The game is played by the Balkan rules."""
    return loaded.family.name == BALKAN


def sheet_of(loaded: Loaded, position: int | None = None) -> balkan.Sheet:
    """A Balkan game's sheet (before the entry at a 0-based position, when given)."""
    sheet = cast(balkan.Sheet, loaded.sheet)
    if position is None:
        return sheet
    return balkan.replay(sheet.game.with_deals(sheet.game.deals[:position]))[0]


def outcome_lines(sheet: balkan.Sheet) -> list[tuple[int, str, str]]:
    """Each entry: its number, its kind in words, what it wrote and why."""
    return paper_balkan.outcome_lines(sheet, words())


def game_page(loaded: Loaded, **context: Any) -> str:
    """The game page of a Balkan partija."""
    sheet = sheet_of(loaded)
    return render_template(
        "balkan/game.html",
        loaded=loaded,
        papers=paper_balkan.paper(sheet, words()),
        lines=outcome_lines(sheet),
        settlement=loaded.settlement,
        turn=turn(sheet),
        marks=paper_balkan.REFA_MARKS,
        refa_states=REFA_STATES,
        preset=PRESET_LABELS.get(loaded.record.convention, loaded.record.convention),
        changed=paper_balkan.changed_options(sheet.game, words()),
        refa_form=WriteForm(version=loaded.record.version, formdata=None),
        **context,
    )


# -- the deal form -------------------------------------------------------------------------


def fields(form: Mapping[str, Any], players: tuple[str, ...], supe_cap: bool) -> dict[str, Any]:
    """The entry as the form sends it, under game-file notation's keys (balkan.read_entered
    reads the texts). "dalje" is a refa in one tap; the tricks the pad left to the page are
    the complement (made: to 10; failed: to the defence's 5 with supe_cap, else to 10)."""
    kind = "refa" if form.get("dalje") else form.get("type") or "played"
    raw: dict[str, Any] = {"type": kind}
    if kind == "played":
        raw.update(_played(form, players, supe_cap))
    elif kind == "correction":
        raw["reason"] = form.get("reason", "")
        raw["entries"] = [_row(form, n) for n in range(len(players))]
    elif kind == "writeoff":
        raw["left"] = _chosen(form, "left")
    return raw


def _played(form: Mapping[str, Any], players: tuple[str, ...], supe_cap: bool) -> dict[str, Any]:
    declarer = form.get("declarer", "")
    getlist: Any = getattr(form, "getlist", lambda key: [])
    followers = [f for f in getlist("followers") if f != declarer]
    invited = _chosen(form, "invited")
    if invited in followers or invited == declarer:
        invited = ""
    raw = {
        "declarer": declarer,
        "contract": form.get("contract", ""),
        "igra": form.get("igra", ""),
        "followers": followers,
        "invited": invited,
        "kontra": "" if form.get("kontra") in (None, "", "0") else form.get("kontra"),
        "kontra_by": form.get("kontra_by", "") if form.get("kontra") not in (None, "", "0") else "",
    }
    playing = [p for p in players if p == declarer or p in followers or p == invited]
    if raw["contract"] == "betl":
        playing = [declarer]
    elif not followers and not invited:
        playing = []
    raw["tricks"] = _tricks(form, playing, declarer, supe_cap)
    return raw


def _chosen(form: Mapping[str, Any], key: str) -> str:
    """A choice of a player or nobody ("-")."""
    value = str(form.get(key, "") or "")
    return "" if value == "-" else value


def _tricks(
    form: Mapping[str, Any], playing: list[str], declarer: str, supe_cap: bool
) -> dict[str, str]:
    tricks = {p: str(form.get(f"tricks.{p}", "")) for p in playing}
    missing = [p for p, t in tricks.items() if t == ""]
    if len(playing) < 2 or len(missing) != 1 or not tricks.get(declarer, "").isdigit():
        return tricks
    known = sum(int(t) for t in tricks.values() if t.isdigit())
    made = int(tricks[declarer]) >= 6
    if made or not supe_cap:
        rest = 10 - known
    else:
        rest = 5 - (known - int(tricks[declarer]))
    if 0 <= rest <= 10:
        tricks[missing[0]] = str(rest)
    return tricks


def _row(form: Mapping[str, Any], n: int) -> dict[str, str]:
    return {
        key: str(form.get(f"entries.{n}.{key}", ""))
        for key in ("player", "bule", "supe_on", "amount")
    }


def _read(loaded: Loaded, position: int | None) -> tuple[writes.Entered, dict[str, Any]]:
    raw = fields(request.form, loaded.game.players, sheet_of(loaded).options.supe_cap)
    entered = writes.check_entered(loaded, raw, position)
    return entered, raw


def preview(loaded: Loaded, entered: writes.Entered) -> list[str]:
    """What the entry would write and why, in words (nothing when it does not check)."""
    check = entered.check
    if check is None or not check.ok or check.result is None:
        return []
    w = words()
    return [say(w, y) for y in cast(balkan.Outcome, check.result).why]


def problems_by_field(entered: writes.Entered) -> dict[str, list[str]]:
    """Every refusal, at its field (the form's name for it); "" for the form as a whole."""
    check = entered.check
    found: list[Problem] = list(entered.problems)
    if check is not None:
        found += check.problems + check.later
    out: dict[str, list[str]] = {}
    w = words()
    for p in found:
        out.setdefault(_field(p.field), []).append(w.problem(p, with_deal=False))
    return out


def _field(name: str | None) -> str:
    if not name:
        return ""
    if name.startswith("tricks"):
        return "tricks"
    if name.startswith("entries"):
        return "entries"
    return name


def deal_page(loaded: Loaded, deal: DealRecord | None, key: str = "") -> Page:
    """The deal form of a Balkan game (GET), its check (Check), or its Save."""
    position = None if deal is None else deal.position
    form = WriteForm(version=loaded.record.version)
    if request.method == "GET":
        if key:
            form.request_key.data = key
        return _form_page(loaded, deal, form, deal.data if deal else {}, None)
    entered, raw = _read(loaded, position)
    if request.form.get("action") != "save" and not request.form.get("dalje"):
        return _form_page(loaded, deal, form, raw, entered), 200
    if not form.validate():
        if errors.wants_json():
            return _refused_json(loaded, entered, 422)
        return _form_page(loaded, deal, form, raw, entered), 422
    return _save(loaded, deal, form, raw, entered)


def _save(
    loaded: Loaded,
    deal: DealRecord | None,
    form: WriteForm,
    raw: dict[str, Any],
    entered: writes.Entered,
) -> Page:
    try:
        done = writes.save_entered(
            get_store(),
            loaded,
            None if deal is None else deal.id,
            raw,
            base_version=form.base_version.data,
            request_key=form.request_key.data,
        )
    except writes.Invalid as invalid:
        entered = writes.Entered(entered.deal, [], invalid.check)
        if errors.wants_json():
            return _refused_json(loaded, entered, 422)
        return _form_page(loaded, deal, form, raw, entered), 422
    except (writes.Conflict, writes.AlreadySaved) as refused:
        now = remember_loaded(refused.now or loaded)
        form.fresh(now.record.version)
        if errors.wants_json():  # the form keeps its input, with a new key and version
            again = {"request_key": form.request_key.data, "base_version": now.record.version}
            why = errors.conflict_message()
            return _refused_json(now, refused.entered or entered, 409, why, again)
        flash_said(N_("Another phone changed this game in the meantime"))
        return _form_page(now, deal, form, raw, refused.entered or entered), 409
    target = url_for("games.show", mode="g", token=loaded.record.edit_token)
    if errors.wants_json():
        return jsonify(saved=True, deal=done.number, next=target)
    return redirect(target)


def _refused_json(
    loaded: Loaded,
    entered: writes.Entered,
    status: int,
    why: str = "",
    again: Mapping[str, Any] | None = None,
) -> Page:
    """A Save the script sent and nothing was written: the problems by field, what the entry
    would write, and (when another phone wrote first) why and the form's new key."""
    body = {"saved": False, "ok": False, "said": preview(loaded, entered)}
    body |= {"errors": problems_by_field(entered)} | dict(again or {})
    if why:
        body["refused"] = why
    response = jsonify(body)
    response.status_code = status
    return response


def _form_page(
    loaded: Loaded,
    deal: DealRecord | None,
    form: WriteForm,
    raw: Mapping[str, Any],
    entered: writes.Entered | None,
) -> str:
    now = turn(sheet_of(loaded, None if deal is None else deal.position))
    return render_template(
        "balkan/deal.html",
        loaded=loaded,
        deal=deal,
        form=form,
        turn=now,
        raw=_shown(raw, now),
        said=preview(loaded, entered) if entered else [],
        errors=problems_by_field(entered) if entered else {},
        contracts=[(c, CONTRACT_WORDS[(c, False)]) for c in balkan.CONTRACTS],
        kinds=KIND_LABELS,
        tricks=TRICKS,
        pairs=lambda names: [(n, n) for n in names],
        translated=lambda choices: [(v, words().gettext(label)) for v, label in choices],
        kontra_levels=lambda levels: [(str(n), f"×{2**n}") for n in levels],
        balkan_script=True,
    )


def _shown(raw: Mapping[str, Any], now: balkan.Turn) -> dict[str, Any]:
    """The form's values to draw: as sent (or as stored, for an edit), the followers ticked
    by default (a plain deal: everybody at the table follows)."""
    shown = dict(raw)
    shown.setdefault("type", "played")
    if "followers" not in raw:
        shown["followers"] = list(now.active)
    shown["tricks"] = {k: str(v) for k, v in dict(raw.get("tricks") or {}).items()}
    return shown


def check_json(loaded: Loaded, deal: DealRecord | None) -> Response:
    """The live preview for the form's script: what the entry would write, or its refusals."""
    entered, _ = _read(loaded, None if deal is None else deal.position)
    errors = problems_by_field(entered)
    return jsonify(ok=entered.ok, said=preview(loaded, entered), errors=errors)


def confirm_page(loaded: Loaded, deal: DealRecord, check: Any, form: WriteForm, what: str) -> str:
    """Undo or delete an entry: what it wrote, or why later entries do not allow it."""
    line = outcome_lines(sheet_of(loaded))[deal.position]
    problems = [words().problem(p) for p in check.later]
    return render_template(
        "balkan/confirm.html", loaded=loaded, line=line, problems=problems, form=form, what=what
    )
