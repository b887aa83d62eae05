"""What travels over the wire: compressed text, static files cached for a year, the service worker.

- HTML, CSS, JavaScript, JSON and SVG go out compressed (Brotli when the browser takes it,
  else gzip) when larger than a packet; PDFs and images, already compressed, never are.
- `url_for('static', ...)` adds `?v=<hash of the file>`: a URL names one version of the
  file, so it may be cached for a year (`immutable`); a changed file gets a new URL.
- The stylesheet holds back a page's first paint. A phone that has not got it yet (no
  `sk_style` cookie naming its version) gets it inside the page, in a `<style>` the CSP
  allows by its hash, saving a round trip; once the page has loaded, app.js fetches the file
  into the browser's cache and sets the cookie, and later pages link it. Such a page names
  the stylesheet in a `Link: rel=preload` header too.
- A compressed answer's ETag names its encoding (`"<tag>-br"`, `"<tag>-gzip"`, strong): the
  same content in another encoding is other bytes. A phone that sends such a tag back gets
  its 304: the suffix is taken off before the view compares it with the content's own tag,
  and put back on the 304.
- `/sw.js`, the offline shell's service worker, is served from the root so it may control
  every page, and never cached so an update reaches the phones.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import time
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from flask import Flask, Response, current_app, g, request, send_file, url_for
from markupsafe import Markup
from werkzeug.http import parse_etags, quote_etag

from scorekeeper.kept import Kept

COMPRESSIBLE = {
    "text/html",
    "text/css",
    "text/javascript",
    "application/javascript",
    "application/json",
    "application/manifest+json",
    "image/svg+xml",
}
MIN_SIZE = 1024  # below about a packet, compressing saves nothing
YEAR = 365 * 24 * 3600

try:  # WeasyPrint brings Brotli (through fontTools); gzip is the fallback
    import brotli
except ImportError:  # pragma: no cover
    brotli = None


@lru_cache(maxsize=256)
def _digest(path: Path, mtime_ns: int, size: int) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()[:12]


def static_version(filename: str) -> str | None:
    """A short hash of a static file's content (None if there is no such file)."""
    folder = current_app.static_folder
    if not folder:
        return None
    return _static_version(folder, filename, int(time.monotonic() // _RESTAT_SECONDS))


_RESTAT_SECONDS = 2.0
"""A page links its static files several times: the file is looked at again (for an edit
during development) at most this often, not on every link."""


@lru_cache(maxsize=256)
def _static_version(folder: str, filename: str, _period: int) -> str | None:
    path = Path(folder, filename)
    try:
        stat = path.stat()
    except OSError:
        return None
    return _digest(path, stat.st_mtime_ns, stat.st_size)


STYLESHEET = "app.css"
STYLE_COOKIE = "sk_style"
"""Set by app.js to the stylesheet's version once the browser has the file cached."""


@dataclass(frozen=True)
class InlineStyle:
    """The stylesheet as a page carries it: its text, its version, its CSP source."""

    text: Markup
    version: str
    source: str


def style_inline() -> bool:
    """Whether this request's page carries the stylesheet itself (the phone has not said it
    has the current version cached). Asked by each kept part of a page: worked out once."""
    found = g.get("style_inline")
    if found is None:
        found = g.style_inline = request.cookies.get(STYLE_COOKIE) != static_version(STYLESHEET)
    return bool(found)


def inline_style() -> InlineStyle | None:
    """The stylesheet to put inside the page, or None when the page should link it."""
    return current_style() if style_inline() else None


def current_style() -> InlineStyle | None:
    """The stylesheet's current version as an inline style (None without one)."""
    folder = current_app.static_folder
    version = static_version(STYLESHEET)
    return _inline(folder, version) if folder and version else None


@lru_cache(maxsize=4)
def _inline(folder: str, version: str) -> InlineStyle:
    data = Path(folder, STYLESHEET).read_bytes()
    digest = base64.b64encode(hashlib.sha256(data).digest()).decode()
    # Our own file: nothing in it is escaped (a ">" of a selector must stay one).
    return InlineStyle(Markup(data.decode("utf-8")), version, f"'sha256-{digest}'")


def _versioned_static(endpoint: str, values: dict[str, Any]) -> None:
    if endpoint == "static" and "filename" in values and "v" not in values:
        version = static_version(values["filename"])
        if version:
            values["v"] = version


@lru_cache(maxsize=64)
def _compressed(data: bytes, encoding: str) -> bytes:
    if encoding == "br":
        out: bytes = brotli.compress(data, quality=11 if len(data) < 64 * 1024 else 5)
        return out
    return gzip.compress(data, compresslevel=6, mtime=0)


def _chosen_encoding() -> str | None:
    accepted = request.accept_encodings
    if brotli is not None and accepted["br"]:
        return "br"
    if accepted["gzip"]:
        return "gzip"
    return None


def _after(response: Response) -> Response:
    if request.endpoint == "static" and response.status_code in (200, 304):
        version = request.args.get("v")
        if version and version == static_version(request.view_args["filename"]):  # type: ignore[index]
            response.cache_control.no_cache = None  # send_file's default: off, or every
            response.cache_control.max_age = YEAR  # page view costs a round trip per file
            response.cache_control.public = True
            response.cache_control.immutable = True
        else:  # an old or missing version: check back each time
            response.cache_control.max_age = 0
            response.cache_control.no_cache = True
        # Cache-Control decides; `response.expires = None` would write "now", not remove it.
        response.headers.pop("Expires", None)
    if response.status_code == 200 and response.mimetype == "text/html" and not style_inline():
        # A page that links its stylesheet names it in the headers: a browser that lost it
        # from its cache asks for it while the page itself is still arriving.
        style = url_for("static", filename=STYLESHEET)
        response.headers.add("Link", f"<{style}>; rel=preload; as=style")
    _compress(response)
    if response.status_code == 304:
        _tag_not_modified(response)
    return response


_ENCODED_TAGS = "scorekeeper.encoded_etags"
"""Where _before keeps the encoded tags the phone sent (the request's environ)."""


def _before() -> None:
    """A validator the phone got with a compressed answer names the encoding: compare its
    content's tag (the view's) when this answer would be compressed the same way."""
    header = request.environ.get("HTTP_IF_NONE_MATCH")
    encoding = _chosen_encoding() if header else None
    if not header or encoding is None:
        return
    suffix = f"-{encoding}"
    sent = parse_etags(header)
    encoded = {tag for tag in sent.as_set() if tag.endswith(suffix)}
    if not encoded:
        return
    request.environ[_ENCODED_TAGS] = encoded
    bases = {tag.removesuffix(suffix) for tag in encoded}
    tags = sent.as_set() | bases
    request.environ["HTTP_IF_NONE_MATCH"] = ", ".join(quote_etag(t) for t in sorted(tags))
    request.__dict__.pop("if_none_match", None)  # read again from the header


def _tag_not_modified(response: Response) -> None:
    """A 304 answers with the tag the phone holds: its encoded form, when it sent that."""
    encoding = _chosen_encoding()
    etag, weak = response.get_etag()
    encoded = request.environ.get(_ENCODED_TAGS) or set()
    if etag and not weak and encoding and f"{etag}-{encoding}" in encoded:
        response.set_etag(f"{etag}-{encoding}")
        response.vary.add("Accept-Encoding")


def _compress(response: Response) -> None:
    if (
        response.status_code != 200
        or response.is_streamed
        and not response.direct_passthrough
        or "Content-Encoding" in response.headers
        or response.mimetype not in COMPRESSIBLE
    ):
        return
    response.vary.add("Accept-Encoding")
    encoding = _chosen_encoding()
    if encoding is None:
        return
    response.direct_passthrough = False  # static files: read the file to compress it
    source = response.response
    data = response.get_data()
    close = getattr(source, "close", None)
    if close is not None:  # the file it was read from
        close()
    if len(data) < MIN_SIZE:
        return
    # Static files are few and unchanging, so their compressed form is kept (the cache is
    # keyed by content); pages are compressed per request at a quicker setting.
    if request.endpoint == "static":
        body = _compressed(data, encoding)
    elif g.get(_KEEP_COMPRESSED):
        key = (hashlib.blake2b(data, digest_size=16).digest(), encoding)
        body = _KEPT.get_or_make(key, lambda: _page_compressed(data, encoding))
    else:
        body = _page_compressed(data, encoding)
    response.set_data(body)
    response.headers["Content-Encoding"] = encoding
    etag, weak = response.get_etag()
    if etag and not weak:  # other bytes than the content's own: a tag of their own
        response.set_etag(f"{etag}-{encoding}")


_KEEP_COMPRESSED = "keep_compressed"
_KEPT: Kept[tuple[bytes, str], bytes] = Kept(256)
"""Compressed kept pages (a follower's sheet, the same bytes for every phone at the table),
by a digest of their bytes (128 bits: two pages that differ never meet on one) and the
encoding: 5–15 KB each, so a few MB at most (keyed by the page itself, each kept its
uncompressed bytes too: 50+ KB on a long sheet)."""


def keep_compressed() -> None:
    """This request's page is one kept for many phones: keep its compressed bytes too."""
    g.setdefault(_KEEP_COMPRESSED, True)


def kept_compressed() -> list[bytes]:
    """The compressed pages kept now, least recently used first."""
    return _KEPT.values()


def forget_compressed() -> None:
    """Drop every kept compressed page, as a server that has just started has none."""
    _KEPT.clear()


def _page_compressed(data: bytes, encoding: str) -> bytes:
    if encoding == "br":
        out: bytes = brotli.compress(data, quality=5)
        return out
    return gzip.compress(data, compresslevel=6, mtime=0)


def service_worker() -> Response:
    """The offline shell's service worker, from the root so its scope is the whole site."""
    response = send_file(
        Path(current_app.static_folder or "", "sw.js"),
        mimetype="text/javascript",
        max_age=0,
    )
    response.cache_control.no_cache = True
    return response


def init_app(app: Flask) -> None:
    """Version the static URLs, set their cache lifetimes, compress, serve /sw.js."""
    app.url_defaults(_versioned_static)
    app.jinja_env.globals["inline_style"] = inline_style
    app.before_request(_before)
    app.after_request(_after)
    if Path(app.static_folder or "", "sw.js").is_file():
        app.add_url_rule("/sw.js", "service_worker", service_worker)
