"""The "what if" page: a game's deals re-scored under another preset beside the real result,
written nowhere; a deal the other rules refuse is named; the pages name the house rules."""

from __future__ import annotations

from decimal import Decimal

from scorekeeper import gamefile
from scorekeeper.rules import replay, settle
from scorekeeper.store import Store
from tests.harness import SEVEN_DOWN_TWO, Web
from tests.helpers import allpass, contract, game_file

PLAYERS = ["Anna", "Boris", "Vera"]


def _play_evening(web: Web, **options: str) -> str:
    """A Sochi game of three: Anna's 7♠ down two, an all-pass, then Boris's 6♥ made."""
    token = web.new_game(PLAYERS, convention="sochi", **options)
    web.play(token, PLAYERS, "contract", **SEVEN_DOWN_TWO)
    web.play(token, PLAYERS, "allpass", tricks={"Anna": 0, "Boris": 5, "Vera": 5})
    six = {"Boris": 6, "Vera": 2, "Anna": 2}
    web.play(token, PLAYERS, "contract", declarer="Boris", contract="6H",
             answers={"Vera": "whist", "Anna": "pass"}, tricks=six)  # fmt: skip
    return token


def _expected(convention: str) -> dict[str, Decimal]:
    """The money of the same three deals scored from a file under `convention` (Vera deals
    first in the file: the game's first dealer is Anna, so the file's order is the same)."""
    deals = [
        contract("Anna", "7S", {"Boris": "whist", "Vera": "pass"}, {"Anna": 5, "Boris": 3, "Vera": 2}),
        allpass(Anna=0, Boris=5, Vera=5),
        contract("Boris", "6H", {"Vera": "whist", "Anna": "pass"}, {"Boris": 6, "Vera": 2, "Anna": 2}),
    ]  # fmt: skip
    data = game_file(deals, convention=convention, players=PLAYERS, first_dealer="Anna")
    sheet, problems = replay(gamefile.load(data, check=False))
    assert not problems
    return settle(sheet).money


def _table(html: str) -> str:
    return html.split('class="whatif-table"')[1].split("</table>")[0]


def test_what_if_shows_both_results_and_writes_nothing(web: Web, store: Store) -> None:
    token = _play_evening(web)
    version = store.get_game(token).version
    game = web.get(f"/g/{token}")
    assert f"/g/{token}/what-if" in game.response.get_data(as_text=True)
    page = web.get(f"/g/{token}/what-if?convention=rostov")
    text = page.text()
    assert "Rostov" in text and "As played" in text
    rostov, sochi = _expected("rostov"), _expected("sochi")
    assert rostov != sochi  # the comparison shows a difference
    for money in (*rostov.values(), *sochi.values()):
        shown = f"{money:+}".replace("-", "−") if money else "0"
        assert shown.lstrip("+") in text, (shown, text[:2000])
    assert store.get_game(token).version == version  # written nowhere


def test_what_if_names_the_deal_the_other_rules_refuse(web: Web) -> None:
    token = _play_evening(web)
    page = web.get(f"/g/{token}/what-if?convention=leningrad")
    errors = (
        page.response.get_data(as_text=True).split('id="convention-errors"')[1].split("</ul>")[0]
    )
    assert "3" in errors and "7" in errors, errors  # deal 3: a six where a seven is required
    assert "As played" not in page.text()  # nothing compared


def test_what_if_refuses_a_preset_for_another_number_of_players(web: Web) -> None:
    token = web.new_game(["Anna", "Boris", "Vera", "Gleb", "Dana"], convention="sochi")
    page = web.get(f"/g/{token}/what-if?convention=fspr")
    assert "not 5" in page.text()


def test_the_game_page_names_the_options_changed_from_the_preset(web: Web) -> None:
    token = web.new_game(PLAYERS, convention="leningrad", pool_target="30")
    head = web.get(f"/g/{token}").text()
    assert "House rules" not in head  # the preset's values: nothing named
    token = web.new_game(PLAYERS, convention="leningrad", half_whist_tricks="rest")
    head = web.get(f"/g/{token}").text()
    assert "House rules — Tricks a half-whist is written for" in head, head[:1500]


def test_what_if_changes_one_reading_and_refuses_a_bad_value(web: Web) -> None:
    token = _play_evening(web)
    plain = _table(web.get(f"/g/{token}/what-if?convention=sochi").html)
    page = web.get(f"/g/{token}/what-if?convention=sochi&allpass_zero_bonus=none")
    assert "As played" in page.text()
    assert "allpass_zero_bonus=none" in page.html and 'aria-current="true"' in page.html
    assert _table(page.html) != plain  # Anna's zero-trick all-pass bonus is gone
    bad = web.get(f"/g/{token}/what-if?convention=sochi&half_whist_tricks=most")
    errors = bad.html.split('id="convention-errors"')[1].split("</ul>")[0]
    assert "most" in errors, errors


def test_the_what_if_title_is_the_page_name_alone(web: Web) -> None:
    """The tab's title names the page and the game, and nothing drawn in the page (the
    readings' links once stood inside the title block, where a browser shows them as text)."""
    token = _play_evening(web)
    html = web.get(f"/g/{token}/what-if?convention=sochi").html
    title = html.split("<title>", 1)[1].split("</title>", 1)[0]
    assert "What if…" in title
    assert "whatif" not in title and "&lt;" not in title and "<" not in title, title
    assert html.count('class="whatif-options"') == 1
