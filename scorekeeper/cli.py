"""The `scorekeeper` command: score a game file, serve the app, export, import, back up."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from scorekeeper.rules import InvalidGame, score


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = argparse.ArgumentParser(prog="scorekeeper", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)

    p = commands.add_parser("score", help="print the sheet (and settlement) of a game file")
    p.add_argument("file", help="a game file (JSON), or - for standard input")
    p.add_argument("--settle", action="store_true", help="settle even if the game is not finished")
    p.add_argument("--format", choices=("json", "text"), default="json")

    args = parser.parse_args(argv)
    if args.command == "score":
        return _score(args)
    return 2  # pragma: no cover


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
        game = gamefile.loads(text)
        sheet = score(game)
    except InvalidGame as invalid:
        for problem in invalid.problems:
            print(problem, file=sys.stderr)
        return 2
    if args.format == "text":
        sys.stdout.write(report.text_report(sheet, with_settlement=args.settle))
    else:
        out = report.score_report(sheet, with_settlement=args.settle)
        sys.stdout.write(json.dumps(out, ensure_ascii=False, indent=2) + "\n")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
