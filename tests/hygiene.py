"""What every answer of the app must carry, and what no page may hold: the security headers,
no code or style written into the page (only the app's stylesheet); and a crawl of every
page reachable by links, to check them all."""

from __future__ import annotations

from collections.abc import Callable
from html.parser import HTMLParser
from urllib.parse import urljoin, urlsplit

from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from .helpers import STYLE_SOURCE, STYLESHEET


class _Markup(HTMLParser):
    """Collects what would run or restyle a page, and the page's links and visible text."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.inline: list[str] = []
        self.links: list[str] = []
        self.text: list[str] = []
        self.attributes: list[str] = []
        self.styles: list[str] = []  # the text of each <style> element
        self._script = False
        self._style = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = {name.lower() for name, _ in attrs}
        if tag == "script":
            self._script = True
            if "src" not in names:
                self.inline.append(f"<script> without src: {attrs}")
        if tag == "style":  # allowed only as the stylesheet itself: see assert_hygienic
            self._style = True
            self.styles.append("")
        for name, value in attrs:
            if name.lower().startswith("on"):
                self.inline.append(f"<{tag} {name}=...>")
            if name.lower() == "style":
                self.inline.append(f"<{tag} style=...>")
            if value and value.strip().lower().startswith(("javascript:", "data:text/html")):
                self.inline.append(f"<{tag} {name}={value!r}>")
            if value is not None:
                self.attributes.append(value)
            if name in ("href", "src", "data-keep") and value:  # data-keep: fetched by app.js
                self.links.append(value)

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._script = False
        if tag == "style":
            self._style = False

    def handle_data(self, data: str) -> None:
        if self._style:
            self.styles[-1] += data
        if self._script and data.strip():
            self.inline.append(f"script text {data[:60]!r}")
        self.text.append(data)


def markup(page_html: str) -> _Markup:
    parser = _Markup()
    parser.feed(page_html)
    parser.close()
    return parser


def csp(header: str) -> dict[str, list[str]]:
    """A Content-Security-Policy header as directive → sources."""
    out: dict[str, list[str]] = {}
    for part in header.split(";"):
        words = part.split()
        if words:
            out[words[0]] = words[1:]
    return out


def assert_hygienic(response: TestResponse, url: str) -> None:
    """The headers every answer carries, and no code or style written into an HTML page."""
    headers = response.headers
    policy = csp(headers.get("Content-Security-Policy", ""))
    assert policy.get("default-src") == ["'self'"], url
    assert policy.get("script-src") == ["'self'"], url  # no 'unsafe-inline', no other host
    assert policy.get("frame-ancestors") == ["'none'"], url
    assert policy.get("base-uri") == ["'none'"], url
    assert policy.get("form-action") == ["'self'"], url
    assert "unsafe" not in headers["Content-Security-Policy"], url
    assert headers.get("Referrer-Policy") == "no-referrer", url
    assert headers.get("X-Content-Type-Options") == "nosniff", url
    # Styles: the app's stylesheet and nothing else, from the site or allowed by its hash.
    assert policy.get("style-src") == ["'self'", STYLE_SOURCE], url
    if response.mimetype == "text/html":
        page = markup(response.get_data(as_text=True))
        assert page.inline == [], url
        assert all(style == STYLESHEET.read_text(encoding="utf-8") for style in page.styles), url


def crawl(
    client: FlaskClient,
    starts: list[str],
    limit: int = 400,
    skip: Callable[[str], bool] = lambda url: False,
) -> dict[str, TestResponse]:
    """Every page reachable by links from these, on this site, opened once (a link `skip`
    names is not followed: a start is always opened)."""
    seen: dict[str, TestResponse] = {}
    queue, started = list(starts), set(starts)
    while queue and len(seen) < limit:
        url = queue.pop(0)
        if url in seen or (url not in started and skip(url)):
            continue
        response = client.get(url)
        response.close()
        seen[url] = response
        if response.mimetype != "text/html":
            continue
        for link in markup(response.get_data(as_text=True)).links:
            target = urlsplit(urljoin("http://localhost" + url, link))
            # What if… links every combination of presets and options: one change each is
            # the same page with the same headers (their combinations would never end).
            combined = target.path.endswith("/what-if") and "&" in target.query
            if target.netloc == "localhost" and "lang=" not in target.query and not combined:
                queue.append(target.path + (f"?{target.query}" if target.query else ""))
    assert len(seen) < limit, "the crawl did not end"
    return seen
