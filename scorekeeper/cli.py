"""The `scorekeeper` command: score a game file, serve the app, export, import, back up."""

from __future__ import annotations

import argparse
import contextlib
import json
import socket
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from scorekeeper.rules import InvalidGame, score

LANGS = ("en", "ru", "uk")
#: Where `export` writes by default: the project's exports/ folder (cwd's for an installed copy).
EXPORTS = (
    Path(__file__).resolve().parent.parent / "exports"
    if (Path(__file__).resolve().parent.parent / "exports").is_dir()
    else Path("exports")
)


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = argparse.ArgumentParser(prog="scorekeeper", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)

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
    p.set_defaults(run=_serve)

    p = commands.add_parser("import", help="create a game from a game file; print its address")
    p.add_argument("file", help="a game file (JSON), or - for standard input")
    p.add_argument("--db", help="the SQLite file (default: instance/scorekeeper.sqlite)")
    p.add_argument(
        "--url", help="the server's address for the printed links (default: this machine, :8000)"
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


def _score(args: argparse.Namespace) -> int:
    from scorekeeper import gamefile, report

    try:
        if args.file == "-":
            text = sys.stdin.buffer.read()
        else:
            text = Path(args.file).read_bytes()
    except OSError as error:
        print(f"{args.file}: cannot read the file: {error.strerror}", file=sys.stderr)
        return 2
    try:
        # A file made elsewhere may be longer than a game on the server: still scored.
        game = gamefile.loads(text, max_deals=gamefile.FORMAT_MAX_DEALS)
        sheet = score(game)
    except InvalidGame as invalid:
        for problem in invalid.problems:
            print(problem, file=sys.stderr)
        return 2
    if len(game.deals) > gamefile.MAX_DEALS:
        print(
            f"note: {len(game.deals)} deals; the server imports games of at most "
            f"{gamefile.MAX_DEALS}",
            file=sys.stderr,
        )
    if args.format == "text":
        from scorekeeper.present import locale_from_environment, use_locale

        use_locale(args.lang or locale_from_environment())
        sys.stdout.write(report.text_report(sheet, with_settlement=args.settle))
    else:
        out = report.score_report(sheet, with_settlement=args.settle)
        sys.stdout.write(json.dumps(out, ensure_ascii=False, indent=2) + "\n")
    return 0


def _export(args: argparse.Namespace) -> int:
    from scorekeeper import gamefile
    from scorekeeper.present import locale_from_environment
    from scorekeeper.render.pdf import export_pdf
    from scorekeeper.store import GameNotFound, Store, StoreError
    from scorekeeper.web.gamedata import load

    app = _app(args.db)
    kw: dict[str, Any] = {}
    source = Path(args.game)
    try:
        if source.suffix.lower() == ".json" or source.is_file():
            try:
                game = gamefile.loads(source.read_bytes())
            except OSError as error:
                return _fail(f"{args.game}: cannot read the file: {error.strerror}", 2)
        else:
            database = app.config["DATABASE"]
            if not Path(database).is_file():
                return _fail(f"there is no database at {database}")
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
        for problem in invalid.problems:
            print(problem, file=sys.stderr)
        return 2
    except GameNotFound:
        return _fail(f"no game has the token {args.game!r} (nor is it a game file)", 2)
    except StoreError as error:
        return _fail(str(error))
    lang = args.lang or locale_from_environment() or "en"
    out = Path(args.out) if args.out else None
    try:
        with app.test_request_context(f"/?lang={lang}"):
            from flask import g

            g.chosen_lang = lang
            path = export_pdf(game, out, exports_dir=EXPORTS, **kw)
    except OSError as error:
        return _fail(f"cannot write the PDF: {error}")
    print(path)
    return 0


def _fail(message: str, status: int = 1) -> int:
    print(f"scorekeeper: {message}", file=sys.stderr)
    return status


def _app(db: str | None) -> Any:
    """The web app with its configuration (instance/config.py, SCOREKEEPER_*), --db on top."""
    from scorekeeper.web import create_app

    app = create_app(create_database=False)  # each command opens (or makes) its own
    if db:
        app.config["DATABASE"] = db
    return app


def lan_address() -> str | None:
    """This machine's address on the local network, if it has one (nothing is sent)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.254.254.254", 1))
            address = str(probe.getsockname()[0])
        except OSError:
            return None
    return None if address.startswith("127.") else address


def _urls(host: str, port: int) -> list[str]:
    if host in ("0.0.0.0", "::", ""):
        hosts = ["127.0.0.1"] + [a for a in [lan_address()] if a]
    else:
        hosts = [host]
    return [f"http://{h if ':' not in h else f'[{h}]'}:{port}/" for h in hosts]


def _serve(args: argparse.Namespace) -> int:
    import segno
    import waitress

    from scorekeeper.store import StorageUnavailable, Store, StoreError

    app = _app(args.db)
    database = app.config["DATABASE"]
    try:
        Store(database).close()  # fail now, with a clear message, not on the first page
    except (StorageUnavailable, StoreError) as error:
        return _fail(str(error))
    try:
        server = waitress.create_server(
            app,
            host=args.host,
            port=args.port,
            threads=max(8, args.threads),
            ident="scorekeeper",
            # Phones keep idle connections open for minutes: waitress's default of 100 would
            # leave the 101st phone hanging (bench/bench_load.py, docs/capacity.md).
            connection_limit=1000,
            asyncore_use_poll=True,
        )
    except OSError as error:
        return _fail(f"cannot listen on {args.host}:{args.port}: {error.strerror or error}")
    urls = _urls(args.host, args.port)
    print(f"scorekeeper is serving {database}")
    for url in urls:
        print(f"  {url}")
    phone = urls[-1]
    print(f"\nOpen {phone} on a phone on the same network, or scan:\n")
    segno.make(phone, error="m").terminal(compact=True)
    print("\nPress Ctrl+C to stop.", flush=True)
    try:
        server.run()
    except KeyboardInterrupt:
        print("\nstopped")
    return 0


def _import(args: argparse.Namespace) -> int:
    from scorekeeper import gamefile
    from scorekeeper.store import Store, StoreError
    from scorekeeper.web.gamedata import create_from_game

    try:
        text = sys.stdin.buffer.read() if args.file == "-" else Path(args.file).read_bytes()
    except OSError as error:
        return _fail(f"{args.file}: cannot read the file: {error.strerror}", 2)
    try:
        game = gamefile.loads(text)
    except InvalidGame as invalid:
        for problem in invalid.problems:
            print(problem, file=sys.stderr)
        return 2
    database = _app(args.db).config["DATABASE"]
    try:
        with Store(database) as store:
            record = create_from_game(store, game)
    except StoreError as error:
        return _fail(str(error))
    base = (args.url or _urls("0.0.0.0", 8000)[-1]).rstrip("/")
    count = len(game.deals)
    print(f"imported {game.name or args.file}: {count} deal{'' if count == 1 else 's'}")
    print(f"edit: {base}/g/{record.edit_token}")
    print(f"view: {base}/v/{record.view_token}")
    return 0


def _backup(args: argparse.Namespace) -> int:
    from scorekeeper.store import Store, StoreError

    database = _app(args.db).config["DATABASE"]
    if not Path(database).is_file():
        return _fail(f"there is no database at {database}")
    from scorekeeper.store.store import same_file

    if same_file(Path(args.path), Path(database)):
        return _fail(f"{args.path} is the database itself: write the backup to another file", 2)
    try:
        with Store(database) as store:
            with contextlib.suppress(StoreError):  # a read-only file is still backed up
                store.purge_deleted()  # games deleted long ago are not copied
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
