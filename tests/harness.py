"""The test harness that drives the app as a phone does, without a browser: it reads the
real forms of a page (hidden fields, CSRF token and all), fills them in by the names the
scorer sees, and posts them. The fixtures that hand it out are in conftest.py."""

from __future__ import annotations

import asyncio
import contextlib
import html as html_module
import http.client
import os
import re
import subprocess
import time
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from html.parser import HTMLParser
from pathlib import Path
from typing import Any, TypedDict, TypeVar, Unpack

from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from scorekeeper.store import GameRecord, Store

ROOT = Path(__file__).resolve().parents[1]
TRANSLATIONS = ROOT / "scorekeeper" / "translations"
#: A tournament's roster of nine (three tables of three).
NINE = ["Anna", "Boris", "Vera", "Gleb", "Dasha", "Egor", "Zoya", "Ivan", "Klara"]
#: The installed `scorekeeper` command (the checkout's .venv), as a subprocess runs it.
CLI = str(ROOT / ".venv" / "bin" / "scorekeeper")

#: How long a server may take to start before a test fails: generous, since a loaded machine
#: (several test runs on two cores) takes 15 s or more for what an idle one does in a second.
START_SECONDS = 120

#: How long one request may take before a client gives up: a PDF drawn on a machine at a
#: load of 50 takes tens of seconds. A wait for an answer, never a measure of speed (timings
#: belong in bench/).
ANSWER_SECONDS = START_SECONDS


def cpu_seconds(pid: int) -> float:
    """The processor time a process has used so far (user and system), from /proc: what a
    request cost, the same on a busy machine as on a quiet one, unlike the time it took."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def wait_for_start(
    ready: Callable[[], bool],
    process: subprocess.Popen[Any],
    log: Callable[[], str],
    what: str = "the server",
) -> None:
    """Wait until `ready()` (it answers its readiness check) while the process runs. Fails
    saying it was still starting after START_SECONDS when it lives but never answered (a busy
    machine), or with its exit status when it died first; with its log either way."""
    started = time.monotonic()
    while time.monotonic() - started < START_SECONDS:
        if process.poll() is not None:
            break
        try:
            if ready():
                return
        except (OSError, http.client.HTTPException):  # not listening, or cut off: not yet
            pass
        time.sleep(0.05)
    status = process.poll()
    if status is None:
        raise AssertionError(
            f"{what} was still starting after {time.monotonic() - started:.0f} s (running, "
            f"but not answering yet: the machine may be busy); its log:\n{log()}"
        )
    raise AssertionError(f"{what} exited with status {status} before it answered:\n{log()}")


def stop_process(process: subprocess.Popen[Any], seconds: float = 20) -> None:
    """Stop a process politely (SIGTERM), then not (SIGKILL) if it has not ended in time."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=seconds)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=seconds)


def until(condition: Callable[[], bool], what: str, pause: float = 0.05) -> None:
    """Wait for an event: until `condition()` holds. The bound (START_SECONDS) only ends a
    test whose event never comes, saying which (`what`, the event awaited); it is no measure
    of speed, which belongs in bench/."""
    started = time.monotonic()
    while not condition():
        if time.monotonic() - started > START_SECONDS:
            raise AssertionError(f"never happened in {START_SECONDS} s: {what}")
        time.sleep(pause)


def wait_for_text(path: Path, text: str, what: str = "the server's log") -> None:
    """Until the file holds the text (a server writes a request's log line once its answer
    has gone out). Fails after START_SECONDS saying so, with the file's end."""
    try:
        until(lambda: text in path.read_text(errors="replace"), f"{text!r} in {what}", 0.02)
    except AssertionError as never:
        raise AssertionError(f"{never}:\n{path.read_text(errors='replace')[-2000:]}") from None


def tcp_queues() -> dict[tuple[int, int], tuple[int, int]]:
    """Every established loopback TCP connection of this machine: (local port, remote port)
    → (bytes sent and not yet acknowledged, bytes received and not yet read by their
    process)."""
    found: dict[tuple[int, int], tuple[int, int]] = {}
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(FileNotFoundError):
            for line in Path(table).read_text().splitlines()[1:]:
                fields = line.split()
                local, remote, state, queues = fields[1], fields[2], fields[3], fields[4]
                if state != "01":  # ESTABLISHED
                    continue
                tx, rx = (int(q, 16) for q in queues.split(":"))
                ports = int(local.rsplit(":", 1)[1], 16), int(remote.rsplit(":", 1)[1], 16)
                found[ports] = (tx, rx)
    return found


def wait_until_read(server_port: int, client_port: int) -> None:
    """Until the server's process has read every byte the client sent on its connection (the
    client's send queue and the server's receive queue both empty), or has closed it: the
    server's own progress, not a fixed pause. Fails after START_SECONDS saying so."""
    started = time.monotonic()
    while time.monotonic() - started < START_SECONDS:
        queues = tcp_queues()
        client = queues.get((client_port, server_port))
        server = queues.get((server_port, client_port))
        if server is None or (server[1] == 0 and (client is None or client[0] == 0)):
            return  # read, or closed by the server (its end is no longer established)
        time.sleep(0.02)
    raise AssertionError(
        f"the server had not read what its client sent after {START_SECONDS} s (the machine"
        " may be busy)"
    )


class DealWords(TypedDict, total=False):
    """A deal as the scorer says it, by names: what the form (or the browser) is told to tap."""

    declarer: str
    contract: str
    answers: dict[str, str]
    tricks: dict[str, int]
    reason: str
    entries: list[tuple[str, str, str | None, str]]
    """Correction rows: (player, column, on whom or None, amount)."""


SEVEN_DOWN_TWO: DealWords = {
    "declarer": "Anna",
    "contract": "7S",
    "answers": {"Boris": "whist", "Vera": "pass"},
    "tricks": {"Anna": 5, "Boris": 3, "Vera": 2},
}
"""§8 example 1 at Anna, Boris and Vera's table: Anna's 7♠, Boris whists, Anna takes 5."""


def seats(players: list[str] | tuple[str, ...]) -> dict[str, str]:
    """Each player's seat number as the form's fields and radios name it."""
    return {p: str(i) for i, p in enumerate(players)}


# -- reading the forms of a page ----------------------------------------------------------------


class Form:
    """One <form> of a page: where it posts and the values it would send as it stands."""

    def __init__(self, attrs: dict[str, str | None]) -> None:
        self.id = attrs.get("id") or ""
        self.action = attrs.get("action") or ""
        self.method = (attrs.get("method") or "get").lower()
        self.fields: dict[str, list[str]] = {}
        self.names: list[str] = []
        self.radios: dict[str, list[str]] = {}
        self.buttons: list[tuple[str, str]] = []

    def _add(self, name: str, value: str | None) -> None:
        if name not in self.names:
            self.names.append(name)
        if value is not None:
            self.fields.setdefault(name, []).append(value)

    def set(self, **values: Any) -> Form:
        """Set fields (a list for several values, None to send nothing)."""
        for name, value in values.items():
            if value is None:
                self.fields.pop(name, None)
            elif isinstance(value, list | tuple):
                self.fields[name] = [str(v) for v in value]
            else:
                self.fields[name] = [str(value)]
        return self

    def data(self) -> dict[str, list[str]]:
        """The values to post."""
        return {k: list(v) for k, v in self.fields.items()}

    def value(self, name: str) -> str | None:
        """A field's (first) value."""
        values = self.fields.get(name)
        return values[0] if values else None


class _FormParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.forms: list[Form] = []
        self.current: Form | None = None
        self.select: str | None = None
        self.select_first: str | None = None
        self.select_chosen = False
        self.textarea: str | None = None
        self.text = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "form":
            self.current = Form(a)
            self.forms.append(self.current)
            return
        form = self.current
        if form is None:
            return
        name = a.get("name")
        if tag == "input" and name:
            kind = (a.get("type") or "text").lower()
            if kind in ("radio", "checkbox"):
                form.radios.setdefault(name, []).append(a.get("value") or "on")
                form._add(name, (a.get("value") or "on") if "checked" in a else None)
            elif kind == "submit":
                form.buttons.append((name, a.get("value") or ""))
            elif kind != "file":
                form._add(name, a.get("value") or "")
        elif tag == "button" and name:
            form.buttons.append((name, a.get("value") or ""))
        elif tag == "select" and name:
            self.select, self.select_first, self.select_chosen = name, None, False
            form._add(name, None)
        elif tag == "option" and self.select:
            value = a.get("value") or ""
            if self.select_first is None:
                self.select_first = value
            if "selected" in a:
                form._add(self.select, value)
                self.select_chosen = True
        elif tag == "textarea" and name:
            self.textarea, self.text = name, ""

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.current = None
        elif tag == "select" and self.select and self.current:
            if not self.select_chosen and self.select_first is not None:
                self.current._add(self.select, self.select_first)
            self.select = None
        elif tag == "textarea" and self.textarea and self.current:
            self.current._add(self.textarea, self.text.removeprefix("\n"))
            self.textarea = None

    def handle_data(self, data: str) -> None:
        if self.textarea:
            self.text += data


def with_rules(data: dict[str, list[str]], **more: str) -> dict[str, list[str]]:
    """A form's data with the Sochi preset's house rules filled in as the page shows them
    (a checkbox ticked is "y", one not ticked is absent), then these fields set."""
    from scorekeeper.web.options import preset_values

    out = {k: list(v) for k, v in data.items()}
    for name, value in preset_values("sochi").items():
        if isinstance(value, bool):
            out.pop(name, None)
            if value:
                out[name] = ["y"]
        elif isinstance(value, list):
            out[name] = [str(v) for v in value]
        else:
            out[name] = [str(value)]
    return out | {name: [value] for name, value in more.items()}


def forms_of(html: str) -> list[Form]:
    """Every form of a page."""
    parser = _FormParser()
    parser.feed(html)
    return parser.forms


class Page:
    """A response and what a person sees in it."""

    def __init__(self, response: TestResponse, url: str) -> None:
        self.response = response
        self.url = url
        self.status = response.status_code
        self.html = response.get_data(as_text=True)

    def form(self, id_or_action: str = "") -> Form:
        """The form with this id, or whose action contains this text (first form if empty)."""
        for form in forms_of(self.html):
            if not id_or_action or form.id == id_or_action or id_or_action in form.action:
                return form
        raise AssertionError(f"no form {id_or_action!r} on {self.url}")

    def has_form(self, id_or_action: str) -> bool:
        """True if the page has such a form."""
        return any(f.id == id_or_action or id_or_action in f.action for f in forms_of(self.html))

    def text(self) -> str:
        """The page's visible text, roughly (tags removed, whitespace collapsed)."""
        body = re.sub(r"<(script|style)\b.*?</\1>", " ", self.html, flags=re.S)
        body = re.sub(r"<[^>]+>", " ", body)
        return re.sub(r"\s+", " ", html_module.unescape(body)).strip()

    def errors(self) -> list[str]:
        """The messages shown next to fields and at the top."""
        found = re.findall(r'<ul class="errors"[^>]*>(.*?)</ul>', self.html, flags=re.S)
        found += re.findall(
            r'<section class="card problems"[^>]*>(.*?)</section>', self.html, flags=re.S
        )
        items: list[str] = []
        for block in found:
            for item in re.findall(r"<li>(.*?)</li>", block, flags=re.S):
                items.append(html_module.unescape(re.sub(r"<[^>]+>", "", item)).strip())
        return items


class Web:
    """Drives the app through its pages and forms."""

    def __init__(self, client: FlaskClient) -> None:
        self.client = client

    def get(self, url: str, status: int | None = 200, **kw: Any) -> Page:
        """Open a page; checks the status when given."""
        page = Page(self.client.get(url, **kw), url)
        if status is not None:
            assert page.status == status, (url, page.status, page.text()[:600])
        return page

    def submit(
        self, page: Page, form: Form, *, button: tuple[str, str] | None = None, follow: bool = False
    ) -> Page:
        """Post a form of a page (with a button's name and value, as a tap would)."""
        data = form.data()
        if button is not None:
            data[button[0]] = [button[1]]
        url = form.action or page.url
        response = self.client.post(url, data=data, follow_redirects=follow)
        return Page(response, url)

    # -- games --------------------------------------------------------------------------

    def new_game(
        self,
        players: list[str] | tuple[str, ...] = ("Anna", "Boris", "Vera"),
        *,
        convention: str = "sochi",
        first_dealer: int = 0,
        name: str = "Friday",
        **options: Any,
    ) -> str:
        """Create a game through the new game form; returns its edit token."""
        page = self.get("/new")
        form = page.form("new-game")
        form.set(name=name, convention=convention, rendered_preset=convention)
        from scorekeeper.web.options import preset_values

        for field, value in preset_values(convention).items():
            if isinstance(value, bool):
                form.set(**{field: "y" if value else None})
            else:
                form.set(**{field: value})
        for i in range(5):
            form.set(**{f"player_{i}": players[i] if i < len(players) else ""})
        form.set(first_dealer=first_dealer)
        for key, value in options.items():
            form.set(**{f"opt_{key}": value})
        result = self.submit(page, form)
        assert result.status == 302, result.errors() or result.text()[:800]
        location = result.response.headers["Location"]
        return location.rsplit("/", 1)[-1]

    def send_new_game(self, **fields: str) -> Page:
        """The new game form of a Sochi game of Anna, Boris and Vera, named "x", with these
        fields changed, sent: the answer, whatever it is (a refusal is a 422 page)."""
        from scorekeeper.web.options import preset_values

        page = self.get("/new")
        form = page.form("new-game")
        for field, value in preset_values("sochi").items():
            form.set(**{field: ("y" if value else None) if isinstance(value, bool) else value})
        form.set(name="x", player_0="Anna", player_1="Boris", player_2="Vera", first_dealer="0")
        form.set(**fields)
        return self.submit(page, form)

    def record(self, token: str, store: Store) -> GameRecord:
        """The game as stored."""
        return store.get_game(token)

    def deal_form(self, token: str, deal_id: int | None = None) -> tuple[Page, Form]:
        """The deal form of a game (new deal, or a deal to edit)."""
        url = f"/g/{token}/deal/new" if deal_id is None else f"/g/{token}/deal/{deal_id}/edit"
        page = self.get(url)
        return page, page.form("deal-form")

    def fill_deal(
        self, form: Form, players: list[str], kind: str, **deal: Unpack[DealWords]
    ) -> Form:
        """Fill a deal form the way a scorer taps it (names → seats)."""
        seat = seats(players)
        form.set(kind=kind)
        if deal.get("declarer") is not None:
            form.set(declarer=seat[deal["declarer"]])
        if deal.get("contract") is not None:
            form.set(contract=deal["contract"])
        for name, answer in (deal.get("answers") or {}).items():
            form.set(**{f"answer_{seat[name]}": answer})
        for name, count in (deal.get("tricks") or {}).items():
            form.set(**{f"tricks_{seat[name]}": count})
        if deal.get("reason") is not None:
            form.set(reason=deal["reason"])
        for j, (player, column, on, amount) in enumerate(deal.get("entries") or []):
            form.set(
                **{
                    f"corr_player_{j}": seat[player],
                    f"corr_column_{j}": column,
                    f"corr_on_{j}": seat[on] if on else "",
                    f"corr_amount_{j}": amount,
                }
            )
        return form

    def check(self, page: Page, form: Form) -> Page:
        """Tap "Check"."""
        return self.submit(page, form, button=("action", "check"))

    def save(self, page: Page, form: Form) -> Page:
        """Tap "Save" on a checked form."""
        return self.submit(page, form, button=("action", "save"))

    def play(self, token: str, players: list[str], kind: str, **deal: Unpack[DealWords]) -> Page:
        """Enter one deal: check it, then save it; returns the game page after the redirect."""
        page, form = self.deal_form(token)
        self.fill_deal(form, players, kind, **deal)
        checked = self.check(page, form)
        assert checked.status == 200, checked.errors() or checked.text()[:800]
        form = checked.form("deal-form")
        assert form.value("checked"), "the checked deal has no fingerprint"
        saved = self.save(checked, form)
        assert saved.status == 302, saved.errors() or saved.text()[:800]
        return self.get(saved.response.headers["Location"])


def load_script(name: str) -> Any:
    """A script of scripts/ as a module (scripts/ is no package): scripts/NAME.py."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


T = TypeVar("T")


def run_in_its_own_thread(main: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """asyncio.run in a thread of its own: the browser tier's Playwright keeps a loop in this one."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(lambda: asyncio.run(main())).result()
