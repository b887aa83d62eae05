"""The browser tier's tools: Chromium at phone size, the real server, and a scorer's thumb.

Shared by the browser tests (the fixtures that use them are in conftest.py). Everything is
tapped by what the page itself offers (a radio's value, a button's id), never by its English
label, so the same steps play an evening in Russian or Ukrainian.
"""

from __future__ import annotations

import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Unpack

from .harness import ROOT, DealWords, seats, stop_process, until, wait_for_start
from .ports import free_port
from .served import app_environment

ARTIFACTS = ROOT / "tests" / "artifacts"
SERVE = Path(sys.executable).with_name("scorekeeper")

CHROMIUM = next(
    (
        p
        for p in (
            "/usr/lib/chromium/chromium-headless-shell",
            "/usr/bin/chromium-headless-shell",
            "/usr/bin/chromium",
            "/usr/lib/chromium/chromium",
        )
        if Path(p).exists()
    ),
    None,
)
"""Chromium's headless shell (Debian's chromium-headless-shell: the same engine, drawing and
scripts, without the desktop browser around them), which Playwright itself runs headless by
default; the whole browser where only it is installed. Measured on a fresh tab with this
app's sheet: 0.04 CPU-s to open and 0.13 s to the first page, against 0.44 CPU-s and 0.47 s
for the whole browser."""
ARGS = [
    "--no-sandbox",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-gpu",
]
SETTLED = "() => !document.querySelector('#preview[aria-busy]')"
"""The deal form has settled: the preview of its last change is back (app.js, balkan.js)."""
PHONE = {"width": 375, "height": 812}
SMALL_PHONE = {"width": 375, "height": 667}
TAP = 44
"""The smallest tap target, in CSS pixels (WCAG 2.5.5, Apple's HIG)."""


def launch(playwright: Any) -> Any:
    """Headless Chromium from the system (Playwright cannot download browsers here), its
    pages' navigations steady against the host's network noise (`steady_navigation`)."""
    assert CHROMIUM, "Chromium is needed for the browser tests: apt-get install chromium"
    steady_navigation()
    return playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)


def steady_navigation() -> None:
    """Every page's `goto` tried again (NOISE_TRIES in all) when Chromium cut it for the host's
    network changing (HOST_NOISE: another test's containers bringing up a bridge), as a person
    taps the link again; any other failure is the test's. Set on
    Playwright's Page class once, so every test's navigations have it without a helper of
    their own."""
    from playwright.sync_api import Error, Page

    plain = Page.goto
    if getattr(plain, "steady", False):
        return

    def goto(self: Any, url: str, **options: Any) -> Any:
        for _ in range(NOISE_TRIES - 1):
            try:
                return plain(self, url, **options)
            except Error as error:
                said = str(error).split("\n", 1)[0]
                cut = f'interrupted by another navigation to "{url}"' in said
                if not cut and not any(noise in said for noise in HOST_NOISE):
                    raise
        return plain(self, url, **options)

    goto.steady = True
    Page.goto = goto


# -- the real server ---------------------------------------------------------------------------


class RealServer:
    """`scorekeeper serve` (uvicorn) in its own process, on a temp database file."""

    def __init__(self, db: Path, log: Path) -> None:
        self.db = db
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = {**app_environment(), "SCOREKEEPER_SECRET_KEY": "browser tests"}
        self._log = log.open("wb")
        self.process = subprocess.Popen(
            [str(SERVE), "serve", "--host", "127.0.0.1", "--port", str(self.port)]
            + ["--db", str(db)],
            stdout=self._log,
            stderr=subprocess.STDOUT,
            env=env,
            cwd=str(db.parent),
        )
        self.log = log

    def wait_ready(self) -> None:
        """Wait until the server answers; fail with its output if it died, or say it was
        still starting if it never answered (harness.wait_for_start)."""

        def home() -> bool:
            with urllib.request.urlopen(self.url + "/", timeout=5) as response:
                return bool(response.status == 200)

        try:
            wait_for_start(home, self.process, self.log.read_text, "scorekeeper serve")
        except AssertionError:
            self.stop()
            raise

    def stop(self) -> None:
        """Stop the process and close its log."""
        stop_process(self.process, 10)
        self._log.close()


# -- looking at a page -------------------------------------------------------------------------


WAIT_MS = 60_000
"""How long a browser test's step waits for its event (a page, a button, a download): long
enough for a machine at load 50, which is what it bounds, not a measure of speed."""


def pumped(page: Any, condition: Callable[[], bool]) -> Callable[[], bool]:
    """A condition on what the page's event handlers noted, for harness.until: a sync
    Playwright page runs its handlers only inside its own calls, so each look first lets
    it take in what came (a loop that only sleeps would never see the event)."""

    def look() -> bool:
        page.wait_for_timeout(50)
        return condition()

    return look


def held_requests(page: Any, url: str, *, first: bool = False, method: str = "") -> list[Any]:
    """The page's requests to `url` (a glob) held unanswered, for the test to continue or
    abort (`route.continue_()`, `route.abort()`): every one, or with `first` only the first
    (later ones go through); with `method`, only requests of that method are held."""
    held: list[Any] = []

    def hold(route: Any) -> None:
        if (method and route.request.method != method) or (first and held):
            route.continue_()
        else:
            held.append(route)

    page.route(url, hold)
    return held


HOST_NOISE = ("net::ERR_NETWORK_CHANGED", 'navigation to "chrome-error://chromewebdata/"')
"""Errors that are the machine's, not the page's: Chromium cuts every request in flight when
the host's network changes (another test's containers bringing up a bridge), and a navigation
so cut is said as one interrupted by the error page, or by Chromium's own second try of it."""
NOISE_TRIES = 3
"""A navigation tried at most this often while only the host's network noise cuts it."""


def console_error(problems: list[str]) -> Callable[[Any], None]:
    """A "console" listener (of a page or a context) noting each error the page logs into
    `problems`, the host's network noise left out."""

    def noted(message: Any) -> None:
        if message.type == "error" and not any(n in message.text for n in HOST_NOISE):
            problems.append(message.text)

    return noted


def watch_console(page: Any, problems: list[str]) -> None:
    """Note the page's console errors and uncaught exceptions into `problems`."""
    page.on("console", console_error(problems))
    page.on("pageerror", lambda e: problems.append(str(e)))


def clocked_form(page: Any, server: str, token: str, *, paused: bool = False) -> None:
    """Open the game's next deal form on Playwright's clock: `page.clock.run_for` moves the
    page's time on. Installed, that clock also runs as time passes; `paused` stops it once
    the form is open, so no timer of the page fires but by run_for (a test of what happens
    within the form's 120 ms after a tap: on a loaded machine two taps are more apart)."""
    page.clock.install()
    page.goto(f"{server}/g/{token}")
    page.locator("#next-deal").click()
    page.wait_for_selector("#deal-form[data-draft]")
    if paused:
        # A moment ahead of the page's time, which runs on meanwhile: 1 s, or more on a
        # machine where the call took longer than that ("cannot fast-forward to the past").
        for ahead in (1, 10, 60):
            try:
                page.clock.pause_at(page.evaluate("Date.now()") / 1000 + ahead)
                return
            except Exception as error:  # Playwright's Error
                if "to the past" not in str(error):
                    raise
        raise AssertionError("the page's clock never paused")


def check_given_up(page: Any, held: list[Any]) -> None:
    """The form's Check held unanswered (`held`, from held_requests): the preview stays busy
    until 20 s after it went out, then says it cannot be checked now (either family)."""
    page.clock.run_for(1_000)
    until(pumped(page, lambda: bool(held)), "the Check sent")
    page.clock.run_for(18_000)
    assert page.get_attribute("#preview", "aria-busy") == "true"
    page.clock.run_for(3_000)  # 20 s after it was sent: given up
    offline = page.get_attribute("#preview", "data-offline")
    assert offline
    page.wait_for_function(SETTLED)
    assert offline in page.inner_text("#preview")


def shot(page: Any, name: str, *, full: bool = True) -> None:
    """Save a screenshot of the page to tests/artifacts/<name>.png (git-ignored)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    y = page.evaluate("scrollY")
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=full)
    # Headless Chromium leaves the page's scroll out of step after a full-page shot (a tap
    # then lands beside its target); scrolling once puts it back in step.
    page.evaluate("(y) => { window.scrollTo(0, 0); window.scrollTo(0, y); }", y)


def no_overflow(page: Any) -> None:
    """Nothing sticks out sideways: the page is no wider than the phone."""
    width = page.evaluate("document.documentElement.scrollWidth")
    viewport = page.viewport_size["width"]
    assert width <= viewport, f"{page.url} is {width}px wide"


def sticking_out(page: Any) -> list[str]:
    """Tables wider than the card they sit in (a scrolling box excepted)."""
    return list(
        page.evaluate(
            """() => Array.from(document.querySelectorAll('table'))
              .filter(t => !t.closest('.scroll') && t.offsetParent !== null)
              .map(t => {
                const box = t.parentElement;
                const style = getComputedStyle(box);
                const inner = box.getBoundingClientRect().right
                  - parseFloat(style.paddingRight) - parseFloat(style.borderRightWidth);
                const over = t.getBoundingClientRect().right - inner;
                return over > 1 ? `${t.className || 'table'} in ${box.className}: ${Math.round(over)}px` : '';
              })
              .filter(Boolean)"""
        )
    )


def small_targets(page: Any) -> list[str]:
    """Every visible control (link, button, field, radio or checkbox label) under 44 × 44 px."""
    return list(
        page.evaluate(
            """(tap) => {
          const out = [];
          const seen = new Set();
          const controls = document.querySelectorAll(
            'a[href], button, summary, select, textarea, label.tap, .check label, label.inline,'
            + ' input:not([type=hidden]):not([type=radio]):not([type=checkbox]),'
            + ' input[type=checkbox]:not(label input)');
          for (const el of controls) {
            // A radio or checkbox is measured by the label around it, which takes the tap.
            if (el.closest('[hidden]') || seen.has(el)) continue;
            seen.add(el);
            const style = getComputedStyle(el);
            if (style.display === 'none' || style.visibility === 'hidden') continue;
            const r = el.getBoundingClientRect();
            if (r.width === 0 && r.height === 0) continue;
            if (r.width < tap - 0.5 || r.height < tap - 0.5) {
              const what = (el.innerText || el.value || el.name || el.id || '').trim().slice(0, 30);
              out.push(`${el.tagName.toLowerCase()} "${what}" ${Math.round(r.width)}x${Math.round(r.height)}`);
            }
          }
          return out;
        }""",
            TAP,
        )
    )


def unnamed_controls(page: Any) -> list[str]:
    """Controls without an accessible name, as Chromium's accessibility tree computes it."""
    cdp = page.context.new_cdp_session(page)
    try:
        tree = cdp.send("Accessibility.getFullAXTree")
    finally:
        cdp.detach()
    roles = {
        "button",
        "link",
        "textbox",
        "spinbutton",
        "combobox",
        "radio",
        "checkbox",
        "listbox",
        "searchbox",
        "slider",
        "switch",
        "menuitem",
        "tab",
    }
    missing = []
    for node in tree["nodes"]:
        if node.get("ignored"):
            continue
        role = node.get("role", {}).get("value")
        if role not in roles:
            continue
        name = (node.get("name", {}).get("value") or "").strip()
        if not name:
            missing.append(f"{role} (backend node {node.get('backendDOMNodeId')})")
    return missing


# -- a scorer's thumb --------------------------------------------------------------------------


def fresh_forms(context: Any) -> None:
    """Every deal form of the context opens as drawn: the deal this phone kept from a form left
    unsaved (app.js, Draft) is dropped before each page's script runs. For tests that open a
    form again and again, each time to enter something new."""
    context.add_init_script(
        "for (const k of Object.keys(localStorage))"
        " if (k.startsWith('scorekeeper.draft.')) localStorage.removeItem(k);"
    )


def tap_choice(page: Any, group: str, value: str) -> None:
    """Tap the big radio button of a group (#kind, #declarer, #answer_1 …) by its value."""
    page.locator(f'#{group} .tap[data-value="{value}"]').click()


def new_game(
    page: Any,
    server: str,
    players: list[str],
    *,
    convention: str = "sochi",
    name: str = "",
    house: dict[str, str] | None = None,
    lang: str | None = None,
) -> str:
    """Start a game through the new game form by taps; returns its edit token."""
    page.goto(f"{server}/new" + (f"?lang={lang}" if lang else ""))
    no_overflow(page)
    tap_choice(page, "convention", convention)
    if name:
        page.fill("#name", name)
    for i, player in enumerate(players + [""] * (4 - len(players))):
        if page.is_visible(f"#player_{i}"):
            page.fill(f"#player_{i}", player)
    if house:
        page.locator("details.house summary").click()
        for field, value in house.items():
            page.fill(f"#opt_{field}", value)
    page.locator("#new-game button[type=submit]").click()
    page.wait_for_url(f"{server}/g/**")
    return str(page.url.rsplit("/", 1)[-1].split("?")[0])


class _Thumb:
    """Taps on a page, counted."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.taps = 0
        self.lost: list[str] = []

    def tap(self, selector: str) -> None:
        self.page.locator(selector).click()
        self.taps += 1

    def choice(self, group: str, value: str) -> None:
        """Tap a big radio button unless it is already the one chosen. A tap whose radio is
        still not chosen after it is noted in `lost` (with where the button stood and what
        was on its middle) and tapped once more, not counted twice. The cause once seen (the
        ФСПР taps test's 7♠, twice in some ten runs of the whole suite) was the page's: the
        preview's answer scrolled the form between the press and the release; app.js's
        whenLifted now holds that (test_web_browser_finger.py). A page that drops every tap
        still fails: the second must choose it."""
        radio = f'#{group} input[value="{value}"]'
        if self.page.is_checked(radio):
            return
        button = f'#{group} .tap[data-value="{value}"]'
        self.tap(button)
        if self.page.is_checked(radio):
            return
        self._lost(f"{button}: {self.page.locator(button).first.evaluate(_WHERE)}")
        self.tap(button)
        self.taps -= 1
        assert self.page.is_checked(radio), f"{button} tapped twice, never chosen: {self.lost}"

    def amount(self, field: str, amount: str) -> None:
        """A correction's amount: the page's minus key (the sign in, the field in focus: one
        tap) or a tap on the field, then the digits on the keypad. Nothing in the field after
        (a tap lost, as `choice` says: CI once at 375 × 667 with 1.5× text): noted in `lost`,
        the field emptied and the same taps once more, not counted twice."""
        negative = amount.startswith(("-", "−"))
        digits = amount.lstrip("-−")
        for again in (False, True):
            taps = self.taps
            self.tap(f'[data-minus="{field}"]' if negative else f"#{field}")
            self.page.keyboard.type(digits)
            value = self.page.input_value(f"#{field}")
            if value.lstrip("-−") == digits and value.startswith(("-", "−")) == negative:
                return
            assert not again, f"{field}: {amount!r} entered twice, the field holds {value!r}"
            self.taps = taps
            self._lost(f"#{field}: {value!r} after {amount!r}")
            self.page.fill(f"#{field}", "")

    def _lost(self, what: str) -> None:
        """A tap that did not take: noted, with a screenshot of the page as it was."""
        self.lost.append(what)
        shot(self.page, f"lost-tap-{len(self.lost)}", full=False)


_WHERE = """(e) => {
  const r = e.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  const input = e.querySelector("input");
  return {box: [r.left, r.top, r.width, r.height].map(Math.round), scrollY: scrollY,
          hit: hit ? hit.outerHTML.slice(0, 80) : null, disabled: !!(input && input.disabled),
          busy: !!document.querySelector("#preview[aria-busy]")};
}"""
"""Where a button stood when its tap was lost, and what its middle showed."""


WORKER_READY = """(ms) => Promise.race([
  navigator.serviceWorker.ready.then((r) => !!r.active),
  new Promise((done) => setTimeout(() => done(null), ms))])"""


def worker_ready(page: Any) -> None:
    """The page's offline shell (service worker) active, waited for with a bound (the page
    tries a failed registration again itself: sw-register.js); never active, the failure
    says the page's last registration error instead of waiting on `ready` for ever."""
    if not page.evaluate(WORKER_READY, 2 * WAIT_MS):
        error = page.get_attribute("script[data-sw]", "data-sw-error")
        raise AssertionError(f"no service worker: {error or 'not active'}")


def save_ready(page: Any, where: str, timeout: float = WAIT_MS) -> None:
    """Wait for the form's Save to be enabled (its preview checked and fine). Never enabled:
    the failure says what the page showed and held (its preview, the form's fields) and a
    screenshot is kept, so a run on a loaded machine can be read afterwards."""
    try:
        page.wait_for_selector("#save-button:not([disabled])", timeout=timeout)
    except Exception as error:  # Playwright's TimeoutError
        shot(page, f"save-never-{where}", full=False)
        said = page.evaluate(
            """() => [document.querySelector('#preview') && document.querySelector('#preview').innerText,
              Array.from(new FormData(document.querySelector('#deal-form'))).filter((p) => p[0] !== 'csrf_token')]"""
        )
        raise AssertionError(f"{where}: Save never enabled; preview, fields: {said}") from error


def enter_deal(page: Any, players: list[str], kind: str, **deal: Unpack[DealWords]) -> str:
    """Fill the open deal form by taps, the way a scorer does; returns the preview's text.

    Only what differs from what the page shows is tapped: the kind, the declarer, the
    contract, an answer other than the preset whist, and tricks the page did not fill in
    (made exactly, or the count that adds up to 10). Returns the number of taps too via
    page.taps (a running counter on the page object).
    """
    thumb = _Thumb(page)
    seat = seats(players)
    thumb.choice("kind", kind)
    if deal.get("declarer") is not None:
        thumb.choice("declarer", seat[deal["declarer"]])
    contract = deal.get("contract")
    if contract is not None:
        if not page.is_visible("#contract"):
            if not page.is_checked(f'#contract input[value="{contract}"]'):
                thumb.tap("#contract-chip")
        thumb.choice("contract", contract)
    for player, answer in (deal.get("answers") or {}).items():
        thumb.choice(f"answer_{seat[player]}", answer)
    if deal.get("tricks"):
        _tap_tricks(thumb, players, deal["tricks"])
    if deal.get("reason") is not None:
        page.fill("#reason", deal["reason"])
    for j, (player, column, on, amount) in enumerate(deal.get("entries") or []):
        # Chips for the player, the column and whom; the amount on the number keypad, its
        # minus on the page (a tap that also opens the field).
        thumb.choice(f"corr_player_{j}", seat[player])
        thumb.choice(f"corr_column_{j}", column)
        if on is not None:
            thumb.choice(f"corr_on_{j}", seat[on])
        thumb.amount(f"corr_amount_{j}", amount)
    save_ready(page, f"{kind}-{page.viewport_size['width']}")
    page.taps = getattr(page, "taps", 0) + thumb.taps
    return str(page.inner_text("#preview"))


def _tap_tricks(thumb: _Thumb, players: list[str], tricks: dict[str, int]) -> None:
    """Tap the tricks on the pad: only the counts the page asks for and did not fill in."""
    page, seat = thumb.page, seats(players)

    def chip(player: str) -> str:
        return f'#trickpad .chip[data-seat="{seat[player]}"]'

    shown = [p for p in players if page.is_visible(chip(p))]
    # The page asks only for the tricks that change the score (one whister: the
    # declarer's alone); whatever else the deal says is not entered.
    assert set(shown) <= set(tricks), f"asked for tricks of {shown}, not {list(tricks)}"
    assert shown, f"asked for no tricks, given {list(tricks)}"
    # The scorer starts with the count the pad asks first (its pressed chip), then the rest
    # on screen; a count the page filled in by itself is not tapped again.
    pressed = [p for p in shown if page.get_attribute(chip(p), "aria-pressed") == "true"]
    for player in pressed + [p for p in shown if p not in pressed]:
        if page.locator(f"{chip(player)} b").inner_text() == str(tricks[player]):
            continue
        if page.locator(chip(player)).get_attribute("aria-pressed") != "true":
            thumb.tap(chip(player))
        thumb.tap(f'#trickpad .num[data-n="{tricks[player]}"]')
    for player in shown:
        actual = page.locator(f"#tricks_{seat[player]} input:checked").get_attribute("value")
        assert actual == str(tricks[player]), (player, actual, tricks)


def save_deal(page: Any) -> None:
    """Tap Save and wait for the page it leads to (the sheet, or the log after an edit)."""
    with page.expect_navigation(wait_until="domcontentloaded"):
        page.locator("#save-button").click()
    assert page.locator("#deal-form").count() == 0, page.inner_text("main")[:800]


_CONTRAST_JS = """() => {
  const parse = (c) => {
    const m = c.match(/rgba?\\(([^)]+)\\)/);
    if (!m) return null;
    const p = m[1].split(/[\\s,\\/]+/).filter(Boolean).map(Number);
    return { r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1 };
  };
  const over = (top, bottom, alpha) => ({
    r: top.r * alpha + bottom.r * (1 - alpha),
    g: top.g * alpha + bottom.g * (1 - alpha),
    b: top.b * alpha + bottom.b * (1 - alpha),
    a: 1,
  });
  const lum = ({ r, g, b }) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const ratio = (x, y) => {
    const [a, b] = [lum(x), lum(y)].sort((m, n) => n - m);
    return (a + 0.05) / (b + 0.05);
  };
  const out = [];
  for (const el of document.querySelectorAll('body *')) {
    if (el.closest('svg, [hidden], script, style, template') || el.disabled) continue;
    const own = Array.from(el.childNodes).some((n) => n.nodeType === 3 && n.textContent.trim());
    const field = el.matches('input:not([type=hidden]):not([type=radio]):not([type=checkbox]):not([type=file]), select, textarea') && el.value;
    if (!own && !field) continue;
    if (!el.getClientRects().length) continue;
    const style = getComputedStyle(el);
    if (style.visibility === 'hidden' || parseFloat(style.opacity) === 0) continue;
    const chain = [];
    for (let e = el; e; e = e.parentElement) chain.unshift(e);
    let bg = { r: 255, g: 255, b: 255, a: 1 };
    let opacity = 1;
    for (const e of chain) {
      const s = getComputedStyle(e);
      opacity *= parseFloat(s.opacity);
      const c = parse(s.backgroundColor);
      if (c && c.a > 0) bg = over(c, bg, c.a);
    }
    const fg = parse(style.color);
    const seen = over(fg, bg, fg.a * opacity);
    const size = parseFloat(style.fontSize);
    const large = size >= 24 || (size >= 18.66 && parseInt(style.fontWeight, 10) >= 700);
    const need = large ? 3 : 4.5;
    const r = ratio(seen, bg);
    if (r < need) {
      const text = (field ? el.value : el.textContent).trim().slice(0, 30);
      out.push(`"${text}" ${style.color} on rgb(${Math.round(bg.r)}, ${Math.round(bg.g)}, ${Math.round(bg.b)}): ${r.toFixed(2)} < ${need}`);
    }
  }
  return out;
}"""


def low_contrast(page: Any) -> list[str]:
    """Text whose colour against what is behind it is under WCAG AA (4.5:1, large text 3:1)."""
    return list(page.evaluate(_CONTRAST_JS))


AXE = ROOT / ".cache" / "axe" / "node_modules" / "axe-core" / "axe.min.js"
"""axe-core from the npm registry, fetched by scripts/setup.sh --test."""


NAMES = {
    "en": ["Anna", "Dmitri", "Konstantin"],
    "ru": ["Анна", "Дмитрий", "Константин"],
    "uk": ["Ганна", "Дмитро", "Костянтин"],
}


def text_scale(context: Any, scale: float) -> None:
    """The phone's text made `scale` × larger: the root font size (and the body's) of every page."""
    if scale != 1:
        context.add_init_script(
            "document.addEventListener('DOMContentLoaded', () => {"
            f" document.documentElement.style.fontSize = '{16 * scale}px';"
            f" document.body.style.fontSize = '{17 * scale}px'; }});"
        )


@contextmanager
def one_tab(chromium: Any, *, scale: float = 1, **options: Any) -> Iterator[Any]:
    """One tab in a browser context of its own (`options` as Playwright's `new_context` takes
    them, the text `scale` × larger), for a test to take from page to page as a person follows
    links: the scripts and styles fetched and compiled once, not again in a new tab a look.
    The context is closed after."""
    context = chromium.new_context(**options)
    text_scale(context, scale)
    try:
        yield context.new_page()
    finally:
        context.close()


CONTROL_ROLES = {"button", "link", "radio", "textbox", "checkbox", "combobox", "spinbutton"}


def ax_controls(page: Any, selector: str) -> list[tuple[str, str]]:
    """(role, name) of every control under the element, as Chromium's accessibility tree says."""
    cdp = page.context.new_cdp_session(page)
    try:
        root = cdp.send("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
        node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
        backend = cdp.send("DOM.describeNode", {"nodeId": node})["node"]["backendNodeId"]
        tree = cdp.send(
            "Accessibility.getPartialAXTree", {"backendNodeId": backend, "fetchRelatives": False}
        )
        full = cdp.send("Accessibility.getFullAXTree")
    finally:
        cdp.detach()
    inside = {n["nodeId"] for n in tree["nodes"]}
    nodes = {n["nodeId"]: n for n in full["nodes"]}
    # Everything under the form: walk down from it.
    start = [n["nodeId"] for n in tree["nodes"] if n.get("backendDOMNodeId") == backend]
    todo, seen = list(start or inside), set()
    out = []
    while todo:
        nid = todo.pop()
        if nid in seen or nid not in nodes:
            continue
        seen.add(nid)
        n = nodes[nid]
        todo.extend(n.get("childIds", []))
        role = n.get("role", {}).get("value")
        if n.get("ignored") or role not in CONTROL_ROLES:
            continue
        out.append((role, (n.get("name", {}).get("value") or "").strip()))
    return out


def axe_violations(page: Any) -> list[str]:
    """axe-core's WCAG 2.1 A/AA findings on the page as it stands."""
    assert AXE.exists(), "axe-core is fetched by scripts/setup.sh --test (npm install)"
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(AXE.read_text())  # run as the page's own code; the page's CSP is not asked
    result = page.evaluate(
        """() => axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } })
             .then(r => ({ passed: r.passes.length, violations: r.violations.map(v => v.id + ': '
               + v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(' | ')) }))"""
    )
    assert result["passed"] >= 10  # axe did look at the page
    return list(result["violations"])
