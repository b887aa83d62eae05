"""The interface language: ?lang= (then remembered in a cookie), the cookie, Accept-Language."""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import Any
from urllib.parse import urlencode

import flask_babel
from babel.support import NullTranslations, Translations
from flask import Flask, Response, current_app, g, has_request_context, request
from werkzeug.datastructures import MultiDict
from wtforms.i18n import messages_path

from scorekeeper.wording import Words, spoken_locale, words_for

from .cookies import cookies_secure

#: Locale code → the language's own name, shown in the switcher.
LANGUAGES: dict[str, str] = {
    "en": "English",
    "ru": "Русский",
    "uk": "Українська",
    "sr_Latn": "Srpski",
    "sr_Cyrl": "Српски",
    "hr": "Hrvatski",
}
#: The languages the switcher keeps in a menu of their own (the bar holds four at 320 px).
MENU_LANGUAGES = ("sr_Latn", "sr_Cyrl", "hr")
#: What the switcher writes for a language (its code, in the language's own script).
SHORT_NAMES: dict[str, str] = {
    "en": "EN",
    "ru": "RU",
    "uk": "UK",
    "sr_Latn": "SR",
    "sr_Cyrl": "СР",
    "hr": "HR",
}
COOKIE = "lang"
_YEAR = 365 * 24 * 3600


def get_locale() -> str:
    """The locale of this request (also a Jinja global for templates); asked dozens of
    times by one page, so worked out once."""
    found = g.get("page_locale")
    if found is None:
        found = g.page_locale = _choose_locale()
    return str(found)


def _choose_locale() -> str:
    chosen = g.get("chosen_lang")
    if chosen:
        return str(chosen)
    cookie = request.cookies.get(COOKIE)
    if cookie in LANGUAGES:
        return cookie
    return phone_language(tag for tag, quality in request.accept_languages if quality > 0)


def phone_language(tags: Iterable[str]) -> str:
    """The first language of the phone's list (Accept-Language, best first) that we speak, or
    the closest we have: "sr-Latn-RS" → Serbian Latin, "sr" and "sr-RS" → Serbian Cyrillic
    (the official script), "bs" → Croatian; English when none."""
    return next(filter(None, map(spoken_locale, tags)), "en")


def html_lang(code: str) -> str:
    """A locale code as HTML's lang attribute writes it: "sr_Latn" → "sr-Latn"."""
    return code.replace("_", "-")


#: The cookie in which the page's script keeps the browser's time zone ("Europe/Kyiv").
TZ_COOKIE = "tz"


def time_zone() -> Any:
    """The table's time zone: the browser's, as static/tz.js keeps it in a cookie; None when
    not known yet (then times are written in the server machine's own zone, which at a home
    table is the laptop's)."""
    if not has_request_context():
        return None
    from urllib.parse import unquote

    name = unquote(request.cookies.get(TZ_COOKIE, ""))
    return _zone(name) if name else None


@functools.lru_cache(maxsize=64)
def _zone(name: str) -> Any:
    import re
    from zoneinfo import ZoneInfo

    if len(name) > 64 or not re.fullmatch(r"[A-Za-z0-9_+\-]+(/[A-Za-z0-9_+\-]+)*", name):
        return None
    try:
        return ZoneInfo(name)
    except (ValueError, OSError, KeyError):
        return None


def words() -> Words:
    """The words of this request: its language, and its game's table when a game is open."""
    if not has_request_context():
        return words_for("en")
    found = words_for(get_locale())
    loaded = g.get("loaded")
    return found.at_table(loaded.game) if loaded is not None else found


def lang_url(code: str) -> str:
    """The current page's address in another language (a GET of the same page, under the
    configured path prefix if there is one)."""
    args = MultiDict(request.args)
    args["lang"] = code
    return f"{request.script_root}{request.path}?{urlencode(list(args.items(multi=True)))}"


def _remember_choice() -> None:
    lang = request.args.get("lang")
    if lang in LANGUAGES:
        g.chosen_lang = lang
    elif lang and spoken_locale(lang):  # a language tag of the phone's kind: ?lang=sr-Latn
        g.chosen_lang = spoken_locale(lang)
    # Flask-WTF reads the catalogue of WTForms' own messages from the file on every request
    # that has a form, unless the request already holds it: give it the one kept.
    request.wtforms_translations = _wtforms_translations(get_locale())  # type: ignore[attr-defined]


@functools.lru_cache(maxsize=len(LANGUAGES))
def _wtforms_translations(locale: str) -> NullTranslations:
    return Translations.load(messages_path(), [locale], domain="wtforms")


def _set_cookie(response: Response) -> Response:
    lang = g.get("chosen_lang")
    if lang and request.cookies.get(COOKIE) != lang:
        response.set_cookie(
            COOKIE,
            lang,
            max_age=_YEAR,
            httponly=True,
            samesite="Lax",
            secure=cookies_secure(current_app),
        )
    return response


def _translations() -> NullTranslations:
    """This request's catalogue, looked up once: Flask-Babel's own template callables look it
    up again for every string (the context, the locale parsed, a key made of it). Flask-Babel
    loads it (once per language); the app keeps it by the language's code."""
    found: NullTranslations | None = g.get("page_translations")
    if found is None:
        kept: dict[str, NullTranslations]
        kept = current_app.extensions.setdefault("scorekeeper.catalogues", {})
        locale = get_locale()
        found = kept.get(locale)
        if found is None:
            found = kept[locale] = flask_babel.get_translations()
        g.page_translations = found
    return found


def translation() -> NullTranslations:
    """This request's catalogue (the language of the page being drawn)."""
    return _translations()


def _gettext(string: str) -> str:
    return _translations().ugettext(string)


def _ngettext(singular: str, plural: str, n: int) -> str:
    return _translations().ungettext(singular, plural, n)


def init_app(app: Flask) -> None:
    """Pick up ?lang= before each request and remember it in a cookie after; the templates'
    words from the request's catalogue (after Flask-Babel's init_app, which installs its own)."""
    app.jinja_env.install_gettext_callables(  # type: ignore[attr-defined]
        _gettext, _ngettext, newstyle=True
    )
    app.before_request(_remember_choice)
    app.after_request(_set_cookie)
    app.jinja_env.globals["get_locale"] = get_locale
    app.jinja_env.globals["LANGUAGES"] = LANGUAGES
    app.jinja_env.globals["SHORT_NAMES"] = SHORT_NAMES
    app.jinja_env.globals["MENU_LANGUAGES"] = MENU_LANGUAGES
    app.jinja_env.filters["language_name"] = LANGUAGES.__getitem__
    app.jinja_env.globals["html_lang"] = html_lang
    app.jinja_env.globals["lang_url"] = lang_url

    @app.context_processor
    def _words() -> dict[str, Words]:
        found = words()
        # `present` is the name older templates use for the same words.
        return {"words": found, "present": found}
