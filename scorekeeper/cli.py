"""The `scorekeeper` command: score a game or tournament file, serve the app, export, import,
back up."""

from __future__ import annotations

import argparse
import contextlib
import errno
import json
import os
import re
import sys
from collections.abc import Callable, Iterator

from scorekeeper.rules import Game, InvalidGame, score
from scorekeeper.rules.deals import is_table_deal
from scorekeeper.rules.problems import N_
from scorekeeper.version import __version__
from scorekeeper.wording import (
    ENGLISH,
    LOCALES,
    Words,
    locale_from_environment,
    spoken_locale,
    words_for,
)

#: Names only the type checker reads: `score` imports neither typing nor pathlib (issue 15).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any, NoReturn

LANGS = LOCALES

#: The words of this run: the language of --lang, else the terminal's ($LANGUAGE, $LC_ALL,
#: $LC_MESSAGES, $LANG). Every line the command prints, its help included, is said in them.
_said: Words = ENGLISH


def _t(text: str | None, **params: Any) -> str:
    """A message of the command line in the language of this run."""
    if not text:
        return text or ""
    return _said.gettext(text, **params) if params else _said.gettext(text)


def _argparse_ngettext(singular: str, plural: str, n: int) -> str:
    return _said.translator.ngettext(singular, plural, n)


#: argparse's own words (usage, options, its errors), translated with ours.
ARGPARSE_MESSAGES = (
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("show this help message and exit"),
    N_("the following arguments are required: %s"),
    N_("unrecognized arguments: %s"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("expected one argument"),
    N_("invalid %(type)s value: %(value)r"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("%(prog)s: error: %(message)s\n"),
    N_("show program's version number and exit"),
)


def _lang_asked(argv: list[str]) -> str | None:
    """The --lang of a command line, wherever it stands (read before argparse speaks)."""
    for i, arg in enumerate(argv):
        if arg == "--lang" and i + 1 < len(argv):
            return argv[i + 1]
        if arg.startswith("--lang="):
            return arg.partition("=")[2]
    return None


def exports_dir() -> Path:
    """Where `export` writes by default: a checkout's exports/ folder; for an installed copy,
    exports/ in its instance folder, never the folder the command happens to run in (`export`
    prints the full path of what it wrote)."""
    from pathlib import Path

    from scorekeeper import config

    project = Path(__file__).resolve().parent.parent
    if (project / "pyproject.toml").is_file() and (project / "exports").is_dir():
        return project / "exports"
    return Path(config.instance_path()) / "exports"


class _Help(argparse.HelpFormatter):
    """argparse's help layout, sized as shutil sizes it but without importing shutil (argparse
    makes one of these for every argument added, so every run would pay for it), with every
    help text and description said in the language of this run: a command added with N_()
    help strings is translated here without more code. Metavars are said when an argument is
    added (_Parser.add_argument), never here: a command's name in the list of commands is a
    metavar too, and "backup" must stay "backup" whatever a msgid of that spelling says."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        return _t(action.help) if action.help else action.help

    def _format_text(self, text: str) -> str:
        return super()._format_text(_t(text))

    def __init__(
        self,
        prog: str,
        indent_increment: int = 2,
        max_help_position: int = 24,
        width: int | None = None,
    ) -> None:
        if width is None:
            try:
                width = int(os.environ["COLUMNS"]) - 2
            except (KeyError, ValueError):
                stdout = sys.__stdout__  # None when Python runs without a console
                try:
                    if stdout is None:
                        raise OSError("no terminal")
                    width = os.get_terminal_size(stdout.fileno()).columns - 2
                except (AttributeError, ValueError, OSError):
                    width = 80 - 2
        super().__init__(prog, indent_increment, max_help_position, width)


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Help)
        super().__init__(*args, **kwargs)

    def add_argument(self, *args: Any, **kwargs: Any) -> argparse.Action:
        """An argument whose metavar is said in the language of this run (argparse names
        an argument by it in its errors too), and whose whole-number type says so."""
        if isinstance(kwargs.get("metavar"), str):
            kwargs["metavar"] = _t(kwargs["metavar"])
        if kwargs.get("type") is int:
            kwargs["type"] = _whole_number
        return super().add_argument(*args, **kwargs)


def _whole_number(text: str) -> int:
    return int(text)


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    global _said
    argv = sys.argv[1:] if argv is None else list(argv)
    _said = words_for(_lang_asked(argv) or locale_from_environment())
    _whole_number.__name__ = _t(N_("whole number"))  # argparse names a bad value's type so
    gettext_before, ngettext_before = argparse._, argparse.ngettext  # type: ignore[attr-defined]
    argparse._ = _t  # type: ignore[attr-defined]
    argparse.ngettext = _argparse_ngettext  # type: ignore[attr-defined]
    try:
        return _main(argv)
    finally:
        argparse._, argparse.ngettext = gettext_before, ngettext_before  # type: ignore[attr-defined]


def run() -> NoReturn:
    """The `scorekeeper` command (and `python -m scorekeeper`): main(), then exit with its status.

    A command that drew a PDF leaves at once, its output flushed, without the interpreter's
    teardown: WeasyPrint reaches pango, harfbuzz and fontconfig through cffi, whose libraries
    are closed when their module objects are freed, in no fixed order with the cached objects
    whose destructors call into them. Now and then that crashed a finished `export` (signal 11
    after the PDF was written and its path printed: seen once in a full test run)."""
    status = main()
    if "weasyprint" not in sys.modules:
        sys.exit(status)
    import logging

    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):  # a closed pipe: nothing more to say
            stream.flush()
    logging.shutdown()
    os._exit(status)


def _lang_option(parser: argparse.ArgumentParser, help: str) -> None:
    parser.add_argument(
        "--lang", type=_language, choices=LANGS, default=argparse.SUPPRESS, help=help
    )


def _language(text: str) -> str:
    """--lang as a language tag too: "sr-Latn" → sr_Latn, "sr" → sr_Cyrl, "bs" → hr (an
    unknown one stays as typed, for argparse to refuse among the choices)."""
    return spoken_locale(text) or text


def _main(argv: list[str]) -> int:
    parser = _Parser(
        prog="scorekeeper",
        description=N_(
            "Score a game or tournament file, serve the pulka, export, import, back up."
        ),
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    _lang_option(parser, N_("language of every message (default: $LANG)"))
    # With its prog given, argparse draws no help text (nor imports shutil) until asked for.
    commands = parser.add_subparsers(
        dest="command", required=True, prog=parser.prog, metavar=_t(N_("command"))
    )
    _reading_commands(commands)
    _serve_command(commands)
    _data_commands(commands)
    _ops_commands(commands)
    return _run(parser.parse_args(argv))


def _reading_commands(commands: Any) -> None:
    """The commands that read a file or a game and write nothing: score, tournament, export."""
    p = commands.add_parser("score", help=N_("print the sheet (and settlement) of a game file"))
    p.add_argument("file", metavar=N_("file"), help=FILE_HELP)
    p.add_argument(
        "--settle", action="store_true", help=N_("settle even if the game is not finished")
    )
    p.add_argument(
        "--format", choices=("json", "text"), default="json", help=N_("json (default) or text")
    )
    _lang_option(p, N_("language of the text output (default: $LANG)"))
    p.set_defaults(run=_score)

    _report_command(
        commands,
        ("tournament", N_("print the standings and tables of a tournament file")),
        N_("a tournament file (JSON), or - for standard input"),
        _tournament,
    )
    _report_command(
        commands,
        ("season", N_("print the rating, standings and statistics of a season file")),
        N_("a season file (JSON), or - for standard input"),
        _season,
    )

    p = commands.add_parser("export", help=N_("write a game's PDF score sheet (into exports/)"))
    p.add_argument(
        "game", metavar=N_("game"), help=N_("the game's edit or view token, or a game file (JSON)")
    )
    p.add_argument(
        "--out",
        metavar=N_("FILE"),
        help=N_("where to write the PDF (default: exports/<name>-<date>.pdf)"),  # see exports_dir
    )
    p.add_argument("--db", metavar=N_("FILE"), help=DB_HELP)
    _lang_option(p, N_("language of the sheet (default: $LANG)"))
    p.set_defaults(run=_export)


def _report_command(
    commands: Any,
    named: tuple[str, str],
    file_help: str,
    run: Callable[[argparse.Namespace], int],
) -> None:
    """A command that reads one file and prints its report, JSON (default) or text: its
    (name, help), what its file is, and what runs it."""
    name, help = named
    p = commands.add_parser(name, help=help)
    p.add_argument("file", metavar=N_("file"), help=file_help)
    p.add_argument(
        "--format", choices=("json", "text"), default="json", help=N_("json (default) or text")
    )
    _lang_option(p, N_("language of the text output (default: $LANG)"))
    p.set_defaults(run=run)


def _serve_command(commands: Any) -> None:
    """The command that runs the web pulka: serve."""
    p = commands.add_parser("serve", help=N_("run the web pulka for the phones at the table"))
    p.add_argument(
        "--host",
        default="0.0.0.0",
        metavar=N_("ADDRESS"),
        help=N_("address to listen on (default: all)"),
    )
    p.add_argument(
        "--port", type=int, default=8000, metavar=N_("PORT"), help=N_("port (default: 8000)")
    )
    p.add_argument("--db", metavar=N_("FILE"), help=DB_HELP)
    p.add_argument(
        "--threads",
        type=int,
        default=8,
        metavar=N_("NUMBER"),
        help=N_("threads per process (default: 8)"),
    )
    p.add_argument(
        "--workers",
        type=int,
        default=1,
        metavar=N_("NUMBER"),
        help=N_("processes (default: 1; more than one: plain HTTP only)"),
    )
    p.add_argument(
        "--https",
        action="store_true",
        help=N_("serve over HTTPS with a self-signed certificate kept in the data folder"),
    )
    p.add_argument(
        "--prefix",
        metavar=N_("PATH"),
        help=N_("the path it is served under behind a proxy, e.g. /pulka (default: none)"),
    )
    _lang_option(p, LANG_HELP)
    p.set_defaults(run=_serve)


def _data_commands(commands: Any) -> None:
    """The commands that put data in or copy it out: import and backup."""
    p = commands.add_parser(
        "import", help=N_("create a game (or a company) from its file; print its address")
    )
    p.add_argument(
        "file",
        metavar=N_("file"),
        help=N_("a game file or a company file (JSON), or - for standard input"),
    )
    p.add_argument("--db", metavar=N_("FILE"), help=DB_HELP)
    p.add_argument(
        "--url",
        metavar="URL",
        help=N_("the server's public address, for full links (default: $SCOREKEEPER_BASE_URL)"),
    )
    _lang_option(p, LANG_HELP)
    p.set_defaults(run=_import)

    p = commands.add_parser("backup", help=N_("write a consistent copy of the database"))
    p.add_argument("path", metavar=N_("path"), help=N_("where to write the copy"))
    p.add_argument("--db", metavar=N_("FILE"), help=DB_HELP)
    _lang_option(p, LANG_HELP)
    p.set_defaults(run=_backup)


def _run(args: argparse.Namespace) -> int:
    """Run the command: one that opens the data settles its instance folder first."""
    run: Callable[[argparse.Namespace], int] = args.run
    try:
        if hasattr(args, "db") and (failed := _settle_instance()) is not None:
            return failed
        if (failed := _locations_refused(args)) is not None:
            return failed
        if run in (_backup, _restore, _copy_db):  # a whole table in one statement
            with _data_statements():
                return run(args)
        return run(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return _output_closed()


#: The exit status of a command whose reader went away (`… | head -1`), as a shell reports a
#: program stopped by SIGPIPE: 128 + 13.
OUTPUT_CLOSED = 141


def _output_closed() -> int:
    """Standard output was closed before all was printed: no traceback, and Python's own
    flush at exit must not fail again on it."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    return OUTPUT_CLOSED


def _links(words: Words, lines: list[str], what: str) -> int:
    """Print what an import made (its links); if standard output is closed (`import … | true`)
    the same lines go to stderr, with a note that the import was done, and the status says the
    output was lost (OUTPUT_CLOSED), not that the import failed."""
    try:
        for line in lines:
            print(line)
        sys.stdout.flush()
    except BrokenPipeError:
        status = _output_closed()
        note = words.gettext(
            "%(what)s was imported, but its links could not be printed (the output was "
            "closed); here they are:",
            what=what,
        )
        print(f"scorekeeper: {note}", file=sys.stderr)
        for line in lines:
            print(f"  {line}", file=sys.stderr)
        return status
    return 0


def _settle_instance() -> int | None:
    """Before a command that works on the data: its settings checked (a failure if one has a
    value it cannot have), and an installed copy's old data folder (in its venv) moved to the
    data folder, and said so (a failure if it cannot be moved)."""
    from scorekeeper import config

    try:
        moved = config.move_old_instance()
    except OSError as error:
        return _fail(
            _t(
                N_("cannot move the data of an earlier install to %(path)s: %(why)s"),
                path=config.data_home() / "scorekeeper",
                why=error.strerror or error,
            )
        )
    if moved is not None:
        print(
            _t(N_("moved the data of an earlier install from %(old)s to %(new)s"),
               old=moved[0], new=moved[1]),
            file=sys.stderr,
        )  # fmt: skip
    try:
        config.settings()
    except config.SettingError as error:
        return _fail(_t(error.template, **error.params), 2)
    return None


@contextlib.contextmanager
def _data_statements() -> Iterator[None]:
    """The command's statements with DATA_STATEMENT_SECONDS (unless the setting says), only
    while it runs: left in the environment, it outlived the command in a process that goes
    on (the tests' own, where every server started later inherited an hour's bound and a
    frozen database held its requests for as long)."""
    name = "SCOREKEEPER_DB_STATEMENT_TIMEOUT"
    if name in os.environ:
        yield
        return
    os.environ[name] = DATA_STATEMENT_SECONDS
    try:
        yield
    finally:
        os.environ.pop(name, None)


DATA_STATEMENT_SECONDS = "3600"
"""backup, restore and copy-db read or write a whole table in one statement: on PostgreSQL
they may take longer than a page's 5 s (SCOREKEEPER_DB_STATEMENT_TIMEOUT, if set, rules)."""


def _locations_refused(args: argparse.Namespace) -> int | None:
    """Exit 2 with one line for each database setting of the command that names no database
    (a malformed URL, a mysql:// one), printed without its password; None when all are good.
    A command that opens no database (`score`) imports nothing of the store (issue 15)."""
    if not hasattr(args, "source") and not hasattr(args, "db"):
        return None
    from scorekeeper import config
    from scorekeeper.store.location import BadLocation, connect_settings, kind

    given = [args.source, args.target] if hasattr(args, "source") else []
    if hasattr(args, "db"):
        given.append(config.database_path(args.db))
    refused = 0
    for setting in given:
        try:
            if kind(setting) == "postgresql":
                connect_settings(setting)  # its password file, if one is named
        except BadLocation as bad:
            refused += 1
            _fail(_t(bad.template, **bad.params))
    return 2 if refused else None


def _ops_commands(commands: Any) -> None:
    """The commands that move a club's data: restore and copy-db."""
    p = commands.add_parser("restore", help=N_("put a backup back as the database (checked first)"))
    p.add_argument("backup", metavar=N_("backup"), help=N_("the backup file to restore"))
    p.add_argument("--db", metavar=N_("FILE"), help=DB_HELP)
    p.add_argument(
        "--force",
        action="store_true",
        help=N_("replace a database that already holds games (back it up first)"),
    )
    _lang_option(p, LANG_HELP)
    p.set_defaults(run=_restore)

    p = commands.add_parser(
        "copy-db", help=N_("copy every game, company and tournament into an empty database")
    )
    p.add_argument("source", metavar=N_("SOURCE"), help=LOCATION_HELP)
    p.add_argument("target", metavar=N_("TARGET"), help=LOCATION_HELP)
    _lang_option(p, LANG_HELP)
    p.set_defaults(run=_copy_db)


LOCATION_HELP = N_("an SQLite file, or a PostgreSQL URL (postgresql://user@host:port/name)")


FILE_HELP = N_("a game file (JSON), or - for standard input")
DB_HELP = N_(
    "the SQLite file, or a postgresql:// URL (default: scorekeeper.sqlite in the data folder)"
)
LANG_HELP = N_("language of the messages (default: $LANG)")


def _words(args: argparse.Namespace) -> Words:
    """The language of the messages: --lang, else the terminal's ($LANGUAGE, $LANG, ...)."""
    lang = getattr(args, "lang", None)
    return words_for(lang) if lang else _said


#: The usual reasons a file cannot be read, in words we can translate.
_OS_ERRORS = {
    errno.ENOENT: N_("there is no such file"),
    errno.EACCES: N_("no permission to read it"),
    errno.EISDIR: N_("it is a folder"),
}


def _unreadable(words: Words, file: str, error: OSError) -> int:
    known = _OS_ERRORS.get(error.errno or 0)
    why = words.gettext(known) if known else (error.strerror or str(error))
    message = words.gettext("%(file)s: cannot read the file: %(why)s", file=file, why=why)
    print(message, file=sys.stderr)
    return 2


def _read(name: str) -> bytes:
    """The bytes of the file named, or of standard input for "-" (raises OSError)."""
    if name == "-":
        return sys.stdin.buffer.read()
    with open(name, "rb") as file:
        return file.read()


def _invalid(words: Words, invalid: InvalidGame, game: Any = None) -> int:
    if game is not None:
        words = words.at_table(game)
    for problem in invalid.problems:
        print(words.problem(problem), file=sys.stderr)
    return 2


def _score(args: argparse.Namespace) -> int:
    from scorekeeper import gamefile, gamefile_balkan, report

    words = _words(args)
    try:
        text = _read(args.file)
    except OSError as error:
        return _unreadable(words, args.file, error)
    game = None
    try:
        # A file made elsewhere may be longer than a game on the server: still scored.
        game = gamefile_balkan.loads_any(text, max_deals=gamefile.FORMAT_MAX_DEALS)
        if not isinstance(game, Game):
            return _score_balkan(args, words, game)
        sheet = score(game)
    except InvalidGame as invalid:
        return _invalid(words, invalid, game)
    if len(game.deals) > gamefile.MAX_DEALS:
        note = words.gettext(
            "note: %(count)s deals; the server imports games of at most %(limit)s",
            count=len(game.deals),
            limit=gamefile.MAX_DEALS,
        )
        print(note, file=sys.stderr)
    return _printed(
        args,
        lambda: report.text_report(sheet, with_settlement=args.settle, words=words),
        lambda: report.score_report(sheet, with_settlement=args.settle),
    )


def _score_balkan(args: argparse.Namespace, words: Words, game: Any) -> int:
    """`score` of a Balkan partija (docs/game-format.md, "Balkan games")."""
    from scorekeeper import balkan, report_balkan

    sheet = balkan.score(game)
    return _printed(
        args,
        lambda: report_balkan.text_report(sheet, with_settlement=args.settle, words=words),
        lambda: report_balkan.score_report(sheet, with_settlement=args.settle),
    )


def _tournament(args: argparse.Namespace) -> int:
    from scorekeeper import gamefile
    from scorekeeper.tournament import file as tournament_file
    from scorekeeper.tournament import text as tournament_text

    words = _words(args)
    try:
        text = _read(args.file)
    except OSError as error:
        return _unreadable(words, args.file, error)
    try:
        # As `score`: a file made elsewhere may hold longer tables than the server keeps.
        tournament = tournament_file.loads(text, max_deals=gamefile.FORMAT_MAX_DEALS)
    except tournament_file.InvalidTournament as invalid:
        for located in invalid.located:
            print(tournament_text.problem(words, located), file=sys.stderr)
        return 2
    return _printed(
        args,
        lambda: tournament_text.text_report(tournament, words=words),
        lambda: tournament_file.report(tournament),
    )


def _season(args: argparse.Namespace) -> int:
    from scorekeeper.season import compute
    from scorekeeper.season import file as season_file
    from scorekeeper.season import text as season_text

    words = _words(args)
    try:
        text = _read(args.file)
    except OSError as error:
        return _unreadable(words, args.file, error)
    try:
        season = season_file.loads(text)
    except season_file.InvalidSeason as invalid:
        for found in invalid.problems:
            print(season_text.problem(words, found), file=sys.stderr)
        return 2
    out = compute.report(season)
    return _printed(args, lambda: season_text.text_report(out, words=words), lambda: out)


def _printed(
    args: argparse.Namespace, as_text: Callable[[], str], as_json: Callable[[], Any]
) -> int:
    """Print a reading command's report: the text for people (`--format text`) or the JSON."""
    if args.format == "text":
        sys.stdout.write(as_text())
    else:
        sys.stdout.write(json.dumps(as_json(), ensure_ascii=False, indent=2) + "\n")
    return 0


def _export(args: argparse.Namespace) -> int:
    words = _words(args)
    found = _game_to_export(args, words)
    if isinstance(found, int):
        return found
    game, kw = found
    return _write_export(args, words, game, kw)


def _game_to_export(args: argparse.Namespace, words: Words) -> tuple[Any, dict[str, Any]] | int:
    """The game `export` draws, from a game file or the database by its token, with what the
    PDF says of a stored game (when made, when changed, which deals were edited); the exit
    status if it cannot be read."""
    from pathlib import Path

    from scorekeeper import config, gamefile_balkan
    from scorekeeper.games import load
    from scorekeeper.store import GameNotFound, Store, StoreError, is_database_url

    _ = words.gettext
    kw: dict[str, Any] = {}
    source = Path(args.game)
    try:
        if source.suffix.lower() == ".json" or source.is_file():
            try:
                game = gamefile_balkan.loads_any(source.read_bytes())
            except OSError as error:
                return _unreadable(words, args.game, error)
        else:
            database = config.database_path(args.db)
            if not is_database_url(database) and not Path(database).is_file():
                return _fail(_("there is no database at %(path)s", path=database))
            with Store(database) as store:
                record = store.get_game(args.game)
            game = load(record).game
            kw = {
                "created_at": record.created_at,
                "updated_at": record.updated_at,
                "edited_deals": {
                    d.position + 1 for d in record.deals if d.updated_at != d.created_at
                },
            }
    except InvalidGame as invalid:
        return _invalid(words, invalid)
    except GameNotFound:
        return _fail(
            _("no game has the token %(token)r (nor is it a game file)", token=args.game), 2
        )
    except StoreError as error:
        return _store_failed(error)
    return game, kw


def _write_export(args: argparse.Namespace, words: Words, game: Any, kw: dict[str, Any]) -> int:
    """Write the game's PDF where `--out` says (or the exports folder) and print its path."""
    from pathlib import Path

    from scorekeeper.render.export import export_pdf
    from scorekeeper.render.pdf import TooLongForPdf

    _ = words.gettext
    out = Path(args.out) if args.out else None
    try:
        path = export_pdf(game, out, exports_dir=exports_dir(), locale=words.locale, **kw)
    except TooLongForPdf as error:
        return _fail(
            _(
                "the game has %(count)s deals: the PDF is drawn for games of at most %(limit)s",
                count=error.count,
                limit=error.limit,
            ),
            2,
        )
    except OSError as error:
        return _fail(_("cannot write the PDF: %(why)s", why=error))
    print(path.resolve())  # where it went, whichever folder the command ran in
    return 0


def _store_failed(error: Exception) -> int:
    """A store error in one line; exit 2 for a database a newer release wrote (it is not
    this release's to open) and one that cannot be used (unreachable, refusing the password,
    busy, read-only), 1 otherwise. A database URL's password is never printed."""
    from scorekeeper.store import SchemaTooNew, StorageUnavailable

    if isinstance(error, SchemaTooNew):
        return _fail(_too_new(error), 2)
    if isinstance(error, StorageUnavailable):
        return _fail(_unavailable(error), 2)
    return _fail(str(error), 1)


#: A database a newer release wrote: by its recorded release, or by schema steps alone.
_TOO_NEW = N_(
    "the database %(where)s was written by scorekeeper %(newer)s, newer than this release"
    " (%(release)s): run the newer release, or restore a backup made by this one"
    " (docs/deploy.md, “Upgrades”)"
)
_TOO_NEW_STEPS = N_(
    "the database %(where)s was written by a scorekeeper newer than this release"
    " (%(release)s), with schema steps this one lacks (%(steps)s): run the newer release,"
    " or restore a backup made by this one (docs/deploy.md, “Upgrades”)"
)


def _too_new(error: Any) -> str:
    """SchemaTooNew in the run's language, each release named once."""
    if error.steps or not error.writer:
        steps = ", ".join(error.steps)
        return _t(_TOO_NEW_STEPS, where=error.where, release=error.release, steps=steps)
    return _t(_TOO_NEW, where=error.where, newer=error.writer, release=error.release)


def _unavailable(error: Any) -> str:
    """A database that cannot be used: the store's reason in the run's language and where it
    is; in English the driver's own words too (they are English only)."""
    message = str(error)
    if _said.locale == "en":
        return message
    head = f"{error.reason}: "
    if message.startswith(head):
        where = message[len(head) :].split(" (", 1)[0]
    else:
        found = re.search(r"\S*[/\\]\S*", message)
        where = found.group(0).rstrip(";:,") if found else ""
    reason = _said.storage(error.reason)
    return f"{reason}: {where}" if where else reason


def _fail(message: str, status: int = 1) -> int:
    print(f"scorekeeper: {message}", file=sys.stderr)
    return status


def lan_address() -> str | None:
    """This machine's address on the local network, if it has one (nothing is sent)."""
    import socket  # only `serve` asks: `score` starts without the network modules

    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.254.254.254", 1))
            address = str(probe.getsockname()[0])
        except OSError:
            return None
    return None if address.startswith("127.") else address


def serve_urls(host: str, port: int, scheme: str = "http") -> list[str]:
    """The addresses `serve` prints for the phones: a wildcard host as this machine and its
    LAN address."""
    if host in ("0.0.0.0", "::", ""):
        hosts = ["127.0.0.1"] + [a for a in [lan_address()] if a]
    else:
        hosts = [host]
    return [f"{scheme}://{h if ':' not in h else f'[{h}]'}:{port}/" for h in hosts]


def _serve(args: argparse.Namespace) -> int:
    from scorekeeper import serverlog, serving
    from scorekeeper.store import StorageUnavailable, Store, StoreError

    refused = _serve_options_refused(args)
    if refused is not None:
        return _fail(refused)
    serverlog.configure_logging()
    app = serving.web_app(args.db, https=args.https)
    if args.prefix is not None:
        app.config["PREFIX"] = args.prefix
    database = app.config["DATABASE"]
    # On PostgreSQL each thread borrows a connection per request: a pool as large.
    os.environ.setdefault("SCOREKEEPER_THREADS", str(max(1, args.threads)))
    try:
        Store(database).close()  # fail now, with a clear message, not on the first page
    except (StorageUnavailable, StoreError) as error:
        return _store_failed(error)
    urls = serve_urls(args.host, args.port, "https" if args.https else "http")
    listening = _listening(args, app, urls)
    if isinstance(listening, int):
        return listening
    server, tls = listening
    _banner(app, urls, None if tls is None else tls[0])
    if _exposed(args, app):
        print(_t(EXPOSED, workers=args.workers, address=args.host), file=sys.stderr, flush=True)
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    print(_t(N_("stopped")), file=sys.stderr, flush=True)
    return 0


def _serve_options_refused(args: argparse.Namespace) -> str | None:
    """Why `serve`'s options cannot run together (the number of workers with HTTPS or on
    Windows), in the run's language; None when they can."""
    if args.workers < 1:
        return _t(N_("--workers must be 1 or more"))
    if args.https and args.workers > 1:
        return _t(N_("--workers needs plain HTTP (behind a proxy for HTTPS: docs/deploy.md)"))
    if args.workers > 1 and os.name == "nt":
        return _t(N_("--workers needs Linux or macOS; on Windows serve runs one process"))
    return None


def _listening(args: argparse.Namespace, app: Any, urls: list[str]) -> tuple[Any, Any] | int:
    """The server listening on `serve`'s address, with its TLS certificate under `--https`
    (or None); the exit status if the certificate cannot be kept or the address is taken."""
    from scorekeeper import serving

    tls = None
    if args.https:
        try:
            tls = serving.tls_certificate(app, urls)
        except OSError as error:
            return _fail(
                _t(
                    N_("cannot keep the TLS certificate in %(file)s: %(why)s"),
                    file=error.filename,
                    why=error.strerror,
                )
            )
    try:
        server = serving.server(
            app, args.host, args.port, threads=max(1, args.threads), workers=args.workers, tls=tls
        )
    except OSError as error:
        return _fail(
            _t(
                N_("cannot listen on %(address)s: %(why)s"),
                address=f"{args.host}:{args.port}",
                why=error.strerror or error,
            )
        )
    return server, tls


#: `serve --workers N` reachable by others with no proxy in front (docs/deploy.md).
EXPOSED = N_(
    "warning: --workers %(workers)s listens on %(address)s with no proxy in front: a few "
    "clients sending their requests slowly can hold every thread; put Caddy in front "
    "(SCOREKEEPER_TRUSTED_PROXY) and listen on 127.0.0.1, as docs/deploy.md shows"
)


def _exposed(args: argparse.Namespace, app: Any) -> bool:
    """Whether gunicorn's threads (`serve --workers N`) face other machines directly: a
    non-loopback address and no trusted proxy configured."""
    import ipaddress

    if args.workers < 2 or app.config.get("TRUSTED_PROXY"):
        return False
    if args.host == "localhost":
        return False
    try:
        return not ipaddress.ip_address(args.host).is_loopback
    except ValueError:
        return True  # a name: it may be any address


def shown_location(location: str) -> str:
    """A --db location as it may be printed: a URL's password masked."""
    from scorekeeper.store.location import printable

    return printable(location)


def _banner(app: Any, urls: list[str], cert: Path | None) -> None:
    """What `serve` prints, on stderr (stdout is the access log's alone): its version, the
    database, its addresses, the certificate, a QR code."""
    import segno

    from scorekeeper import serving

    def say(text: str = "") -> None:
        print(text, file=sys.stderr)

    say(f"scorekeeper {__version__}")
    say(_t(N_("scorekeeper is serving %(db)s"), db=shown_location(app.config["DATABASE"])))
    for url in urls:
        say(f"  {url}")
    base = str(app.config.get("BASE_URL") or "").strip().rstrip("/")
    phone = f"{base}/" if base else urls[-1]
    if cert is not None:
        say("\n" + _t(N_("TLS certificate: %(path)s"), path=cert))
        say(f"  SHA-256 {serving.fingerprint(cert)}")
        say("  " + _t(N_("Phones warn about this self-made certificate until it is trusted:")))
        address = f"{urls[-1]}{serving.CERT_PATH.lstrip('/')}"
        say("  " + _t(N_("to trust it, open %(url)s on the phone"), url=address))
    say("\n" + _t(N_("Open %(url)s on a phone on the same network, or scan:"), url=phone) + "\n")
    segno.make(phone, error="m").terminal(out=sys.stderr, compact=True)
    say("\n" + _t(N_("Press Ctrl+C to stop.")))
    sys.stderr.flush()


def _import(args: argparse.Namespace) -> int:

    from scorekeeper import config, gamefile_balkan
    from scorekeeper.games import create_from_game
    from scorekeeper.store import Store, StoreError

    words = _words(args)
    try:
        text = _read(args.file)
    except OSError as error:
        return _unreadable(words, args.file, error)
    if _is_company_file(text):
        return _import_company(args, words, text)
    try:
        game = gamefile_balkan.loads_any(text)  # a game file of either family
    except InvalidGame as invalid:
        return _invalid(words, invalid)
    database = config.database_path(args.db)
    try:
        with Store(database) as store:
            record = create_from_game(store, game)
    except StoreError as error:
        return _store_failed(error)
    # Only an address someone configured: a guessed one (this machine, some port) may be
    # another server's, or none at all.
    base = config.base_url(args.url)
    count = sum(1 for d in game.deals if _passes_deal(d))
    deals = words.ngettext("%(num)d deal", "%(num)d deals", count)
    lines = [
        words.gettext("imported %(name)s: %(deals)s", name=game.name or args.file, deals=deals),
        words.gettext("edit: %(url)s", url=f"{base}/g/{record.edit_token}"),
        words.gettext("view: %(url)s", url=f"{base}/v/{record.view_token}"),
    ]
    return _links(words, [*lines, *_paths_note(words, base)], game.name or args.file)


def _passes_deal(deal: Any) -> bool:
    """Whether an entry of either family is a deal played at the table (not a correction)."""
    from scorekeeper.balkan.deals import PASSES_DEAL
    from scorekeeper.rules.deals import Deal

    if isinstance(deal, Deal):
        return is_table_deal(deal)
    return isinstance(deal, PASSES_DEAL)


def _paths_note(words: Words, base: str) -> list[str]:
    if base:
        return []
    return [
        words.gettext(
            "(paths on the server; set SCOREKEEPER_BASE_URL or --url to print full links)"
        )
    ]


def _is_company_file(text: bytes) -> bool:
    """Whether a file says it is a company file (its "format"); anything else is read as a
    game file, which names what is wrong with it."""
    from scorekeeper.company.file import FORMAT

    if FORMAT.encode() not in text[:4096]:
        return False
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return False
    return isinstance(data, dict) and data.get("format") == FORMAT


def _import_company(args: argparse.Namespace, words: Words, text: bytes) -> int:
    from scorekeeper import config
    from scorekeeper.company import file as company_file
    from scorekeeper.store import Store, StoreError

    try:
        company = company_file.loads(text)
    except InvalidGame as invalid:
        return _invalid(words, invalid)
    try:
        with Store(config.database_path(args.db)) as store:
            record = company_file.create(store, company)
    except StoreError as error:
        return _store_failed(error)
    base = config.base_url(args.url)
    evenings = words.ngettext("%(num)d evening", "%(num)d evenings", len(record.games))
    payments = words.ngettext("%(num)d payment", "%(num)d payments", len(record.payments))
    lines = [
        words.gettext(
            "imported the company %(name)s: %(evenings)s, %(payments)s",
            name=record.name or args.file,
            evenings=evenings,
            payments=payments,
        ),
        words.gettext("edit: %(url)s", url=f"{base}/c/{record.edit_token}"),
        words.gettext("view: %(url)s", url=f"{base}/cv/{record.view_token}"),
    ]
    return _links(words, [*lines, *_paths_note(words, base)], record.name or args.file)


def _backup(args: argparse.Namespace) -> int:
    from pathlib import Path

    from scorekeeper import config
    from scorekeeper.store import Store, StoreError, is_database_url

    words = _words(args)
    database = config.database_path(args.db)
    if is_database_url(database):
        return _backup_postgresql(args, words, database)
    if not Path(database).is_file():
        return _fail(words.gettext("there is no database at %(path)s", path=database))
    refused = _backup_over_database(words, args.path, database)
    if refused is not None:
        return _fail(refused, 2)
    try:
        with Store(database, create=False) as store:
            refused_purge = _purge_first(store, words)
            if refused_purge is not None:
                return refused_purge
            mask = os.umask(0o077)  # a backup holds every edit link: for its owner only
            try:
                store.backup(args.path)
            finally:
                os.umask(mask)
        check = _integrity(Path(args.path))
    except StoreError as error:
        return _store_failed(error)
    if check != "ok":
        return _fail(
            words.gettext(
                "the copy at %(path)s failed its integrity check: %(why)s",
                path=args.path,
                why=check,
            )
        )
    print(words.gettext("backed up %(db)s to %(path)s", db=database, path=args.path))
    return 0


def _backup_over_database(words: Words, path: str, database: str) -> str | None:
    """Why a backup may not be written at `path`: it is the SQLite database itself or a file
    SQLite keeps beside it; None when it may."""
    from pathlib import Path

    from scorekeeper.store.store import database_file_of, same_file

    if same_file(Path(path), Path(database)):
        return words.gettext(
            "%(path)s is the database itself: write the backup to another file", path=path
        )
    if database_file_of(Path(path), Path(database)) is not None:
        return words.gettext(
            "%(path)s is a file SQLite keeps beside the database: write the backup to another file",
            path=path,
        )
    return None


def _purge_first(store: Any, words: Words) -> int | None:
    """Purge the games deleted long ago before a backup; the exit status if that failed."""
    from scorekeeper.store import StoreError

    try:
        store.purge_deleted()  # games deleted long ago are not copied
    except StoreError as error:
        # A backup that promises "deleted games are gone" must not keep them quietly.
        return _fail(
            words.gettext(
                "deleted games could not be purged, so no backup was made: %(why)s",
                why=str(error),
            )
        )
    return None


def _backup_postgresql(args: argparse.Namespace, words: Words, database: str) -> int:
    """A PostgreSQL database backed up into an SQLite file, from one snapshot."""
    from pathlib import Path

    from scorekeeper.store import Store, StoreError
    from scorekeeper.store.copy import backup_to_sqlite, shown

    try:
        with Store(database, create=False) as store:
            refused = _purge_first(store, words)
            if refused is not None:
                return refused
            backup_to_sqlite(store, Path(args.path))
        check = _integrity(Path(args.path))
    except StoreError as error:
        return _store_failed(error)
    except OSError as error:
        return _fail(words.gettext("cannot write %(path)s: %(why)s", path=args.path, why=error))
    if check != "ok":
        message = N_("the copy at %(path)s failed its integrity check: %(why)s")
        return _fail(words.gettext(message, path=args.path, why=check))
    print(words.gettext("backed up %(db)s to %(path)s", db=shown(database), path=args.path))
    return 0


def _integrity(path: Path) -> str:
    """PRAGMA integrity_check of a database file, opened read-only (the copy stays as is)."""
    import sqlite3

    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        return "\n".join(str(row[0]) for row in conn.execute("PRAGMA integrity_check"))
    finally:
        conn.close()


#: Why a backup is refused, by BadBackup.why.
_BAD_BACKUP = {
    "missing": N_("%(path)s: there is no such file"),
    "not-sqlite": N_("%(path)s is not a SQLite database file: nothing was restored"),
    "damaged": N_("%(path)s failed its integrity check, nothing was restored: %(why)s"),
    "not-scorekeeper": N_("%(path)s is not a scorekeeper database: nothing was restored"),
    "newer": N_(
        "%(path)s was written by a newer release of scorekeeper (%(why)s): "
        "nothing was restored; restore it with that release, or upgrade this one"
    ),
}


def _restore(args: argparse.Namespace) -> int:
    from pathlib import Path

    from scorekeeper import config
    from scorekeeper.store import Store, StoreError
    from scorekeeper.store.copy import shown
    from scorekeeper.store.engine import is_database_url
    from scorekeeper.store.restore import (
        BadBackup,
        TargetHoldsData,
        restore_postgresql,
        restore_sqlite,
    )
    from scorekeeper.store.store import database_file_of

    words = _words(args)
    database = config.database_path(args.db)
    backup = Path(args.backup)
    if not is_database_url(database) and database_file_of(backup, Path(database)) is not None:
        message = N_("%(path)s is the database itself: write the backup to another file")
        return _fail(words.gettext(message, path=args.backup), 2)
    try:
        if is_database_url(database):
            restore_postgresql(backup, database, force=args.force)
        else:
            restore_sqlite(backup, Path(database), force=args.force)
            with Store(database, create=False):
                pass  # an older backup is brought up to this release's schema now
    except BadBackup as bad:
        text = words.gettext(_BAD_BACKUP[bad.why], path=args.backup, why=bad.detail)
        return _fail(text, 2)
    except TargetHoldsData:
        text = words.gettext(
            "%(db)s already holds games: nothing was restored; back it up, then restore "
            "with --force to replace it",
            db=shown(database),
        )
        return _fail(text, 2)
    except StoreError as error:
        return _store_failed(error)
    print(words.gettext("restored %(path)s into %(db)s", path=args.backup, db=shown(database)))
    return 0


def _copy_db(args: argparse.Namespace) -> int:
    from pathlib import Path

    from scorekeeper.store import StoreError
    from scorekeeper.store.copy import TargetNotEmpty, copy_locations, same_location, shown
    from scorekeeper.store.engine import is_database_url

    words = _words(args)
    source, target = shown(args.source), shown(args.target)
    if same_location(args.source, args.target):
        message = N_("%(source)s and %(target)s are the same database: nothing was copied")
        return _fail(words.gettext(message, source=source, target=target), 2)
    if not is_database_url(args.source) and not Path(args.source).is_file():
        return _fail(words.gettext("there is no database at %(path)s", path=source), 2)
    try:
        counts = copy_locations(args.source, args.target)
    except TargetNotEmpty as full:
        message = N_(
            "%(target)s already holds data (its table %(table)s has rows): nothing was "
            "copied; copy into a new, empty database"
        )
        return _fail(words.gettext(message, target=target, table=full.table), 2)
    except StoreError as error:
        return _store_failed(error)
    what = ", ".join(
        (
            words.ngettext("%(num)d game", "%(num)d games", counts["games"]),
            words.ngettext("%(num)d company", "%(num)d companies", counts["companies"]),
            words.ngettext("%(num)d tournament", "%(num)d tournaments", counts["tournaments"]),
        )
    )
    message = N_("copied %(what)s from %(source)s to %(target)s")
    print(words.gettext(message, what=what, source=source, target=target))
    return 0


if __name__ == "__main__":  # pragma: no cover
    run()
