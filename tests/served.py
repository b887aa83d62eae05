"""The real server in a process of its own, and the clients that talk HTTP(S) to it.

`Server` (`scorekeeper serve`, or the deploy's gunicorn, on a database file or URL) with
`Phone`, a browser that fills the real forms (CSRF token, request key, version) and follows
no redirect; `Served` (`scorekeeper serve` with its own instance folder, plain or --https)
with `Browser`, which can send the headers a proxy adds; `Caddy` with the shipped
deploy/Caddyfile in front. The fixtures `server` and `serve` (tests/conftest.py) start them
for one test and stop them after it.
"""

from __future__ import annotations

import html
import http.client
import json
import os
import re
import signal
import sqlite3
import ssl
import subprocess
import threading
import time
import urllib.parse
import uuid
from pathlib import Path
from typing import Any

from scorekeeper.store import Store
from scorekeeper.store.tournaments import Tournaments
from scorekeeper.web.options import preset_values

from .harness import (
    ANSWER_SECONDS,
    CLI,
    NINE,
    ROOT,
    Form,
    forms_of,
    stop_process,
    wait_for_start,
    wait_for_text,
)
from .ports import free_port

GUNICORN = ("gunicorn", "--config", "python:scorekeeper.gunicorn_config")
"""The deploy's command (the Dockerfile's and the systemd unit's), as `Server` args."""
PLAYERS = ["Anna", "Boris", "Vera"]
FOUR = ["Anna", "Boris", "Vera", "Gleb"]
NET_ERRORS = (OSError, http.client.HTTPException)  # refused, reset, cut off mid-answer


# -- the server and the phones ---------------------------------------------------------------


def app_environment() -> dict[str, str]:
    """This process's environment without its SCOREKEEPER_ settings, for a `scorekeeper` this
    test starts: it gets only the settings the test gives it (one left in the test process
    by an earlier test once gave every later server an hour-long statement bound), and
    Python's fault handler."""
    kept = {k: v for k, v in os.environ.items() if not k.startswith("SCOREKEEPER_")}
    # A command that crashes in C (a signal, not an exception) prints where it was.
    return kept | {"PYTHONFAULTHANDLER": "1"}


class Server:
    """`scorekeeper serve` on a free loopback port, as its own process."""

    def __init__(
        self, db: Path, log: Path, env: dict[str, str] | None = None, args: tuple[str, ...] = ()
    ) -> None:
        self.db = db
        self.log = log
        self.args = list(args)
        # A fixed secret key: sessions and CSRF tokens stay valid across a restart, as they
        # do with the key kept in instance/; no password unless a test sets one.
        self.env = {
            **app_environment(),
            "SCOREKEEPER_SECRET_KEY": "safety tests",
            "SCOREKEEPER_PASSWORD": "",
            **(env or {}),
        }
        self.process: subprocess.Popen[bytes] | None = None
        self.port = 0

    def start(self, port: int | None = None) -> Server:
        """Start it (on a free port unless told) and wait until it answers; fails with its
        output if it never does."""
        self.port = port or free_port()
        with self.log.open("ab") as out:
            command = [CLI, "serve", "--host", "127.0.0.1", "--port", str(self.port)]
            command += ["--db", str(self.db), *self.args]
            if self.args[:1] == ["gunicorn"]:  # the deploy's own command (the Dockerfile's)
                command = [str(ROOT / ".venv" / "bin" / "gunicorn"), *self.args[1:]]
                self.env |= {"SCOREKEEPER_DB": str(self.db)}
                self.env |= {"SCOREKEEPER_BIND": f"127.0.0.1:{self.port}"}
            self.process = subprocess.Popen(
                command,
                stdout=out,
                stderr=subprocess.STDOUT,
                env=self.env,
            )
        try:
            wait_for_start(
                lambda: Phone(self.port).get("/healthz").status == 200,
                self.process,
                self.log.read_text,
            )
        except AssertionError:
            self.stop()
            raise
        return self

    def logged(self) -> str:
        """The server's log once every request made before this call is in it: the access
        log is written by a thread of its own, a moment after the answer. A marker request
        is sent and waited for (failing, and saying so, if it never comes)."""
        marker = f"/logged-{time.monotonic_ns()}"
        Phone(self.port).get(marker)
        wait_for_text(self.log, marker)
        return self.log.read_text(errors="replace")

    def kill(self) -> None:
        """kill -9: no chance to finish a request, close a file or checkpoint the WAL."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=20)

    def stop(self) -> None:
        """Stop it (politely, then not)."""
        if self.process is None:
            return
        stop_process(self.process)
        self.process = None


class Reply:
    """An HTTP answer: status, headers and body as text."""

    def __init__(self, status: int, headers: http.client.HTTPMessage, body: bytes) -> None:
        self.status = status
        self.headers = headers
        self.body = body
        self.html = body.decode("utf-8", "replace")

    @property
    def location(self) -> str:
        return urllib.parse.urlsplit(self.headers.get("Location", "")).path

    def form(self, id_or_action: str) -> Form:
        for form in forms_of(self.html):
            if form.id == id_or_action or id_or_action in form.action:
                return form
        raise AssertionError(f"no form {id_or_action!r} in a {self.status} answer")


class Phone:
    """One browser: its own cookies, one HTTP connection per request, never a redirect
    followed (so a test sees each 302 the server sends)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.cookies: dict[str, str] = {}
        self.set_cookies: list[str] = []
        self._lock = threading.Lock()

    def request(self, method: str, path: str, body: bytes = b"", kind: str = "") -> Reply:
        headers = {"Connection": "close"}
        with self._lock:
            if self.cookies:
                headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if kind:
            headers["Content-Type"] = kind
        conn = self.connection()
        try:
            conn.request(method, path, body=body or None, headers=headers)
            response = conn.getresponse()
            reply = Reply(response.status, response.headers, response.read())
        finally:
            conn.close()
        with self._lock:
            for cookie in reply.headers.get_all("Set-Cookie") or []:
                self.set_cookies.append(cookie)
                name, _, value = cookie.split(";", 1)[0].partition("=")
                self.cookies[name.strip()] = value.strip()
        return reply

    def connection(self) -> http.client.HTTPConnection:
        """A new connection to the server (plain HTTP on loopback)."""
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=ANSWER_SECONDS)

    def get(self, path: str) -> Reply:
        return self.request("GET", path)

    def post(self, path: str, fields: dict[str, list[str]]) -> Reply:
        body = urllib.parse.urlencode(fields, doseq=True).encode()
        return self.request("POST", path, body, "application/x-www-form-urlencoded")

    def upload(self, path: str, fields: dict[str, list[str]], name: str, data: bytes) -> Reply:
        """Post a multipart form with one file, as the import page does."""
        boundary = uuid.uuid4().hex
        parts = [
            f'--{boundary}\r\nContent-Disposition: form-data; name="{key}"\r\n\r\n{value}\r\n'
            for key, values in fields.items()
            for value in values
        ]
        head = (
            f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; '
            f'filename="game.json"\r\nContent-Type: application/json\r\n\r\n'
        )
        body = "".join(parts).encode() + head.encode() + data + f"\r\n--{boundary}--\r\n".encode()
        return self.request("POST", path, body, f"multipart/form-data; boundary={boundary}")


def fill_new_game(form: Form, players: list[str], first_dealer: int = 0, **extra: str) -> Form:
    """Fill the new game form for a Sochi game of these players."""
    for field, value in preset_values("sochi").items():
        if isinstance(value, bool):
            form.set(**{field: "y" if value else None})
        else:
            form.set(**{field: value})
    form.set(name="Friday", convention="sochi", rendered_preset="sochi", first_dealer=first_dealer)
    for i in range(4):
        form.set(**{f"player_{i}": players[i] if i < len(players) else ""})
    return form.set(**extra)


def new_game(phone: Phone, players: list[str] = PLAYERS, first_dealer: int = 0) -> str:
    """Create a game through the new game form; returns its edit token."""
    form = fill_new_game(phone.get("/new").form("new-game"), players, first_dealer)
    reply = phone.post("/new", form.data())
    assert reply.status == 302, reply.html[:800]
    assert reply.location.startswith("/g/")
    return reply.location.rsplit("/", 1)[-1]


def checked(phone: Phone, token: str, **fields: str) -> dict[str, list[str]]:
    """Open the deal form, fill it, tap Check: the fields a tap on Save would send."""
    url = f"/g/{token}/deal/new"
    form = phone.get(url).form("deal-form").set(**fields)
    reply = phone.post(url, {**form.data(), "action": ["check"]})
    assert reply.status == 200, reply.html[:800]
    again = reply.form("deal-form")
    assert again.value("checked"), "the deal did not check"
    return {**again.data(), "action": ["save"]}


def correction(reason: str) -> dict[str, str]:
    """A correction writing one point of hill on Boris: valid whatever the sheet holds."""
    return {
        "kind": "correction",
        "reason": reason,
        "corr_player_0": "1",
        "corr_column_0": "hill",
        "corr_amount_0": "1",
    }


def save(phone: Phone, token: str, fields: dict[str, list[str]]) -> dict[str, list[str]]:
    """Tap Save until the server takes it; after a version conflict, save the form it shows
    again (re-checked against the sheet as it now is). Returns the fields it took."""
    for _ in range(200):
        reply = phone.post(f"/g/{token}/deal/new", fields)
        if reply.status == 302:
            assert reply.location == f"/g/{token}", reply.location
            return fields
        assert reply.status == 409, (reply.status, reply.html[:800])
        fields = {**reply.form("deal-form").data(), "action": ["save"]}
    raise AssertionError("two hundred conflicts in a row")


def game_file(phone: Phone, token: str) -> dict[str, Any]:
    """The game file the server hands out for download."""
    reply = phone.get(f"/g/{token}/game.json")
    assert reply.status == 200
    data: dict[str, Any] = json.loads(reply.body)
    return data


def reasons_of(phone: Phone, token: str) -> list[str]:
    """The reasons of the game's corrections, from its game file."""
    return [deal["reason"] for deal in game_file(phone, token)["deals"]]


def version_of(phone: Phone, token: str) -> int:
    reply = phone.get(f"/g/{token}/version")
    assert reply.status == 200
    return int(json.loads(reply.body)["version"])


def integrity(db: Path) -> str:
    conn = sqlite3.connect(db)
    try:
        return "\n".join(str(row[0]) for row in conn.execute("PRAGMA integrity_check"))
    finally:
        conn.close()


# -- `scorekeeper serve` with its own instance folder, and Caddy in front --------------------


FORWARDED = {
    "X-Forwarded-Proto": "https",
    "X-Forwarded-Host": "pulka.example.org",
    "X-Forwarded-For": "203.0.113.9",
}


class Served:
    """`scorekeeper serve` in a process of its own, with its own instance folder."""

    def __init__(self, tmp: Path, *args: str, env: dict[str, str] | None = None) -> None:
        self.port = free_port()
        self.instance = tmp / "instance"
        self.out = tmp / f"serve-{self.port}.out"
        self.err = tmp / f"serve-{self.port}.err"
        self.https = "--https" in args
        with self.out.open("wb") as out, self.err.open("wb") as err:
            self.process = subprocess.Popen(
                [CLI, "serve", "--host", "127.0.0.1", "--port", str(self.port), *args]
                + ["--db", str(tmp / "games.sqlite")],
                stdout=out,
                stderr=err,
                env={
                    **app_environment(),
                    "SCOREKEEPER_INSTANCE": str(self.instance),
                    **(env or {}),
                },
            )

    def connection(self) -> http.client.HTTPConnection:
        if self.https:
            context = ssl.create_default_context(cafile=str(self.instance / "tls" / "cert.pem"))
            return http.client.HTTPSConnection(
                "localhost", self.port, context=context, timeout=ANSWER_SECONDS
            )
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=ANSWER_SECONDS)

    def wait(self) -> Served:
        try:
            wait_for_start(
                lambda: Browser(self).request("GET", "/healthz")[0] > 0,  # any answer
                self.process,
                self.err.read_text,
            )
        except AssertionError:
            self.stop()
            raise
        return self

    def stop(self) -> None:
        stop_process(self.process)


class Browser:
    """Cookies and fixed extra headers (those a proxy adds); no redirect is followed."""

    def __init__(self, served: Served, headers: dict[str, str] | None = None) -> None:
        self.served = served
        self.headers = headers or {}
        self.cookies: dict[str, str] = {}
        self.set_cookies: list[str] = []

    def request(
        self, method: str, path: str, body: bytes = b"", kind: str = ""
    ) -> tuple[int, http.client.HTTPMessage, str]:
        headers = dict(self.headers)
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if kind:
            headers["Content-Type"] = kind
        conn = self.served.connection()
        try:
            conn.request(method, path, body=body or None, headers=headers)
            response = conn.getresponse()
            status, reply_headers, text = (
                response.status,
                response.headers,
                response.read().decode("utf-8", "replace"),
            )
        finally:
            conn.close()
        for cookie in reply_headers.get_all("Set-Cookie") or []:
            self.set_cookies.append(cookie)
            name, _, value = cookie.split(";", 1)[0].partition("=")
            self.cookies[name.strip()] = value.strip()
        return status, reply_headers, text

    def form(self, path: str, form_id: str) -> Form:
        status, _, html = self.request("GET", path)
        assert status == 200, html[:500]
        return next(f for f in forms_of(html) if f.id == form_id)

    def new_game(self) -> str:
        form = fill_new_game(self.form("/new", "new-game"), PLAYERS)
        body = urllib.parse.urlencode(form.data(), doseq=True).encode()
        status, headers, html = self.request(
            "POST", "/new", body, "application/x-www-form-urlencoded"
        )
        assert status == 302, html[:800]
        return urllib.parse.urlsplit(headers["Location"]).path.rsplit("/", 1)[-1]


def view_link(html: str) -> str:
    """The read-only link a game page shows, whole (scheme and host as the server wrote them)."""
    found = re.search(r"(https?://[^\"'<\s]+/v/[A-Za-z0-9_-]+)", html)
    assert found, "no view link on the game page"
    return found.group(1)


def caddy_buffering() -> str:
    """How the Caddy on this machine names request body buffering (deploy/Caddyfile's
    CADDY_BUFFERING): `request_buffers` from Caddy 2.6.4 on, `buffer_requests` before."""
    done = subprocess.run(["caddy", "version"], capture_output=True, text=True, timeout=30)
    found = re.match(r"v?(\d+)\.(\d+)\.(\d+)", done.stdout.strip())
    version = tuple(int(n) for n in found.groups()) if found else (2, 10, 0)
    if version >= (2, 6, 4):
        return "request_buffers 3MB"
    return "buffer_requests\nmax_buffer_size 3145728"


class Caddy:
    """Caddy with the shipped deploy/Caddyfile, TLS from its own local authority, in front of
    a server; its state (the authority, certificates) kept in the test's folder."""

    def __init__(self, tmp: Path, upstream_port: int) -> None:
        self.port = free_port()
        self.home = tmp / "caddy"
        self.home.mkdir()
        self.log = tmp / "caddy.log"
        env = {
            **os.environ,
            "HOME": str(self.home),
            "XDG_DATA_HOME": str(self.home),
            "XDG_CONFIG_HOME": str(self.home),
            "SCOREKEEPER_SITE": f"https://localhost:{self.port}",
            "SCOREKEEPER_UPSTREAM": f"127.0.0.1:{upstream_port}",
            # No admin API (tests run side by side), no change to the machine's trust store.
            "CADDY_GLOBAL": "admin off\nskip_install_trust\nauto_https disable_redirects",
            "CADDY_BUFFERING": caddy_buffering(),
        }
        with self.log.open("wb") as out:
            self.process = subprocess.Popen(
                ["caddy", "run", "--config", str(ROOT / "deploy" / "Caddyfile")]
                + ["--adapter", "caddyfile"],
                stdout=out,
                stderr=subprocess.STDOUT,
                env=env,
            )

    @property
    def root(self) -> Path:
        return self.home / "caddy" / "pki" / "authorities" / "local" / "root.crt"

    def connection(self) -> http.client.HTTPConnection:
        context = ssl.create_default_context(cafile=str(self.root))
        return http.client.HTTPSConnection(
            "localhost", self.port, context=context, timeout=ANSWER_SECONDS
        )

    def wait(self) -> Caddy:
        def answers() -> bool:
            if not self.root.is_file():
                return False
            conn = self.connection()
            try:
                conn.request("GET", "/healthz")
                return conn.getresponse().status == 200
            finally:
                conn.close()

        wait_for_start(answers, self.process, self.log.read_text, "Caddy")
        return self

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=20)


# -- what a following page is told --------------------------------------------------------------

FOLLOW = re.compile(r'<div hidden id="follow"[^>]*>')


def follow_of(page: str) -> dict[str, str]:
    """The attributes of the page's #follow: what its script follows, and how."""
    tag = FOLLOW.search(page)
    assert tag is not None, "the page has no #follow"
    return {k: html.unescape(v) for k, v in re.findall(r'([\w-]+)="([^"]*)"', tag.group(0))}


def view_of(phone: Phone, token: str) -> str:
    """The read-only link's token, as the game page shows it."""
    found = re.search(r"/v/([A-Za-z0-9_-]+)", phone.get(f"/g/{token}").html)
    assert found is not None
    return found.group(1)


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    """`scorekeeper` run for real with these arguments, with no SCOREKEEPER_ setting of this
    machine and LANG=C: its exit status and its output."""
    return subprocess.run(
        [CLI, *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={**app_environment(), "LANG": "C"},
    )


# -- a tournament at the real server -------------------------------------------------------


def new_tournament(phone: Phone, roster: list[str] = NINE) -> str:
    """Create a tournament through its form and seat tour 1; returns the edit token."""
    form = phone.get("/tournament/new").form("new-tournament")
    form.set(name="Race cup", roster="\n".join(roster), rounds="3")
    made = phone.post("/tournament/new", form.data())
    assert made.status == 302, made.html[:800]
    token = made.location.rsplit("/", 1)[-1]
    seated = phone.post(f"/t/{token}/seat", phone.get(f"/t/{token}").form("/seat").data())
    assert seated.status == 302, seated.html[:800]
    return token


def table_tokens(db: Path, token: str) -> list[str]:
    """The edit links of tour 1's table games, as stored."""
    with Store(db) as store:
        return [t.game.edit_token for t in Tournaments(store).get(token).tour(1)]


def by_script(phone: Phone, url: str, fields: dict[str, list[str]]) -> tuple[int, Any]:
    """Send a Save as the deal form's script (and its offline queue) does, X-Save: json:
    the status and the JSON answer."""
    conn = http.client.HTTPConnection("127.0.0.1", phone.port, timeout=30)
    try:
        cookie = "; ".join(f"{k}={v}" for k, v in phone.cookies.items())
        body = urllib.parse.urlencode(fields, doseq=True)
        headers = {
            "Cookie": cookie,
            "X-Save": "json",
            "Content-Type": "application/x-www-form-urlencoded",
        }
        conn.request("POST", url, body=body, headers=headers)
        response = conn.getresponse()
        return response.status, json.loads(response.read())
    finally:
        conn.close()
