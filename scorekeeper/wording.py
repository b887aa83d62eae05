"""Words and numbers for people, in one place: labels, reason sentences, amounts and money.

The web pages, the PDF, the CLI's text output and the error messages all word things here,
with the language passed in (`words_for("ru")`), never guessed from a request. Sentences put
names in a slot that needs no declension ("Борис → Анна: 30,00 ₽", "сдаёт: Анна"), counted
nouns go through ngettext, and every number is written by Babel in the language's way: the
decimal comma, digit groups, the true minus sign, exact fractions (−133⅓), money with two
decimals. The JSON of `scorekeeper score` is a file format and is not worded here.
"""

from __future__ import annotations

import dataclasses
import functools
import gettext as gettext_module
import os
import re
from collections.abc import Mapping
from decimal import Decimal
from fractions import Fraction
from functools import cache

from scorekeeper.rules import (
    AllPassDeal,
    Answer,
    Column,
    ContractDeal,
    Correction,
    DealResult,
    Entry,
    MisereDeal,
    Problem,
    Reason,
)
from scorekeeper.rules.contracts import Contract, ContractError, Suit
from scorekeeper.rules.deals import Penalty, Unreadable
from scorekeeper.rules.options import OPTION_LABELS as RULES_OPTION_LABELS
from scorekeeper.rules.options import (
    AllpassExitOn,
    AllpassMode,
    AllpassZeroBonus,
    AllpassZeroForm,
    Convention,
    EndRule,
    HalfWhistTricks,
    HillDivisor,
    Overflow,
    TwoWhisterQuota,
    WhistSplit,
)
from scorekeeper.rules.problems import N_, Either, Label
from scorekeeper.rules.reasons import TEMPLATES as RULES_TEMPLATES

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

TRANSLATIONS_DIR = os.path.join(os.path.dirname(__file__), "translations")
LOCALES = ("en", "ru", "uk", "sr_Latn", "sr_Cyrl", "hr")
#: A day as each language writes it (Babel's pattern; "long" is the language's own long form:
#: "December 1, 2026", "1. decembar 2026.", "1. prosinca 2026.").
DATE_PATTERNS = {"ru": "d MMMM y", "uk": "d MMMM y"}
#: Languages we speak in a neighbour's words: Bosnian in Croatian (ijekavian, Latin script),
#: Montenegrin and Serbo-Croatian in Serbian Latin (Serbian without a script: Cyrillic).
NEIGHBOURS = {"bs": "hr", "cnr": "sr_Latn", "me": "sr_Latn", "sh": "sr_Latn"}
#: Serbian in Latin script where no script is named: Montenegro (as CLDR's likely subtags).
LATIN_SERBIAN_REGIONS = frozenset({"me"})
MINUS = "\u2212"

# -- the tables: add a reason, an option or a value here in one line ---------------------------

#: Why the games database cannot be used, as the store says it (StorageUnavailable.reason),
#: said to people in their language (the 503 page, the command line); a reason missing here is
#: said as the last one, never in the store's English.
STORAGE_REASONS: tuple[str, ...] = (
    N_("permission to use the database file was denied"),
    N_("the database is busy (another program holds its lock); try again"),
    N_("the database is locked; try again"),
    N_("the database is read-only"),
    N_("the database file could not be read or written (I/O error)"),
    N_("the database file is damaged"),
    N_("the disk is full"),
    N_("the database file could not be opened"),
    N_("the file is not a database"),
    N_("the database file could not be used"),
    N_("the database file is empty"),
    N_("the database file is missing"),
    N_("the database folder does not exist"),
    N_("the database server cannot be reached; try again"),
    N_(
        "the database server refused the password (see SCOREKEEPER_DB_PASSWORD_FILE, "
        "PGPASSWORD or ~/.pgpass)"
    ),
    N_("the database was busy with a conflicting change; try again"),
    N_("the games database is not available"),
    N_("the database could not be used"),
)

#: What the proxy in front of several hosts answers when none can (deploy/Caddyfile.hosted,
#: in every language; tests/deploy/test_deploy_hosted.py checks it says these words as
#: translated).
PROXY_UNAVAILABLE: tuple[str, str] = (
    N_("The score sheet cannot be reached"),
    N_(
        "The server is not available for a moment: a deal you saved stays on this phone and "
        "is sent again by itself; reload the page in a few seconds."
    ),
)

#: Two-handed wording (Hussar: one defender), by code, or by code and the reason's "variant".
HUSSAR_REASONS: dict[str, str] = {
    "passed": N_("{contract}, the defender passed"),
    "shortfall/talon": N_("short with the talon, quota {quota}: {tricks} × {per}"),
    "shortfall/alone": N_("short alone, quota {quota}: {tricks} × {per}"),
}

#: Problems worded otherwise than the rules' English (for people, not for a file's author).
PROBLEMS: dict[str, str] = {
    "option {option}: {why}": N_("{option}: {why}"),
    "not a company file (format {format})": N_(
        "this is not a company file: one is saved with “Company file” on a company's page"
    ),
}

#: What is said after a change to the log, by the kind of entry (a penalty is no deal).
SAID: dict[tuple[str, str], str] = {
    ("deal", "unchanged"): N_("Nothing changed in deal %(number)s."),
    ("correction", "unchanged"): N_("Nothing changed in correction %(number)s."),
    ("penalty", "unchanged"): N_("Nothing changed in penalty %(number)s."),
    ("deal", "deleted"): N_("Deal %(number)s deleted. It can be restored from the history."),
    ("correction", "deleted"): N_(
        "Correction %(number)s deleted. It can be restored from the history."
    ),
    ("penalty", "deleted"): N_("Penalty %(number)s deleted. It can be restored from the history."),
    ("deal", "undone"): N_("Deal %(number)s undone. It can be restored from the history."),
    ("correction", "undone"): N_(
        "Correction %(number)s undone. It can be restored from the history."
    ),
    ("penalty", "undone"): N_("Penalty %(number)s undone. It can be restored from the history."),
    ("deal", "delete?"): N_("Delete deal %(number)s?"),
    ("correction", "delete?"): N_("Delete correction %(number)s?"),
    ("penalty", "delete?"): N_("Delete penalty %(number)s?"),
    ("deal", "delete"): N_("Delete deal %(number)s"),
    ("correction", "delete"): N_("Delete correction %(number)s"),
    ("penalty", "delete"): N_("Delete penalty %(number)s"),
    ("deal", "undo"): N_("Undo deal %(number)s"),
    ("correction", "undo"): N_("Undo correction %(number)s"),
    ("penalty", "undo"): N_("Undo penalty %(number)s"),
    ("deal", "named"): N_("deal %(number)s"),
    ("correction", "named"): N_("correction %(number)s"),
    ("penalty", "named"): N_("penalty %(number)s"),
}

#: Problems worded differently at a table of two.
HUSSAR_PROBLEMS: dict[str, str] = {
    "{name} has not answered (whist or pass)": N_(
        "{name} has not answered (whist alone, whist with the talon, or pass)"
    ),
}

#: What a deal of each kind is called in the log (a declarer's deals name him first).
DEAL_KINDS: dict[str, str] = {
    "contract": N_("contract"),
    "misere": N_("%(name)s misère"),
    "allpass": N_("all-pass"),
    "correction": N_("correction"),
    "redeal": N_("redeal"),
    "": N_("a deal that cannot be read"),
}

#: The kinds of deal as the deal form offers them.
KIND_LABELS: dict[str, str] = {
    "contract": N_("Contract"),
    "misere": N_("Misère"),
    "allpass": N_("All-pass"),
    "redeal": N_("Redeal"),
    "correction": N_("Correction"),
    "penalty": N_("Penalty"),
}

ANSWERS: dict[Answer, str] = {
    Answer.WHIST: N_("whist"),
    Answer.PASS: N_("pass"),
    Answer.HALF_WHIST: N_("half-whist"),
    Answer.WHIST_TALON: N_("whist with the talon"),
    Answer.WHIST_RETURNED: N_("returned whist"),
}
#: At a table of two a whist is alone or with the talon.
HUSSAR_ANSWERS: dict[Answer, str] = {Answer.WHIST: N_("whist alone")}

#: How many tricks a remise is short, as players say it ("без двух"), 1 to 10.
DOWN: tuple[str, ...] = (
    N_("one down"),
    N_("two down"),
    N_("three down"),
    N_("four down"),
    N_("five down"),
    N_("six down"),
    N_("seven down"),
    N_("eight down"),
    N_("nine down"),
    N_("ten down"),
)

COLUMNS: dict[str, str] = {
    Column.POOL: N_("pool"),
    Column.HILL: N_("hill"),
    Column.WHISTS: N_("whists on"),
}

CONVENTIONS: dict[str, str] = {
    Convention.SOCHI: N_("Sochi"),
    Convention.LENINGRAD: N_("Leningrad"),
    Convention.ROSTOV: N_("Rostov"),
    Convention.HUSSAR: N_("Hussar"),
    Convention.FSPR: N_("FSPR"),
}

#: Each option's name (docs/rules.md §7), the same on the new-game form, in the PDF and in
#: the rules' own messages.
OPTION_LABELS: dict[str, str] = RULES_OPTION_LABELS

#: Option values that are words, the same on the form and in the PDF.
VALUE_LABELS: dict[str, str] = {
    WhistSplit.GREEDY: N_("greedy — the whister writes all the side's whists"),
    WhistSplit.GENTLEMAN_ON_REMISE: N_("gentleman on a remise — shared in half only on a remise"),
    WhistSplit.GENTLEMAN: N_("gentleman — always shared in half"),
    TwoWhisterQuota.SIDE: N_("the side's quota"),
    TwoWhisterQuota.PERSONAL: N_("each whister's own quota"),
    AllpassMode.HILL: N_("hill for each trick"),
    AllpassMode.WHISTS: N_("whists on those who took more"),
    AllpassMode.NONE: N_("no all-pass"),
    Overflow.HELP: N_("help the others close their pools"),
    Overflow.KEEP: N_("stay, counted at the settlement"),
    EndRule.ALL_CLOSED: N_("every pool closed"),
    EndRule.POOL_SUM: N_("the pools add up to players × target"),
    EndRule.FIRST_CLOSED: N_("the first pool closed"),
    HillDivisor.PLAYERS: N_("the number of players"),
    HillDivisor.OPPONENTS: N_("the number of opponents"),
    "value": N_("the contract's value"),  # consolation = the contract's value
    AllpassExitOn.ANY: N_("any contract or misère"),
    AllpassExitOn.MADE: N_("only a game written into the pool"),
    AllpassExitOn.WHISTED_MADE: N_("only a made contract somebody whisted"),
    TwoWhisterQuota.SIDE_BOTH: N_("both whisters pay on 8, 9, 10; else the side's quota"),
    EndRule.BY_HAND: N_("finished by hand (played by time)"),
    HalfWhistTricks.QUOTA: N_("half the quota (2 on a six, 1 on a seven)"),
    HalfWhistTricks.REST: N_("half the tricks not contracted (2 on a six, 1½ on a seven)"),
    AllpassZeroBonus.TRICK: N_("one trick's whists, in pool points"),
    AllpassZeroBonus.TRICK_POINTS: N_("one trick's price, into the pool as it stands"),
    AllpassZeroBonus.STAGE: N_("one point per step of the progression"),
    AllpassZeroBonus.POINT: N_("a single point"),
    AllpassZeroForm.POOL: N_("into the pool"),
}

#: Option values whose word is another option's too ("hill", "none"), by option and value.
NAMED_VALUE_LABELS: dict[tuple[str, str], str] = {
    ("allpass_zero_bonus", AllpassZeroBonus.NONE): N_("no bonus"),
    ("allpass_zero_form", AllpassZeroForm.HILL): N_("the same whists off the hill"),
    ("deal_limit", ""): N_("no limit"),
    ("round_limit", ""): N_("no limit"),
}

_ANSWER_CODES: dict[str, Answer] = {a.value: a for a in Answer}

_VULGAR = {
    Fraction(1, 2): "½",
    Fraction(1, 3): "⅓",
    Fraction(2, 3): "⅔",
    Fraction(1, 4): "¼",
    Fraction(3, 4): "¾",
}


# -- the language ----------------------------------------------------------------------------


def format_decimal(value: Any, format: str | None = None, locale: str = "en") -> str:
    """Babel's number formatting, imported when a number is first worded (not by the JSON of
    `scorekeeper score`, which starts faster without Babel)."""
    from babel.numbers import format_decimal as babel_format

    return str(babel_format(value, format=format, locale=locale))


@functools.lru_cache(maxsize=4096)
def _int_digits(value: int, pattern: str | None, locale: str) -> str:
    """A whole number's digits in a language (the pulka writes the same few again and again)."""
    try:
        return str(format_decimal(value, format=pattern, locale=locale))
    except (ArithmeticError, ValueError):
        return str(value)


@functools.lru_cache(maxsize=8192)
def _amount(locale: str, value: Fraction) -> str:
    """Words.amount, kept: a pulka writes the same running sums on every drawing of it."""
    return Words(locale)._amount(value)


def known_locale(locale: str | None) -> str:
    """The locale we have words for, from a language tag or a POSIX locale: "ru_RU.UTF-8" →
    "ru", "sr-Latn-RS" or "sr_RS@latin" → "sr_Latn", "sr" or "sr-RS" → "sr_Cyrl", "bs" → "hr";
    English for anything else."""
    return spoken_locale(locale) or "en"


def spoken_locale(locale: str | None) -> str | None:
    """known_locale, or None for a language we do not speak (English is spoken: "en-GB" → "en")."""
    text, _, modifier = (locale or "").strip().partition("@")
    parts = [p.lower() for p in re.split(r"[-_]", text.split(".")[0]) if p]
    if not parts:
        return None
    code, rest = parts[0], set(parts[1:])
    if modifier.lower().startswith("latin"):
        rest.add("latn")
    if code in ("en", "ru", "uk", "hr"):
        return code
    if "cyrl" in rest and code in ("sr", "bs", "cnr", "me", "sh"):
        return "sr_Cyrl"
    if code == "sr":
        return "sr_Latn" if rest & ({"latn"} | LATIN_SERBIAN_REGIONS) else "sr_Cyrl"
    return NEIGHBOURS.get(code)


def locale_from_environment() -> str | None:
    """The language the terminal asks for (LANGUAGE, LC_ALL, LC_MESSAGES, LANG), if we have it."""
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        for part in os.environ.get(var, "").split(":"):
            code = spoken_locale(part)
            if code is not None:
                return code
    return None


@cache
def translations(locale: str) -> gettext_module.NullTranslations:
    """The compiled catalogue of a language (English: no translation)."""
    if locale == "en":
        return gettext_module.NullTranslations()
    from babel.support import Translations

    return Translations.load(TRANSLATIONS_DIR, [locale])


def words_for(locale: str | None, *, hussar: bool = False) -> Words:
    """The words of a language ("ru", "sr-Latn", "hr_HR.UTF-8"; anything unknown is English)."""
    return _words(known_locale(locale), hussar)


@cache
def _words(code: str, hussar: bool) -> Words:
    return Words(code, translations(code), hussar=hussar)


#: The reasons the deal form offers a correction ready-made (templates/_deal_fields.html).
READY_REASONS = (N_("A mistake on the sheet"), N_("Agreed at the table"))


@cache
def _ready_texts(msgid: str) -> frozenset[str]:
    """A ready reason as every language writes it."""
    return frozenset({msgid, *(_words(code, False).gettext(msgid) for code in LOCALES)})


@dataclasses.dataclass(frozen=True)
class Words:
    """Everything worded and formatted in one language, for one kind of table."""

    locale: str
    translator: gettext_module.NullTranslations = dataclasses.field(
        default_factory=gettext_module.NullTranslations, repr=False, compare=False
    )
    hussar: bool = False
    """A table of two: one defender, no hill, whist alone or with the talon."""

    def at_table(self, game: Any) -> Words:
        """The same words for this game's table (a Game, or anything with `hussar`)."""
        hussar = bool(getattr(game, "hussar", False))
        if hussar == self.hussar:
            return self
        if self.translator is translations(self.locale):
            return words_for(self.locale, hussar=hussar)
        return dataclasses.replace(self, hussar=hussar)

    # -- translation ------------------------------------------------------------------------

    def gettext(self, message: str, **params: Any) -> str:
        """Translate a %(name)s message and fill it in."""
        text = self.translator.gettext(message)
        return text % params if params else text

    def ngettext(self, singular: str, plural: str, num: int, **params: Any) -> str:
        """Translate with the language's plural form for num (also %(num)s)."""
        params.setdefault("num", num)
        return self.translator.ngettext(singular, plural, num) % params

    def pgettext(self, context: str, message: str, **params: Any) -> str:
        """Translate a message in a context and fill it in."""
        text = self.translator.pgettext(context, message)
        return text % params if params else text

    _ = gettext

    # -- numbers ----------------------------------------------------------------------------

    def amount(self, value: Fraction | int) -> str:
        """An exact amount: "1 234⅓" in Russian, "−5 2/7", never a rounded decimal."""
        return _amount(self.locale, value if type(value) is Fraction else Fraction(value))

    def _amount(self, value: Fraction) -> str:
        sign = MINUS if value < 0 else ""
        whole, part = divmod(abs(value), 1)
        whole_text = self._digits(int(whole))
        if part == 0:
            return f"{sign}{whole_text}"
        glyph = _VULGAR.get(part)
        if glyph is not None:
            return f"{sign}{whole_text if whole else ''}{glyph}"
        fraction = f"{part.numerator}/{part.denominator}"
        return f"{sign}{whole_text} {fraction}" if whole else f"{sign}{fraction}"

    def _digits(self, value: int | Decimal, pattern: str | None = None) -> str:
        """Digits the language's way; a number too long for that (a hostile 1e309) as is."""
        if type(value) is int:  # noqa: E721 (a Decimal's digits depend on its exponent)
            return _int_digits(value, pattern, self.locale)
        try:
            return str(format_decimal(value, format=pattern, locale=self.locale))
        except (ArithmeticError, ValueError):
            return str(value)

    def signed(self, value: Fraction | int) -> str:
        """An amount with its sign always shown: +4, −8."""
        return ("+" if value > 0 else "") + self.amount(value)

    def points(self, value: Fraction | int) -> str:
        """Tournament points as the standings CSV writes them, to hundredths, signed:
        "+100,7", "−3,33" (never a fraction such as "100 7/10")."""
        value = Fraction(value)
        shown, cents = self._to_hundredths(value, "#,##0.##")
        return f"{'+' if value > 0 and cents else ''}{shown}"

    def hundredths(self, value: Fraction | int) -> str:
        """An exact statistic to hundredths, both digits always written so a column's numbers
        line up: "0,30", "−47,33" (a true minus, no plus)."""
        return self._to_hundredths(Fraction(value), "#,##0.00")[0]

    def _to_hundredths(self, value: Fraction, pattern: str) -> tuple[str, int]:
        """The value rounded to hundredths (exact: half to even), written by the pattern with
        a true minus sign (none for a value that rounds to 0); and its hundredths."""
        cents = (abs(value) * 100).__round__()
        sign = MINUS if value < 0 and cents else ""
        return f"{sign}{self._digits(Decimal(cents) / 100, pattern)}", cents

    def number(self, value: Decimal | int | str) -> str:
        """A plain decimal number: "0,5" in Russian."""
        return str(format_decimal(Decimal(str(value)), locale=self.locale))

    def money(self, value: Decimal | int | str, currency: str = "", *, signed: bool = False) -> str:
        """Money with two decimals (more if a stake has them): "−1 234,50 ₽", "+37,00 ₽"."""
        value = Decimal(str(value))
        digits = self._digits(abs(value), "#,##0.00##")
        sign = MINUS if value < 0 else ("+" if signed and value > 0 else "")
        return f"{sign}{digits} {_clean(currency)}".strip()

    def signed_money(self, value: Decimal | int | str, currency: str = "") -> str:
        """Money with its sign always shown: "+5,57 EUR"."""
        return self.money(value, currency, signed=True)

    def whists(self, value: Fraction | int, *, signed: bool = False) -> str:
        """A number of whists with its noun: "74 виста", "86⅔ виста", "−5 вистов"."""
        value = Fraction(value)
        shown = self.signed(value) if signed else self.amount(value)
        if value.denominator != 1:
            # After a fraction Russian and Ukrainian take the genitive singular: ⅔ виста, вісту.
            return self.pgettext("fraction", "%(amount)s whists", amount=shown)
        count = abs(int(value))
        return self.ngettext("%(amount)s whist", "%(amount)s whists", count, amount=shown)

    def tricks(self, count: int) -> str:
        """A number of tricks with its noun: "1 взятка", "5 взяток"."""
        return self.ngettext("%(num)s trick", "%(num)s tricks", int(count))

    def date(self, day: Any) -> str:
        """A day the language's way: "1 декабря 2026", "1. decembar 2026.", "December 1, 2026"
        (a date or an ISO text; anything else as it is)."""
        import datetime as dt

        if isinstance(day, str):
            try:
                day = dt.date.fromisoformat(day[:10])
            except ValueError:
                return str(day)
        from babel.dates import format_date

        pattern = DATE_PATTERNS.get(self.locale, "long")
        return str(format_date(day, pattern, locale=self.locale))

    def moment(self, when: Any, zone: Any = None) -> str:
        """A stored UTC time in the table's time zone (`zone`, else this machine's):
        "1 декабря 2026, 19:05" (an aware datetime or an ISO text)."""
        import datetime as dt

        if isinstance(when, str):
            try:
                when = dt.datetime.fromisoformat(when.strip().replace("Z", "+00:00"))
            except ValueError:
                return str(when)
        if when.tzinfo is None:
            when = when.replace(tzinfo=dt.UTC)
        when = when.astimezone(zone) if zone is not None else when.astimezone()
        return self.gettext("%(date)s, %(time)s", date=self.date(when.date()), time=f"{when:%H:%M}")

    def storage(self, reason: str) -> str:
        """Why the games database cannot be used, in this language (never the store's or a
        library's English: an unknown reason is said as "could not be used")."""
        return self.gettext(reason if reason in STORAGE_REASONS else STORAGE_REASONS[-1])

    # -- the game's words -------------------------------------------------------------------

    def contract(self, contract: Contract | str) -> str:
        """A contract as the table writes it: "7♠", "6 БК" (no trumps in the language)."""
        if isinstance(contract, str):
            try:
                parsed = Contract.parse(contract)
            except ContractError:
                return contract
            contract = parsed
        if contract.suit is Suit.NO_TRUMP:
            return self.gettext("%(level)sNT", level=contract.level)
        return str(contract)

    def answer(self, answer: Answer) -> str:
        """A defender's answer as a word ("whist alone" at a table of two)."""
        table = HUSSAR_ANSWERS if self.hussar and answer in HUSSAR_ANSWERS else ANSWERS
        return self.gettext(table[answer])

    def column(self, column: str) -> str:
        """A column of the sheet: pool, hill, whists."""
        return self.gettext(COLUMNS.get(column, column))

    def convention(self, name: str) -> str:
        """A convention's name."""
        return self.gettext(CONVENTIONS[name]) if name in CONVENTIONS else name

    def option_label(self, name: str) -> str:
        """An option's name for people."""
        return self.gettext(OPTION_LABELS[name]) if name in OPTION_LABELS else name

    def option_value(self, value: Any, name: str = "") -> str:
        """An option's value: "yes", "on 6, 7", "gentleman: always shared in half", "½"."""
        if name == "half_whist" and isinstance(value, tuple | list):
            if not value:
                return self.gettext("not allowed")
            return self.gettext("on %(levels)s", levels=", ".join(str(v) for v in value))
        named = NAMED_VALUE_LABELS.get((name, "" if value is None else str(value)))
        if named is not None:
            return self.gettext(named)
        if value is None:
            return self.gettext(VALUE_LABELS["value"])
        if isinstance(value, bool):
            return self.gettext("yes") if value else self.gettext("no")
        if isinstance(value, tuple | list):
            return ", ".join(str(v) for v in value) if value else self.gettext("none")
        if isinstance(value, Fraction):
            return self.amount(value)
        if isinstance(value, Decimal):
            return self.number(value)
        if isinstance(value, str) and value in VALUE_LABELS:
            return self.gettext(VALUE_LABELS[value])
        return str(value)

    # -- sentences --------------------------------------------------------------------------

    def reason(self, reason: Reason) -> str:
        """Why an entry was written."""
        code = reason.code
        variant = reason.params.get("variant")
        template = None
        if self.hussar:
            template = HUSSAR_REASONS.get(f"{code}/{variant}") or HUSSAR_REASONS.get(code)
        template = template or RULES_TEMPLATES.get(code, code)
        params = reason.params
        if code == "correction" and isinstance(params.get("reason"), str):
            params = {**params, "reason": self.ready_reason(params["reason"])}
        return self._fill(template, params, counted=True)

    def ready_reason(self, text: str) -> str:
        """A correction's reason in this language when it is one of the deal form's ready
        reasons (tapped in whatever language that phone showed), else as it was typed."""
        key = text.strip()
        for msgid in READY_REASONS:
            if key in _ready_texts(msgid):
                return self.gettext(msgid)
        return text

    def problem(self, problem: Problem, *, with_deal: bool = True) -> str:
        """A problem with the input."""
        template = PROBLEMS.get(problem.template, problem.template)
        if self.hussar:
            template = HUSSAR_PROBLEMS.get(template, template)
        text = self._fill(template, problem.params, counted=False)
        if with_deal and problem.deal is not None:
            return self.gettext("deal %(number)s: %(problem)s", number=problem.deal, problem=text)
        return text

    def _fill(self, template: str, params: Mapping[str, Any], *, counted: bool) -> str:
        translated = self.gettext(template)
        shown = {k: self._param(k, v, counted) for k, v in params.items()}
        for text in (translated, template):
            try:
                return text.format(**shown)
            except (KeyError, IndexError, ValueError):  # a broken translation must not break a page
                continue
        return translated

    def _param(self, name: str, value: Any, counted: bool) -> str:
        if isinstance(value, Reason):
            return self.reason(value)
        if isinstance(value, Problem):
            return self.problem(value, with_deal=False)
        if isinstance(value, Label):
            return self.gettext(value.text)
        if name == "contract":
            return self.contract(value)
        if name == "down" and isinstance(value, int):
            return self.down(value)
        if name == "convention" and isinstance(value, str):
            return self.convention(value)
        if isinstance(value, Either):
            return self.either(value)
        if name == "option" and isinstance(value, str):
            return self.option_label(value)
        if name == "answer" and value in _ANSWER_CODES:
            return self.answer(_ANSWER_CODES[value])
        if name == "key" and value in COLUMNS:
            return self.column(value)
        if name == "char" and isinstance(value, str):
            return self.character(value)
        if name == "error" and isinstance(value, str):
            return self.json_error(value)
        if name in ("low", "high") and isinstance(value, str):
            try:
                return self.amount(Fraction(value))
            except (ValueError, ZeroDivisionError):
                return value
        if counted and name in ("tricks", "quota") and isinstance(value, int):
            return self.tricks(value)
        if isinstance(value, bool):
            return str(value)
        if isinstance(value, Fraction | int):
            return self.amount(value)
        return str(value)

    def down(self, undertricks: int) -> str:
        """How many tricks short, in words: "без двух", "без однієї", "two down"."""
        if 1 <= undertricks <= len(DOWN):
            return self.gettext(DOWN[undertricks - 1])
        return self.gettext("%(num)s down", num=undertricks)

    def either(self, items: Either) -> str:
        """Choices joined by the language's "or": "3, 4 или 5"."""
        words = [self._param("", item, False) for item in items]
        if len(words) == 1:
            return words[0]
        return self.gettext("%(some)s or %(last)s", some=", ".join(words[:-1]), last=words[-1])

    def deal_title(self, result: DealResult) -> str:
        """What was played, in a few words: "Анна 7♠", "Борис 10 БК", "распасы"."""
        deal = result.deal
        if isinstance(deal, ContractDeal):
            return f"{deal.declarer} {self.contract(deal.contract)}"
        if isinstance(deal, MisereDeal):
            return self.gettext(DEAL_KINDS["misere"], name=deal.declarer)
        if isinstance(deal, Penalty):
            return self.gettext(
                "penalty: %(name)s, %(contract)s",
                name=deal.player,
                contract=self.contract(deal.contract),
            )
        kind = "" if isinstance(deal, Unreadable) else getattr(deal, "kind", "")
        template = DEAL_KINDS.get(kind) or DEAL_KINDS[""]
        if "%(name)s" not in template:
            return self.gettext(template)
        who = (getattr(deal, k, None) for k in ("declarer", "offender", "player"))
        return self.gettext(template, name=next((w for w in who if w), "?"))

    def deal_details(self, result: DealResult, players: tuple[str, ...]) -> str:
        """The answers and tricks of a deal: "Борис: вист, Вера: пас; взятки: Анна 6 · …"."""
        deal = result.deal
        parts: list[str] = []
        if isinstance(deal, ContractDeal):
            parts.append(", ".join(f"{n}: {self.answer(a)}" for n, a in deal.answers.items()))
        if isinstance(deal, ContractDeal | MisereDeal | AllPassDeal) and deal.tricks:
            tricks = " · ".join(f"{n} {deal.tricks[n]}" for n in players if n in deal.tricks)
            parts.append(self.gettext("tricks: %(tricks)s", tricks=tricks))
        if isinstance(deal, Correction) and deal.reason:
            parts.append(self.ready_reason(deal.reason))
        return "; ".join(p for p in parts if p)

    def entry(self, entry: Entry) -> str:
        """One entry: "Анна: пуля +4 (сыграно: 7♠)", "Анна пишет 8 вистов (…) — на кого: Вера".

        Whists are said in words, never with an arrow: the arrow is kept for money, which
        flows along it (payer → payee)."""
        why = self.reason(entry.reason)
        if entry.column == Column.WHISTS:
            return self.gettext(
                "%(writer)s writes %(whists)s on %(debtor)s (%(why)s)",
                writer=entry.player,
                debtor=entry.on,
                whists=self.whists(Fraction(entry.amount)),
                why=why,
            )
        return self.gettext(
            "%(name)s: %(column)s %(amount)s (%(why)s)",
            name=entry.player,
            column=self.column(entry.column),
            amount=self.signed(entry.amount),
            why=why,
        )

    def payment(self, payer: str, payee: str, amount: Decimal, currency: str = "") -> str:
        """Who pays whom: "Борис → Анна: 30,00 ₽"."""
        return self.gettext(
            "%(payer)s → %(payee)s: %(amount)s",
            payer=payer,
            payee=payee,
            amount=self.money(amount, currency),
        )

    def owes(self, debtor: str, creditor: str, whists: Fraction) -> str:
        """A pair netted: "Борис → Анна: 36 вистов"."""
        return self.gettext(
            "%(debtor)s → %(creditor)s: %(amount)s",
            debtor=debtor,
            creditor=creditor,
            amount=self.whists(whists),
        )

    def character(self, described: str) -> str:
        """A character a name may not hold: "U+202E right-to-left override" in English, its
        code alone in a language the Unicode name is not written in (the message says what
        kind of character it is)."""
        if self.locale == "en":
            return described
        return described.split(" ", 1)[0]

    def json_error(self, error: str) -> str:
        """Where a JSON text breaks, without the parser's English."""
        found = re.search(r"line (\d+) column (\d+)", error)
        if found is None:
            return self.gettext("the text cannot be read")
        return self.gettext(
            "a mistake at line %(line)s, column %(column)s",
            line=found.group(1),
            column=found.group(2),
        )

    def said(self, kind: str, what: str, number: int) -> str:
        """What is said of an entry of the log: "Штраф 24 не изменился", "Удалить штраф 24?"."""
        kind = kind if kind in ("correction", "penalty") else "deal"
        return self.gettext(SAID[kind, what], number=number)

    def merged(self, messages: list[str]) -> list[str]:
        """Messages that say the same thing of several names, said once:
        "укажите взятки: Борис", "укажите взятки: Вера" → "укажите взятки: Борис, Вера"."""
        out: list[str] = []
        at: dict[str, int] = {}
        for message in messages:
            head, sep, tail = message.rpartition(": ")
            if sep and head in at:
                said = out[at[head]]
                name, paren, why = tail.partition(" (")
                if paren and said.endswith(f" ({why}"):
                    out[at[head]] = f"{said[: -len(why) - 2]}, {name} ({why}"
                else:
                    out[at[head]] = f"{said}, {tail}"
                continue
            if sep:
                at[head] = len(out)
            out.append(message)
        return out

    # The names the templates and older callers use.
    problem_text = problem
    entry_text = entry
    reason_text = reason


def _clean(text: str) -> str:
    return " ".join(text.split())


#: English words, for code that has no language to speak (tests, `str()` of things).
ENGLISH = Words("en")
