"""A Save where it meets another write, on each engine (PostgreSQL's Save is a pipeline of
three round trips; SQLite's is not), through the real server, by the form and by the
offline queue's script (X-Save: json): the same answers on both.

Two phones saving the same deal (one saved, the other 409 with the deal form kept and the
reason), a Save tapped twice (one deal), a Save after the game was deleted, a Save into a
tournament table after its tour was closed."""

from __future__ import annotations

from ..served import (
    Phone,
    Server,
    by_script,
    checked,
    correction,
    game_file,
    new_game,
    new_tournament,
    table_tokens,
)


def _deals(phone: Phone, token: str) -> list[str]:
    return [deal.get("reason", "") for deal in game_file(phone, token)["deals"]]


def test_two_phones_saving_the_same_deal_one_is_saved_the_other_told(
    served: Server,
) -> None:
    first, second = Phone(served.port), Phone(served.port)
    token = new_game(first)
    url = f"/g/{token}/deal/new"
    mine = checked(first, token, **correction("Phone one"))
    theirs = checked(second, token, **correction("Phone two"))
    scripted = checked(second, token, **correction("Phone two by script"))
    assert first.post(url, mine).status == 302
    told = second.post(url, theirs)
    assert told.status == 409, told.html[:800]
    # What was entered is kept (WTForms writes "\r\n" after <textarea>: a browser drops it).
    kept = told.form("deal-form")
    assert (kept.value("reason") or "").lstrip("\r\n") == "Phone two"
    kept.set(reason="Phone two")
    assert "changed this game" in told.html
    status, answer = by_script(second, url, scripted)
    assert status == 409 and answer.get("saved") is not True, answer
    assert _deals(first, token) == ["Phone one"]
    # Saved again from the form it was shown: it lands, once.
    assert second.post(url, {**kept.data(), "action": ["save"]}).status == 302
    assert _deals(first, token) == ["Phone one", "Phone two"]


def test_a_save_tapped_twice_is_one_deal_by_form_and_by_script(
    served: Server,
) -> None:
    phone = Phone(served.port)
    token = new_game(phone)
    url = f"/g/{token}/deal/new"
    fields = checked(phone, token, **correction("Tapped twice"))
    assert phone.post(url, fields).location == f"/g/{token}"
    again = phone.post(url, fields)
    assert (again.status, again.location) == (302, f"/g/{token}")
    queued = checked(phone, token, **correction("Queued twice"))
    answers = [by_script(phone, url, queued) for _ in range(2)]
    assert [(s, a.get("saved")) for s, a in answers] == [(200, True), (200, True)]
    assert _deals(phone, token) == ["Tapped twice", "Queued twice"]


def test_a_save_after_the_game_was_deleted_is_told_so_and_writes_nothing(
    served: Server,
) -> None:
    phone, other = Phone(served.port), Phone(served.port)
    token = new_game(phone)
    url = f"/g/{token}/deal/new"
    fields = checked(phone, token, **correction("Too late"))
    queued = checked(phone, token, **correction("Too late, queued"))
    confirm = other.get(f"/g/{token}/delete")
    assert other.post(f"/g/{token}/delete", confirm.form("").data()).status == 302
    told = phone.post(url, fields)
    assert told.status == 410, told.status
    assert "deleted" in told.html
    status, _answer = by_script(phone, url, queued)
    assert status == 410
    gone = other.get(f"/g/{token}")
    assert gone.status == 410 and "Too late" not in gone.html


def test_a_save_into_a_closed_tour_is_refused_with_the_reason(
    served: Server,
) -> None:
    director = Phone(served.port)
    tournament = new_tournament(director)
    table = table_tokens(served.db, tournament)[0]
    phone = Phone(served.port)
    url = f"/g/{table}/deal/new"
    fields = checked(phone, table, **correction("After the close"))
    queued = checked(phone, table, **correction("After the close, queued"))
    form = director.get(f"/t/{tournament}").form("/close").set(early="y")
    assert director.post(f"/t/{tournament}/close", form.data()).status == 302
    told = phone.post(url, fields)
    assert told.status == 403 and "Tour 1 is closed" in told.html, told.status
    status, answer = by_script(phone, url, queued)
    assert status == 403 and "Tour 1 is closed" in answer.get("refused", ""), answer
    assert _deals(phone, table) == []
