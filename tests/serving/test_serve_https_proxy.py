"""`scorekeeper serve` as deployed: behind a TLS proxy, over its own HTTPS, with its log.

Every test runs the real server as its own process and talks HTTP(S) to it from 127.0.0.1,
because what matters here (forwarded headers through a real server, TLS, the access log)
never shows through Flask's test client. (The log's format: test_serve_processes.py.)
"""

from __future__ import annotations

import http.client
import json
import os
import re
import subprocess
from collections.abc import Callable
from pathlib import Path

from ..harness import CLI
from ..served import FORWARDED, PLAYERS, Browser, Caddy, Served, view_link


def test_behind_a_proxy_the_real_server_uses_the_forwarded_scheme_host_and_client(
    serve: Callable[..., Served],
) -> None:
    served = serve(env={"SCOREKEEPER_PROXY": "1"})
    phone = Browser(served, FORWARDED)
    token = phone.new_game()
    status, _, html = phone.request("GET", f"/g/{token}")
    assert status == 200
    # The QR code and the view link name the public https address, not 127.0.0.1.
    assert view_link(html).startswith("https://pulka.example.org/v/")
    assert "127.0.0.1" not in html
    assert phone.set_cookies
    for cookie in phone.set_cookies:
        assert "secure" in [a.strip().lower() for a in cookie.split(";")[1:]], cookie


def test_without_proxy_mode_forwarded_headers_are_ignored(serve: Callable[..., Served]) -> None:
    served = serve()
    phone = Browser(served, FORWARDED)
    token = phone.new_game()
    _, _, html = phone.request("GET", f"/g/{token}")
    assert view_link(html).startswith(f"http://127.0.0.1:{served.port}/v/")
    for cookie in phone.set_cookies:
        assert "secure" not in cookie.lower(), cookie


def test_proxy_mode_trusts_only_the_configured_proxy_address(serve: Callable[..., Served]) -> None:
    # The proxy is said to be elsewhere: headers from 127.0.0.1 are a stranger's and dropped.
    served = serve(env={"SCOREKEEPER_PROXY": "1", "SCOREKEEPER_TRUSTED_PROXY": "10.9.9.9"})
    phone = Browser(served, FORWARDED)
    token = phone.new_game()
    _, _, html = phone.request("GET", f"/g/{token}")
    assert view_link(html).startswith(f"http://127.0.0.1:{served.port}/v/")


def test_https_serves_tls_with_a_certificate_made_once_and_kept(
    serve: Callable[..., Served],
) -> None:
    served = serve("--https")
    out = served.err.read_text()  # the banner is the server's own (stdout: the access log)
    assert f"https://127.0.0.1:{served.port}/" in out
    # hypercorn's own English banner is not shown: serve said it in the user's words.
    assert "CTRL + C" not in out + served.err.read_text()
    cert = served.instance / "tls" / "cert.pem"
    key = served.instance / "tls" / "key.pem"
    assert cert.is_file() and key.stat().st_mode & 0o077 == 0  # the key is the owner's only
    phone = Browser(served)  # verifies the server against the kept certificate
    token = phone.new_game()
    status, _, html = phone.request("GET", f"/g/{token}")
    assert status == 200 and view_link(html).startswith(f"https://localhost:{served.port}/v/")
    assert phone.set_cookies and all("Secure" in c for c in phone.set_cookies)
    first = cert.read_bytes()
    # A phone can fetch it to install and trust it (README).
    status, headers, body = Browser(served).request("GET", "/scorekeeper.crt")
    assert status == 200 and body.encode() == first
    assert headers["Content-Type"] == "application/x-x509-ca-cert"
    assert f"https://127.0.0.1:{served.port}/scorekeeper.crt" in out
    served.stop()
    again = serve("--https")
    assert cert.read_bytes() == first  # kept, not made anew: phones trust it once
    assert Browser(again).request("GET", f"/v/{token}")[0] == 200
    # Plain HTTP to the TLS port is not served as a page.
    plain = http.client.HTTPConnection("127.0.0.1", again.port, timeout=10)
    try:
        plain.request("GET", "/")
        assert plain.getresponse().status == 400
    except (OSError, http.client.HTTPException):
        pass
    finally:
        plain.close()


def test_health_endpoint_says_the_database_answers(
    serve: Callable[..., Served], tmp_path: Path
) -> None:
    served = serve()
    status, headers, body = Browser(served).request("GET", "/healthz")
    assert status == 200 and headers["Content-Type"].startswith("application/json")
    from scorekeeper import __version__

    assert json.loads(body) == {"status": "ok", "version": __version__}


def test_health_endpoint_is_503_when_the_database_cannot_be_used(tmp_path: Path) -> None:
    from scorekeeper.web import create_app

    (tmp_path / "a-folder.sqlite").mkdir()
    app = create_app({"DATABASE": str(tmp_path / "a-folder.sqlite"), "SECRET_KEY": "s"})
    response = app.test_client().get("/healthz")
    assert response.status_code == 503 and response.json
    assert response.json["status"] == "unavailable"
    # Why, for the operator who asks it by hand: a few words, never the database's path.
    assert response.json["reason"].startswith("the database"), response.json
    assert str(tmp_path) not in response.get_data(as_text=True)


def test_import_prints_paths_unless_the_public_address_is_configured(tmp_path: Path) -> None:
    game = tmp_path / "game.json"
    game.write_text(
        json.dumps(
            {
                "format": "scorekeeper-game/1",
                "convention": "sochi",
                "players": PLAYERS,
                "first_dealer": "Anna",
                "deals": [],
            }
        )
    )
    clean = {k: v for k, v in os.environ.items() if not k.startswith("SCOREKEEPER_")}
    db = str(tmp_path / "games.sqlite")
    bare = subprocess.run(
        [CLI, "import", str(game), "--db", db], capture_output=True, text=True, env=clean
    )
    assert bare.returncode == 0, bare.stderr
    assert re.search(r"^edit: /g/\S+$", bare.stdout, re.M), bare.stdout
    assert re.search(r"^view: /v/\S+$", bare.stdout, re.M)
    assert "http" not in bare.stdout.replace("SCOREKEEPER_BASE_URL", "")
    configured = subprocess.run(
        [CLI, "import", str(game), "--db", db],
        capture_output=True,
        text=True,
        env={**clean, "SCOREKEEPER_BASE_URL": "https://pulka.example.org/"},
    )
    assert re.search(r"^edit: https://pulka\.example\.org/g/\S+$", configured.stdout, re.M)
    assert re.search(r"^view: https://pulka\.example\.org/v/\S+$", configured.stdout, re.M)


def test_behind_caddy_with_the_shipped_caddyfile_links_and_cookies_are_https(
    serve: Callable[..., Served], tmp_path: Path
) -> None:
    served = serve(env={"SCOREKEEPER_PROXY": "1"})
    caddy = Caddy(tmp_path, served.port)
    try:
        caddy.wait()
        phone = Browser(served)
        phone.served = caddy  # type: ignore[assignment]  (talk to Caddy, not to the app)
        token = phone.new_game()
        status, _, html = phone.request("GET", f"/g/{token}")
        assert status == 200
        assert view_link(html).startswith(f"https://localhost:{caddy.port}/v/")
        assert phone.set_cookies
        for cookie in phone.set_cookies:
            assert "secure" in [a.strip().lower() for a in cookie.split(";")[1:]], cookie
        status, _, _ = phone.request("GET", f"/v/{token}")
        assert status == 200
    finally:
        caddy.stop()
    served.stop()
    assert '"GET /g/*** HTTP/1.1" 200 ' in served.out.read_text()
