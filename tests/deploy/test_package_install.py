"""The package as a user gets it: a wheel built from a clean copy, installed in a fresh venv.

Nothing of the checkout may be needed at run time: the wheel must carry the templates, the
static files and the compiled translations, and the installed `scorekeeper` must serve,
export and translate from another directory. Dependencies come from the package index
(pip's cache makes that quick), pinned by constraints.txt.
"""

from __future__ import annotations

import http.client
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import time
import urllib.parse
import zipfile
from pathlib import Path

import pytest

from ..harness import ANSWER_SECONDS, ROOT, START_SECONDS, forms_of, wait_for_start
from ..helpers import game_file
from ..ports import free_port
from ..served import fill_new_game

PLAYERS = ["Anna", "Boris", "Vera"]

INSTALL_SECONDS = 1800
"""How long one command (a wheel built, a venv filled by pip, pipx) may run before the test
gives up: a couple of minutes on a quiet machine, many more at a load of 50. A bound on a
hung command, never a measure of speed."""

#: A test here runs several such commands: pyproject's five minutes a test, meant for a hung
#: test on any machine, is less than a loaded one takes for them.
pytestmark = pytest.mark.timeout(4 * INSTALL_SECONDS)


def clean_copy(dest: Path) -> Path:
    """The files a fresh clone has (tracked and new, nothing ignored: no .mo, no .venv)."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout.decode()
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if source.is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, dest / name)
    return dest


def run(*cmd: str | Path, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(
        [str(c) for c in cmd],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=INSTALL_SECONDS,
    )
    assert result.returncode == 0, f"{cmd}:\n{result.stdout[-2000:]}\n{result.stderr[-3000:]}"
    return result


class Client:
    """Cookies kept, redirects not followed."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.cookies: dict[str, str] = {}

    def request(
        self, method: str, path: str, body: bytes = b"", kind: str = ""
    ) -> tuple[int, http.client.HTTPMessage, bytes]:
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        if kind:
            headers["Content-Type"] = kind
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=ANSWER_SECONDS)
        try:
            conn.request(method, path, body=body or None, headers=headers)
            response = conn.getresponse()
            status, reply, data = response.status, response.headers, response.read()
        finally:
            conn.close()
        for cookie in reply.get_all("Set-Cookie") or []:
            name, _, value = cookie.split(";", 1)[0].partition("=")
            self.cookies[name.strip()] = value.strip()
        return status, reply, data

    def get(self, path: str) -> tuple[int, bytes]:
        status, _, data = self.request("GET", path)
        return status, data


def test_the_built_wheel_installs_and_runs_from_anywhere(tmp_path: Path) -> None:
    started = time.monotonic()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SCOREKEEPER_", "VIRTUAL"))}
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    env["PIP_NO_COMPILE"] = "1"  # no .pyc written at install: Python writes them when it runs
    # The user's own folders, here: an installed copy keeps its data in the data folder.
    env |= {"HOME": str(tmp_path / "home"), "XDG_DATA_HOME": str(tmp_path / "data")}
    wheel = build_the_wheel_from_a_clean_copy(tmp_path, env)
    venv = install_it_in_a_fresh_venv(tmp_path, wheel, env)
    installed = time.monotonic() - started

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    cli = venv / "bin" / "scorekeeper"
    assert "usage: scorekeeper" in run(venv / "bin" / "python", "-m", "scorekeeper", "--help",
                                       cwd=elsewhere, env=env).stdout  # fmt: skip
    old_token = an_old_install_s_games_move_to_the_data_folder(venv, cli, elsewhere, env)
    token = serve_a_game_and_take_its_file(tmp_path, cli, elsewhere, env)
    the_command_line_works_on_it(cli, token, elsewhere / "game.json", elsewhere, env)
    # The venv removed (as `pipx uninstall` or a new release does): every game is still in
    # the data folder (installing again and reading them: the pipx test below).
    shutil.rmtree(venv)
    kept = sqlite3.connect(tmp_path / "data" / "scorekeeper" / "scorekeeper.sqlite")
    try:
        tokens = {row[0] for row in kept.execute("SELECT edit_token FROM games")}
    finally:
        kept.close()
    assert {old_token, token} <= tokens
    print(
        f"wheel built and installed in {installed:.0f} s; whole test {time.monotonic() - started:.0f} s"
    )


def build_the_wheel_from_a_clean_copy(tmp_path: Path, env: dict[str, str]) -> Path:
    """The wheel carries the templates, the static files and the compiled translations."""
    source = clean_copy(tmp_path / "clone")
    assert not list(source.rglob("*.mo")), "a fresh clone has no compiled translations"

    dist = tmp_path / "dist"
    run(sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", dist, source,
        cwd=tmp_path, env=env)  # fmt: skip
    (wheel,) = dist.glob("pulka_scorekeeper-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for needed in (
        "scorekeeper/templates/base.html",
        "scorekeeper/templates/pdf/sheet.html",
        "scorekeeper/static/app.css",
        "scorekeeper/static/app.js",
        "scorekeeper/translations/ru/LC_MESSAGES/messages.mo",
        "scorekeeper/translations/uk/LC_MESSAGES/messages.mo",
        "scorekeeper/translations/sr_Latn/LC_MESSAGES/messages.mo",
        "scorekeeper/translations/sr_Cyrl/LC_MESSAGES/messages.mo",
        "scorekeeper/translations/hr/LC_MESSAGES/messages.mo",
    ):
        assert needed in names, needed
    assert not (source / "build").exists() or "build/" in (ROOT / ".gitignore").read_text()
    return wheel


def install_it_in_a_fresh_venv(tmp_path: Path, wheel: Path, env: dict[str, str]) -> Path:
    """The wheel and its dependencies (pinned by constraints.txt) in a new venv: the venv."""
    venv = tmp_path / "venv"
    run(sys.executable, "-m", "venv", venv, cwd=tmp_path, env=env)
    run(venv / "bin" / "pip", "install", "-q", "-c", ROOT / "constraints.txt", wheel,
        cwd=tmp_path, env=env)  # fmt: skip
    return venv


def an_old_install_s_games_move_to_the_data_folder(
    venv: Path, cli: Path, elsewhere: Path, env: dict[str, str]
) -> str:
    """A game kept where earlier installs kept it (inside the venv) is moved, once, with the
    folder's secret key, to the data folder by the first command that opens the data, which
    says so; the game's edit token."""
    old = venv / "var" / "scorekeeper.web-instance"
    (elsewhere / "old.json").write_text(json.dumps(game_file([], players=PLAYERS)))
    imported = run(cli, "import", elsewhere / "old.json", cwd=elsewhere,
                   env={**env, "SCOREKEEPER_INSTANCE": str(old)}).stdout  # fmt: skip
    token = imported.split("edit: /g/")[1].split()[0]
    (old / "secret_key").write_text("kept from the old install")
    new = Path(env["XDG_DATA_HOME"]) / "scorekeeper"
    assert not new.exists()
    moved = run(cli, "export", token, cwd=elsewhere, env=env)
    assert f"moved the data of an earlier install from {old} to {new}" in moved.stderr
    assert not old.exists() and (new / "scorekeeper.sqlite").is_file()
    assert (new / "secret_key").read_text() == "kept from the old install"
    again = run(cli, "export", token, cwd=elsewhere, env=env)
    assert "moved" not in again.stderr  # once
    return token


def serve_a_game_and_take_its_file(
    tmp_path: Path, cli: Path, elsewhere: Path, env: dict[str, str]
) -> str:
    """`scorekeeper serve` from another directory: a phone starts a game and sees its sheet,
    its PDF and its Russian page; its game file is saved as elsewhere/game.json. The token."""
    port = free_port()
    log = (tmp_path / "serve.log").open("wb")
    server = subprocess.Popen(
        [str(cli), "serve", "--host", "127.0.0.1", "--port", str(port)],
        cwd=elsewhere,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        phone = Client(port)
        wait_until_it_answers(phone, server, tmp_path / "serve.log")
        status, home = phone.get("/")
        assert status == 200 and b"Pulka" in home
        status, css = phone.get("/static/app.css")
        assert status == 200 and len(css) > 1000
        token = start_a_game(phone, tmp_path / "serve.log")

        status, game = phone.get(f"/g/{token}")
        assert status == 200 and all(name.encode() in game for name in PLAYERS)
        status, pdf = phone.get(f"/g/{token}/pulka.pdf")
        assert status == 200 and pdf.startswith(b"%PDF") and len(pdf) > 2000
        status, russian = phone.get(f"/g/{token}?lang=ru")
        assert status == 200 and "Пулька".encode() in russian
        status, data = phone.get(f"/g/{token}/game.json")
        assert status == 200
        (elsewhere / "game.json").write_bytes(data)
    finally:
        server.terminate()
        server.wait(timeout=START_SECONDS)
        log.close()
    where = Path(env["XDG_DATA_HOME"]) / "scorekeeper" / "scorekeeper.sqlite"
    assert f"scorekeeper is serving {where}" in (tmp_path / "serve.log").read_text()
    return token


def wait_until_it_answers(phone: Client, server: subprocess.Popen[bytes], log: Path) -> None:
    """Poll /healthz until it says 200 (the server must not have died meanwhile)."""
    wait_for_start(lambda: phone.get("/healthz")[0] == 200, server, log.read_text)


def start_a_game(phone: Client, log: Path) -> str:
    """Fill and send the new game form; returns the new game's edit token."""
    status, page = phone.get("/new")
    form = next(f for f in forms_of(page.decode()) if f.id == "new-game")
    body = urllib.parse.urlencode(fill_new_game(form, PLAYERS).data(), doseq=True).encode()
    status, headers, _ = phone.request("POST", "/new", body, "application/x-www-form-urlencoded")
    assert status == 302, log.read_text()[-2000:]
    return urllib.parse.urlsplit(headers["Location"]).path.rsplit("/", 1)[-1]


def the_command_line_works_on_it(
    cli: Path, token: str, game_file: Path, elsewhere: Path, env: dict[str, str]
) -> None:
    """The command line, from the install, in a directory with no checkout in sight."""
    exported = run(cli, "export", token, "--lang", "ru", cwd=elsewhere, env=env).stdout.strip()
    assert Path(elsewhere, exported).read_bytes().startswith(b"%PDF")
    text = run(cli, "score", game_file, "--format", "text", "--lang", "ru",
               cwd=elsewhere, env=env).stdout  # fmt: skip
    assert "гора" in text and "hill" not in text
    data = json.loads(run(cli, "score", game_file, cwd=elsewhere, env=env).stdout)
    assert data["players"] == PLAYERS
    imported = run(cli, "import", game_file, cwd=elsewhere, env=env).stdout
    assert "edit: /g/" in imported and "http" not in imported.split("edit:")[1].split("\n")[0]


def test_the_source_distribution_carries_no_half_test_suite(tmp_path: Path) -> None:
    """The sdist has the app, the docs and the deploy files; of the tests, none (they run
    from a checkout), never test files without their conftest, harness and oracle."""
    import tarfile

    source = clean_copy(tmp_path / "src")
    out = tmp_path / "dist"
    tools = tmp_path / "build-tools"  # the build system pyproject.toml asks for, as pip gets it
    run(
        sys.executable,
        "-m",
        "pip",
        "install",
        "-q",
        "--target",
        tools,
        "setuptools>=77",
        "babel",
        cwd=source,
        env={**os.environ},
    )
    script = "import sys; from setuptools import build_meta as b; b.build_sdist(sys.argv[1])"
    run(sys.executable, "-c", script, out, cwd=source, env={**os.environ, "PYTHONPATH": str(tools)})
    (sdist,) = out.glob("*.tar.gz")
    with tarfile.open(sdist) as archive:
        names = [name.split("/", 1)[1] for name in archive.getnames() if "/" in name]
    assert "scorekeeper/serving.py" in names and "scorekeeper/gunicorn_config.py" in names
    assert "Dockerfile" in names and "deploy/compose.yaml" in names and "constraints.txt" in names
    assert "templates/game.html" in names and "docs/deploy.md" in names
    assert not [name for name in names if name.startswith(("tests/", "bench/"))]


def test_pipx_install_reinstall_and_uninstall_keep_every_game(tmp_path: Path) -> None:
    """The README's first install route: pipx. Its venv is replaced by `pipx reinstall` (the
    game read back) and removed by `pipx uninstall`; the games live in the data folder and
    outlive both."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SCOREKEEPER_", "VIRTUAL"))}
    env |= {
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
        "PIP_NO_COMPILE": "1",
        "HOME": str(tmp_path / "home"),
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "PIPX_HOME": str(tmp_path / "pipx"),
        "PIPX_BIN_DIR": str(tmp_path / "bin"),
        "PIPX_MAN_DIR": str(tmp_path / "man"),
    }
    tools = tmp_path / "tools"
    run(sys.executable, "-m", "venv", tools, cwd=tmp_path, env=env)
    run(tools / "bin" / "pip", "install", "-q", "pipx", cwd=tmp_path, env=env)
    pipx = tools / "bin" / "pipx"
    source = clean_copy(tmp_path / "clone")
    pins = f"--pip-args=-c {ROOT / 'constraints.txt'}"
    run(pipx, "install", source, pins, cwd=tmp_path, env=env)
    cli = tmp_path / "bin" / "scorekeeper"
    (tmp_path / "game.json").write_text(json.dumps(game_file([], players=PLAYERS)))
    imported = run(cli, "import", tmp_path / "game.json", cwd=tmp_path, env=env).stdout
    token = imported.split("edit: /g/")[1].split()[0]
    database = tmp_path / "data" / "scorekeeper" / "scorekeeper.sqlite"
    assert database.is_file()
    assert not list((tmp_path / "pipx").rglob("scorekeeper.sqlite"))  # nothing in pipx's venv

    def the_game_is_there() -> None:
        exported = run(cli, "export", token, cwd=tmp_path, env=env).stdout.strip()
        assert Path(tmp_path, exported).read_bytes().startswith(b"%PDF")

    run(pipx, "reinstall", "pulka-scorekeeper", cwd=tmp_path, env=env)
    the_game_is_there()
    run(pipx, "uninstall", "pulka-scorekeeper", cwd=tmp_path, env=env)
    assert not cli.exists() and not list((tmp_path / "pipx").rglob("pulka_scorekeeper*"))
    # The game outlives the uninstall, whole (an install reading the data folder again is
    # what the reinstall above proved).
    kept = sqlite3.connect(database)
    try:
        assert kept.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        rows = kept.execute("SELECT name FROM games WHERE edit_token = ?", (token,)).fetchall()
    finally:
        kept.close()
    assert len(rows) == 1
