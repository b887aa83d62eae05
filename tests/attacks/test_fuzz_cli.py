"""Fuzz every CLI command that reads a file (issue 22): `score` (JSON and text), `import` of a
game file and of a company file, with the hostile corpus of tests/fuzzing.py. The bar: exit
status 0 or 2, and on 2 one line per problem on stderr; never a traceback.

main() is called in the test's own process (fast); a few real runs of the installed command
show the same from the outside.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from scorekeeper.cli import main

from ..fuzzing import FUZZ_EXAMPLES, HUGE, hostile_file, to_json
from ..harness import CLI
from .test_fuzz_web import GAME_FILE

COMPANY_FILE = {
    "format": "scorekeeper-company/1",
    "name": "Fridays",
    "convention": "sochi",
    "options": {"stake": "0.10"},
    "players": [{"id": 1, "name": "Anna"}, {"id": 2, "name": "Boris"}, {"id": 3, "name": "Vera"}],
    "games": [
        {
            "played_on": "2026-11-20",
            "players": {"Anna": 1, "Boris": 2, "Vera": 3},
            "game": GAME_FILE,
        }
    ],
    "payments": [{"payer": 2, "payee": 1, "amount": "5.00", "paid_on": "2026-11-21", "game": 0}],
}
CONTROL = re.compile(r"[\x00-\x09\x0b-\x1f\x7f]")


def run_main(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(argv)
    return status, out.getvalue(), err.getvalue()


def assert_one_line_per_problem(status: int, err: str, what: str) -> None:
    assert status in (0, 2), f"{what}: exit {status}\n{err[-2000:]}"
    assert "Traceback" not in err, what
    err.encode("utf-8")  # a terminal can print every message (no lone surrogate)
    if status == 2:
        lines = err.splitlines()
        assert lines, f"{what}: exit 2 and nothing said"
        for line in lines:
            assert line.strip(), f"{what}: a blank line among the problems: {err!r}"
            assert not CONTROL.search(line), f"{what}: a control character: {line!r}"


@pytest.fixture(scope="module")
def where(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("cli-fuzz")


def files() -> st.SearchStrategy[bytes]:
    """A hostile game or company file, or bytes that are no JSON at all."""
    return st.one_of(
        hostile_file(GAME_FILE).flatmap(
            lambda d: st.booleans().map(lambda a: to_json(d, ensure_ascii=a))
        ),
        hostile_file(COMPANY_FILE).flatmap(
            lambda d: st.booleans().map(lambda a: to_json(d, ensure_ascii=a))
        ),
        st.binary(max_size=200),
        st.sampled_from(
            [b"[" * 100_000, b"{" * 5000, b"\xff\xfe\x00", b"", b"null", b"9" * 5000, b"NaN"]
        ),
    )


@settings(
    max_examples=max(60, FUZZ_EXAMPLES // 3),
    deadline=None,
    derandomize=FUZZ_EXAMPLES <= 1000,
    suppress_health_check=list(HealthCheck),
    database=None,
    phases=[Phase.generate],
)
@given(content=files(), command=st.sampled_from(["score", "score-text", "import"]))
def test_every_file_command_refuses_hostile_files_line_by_line(
    where: Path, content: bytes, command: str
) -> None:
    path = where / "hostile.json"
    path.write_bytes(content)
    argv = {
        "score": ["score", str(path)],
        "score-text": ["score", str(path), "--format", "text", "--settle", "--lang", "ru"],
        "import": ["import", str(path), "--db", str(where / "fuzz.sqlite")],
    }[command]
    status, _out, err = run_main(argv)
    assert_one_line_per_problem(status, err, f"{command} {content[:200]!r}")


SHARP_FILES = {
    "contract of 5,000 digits": {
        **GAME_FILE,
        "deals": [{**GAME_FILE["deals"][0], "contract": "9" * 5000 + "S"}],
    },
    "a lone surrogate": {**GAME_FILE, "name": "Fri\ud800day"},
    "a number of 5,000 digits": {**GAME_FILE, "options": {"pool_target": HUGE}},
    "player ids as a list": {
        **COMPANY_FILE,
        "players": [{"id": [1], "name": "Anna"}, *COMPANY_FILE["players"][1:]],
    },
    "seat ids as objects": {
        **COMPANY_FILE,
        "games": [
            {**COMPANY_FILE["games"][0], "players": {"Anna": {"a": 1}, "Boris": 2, "Vera": 3}}
        ],
    },
    "payer as a list": {
        **COMPANY_FILE,
        "payments": [{**COMPANY_FILE["payments"][0], "payer": [2]}],
    },
    "a name with a soft hyphen": {**GAME_FILE, "players": ["An\u00adna", "Boris", "Vera"]},
    "a name with a Hangul filler": {**GAME_FILE, "players": ["Anna\u3164", "Boris", "Vera"]},
    "names equal once folded": {**GAME_FILE, "players": ["Anna", "ＡＮＮＡ", "Vera"]},
}


@pytest.mark.parametrize("what", sorted(SHARP_FILES))
def test_the_real_command_refuses_each_sharp_file_with_exit_2(where: Path, what: str) -> None:
    path = where / f"{what.replace(' ', '-')}.json"
    path.write_bytes(to_json(SHARP_FILES[what]))
    commands = [["score", str(path)], ["import", str(path), "--db", str(where / "real.sqlite")]]
    if "ids" in what or "payer" in what:
        commands = commands[1:]
    for command in commands:
        done = subprocess.run(
            [CLI, *command], capture_output=True, timeout=60, env={"LANG": "C.UTF-8", "PATH": ""}
        )
        err = done.stderr.decode("utf-8")
        assert done.returncode == 2, (what, command[0], done.stdout, err)
        assert_one_line_per_problem(done.returncode, err, f"{what}: {command[0]}")
        assert len(err.splitlines()) <= 3, err


def test_a_company_file_imports_through_the_command(where: Path) -> None:
    path = where / "company.json"
    path.write_text(json.dumps(COMPANY_FILE))
    done = subprocess.run(
        [CLI, "import", str(path), "--db", str(where / "company.sqlite")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "imported the company Fridays: 1 evening, 1 payment" in done.stdout
    assert re.search(r"^edit: /c/\S+$", done.stdout, re.M)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(pytest.main([__file__]))
