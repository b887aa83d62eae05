"""What the server keeps between requests for speed never shows one game's, seat's or
language's page to another: the blank deal form kept per seat, the live deals kept per
state of a game."""

from __future__ import annotations

import html
import json
import re

from flask import Flask

from scorekeeper.store import Store
from scorekeeper.web.deals import drawn

from ..harness import DealWords, Web

FOUR = ["Anna", "Boris", "Vera", "Gleb"]


def _chips(html: str) -> list[str]:
    """The players the trick pad offers (the active players of this deal)."""
    return re.findall(r'class="chip" data-seat="\d" aria-pressed="false"><bdi>([^<]*)</bdi>', html)


def _table(html: str) -> dict[str, object]:
    found = re.search(r"data-table='([^']*)'", html)
    assert found, "the deal form carries the seat's rules for its script"
    return json.loads(found.group(1).replace("&#39;", "'"))  # type: ignore[no-any-return]


def test_the_blank_deal_form_follows_the_dealer_round_the_table(web: Web) -> None:
    token = web.new_game(FOUR, first_dealer=0)
    seen = []
    for number in range(1, 6):
        page, _ = web.deal_form(token)
        table = _table(page.html)
        dealer = FOUR[(number - 1) % 4]
        assert table["number"] == number and table["dealer"] == dealer
        # At four the dealer sits out: the trick pad never offers him, nor does the
        # declarer's row.
        assert _chips(page.html) == [p for p in FOUR if p != dealer]
        declarers = re.findall(r'name="declarer" value="(\d)"', page.html)
        assert [FOUR[int(i)] for i in declarers] == [p for p in FOUR if p != dealer]
        assert f"Deal {number}" in page.html
        seen.append(page.html)
        first, *others = [p for p in FOUR if p != dealer]
        web.play(token, FOUR, "allpass", tricks={first: 10} | dict.fromkeys(others, 0))
    # Deal 5 is dealt by Anna again: the same fields as deal 1, but its own number.
    assert _chips(seen[4]) == _chips(seen[0])


def test_another_game_and_another_language_get_their_own_form(web: Web) -> None:
    first = web.new_game(["Anna", "Boris", "Vera"])
    second = web.new_game(["Олег", "Пётр", "Ника"])
    web.deal_form(first)  # kept for the first game's seat
    page, _ = web.deal_form(second)
    assert _chips(page.html) == ["Олег", "Пётр", "Ника"]
    assert "Anna" not in page.html
    english, _ = web.deal_form(first)
    russian = web.get(f"/g/{first}/deal/new?lang=ru")
    assert "What to record" in english.html and "What to record" not in russian.html
    assert _chips(russian.html) == ["Anna", "Boris", "Vera"]


def test_a_form_sent_back_with_its_input_is_not_the_kept_blank_one(web: Web) -> None:
    token = web.new_game(["Anna", "Boris", "Vera"])
    page, form = web.deal_form(token)
    form.set(kind="allpass", tricks_0="3", tricks_1="3", tricks_2="3")
    checked = web.check(page, form)
    assert checked.status == 422  # 9 tricks of 10: refused, the input is shown back
    assert _ticked(checked.html) == ["3", "3", "3"]
    blank, _ = web.deal_form(token)
    assert _ticked(blank.html) == []


def _ticked(html: str) -> list[str]:
    """The trick counts ticked in the form's trick rows, seat by seat."""
    ticked = []
    for tag in re.findall(r"<input[^>]*>", html):
        name = re.search(r'name="tricks_(\d)"', tag)
        if name and re.search(r"\bchecked\b", tag):
            ticked.append(re.search(r'value="(\d+)"', tag).group(1))  # type: ignore[union-attr]
    return ticked


def test_a_deal_changed_through_one_store_is_read_fresh_through_another(
    web: Web, store: Store
) -> None:
    token = web.new_game(["Anna", "Boris", "Vera"])
    web.play(token, ["Anna", "Boris", "Vera"], "allpass", tricks={"Anna": 3, "Boris": 3, "Vera": 4})
    before = store.get_game(token)
    before.deals.clear()  # a caller's list is its own: the kept deals are not touched
    deal = store.get_game(token).deals[0]
    assert deal.data["tricks"] == {"Anna": 3, "Boris": 3, "Vera": 4}
    with Store(store.path) as other:
        other.update_deal(
            token,
            deal.id,
            {"type": "allpass", "tricks": {"Anna": 2, "Boris": 4, "Vera": 4}},
            base_version=before.version,
        )
    after = store.get_game(token)
    assert after.deals[0].data["tricks"] == {"Anna": 2, "Boris": 4, "Vera": 4}
    assert after.version == before.version + 1
    assert [d.id for d in after.deals] == [deal.id]


def test_a_game_opened_again_does_not_sign_the_session_cookie_again(web: Web) -> None:
    first = web.new_game(["Anna", "Boris", "Vera"])
    second = web.new_game(["Gleb", "Dina", "Olga"])
    web.get(f"/g/{first}")
    again = web.get(f"/g/{first}")  # already the first game this phone knows
    assert "session=" not in " ".join(again.response.headers.getlist("Set-Cookie"))
    other = web.get(f"/g/{second}")  # another game moves first: the list is written
    assert "session=" in " ".join(other.response.headers.getlist("Set-Cookie"))
    home = web.get("/")
    assert home.html.index(second) < home.html.index(first)


def test_the_script_previews_and_saves_a_correction_and_a_deal_with_their_own_fields(
    web: Web, store: Store
) -> None:
    """The script's preview and Save are read with only the fields of the kind sent."""
    players = ["Anna", "Boris", "Vera"]
    token = web.new_game(players, first_dealer=2)
    seven: DealWords = {
        "declarer": "Anna",
        "contract": "7S",
        "answers": {"Boris": "whist", "Vera": "pass"},
        "tricks": {"Anna": 7, "Boris": 2, "Vera": 1},
    }
    sent: list[tuple[str, DealWords, bool]] = [
        (
            "correction",
            {"reason": "counted twice", "entries": [("Boris", "hill", None, "2")]},
            True,
        ),
        ("contract", seven, True),
        ("correction", {"reason": "", "entries": [("Boris", "hill", None, "x")]}, False),
    ]
    for kind, deal, good in sent:
        _, form = web.deal_form(token)
        web.fill_deal(form, players, kind, **deal)
        data = form.data()
        preview = web.client.post(f"/g/{token}/deal/check", data=data).get_json()
        answer = web.client.post(
            f"/g/{token}/deal/new", data=form.set(action="save").data(), headers={"X-Save": "json"}
        )
        if good:
            assert preview["ok"] is True and preview["entries"], preview
            assert answer.status_code == 200 and answer.get_json()["saved"] is True
        else:  # no reason, an amount that is no number: said next to the fields, not saved
            assert preview["ok"] is False, (preview, data)
            assert set(preview["errors"]) >= {"reason", "corr_0"}, preview["errors"]
            assert answer.status_code == 422 and answer.get_json()["saved"] is False
    stored = [d.data for d in store.get_game(token).deals]
    assert [d["type"] for d in stored] == ["correction", "contract"]
    assert stored[0]["entries"] == [{"player": "Boris", "hill": 2}]
    assert stored[1]["tricks"] == {"Anna": 7, "Boris": 2, "Vera": 1}


def test_the_follower_page_is_drawn_once_per_state_language_and_address(web: Web) -> None:
    players = ["Anna", "Boris", "Vera"]
    token = web.new_game(players)
    view = re.search(r"/v/([A-Za-z0-9_-]+)", web.get(f"/g/{token}").html)
    assert view is not None
    url = f"/v/{view.group(1)}"
    first = web.get(url).html
    assert web.get(url).html == first  # the kept drawing
    assert _follower_pages(url) == 1
    from scorekeeper import games

    kept = [
        page
        for state in games.kept_loaded()
        for key, page in state.kept_parts().get("pages", {}).items()
        if str(key[1]).startswith(url)
    ]
    assert kept == [first.encode()]  # kept as the UTF-8 it is sent as, not as a str
    russian = web.get(url, headers={"Accept-Language": "ru"}).html
    assert "Пуля" in russian or "пул" in russian.lower()
    assert russian != first and web.get(url).html == first
    # A change: the followers see the new state, not the kept page of the old one.
    web.play(token, players, "allpass", tricks={"Anna": 3, "Boris": 3, "Vera": 4})
    after = web.get(url, headers={"X-Follow": "1"}).html
    assert after != first and "Anna" in after
    assert web.get(url, headers={"X-Follow": "1"}).html == after
    # Odd query strings are answered, but not kept.
    before = _follower_pages(url)
    for n in range(12):
        web.get(f"{url}?x={n}")
    assert _follower_pages(url) == before


def _follower_pages(url: str) -> int:
    """Read-only pages of this address kept, over every kept state."""
    from scorekeeper import games

    return sum(
        1
        for state in games.kept_loaded()
        for key in state.kept_parts().get("pages", {})
        if str(key[1]).startswith(url)
    )


def _one_time(html: str) -> str:
    """A page with its one-time values (CSRF token, request keys) blanked."""
    html = re.sub(r'value="[0-9a-zA-Z_.-]{20,}"', 'value=""', html)
    return re.sub(r"\?k=[0-9a-f]{32}", "?k=", html)


def test_the_scorers_page_has_new_one_time_values_each_time(
    web: Web, app: Flask, store: Store
) -> None:
    players = ["Anna", "Boris", "Vera"]
    token = web.new_game(players)
    first, second = web.get(f"/g/{token}"), web.get(f"/g/{token}")
    one, two = first.form("/finish"), second.form("/finish")
    # A new request key each time (and a new key for the next deal's form): the same page
    # otherwise.
    assert one.value("request_key") != two.value("request_key")
    keys = [one.value("request_key"), two.value("request_key")]
    assert _one_time(second.html) == _one_time(first.html)
    # Another phone with the edit link (another session) gets its own CSRF token...
    other = Web(app.test_client())
    theirs = other.get(f"/g/{token}").form("/finish")
    assert theirs.value("csrf_token") != two.value("csrf_token")
    assert theirs.value("request_key") not in keys
    # ...which works: its Finish now is accepted, and written once.
    asked = other.submit(other.get(f"/g/{token}"), theirs, follow=True)
    assert asked.status == 200 and "Finish the game now?" in asked.text()
    done = other.submit(asked, asked.form("/finish"), follow=True)
    assert done.status == 200 and store.get_game(token).finished, done.text()[:800]
    # The finished game is a new state, with the forms of a finished game.
    assert web.get(f"/g/{token}").has_form("/reopen")


def test_the_message_after_a_save_is_shown_once_to_the_phone_that_saved(
    web: Web, app: Flask
) -> None:
    players = ["Anna", "Boris", "Vera"]
    token = web.new_game(players)
    page, form = web.deal_form(token)
    web.fill_deal(form, players, "allpass", tricks={"Anna": 3, "Boris": 3, "Vera": 4})
    checked = web.check(page, form)
    assert web.save(checked, checked.form("deal-form")).status == 302
    # A follower's refresh meanwhile neither shows the message nor takes it...
    assert 'class="flashes"' not in web.get(f"/g/{token}", headers={"X-Follow": "1"}).html
    # ...another phone with the edit link never sees it...
    assert 'class="flashes"' not in Web(app.test_client()).get(f"/g/{token}").html
    # ...the page the Save leads to shows it, once.
    after = web.get(f"/g/{token}")
    flashes = re.findall(r'<div class="flashes" role="status">.*?</div>\n', after.html, re.S)
    assert len(flashes) == 1 and "saved" in flashes[0]
    again = web.get(f"/g/{token}")
    assert 'class="flashes"' not in again.html
    assert _one_time(after.html.replace(flashes[0], "")) == _one_time(again.html)


def test_a_clients_forwarded_headers_never_change_another_clients_page(
    db_path: object, catalogues: None
) -> None:
    """Behind a proxy that passes X-Forwarded-Prefix/-Host through from the client, one
    request carrying odd values gets its own page; every other follower and the scorer get
    the page of their own address, never links to the odd one."""
    from scorekeeper.web import create_app

    app = create_app({"TESTING": True, "DATABASE": str(db_path), "SECRET_KEY": "s", "PROXY": True})
    web = Web(app.test_client())
    players = ["Anna", "Boris", "Vera"]
    token = web.new_game(players)
    web.play(token, players, "allpass", tricks={"Anna": 3, "Boris": 3, "Vera": 4})
    view = re.search(r"/v/([A-Za-z0-9_-]+)", web.get(f"/g/{token}").html)
    assert view is not None
    url = f"/v/{view.group(1)}"
    odd = {"X-Forwarded-Prefix": "//evil.example", "X-Forwarded-Host": "evil.example"}
    for headers in ({}, {"X-Follow": "1"}):
        attacker = Web(app.test_client())
        poisoned = attacker.get(url, headers={**odd, **headers}).html
        assert "evil.example" in poisoned  # that client's own page names its own address
        for page in (
            Web(app.test_client()).get(url, headers=headers).html,
            Web(app.test_client()).get(url, headers={"Accept-Language": "ru", **headers}).html,
            web.get(f"/g/{token}", headers=headers).html,
        ):
            assert "evil.example" not in page
    # The scorer's own page drawn first for an odd address, then for a plain one.
    Web(app.test_client()).get(f"/g/{token}", headers=odd)
    assert "evil.example" not in web.get(f"/g/{token}").html


def test_odd_addresses_are_drawn_but_never_kept(web: Web) -> None:
    from scorekeeper import games

    token = web.new_game(["Anna", "Boris", "Vera"])
    web.get(f"/g/{token}")
    web.get(f"/g/{token}?lang=ru")  # the parts drawn in Russian are kept once

    def kept() -> int:
        return sum(len(state.kept_parts()) for state in games.kept_loaded())

    before = kept()
    for n in range(20):
        page = web.get(f"/g/{token}?lang=ru&lang=x{n}")
        assert "Anna" in page.html
        web.get(f"/g/{token}?x={n}")
    assert kept() == before


def test_a_kept_follower_page_is_compressed_once_and_a_scorers_page_never_kept(
    web: Web,
) -> None:
    import brotli

    from scorekeeper.web import wire

    token = web.new_game(["Anna", "Boris", "Vera"])
    view = re.search(r"/v/([A-Za-z0-9_-]+)", web.get(f"/g/{token}").html)
    assert view is not None
    wire.forget_compressed()
    br = {"Accept-Encoding": "br"}
    first = web.client.get(f"/v/{view.group(1)}", headers=br)
    second = web.client.get(f"/v/{view.group(1)}", headers=br)
    assert first.headers["Content-Encoding"] == "br"
    assert first.data == second.data  # the same bytes for every phone at the table
    kept = wire.kept_compressed()
    assert kept == [first.data]
    # by a digest of the page: its uncompressed bytes are not kept a second time as the key
    assert [(len(digest), encoding) for digest, encoding in wire._KEPT] == [(16, "br")]
    assert brotli.decompress(first.data).decode().count('id="follow"') == 1
    scorer = web.client.get(f"/g/{token}", headers=br)
    assert scorer.headers["Content-Encoding"] == "br"
    assert wire.kept_compressed() == kept  # drawn for its phone (its forms' keys): not kept


ONE_TIME = re.compile(r'(name="(?:csrf_token|request_key)"[^>]*value=")[^"]*"')


def _drawn_with_names(web: Web, token: str) -> str:
    """The deal form, its one-time values left out."""
    page, _ = web.deal_form(token)
    return ONE_TIME.sub(r'\1"', page.html)


def test_a_seat_kept_once_is_drawn_with_each_tables_own_names(web: Web, monkeypatch) -> None:
    """The blank form and the script's rules are kept once per seat shape, for every game of
    those rules, with marks for the names: each table's page holds its own names, escaped for
    HTML and for JSON, exactly as the same page drawn with the names themselves."""
    plain = ["Anna", "Boris", "Vera", "Gleb"]
    odd = ['O\'Neil & "Ko"', "<Žana>", "Пётр \\ue0000\\ue001", "Gleb"]
    first, second = web.new_game(plain), web.new_game(odd)
    kept = [_drawn_with_names(web, first)]
    count = len(list(drawn._KEPT))
    kept.append(_drawn_with_names(web, second))
    assert len(list(drawn._KEPT)) == count, "the second table's seat is the first's drawing"
    assert "\ue000" not in kept[1] and "Anna" not in kept[1]
    table = _table(kept[1])
    assert table["players"] == odd and table["dealer"] == odd[0]
    assert _chips(kept[1]) == [html.escape(p, quote=False) for p in odd[1:]]

    # The same pages drawn with the names in place of the marks, nothing kept.
    monkeypatch.setattr(drawn, "_kept_drawing", lambda kind, loaded, seat, draw: draw(seat))
    monkeypatch.setattr(drawn, "_named", lambda drawing, players: drawing)
    monkeypatch.setattr(drawn, "_named_json", lambda drawing, players: drawing)
    assert [_drawn_with_names(web, first), _drawn_with_names(web, second)] == kept
