"""The interface language: ?lang= remembered in a cookie, the cookie, Accept-Language."""

from __future__ import annotations

from pathlib import Path

from scorekeeper.web import TRANSLATIONS

from ..harness import SEVEN_DOWN_TWO, Web


def test_the_catalogues_are_compiled() -> None:
    for lang in ("ru", "uk"):
        assert (Path(TRANSLATIONS) / lang / "LC_MESSAGES" / "messages.mo").is_file(), lang


def test_lang_parameter_switches_and_is_remembered(web: Web) -> None:
    page = web.get("/?lang=ru")
    assert '<html lang="ru">' in page.html
    assert "Новая игра" in page.text()
    cookie = page.response.headers["Set-Cookie"]
    assert cookie.startswith("lang=ru;")
    again = web.get("/")  # no parameter: the cookie decides
    assert '<html lang="ru">' in again.html and "Новая игра" in again.text()
    uk = web.get("/new?lang=uk")
    assert '<html lang="uk">' in uk.html and "Нова гра" in uk.text()
    assert '<html lang="uk">' in web.get("/").html


def test_accept_language_when_nothing_was_chosen(web: Web) -> None:
    page = web.get("/", headers={"Accept-Language": "uk-UA,uk;q=0.9,en;q=0.5"})
    assert '<html lang="uk">' in page.html
    assert "Нова гра" in page.text()
    page = web.get("/", headers={"Accept-Language": "de-DE,fr;q=0.8"})
    assert '<html lang="en">' in page.html
    assert "New game" in page.text()


def test_an_unknown_lang_is_ignored(web: Web) -> None:
    page = web.get("/?lang=xx")
    assert '<html lang="en">' in page.html
    assert "lang=" not in page.response.headers.get("Set-Cookie", "")


def test_the_switcher_links_to_the_same_page(web: Web) -> None:
    token = web.new_game()
    page = web.get(f"/g/{token}/log?lang=en")
    assert f'href="/g/{token}/log?lang=ru"' in page.html
    assert f'href="/g/{token}/log?lang=uk"' in page.html
    assert 'aria-current="true">EN' in page.html.replace("\n", "").replace("  ", "")


def test_the_rules_wording_is_translated_too(web: Web) -> None:
    players = ["Anna", "Boris", "Vera"]
    token = web.new_game(players, first_dealer=2)
    web.play(token, players, "contract", **SEVEN_DOWN_TWO)
    ru = web.get(f"/g/{token}?lang=ru").text()
    assert "Anna: гора +8 (ремиз без двух: 2 × 4)" in ru
    assert "Boris пишет 20 вистов (висты: 5 взяток × 4) — на кого: Anna" in ru
    assert "Следующая раздача" in ru
    uk = web.get(f"/g/{token}/log?lang=uk").text()
    assert "Boris пише 8 вістів (консоляція без двох: 2 × 4) — на кого: Anna" in uk
    page, form = web.deal_form(token)
    web.fill_deal(form, players, "allpass", tricks={"Anna": 1})
    checked = web.check(page, form)
    assert "вкажіть взятки: Boris" in checked.errors()
