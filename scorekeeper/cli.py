"""The `scorekeeper` command: score a game file, serve the app, export, import, back up."""

from __future__ import annotations

import argparse
import errno
import json
import os
import sys
from collections.abc import Callable

from scorekeeper.rules import InvalidGame, score
from scorekeeper.rules.problems import N_
from scorekeeper.wording import Words, locale_from_environment, words_for

#: Names only the type checker reads: `score` imports neither typing nor pathlib (issue 15).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

LANGS = ("en", "ru", "uk")


def exports_dir() -> Path:
    """Where `export` writes by default: the project's exports/ folder (cwd's for an installed
    copy)."""
    from pathlib import Path

    project = Path(__file__).resolve().parent.parent / "exports"
    return project if project.is_dir() else Path("exports")


class _Help(argparse.HelpFormatter):
    """argparse's help layout, sized as shutil sizes it but without importing shutil (argparse
    makes one of these for every argument added, so every run would pay for it)."""

    def __init__(
        self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
        width: int | None = None,
    ) -> None:
        if width is None:
            try:
                width = int(os.environ["COLUMNS"]) - 2
            except (KeyError, ValueError):
                try:
                    width = os.get_terminal_size(sys.__stdout__.fileno()).columns - 2
                except (AttributeError, ValueError, OSError):
                    width = 80 - 2
        super().__init__(prog, indent_increment, max_help_position, width)


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Help)
        super().__init__(*args, **kwargs)


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = _Parser(prog="scorekeeper", description=__doc__)
    # With its prog given, argparse draws no help text (nor imports shutil) until asked for.
    commands = parser.add_subparsers(dest="command", required=True, prog=parser.prog)

    p = commands.add_parser("score", help="print the sheet (and settlement) of a game file")
    p.add_argument("file", help="a game file (JSON), or - for standard input")
    p.add_argument("--settle", action="store_true", help="settle even if the game is not finished")
    p.add_argument("--format", choices=("json", "text"), default="json")
    p.add_argument("--lang", choices=LANGS, help="language of the text output (default: $LANG)")
    p.set_defaults(run=_score)

    p = commands.add_parser("export", help="write a game's PDF score sheet (into exports/)")
    p.add_argument("game", help="the game's edit or view token, or a game file (JSON)")
    p.add_argument("--out", help="where to write the PDF (default: exports/<name>-<date>.pdf)")
    p.add_argument("--db", help="the SQLite file (default: instance/scorekeeper.sqlite)")
    p.add_argument("--lang", choices=LANGS, help="language of the sheet (default: $LANG)")
    p.set_defaults(run=_export)

    p = commands.add_parser("serve", help="run the web pulka for the phones at the table")
    p.add_argument("--host", default="0.0.0.0", help="address to listen on (default: all)")
    p.add_argument("--port", type=int, default=8000, help="port (default: 8000)")
    p.add_argument("--db", help="the SQLite file (default: instance/scorekeeper.sqlite)")
    p.add_argument("--threads", type=int, default=8, help="worker threads (default: 8)")
    p.add_argument(
        "--workers",
        type=int,
        help="processes serving at once (default: one per core, at most 4; plain HTTP only)",
    )
    p.add_argument(
        "--https",
        action="store_true",
        help="serve over HTTPS with a self-signed certificate kept in the instance folder",
    )
    p.set_defaults(run=_serve)

    p = commands.add_parser(
        "import", help="create a game (or a company) from its file; print its address"
    )
    p.add_argument("file", help="a game file or a company file (JSON), or - for standard input")
    p.add_argument("--db", help="the SQLite file (default: instance/scorekeeper.sqlite)")
    p.add_argument(
        "--url",
        help="the server's public address, to print full links (default: $SCOREKEEPER_BASE_URL)",
    )
    p.set_defaults(run=_import)

    p = commands.add_parser("backup", help="write a consistent copy of the database")
    p.add_argument("path", help="where to write the copy")
    p.add_argument("--db", help="the SQLite file (default: instance/scorekeeper.sqlite)")
    p.set_defaults(run=_backup)

    args = parser.parse_args(argv)
    run: Callable[[argparse.Namespace], int] = args.run
    try:
        return run(args)
    except KeyboardInterrupt:
        return 130


def _words(args: argparse.Namespace) -> Words:
    """The language of the messages: --lang, else the terminal's ($LANGUAGE, $LANG, ...)."""
    return words_for(getattr(args, "lang", None) or locale_from_environment())


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


def _invalid(words: Words, invalid: InvalidGame, game: Any = None) -> int:
    if game is not None:
        words = words.at_table(game)
    for problem in invalid.problems:
        print(words.problem(problem), file=sys.stderr)
    return 2


def _score(args: argparse.Namespace) -> int:
    from scorekeeper import gamefile, report

    words = _words(args)
    try:
        if args.file == "-":
            text = sys.stdin.buffer.read()
        else:
            with open(args.file, "rb") as file:
                text = file.read()
    except OSError as error:
        return _unreadable(words, args.file, error)
    game = None
    try:
        # A file made elsewhere may be longer than a game on the server: still scored.
        game = gamefile.loads(text, max_deals=gamefile.FORMAT_MAX_DEALS)
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
    if args.format == "text":
        sys.stdout.write(report.text_report(sheet, with_settlement=args.settle, words=words))
    else:
        out = report.score_report(sheet, with_settlement=args.settle)
        sys.stdout.write(json.dumps(out, ensure_ascii=False, indent=2) + "\n")
    return 0


def _export(args: argparse.Namespace) -> int:
    from pathlib import Path

    from scorekeeper import config, gamefile
    from scorekeeper.games import load
    from scorekeeper.render.pdf import TooLongForPdf, export_pdf
    from scorekeeper.store import GameNotFound, Store, StoreError

    words = _words(args)
    _ = words.gettext
    kw: dict[str, Any] = {}
    source = Path(args.game)
    try:
        if source.suffix.lower() == ".json" or source.is_file():
            try:
                game = gamefile.loads(source.read_bytes())
            except OSError as error:
                return _unreadable(words, args.game, error)
        else:
            database = config.database_path(args.db)
            if not Path(database).is_file():
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
        return _fail(str(error))
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
    print(path)
    return 0


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


def _urls(host: str, port: int, scheme: str = "http") -> list[str]:
    if host in ("0.0.0.0", "::", ""):
        hosts = ["127.0.0.1"] + [a for a in [lan_address()] if a]
    else:
        hosts = [host]
    return [f"{scheme}://{h if ':' not in h else f'[{h}]'}:{port}/" for h in hosts]


def _serve(args: argparse.Namespace) -> int:
    from scorekeeper import serving
    from scorekeeper.store import StorageUnavailable, Store, StoreError

    if args.workers is None:
        args.workers = serving.default_workers(https=args.https)
    if args.workers < 1:
        return _fail("--workers must be 1 or more")
    if args.https and args.workers > 1:
        return _fail("--workers needs plain HTTP (behind a proxy for HTTPS: docs/deploy.md)")
    app = serving.web_app(args.db, https=args.https)
    database = app.config["DATABASE"]
    try:
        Store(database).close()  # fail now, with a clear message, not on the first page
    except (StorageUnavailable, StoreError) as error:
        return _fail(str(error))
    urls = _urls(args.host, args.port, "https" if args.https else "http")
    tls = None
    if args.https:
        try:
            tls = serving.tls_certificate(app, urls)
        except OSError as error:
            return _fail(f"cannot keep the TLS certificate in {error.filename}: {error.strerror}")
    try:
        server = serving.server(
            app, args.host, args.port, threads=max(8, args.threads), workers=args.workers, tls=tls
        )
    except OSError as error:
        return _fail(f"cannot listen on {args.host}:{args.port}: {error.strerror or error}")
    _banner(app, urls, None if tls is None else tls[0])
    try:
        server.run()
    except KeyboardInterrupt:
        print("\nstopped")
    return 0


def _banner(app: Any, urls: list[str], cert: Path | None) -> None:
    """What `serve` prints: the database, its addresses, the certificate, a QR code."""
    import segno

    from scorekeeper import serving

    print(f"scorekeeper is serving {app.config['DATABASE']}")
    for url in urls:
        print(f"  {url}")
    base = str(app.config.get("BASE_URL") or "").strip().rstrip("/")
    phone = f"{base}/" if base else urls[-1]
    if cert is not None:
        print(f"\nTLS certificate: {cert}\n  SHA-256 {serving.fingerprint(cert)}")
        print("  Phones warn about this self-made certificate until it is trusted (README):")
        print(f"  to trust it, open {urls[-1]}{serving.CERT_PATH.lstrip('/')} on the phone")
    print(f"\nOpen {phone} on a phone on the same network, or scan:\n")
    segno.make(phone, error="m").terminal(compact=True)
    print("\nPress Ctrl+C to stop.", flush=True)


def _import(args: argparse.Namespace) -> int:
    from pathlib import Path

    from scorekeeper import config, gamefile
    from scorekeeper.games import create_from_game
    from scorekeeper.store import Store, StoreError

    words = _words(args)
    try:
        text = sys.stdin.buffer.read() if args.file == "-" else Path(args.file).read_bytes()
    except OSError as error:
        return _unreadable(words, args.file, error)
    if _is_company_file(text):
        return _import_company(args, words, text)
    try:
        game = gamefile.loads(text)
    except InvalidGame as invalid:
        return _invalid(words, invalid)
    database = config.database_path(args.db)
    try:
        with Store(database) as store:
            record = create_from_game(store, game)
    except StoreError as error:
        return _fail(str(error))
    # Only an address someone configured: a guessed one (this machine, some port) may be
    # another server's, or none at all.
    base = config.base_url(args.url)
    count = len(game.deals)
    print(f"imported {game.name or args.file}: {count} deal{'' if count == 1 else 's'}")
    print(f"edit: {base}/g/{record.edit_token}")
    print(f"view: {base}/v/{record.view_token}")
    if not base:
        print("(paths on the server; set SCOREKEEPER_BASE_URL or --url to print full links)")
    return 0


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
        return _fail(str(error))
    base = config.base_url(args.url)
    print(
        f"imported the company {record.name or args.file}: {len(record.games)} evenings,"
        f" {len(record.payments)} payments"
    )
    print(f"edit: {base}/c/{record.edit_token}")
    print(f"view: {base}/cv/{record.view_token}")
    if not base:
        print("(paths on the server; set SCOREKEEPER_BASE_URL or --url to print full links)")
    return 0


def _backup(args: argparse.Namespace) -> int:
    from pathlib import Path

    from scorekeeper import config
    from scorekeeper.store import Store, StoreError

    database = config.database_path(args.db)
    if not Path(database).is_file():
        return _fail(f"there is no database at {database}")
    from scorekeeper.store.store import database_file_of

    used = database_file_of(Path(args.path), Path(database))
    if used is not None:
        return _fail(f"{args.path} is {used}: write the backup to another file", 2)
    try:
        with Store(database, create=False) as store:
            try:
                store.purge_deleted()  # games deleted long ago are not copied
            except StoreError as error:
                # A backup that promises "deleted games are gone" must not keep them quietly.
                return _fail(f"deleted games could not be purged, so no backup was made: {error}")
            store.backup(args.path)
        check = _integrity(Path(args.path))
    except StoreError as error:
        return _fail(str(error))
    if check != "ok":
        return _fail(f"the copy at {args.path} failed its integrity check: {check}")
    print(f"backed up {database} to {args.path}")
    return 0


def _integrity(path: Path) -> str:
    """PRAGMA integrity_check of a database file, opened read-only (the copy stays as is)."""
    import sqlite3

    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        return "\n".join(str(row[0]) for row in conn.execute("PRAGMA integrity_check"))
    finally:
        conn.close()


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
