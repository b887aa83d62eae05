"""What goes over the wire: kept-alive connections, compressed text, year-long static caching."""

from __future__ import annotations

import gzip
import http.client
import re
from collections.abc import Callable

import brotli
import pytest
from flask.testing import FlaskClient

from ..harness import Web
from ..helpers import STYLESHEET
from ..served import Browser, Served


def test_a_following_phone_polls_on_one_kept_alive_connection(
    serve: Callable[..., Served],
) -> None:
    """Under gunicorn (serve --workers, the Docker image): a 304 keeps the connection (a
    tool's poll of the version; the pages hold one request instead)."""
    served = serve("--workers", "2")
    token = Browser(served).new_game()
    conn = http.client.HTTPConnection("127.0.0.1", served.port, timeout=10)
    try:
        conn.request("GET", f"/v/{token}/version")
        first = conn.getresponse()
        first.read()
        etag = first.headers["ETag"]
        assert first.status == 200 and etag
        sock = conn.sock
        for _ in range(3):  # unchanged: 304s, and the same connection carries on
            conn.request("GET", f"/v/{token}/version", headers={"If-None-Match": etag})
            reply = conn.getresponse()
            reply.read()
            assert reply.status == 304
            assert reply.headers.get("Connection") != "close" and not reply.will_close
        conn.request("GET", f"/v/{token}", headers={"Accept-Encoding": "br"})
        page = conn.getresponse()
        body = page.read()
        assert page.status == 200 and not page.will_close
        assert conn.sock is sock, "the server closed the connection"
        assert page.headers["Content-Encoding"] == "br"
        assert "Anna" in brotli.decompress(body).decode()
        # A client that asks to close still gets its close.
        conn.request("GET", f"/v/{token}/version", headers={"Connection": "close"})
        last = conn.getresponse()
        last.read()
        assert last.will_close
    finally:
        conn.close()


@pytest.mark.parametrize("encoding", ["br", "gzip"])
def test_html_css_and_js_are_compressed_when_the_browser_takes_it(
    client: FlaskClient, web: Web, encoding: str
) -> None:
    token = web.new_game()
    decode = brotli.decompress if encoding == "br" else gzip.decompress
    for url in ["/static/app.css", "/static/app.js", f"/g/{token}", "/new"]:
        with client.get(url) as plain:
            plain.get_data()
        packed = client.get(url, headers={"Accept-Encoding": f"{encoding}, identity"})
        assert plain.status_code == packed.status_code == 200, url
        assert "Content-Encoding" not in plain.headers
        assert packed.headers.get("Content-Encoding") == encoding, (
            url,
            dict(packed.headers),
            len(plain.data),
        )
        assert "Accept-Encoding" in packed.headers["Vary"]
        assert (
            int(packed.headers.get("Content-Length", -1)) == len(packed.data) < len(plain.data) / 2
        ), (url, dict(packed.headers))
        if url.startswith("/static/"):
            assert decode(packed.data) == plain.data, url
        else:  # the page carries a fresh CSRF token each time: compare its start
            assert decode(packed.data)[:200] == plain.data[:200], url


def test_pdfs_and_small_replies_are_not_compressed(client: FlaskClient, web: Web) -> None:
    token = web.new_game()
    pdf = client.get(f"/g/{token}/pulka.pdf", headers={"Accept-Encoding": "br, gzip"})
    assert pdf.status_code == 200 and pdf.data.startswith(b"%PDF")
    assert "Content-Encoding" not in pdf.headers
    # The PDF changes with the game: a browser must not keep an old one.
    assert "max-age" not in pdf.headers.get("Cache-Control", "")
    version = client.get(f"/g/{token}/version", headers={"Accept-Encoding": "br, gzip"})
    assert "Content-Encoding" not in version.headers


def style_cached(client: FlaskClient) -> str:
    """The phone says it has the stylesheet cached, as app.js does: the version's cookie."""
    html = client.get("/").get_data(as_text=True)
    version = re.search(r'<style data-keep="/static/app\.css\?v=(\w+)" data-version="\1">', html)
    assert version, "a phone without the cookie gets the stylesheet inside the page"
    client.set_cookie("sk_style", version.group(1))
    return version.group(1)


def test_static_urls_are_versioned_and_cached_for_a_year(client: FlaskClient) -> None:
    style_cached(client)
    html = client.get("/").get_data(as_text=True)
    links = re.findall(r'(?:href|src)="(/static/[^"]+)"', html)
    assert any(link.startswith("/static/app.css?v=") for link in links)
    assert any(link.startswith("/static/app.js?v=") for link in links)
    for link in links:
        assert re.search(r"\?v=[0-9a-f]{12}$", link), link
        with client.get(link) as reply:
            assert reply.status_code == 200
            assert reply.cache_control.max_age == 365 * 24 * 3600, link
            assert reply.cache_control.immutable and reply.cache_control.public
            # Nothing says otherwise: no "no-cache" beside the year (a browser would ask
            # again on every page), no Expires of "now".
            assert not reply.cache_control.no_cache, reply.headers["Cache-Control"]
            assert "Expires" not in reply.headers, link
    # The page names its (versioned) stylesheet in its headers too: fetched while it arrives.
    style = next(link for link in links if link.startswith("/static/app.css?v="))
    assert client.get("/").headers["Link"] == f"<{style}>; rel=preload; as=style"
    # Without the version, or with a stale one: the browser checks back every time.
    for stale in ["/static/app.css", "/static/app.css?v=000000000000"]:
        with client.get(stale) as reply:
            assert reply.status_code == 200 and reply.cache_control.no_cache, stale
            assert not reply.cache_control.max_age
    # A changed file gets a new URL: the hash is the content's.
    manifest = client.get("/manifest.webmanifest").get_json()
    assert all(re.search(r"\?v=[0-9a-f]{12}$", icon["src"]) for icon in manifest["icons"])


def test_the_stylesheet_comes_inside_the_page_until_the_phone_has_it(
    client: FlaskClient, web: Web
) -> None:
    token = web.new_game(["Anna", "Boris", "Vera"])
    view = re.search(r"/v/([\w-]+)", web.get(f"/g/{token}").html)
    assert view
    sheet = STYLESHEET.read_text(encoding="utf-8")
    for url in ["/", f"/g/{token}", f"/v/{view.group(1)}", f"/g/{token}/deal/new"]:
        client.delete_cookie("sk_style")
        first = client.get(url)
        html = first.get_data(as_text=True)
        # No round trip for the stylesheet: it is in the page, exactly, allowed by its hash.
        inside = re.search(r"<style data-keep=[^>]*>(.*?)</style>", html, re.S)
        assert inside and inside.group(1) == sheet, url
        assert 'rel="stylesheet"' not in html and "Link" not in first.headers, url
        version = style_cached(client)
        later = client.get(url)
        html = later.get_data(as_text=True)
        assert "<style" not in html, url
        assert f'<link rel="stylesheet" href="/static/app.css?v={version}">' in html, url
        assert later.headers["Link"] == f"</static/app.css?v={version}>; rel=preload; as=style"
        # A stylesheet changed since the phone cached it: inside the page again.
        client.set_cookie("sk_style", "000000000000")
        assert "<style data-keep=" in client.get(url).get_data(as_text=True), url


def test_a_compressed_static_file_still_answers_304_to_its_validator(
    client: FlaskClient,
) -> None:
    with client.get("/static/app.css", headers={"Accept-Encoding": "identity"}) as plain:
        plain_tag = plain.headers["ETag"]
    for encoding in ("br", "gzip"):
        with client.get("/static/app.css", headers={"Accept-Encoding": encoding}) as first:
            assert first.headers["Content-Encoding"] == encoding
            etag = first.headers["ETag"]
        # Other bytes than the plain file: a strong tag of their own, naming the encoding.
        assert etag == plain_tag[:-1] + f'-{encoding}"'
        headers = {"Accept-Encoding": encoding, "If-None-Match": etag}
        with client.get("/static/app.css", headers=headers) as again:
            assert again.status_code == 304 and not again.get_data()
            assert again.headers["ETag"] == etag
        # The same tag from a phone now taking the other encoding: the full answer.
        other = "gzip" if encoding == "br" else "br"
        headers = {"Accept-Encoding": other, "If-None-Match": etag}
        with client.get("/static/app.css", headers=headers) as again:
            assert again.status_code == 200 and again.headers["Content-Encoding"] == other


def test_the_service_worker_is_served_from_the_root_and_never_cached(
    client: FlaskClient,
) -> None:
    with client.get("/sw.js") as reply:
        assert reply.status_code == 200
        assert reply.mimetype == "text/javascript"
        assert reply.cache_control.no_cache
        assert b'addEventListener("fetch"' in reply.get_data()
    html = client.get("/").get_data(as_text=True)
    assert re.search(r'<script src="/static/sw-register\.js\?v=\w+" data-sw="/sw\.js" defer>', html)
