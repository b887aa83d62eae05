"""The hosted deploy: deploy/compose.hosted.yaml read as compose reads it, and the shipped
deploy/Caddyfile.hosted run by the real caddy in front of two real `scorekeeper serve`
hosts on loopback (Docker cannot run here; what it would start is started by hand)."""

from __future__ import annotations

import gettext
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
import yaml

from scorekeeper.paths import TRANSLATIONS
from scorekeeper.wording import PROXY_UNAVAILABLE

from ..deploy_harness import HostedCaddy, requests_answered, status_or_none
from ..harness import ANSWER_SECONDS, ROOT, until
from ..ports import free_port
from ..served import Phone, Server, checked, correction, new_game, reasons_of


def compose() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((ROOT / "deploy" / "compose.hosted.yaml").read_text())
    return data


def test_the_compose_file_runs_a_pinned_postgresql_two_hosts_and_caddy() -> None:
    services = compose()["services"]
    assert set(services) == {"db", "app1", "app2", "caddy"}
    db_image, _, tag = services["db"]["image"].partition(":")
    assert db_image == "postgres" and tag[:2].isdigit() and int(tag.split(".")[0]) >= 15
    assert "." in tag, "pinned to a minor release, not a moving major tag"
    assert services["caddy"]["image"] == "caddy:2.10.2"
    hosts = [services["app1"], services["app2"]]
    for host in hosts:
        env = host["environment"]
        # The password is a compose secret, read from its file: never in the URL or the
        # environment (where `ps e`, `docker inspect` and every log of the URL would show it).
        assert env["SCOREKEEPER_DB"] == "postgresql://scorekeeper@db:5432/scorekeeper"
        assert env["SCOREKEEPER_DB_PASSWORD_FILE"] == "/run/secrets/db_password"
        assert host["secrets"] == ["db_password", "secret_key"]
        assert host["depends_on"]["db"]["condition"] == "service_healthy"
        assert "ports" not in host  # only Caddy is published
    assert services["db"]["environment"]["POSTGRES_PASSWORD_FILE"] == "/run/secrets/db_password"
    assert compose()["secrets"] == {
        "db_password": {"file": "./secrets/db_password"},
        "secret_key": {"file": "./secrets/secret_key"},
    }
    # One image for both hosts, built once.
    assert hosts[0]["image"] == hosts[1]["image"] and "build" not in hosts[1]
    assert hosts[1]["pull_policy"] == "never"
    # No empty default (${VAR:-}): podman-compose passes it on as written.
    for name in ("compose.hosted.yaml", "compose.yaml"):
        assert ":-}" not in (ROOT / "deploy" / name).read_text(), name
    # One secret key for every host (a session or form made on one is good on the other),
    # from a compose secret: never in the environment, which podman-compose prints.
    for host in hosts:
        assert host["environment"]["SCOREKEEPER_SECRET_KEY_FILE"] == "/run/secrets/secret_key"
        assert "SCOREKEEPER_SECRET_KEY" not in host["environment"]
    assert hosts[0]["volumes"] != hosts[1]["volumes"]  # nothing of one host's on the other's
    caddy = services["caddy"]
    assert "./Caddyfile.hosted:/etc/caddy/Caddyfile:ro" in caddy["volumes"]
    assert caddy["environment"]["SCOREKEEPER_UPSTREAMS"] == "app1:8000 app2:8000"
    assert "pg_isready" in services["db"]["healthcheck"]["test"]


@pytest.fixture
def two_hosts(tmp_path: Path) -> Any:
    """Two hosts on one database, behind the hosted Caddyfile."""
    db = tmp_path / "games.sqlite"
    hosts = [Server(db, tmp_path / f"host-{n}.log") for n in "ab"]
    for host in hosts:
        host.start()
    caddy = HostedCaddy(tmp_path, [h.port for h in hosts])
    try:
        yield hosts, caddy.wait()
    finally:
        caddy.stop()
        for host in hosts:
            host.stop()


def test_caddy_shares_the_phones_between_the_hosts_and_each_sees_every_save(
    two_hosts: Any,
) -> None:
    hosts, caddy = two_hosts
    phone = Phone(caddy.port)
    token = new_game(phone)
    for n in range(6):
        fields = checked(phone, token, **correction(f"through caddy {n}"))
        assert phone.post(f"/g/{token}/deal/new", fields).status == 302
    for host in hosts:  # each host, asked directly, has every Save
        assert reasons_of(Phone(host.port), token) == [f"through caddy {n}" for n in range(6)]
    for host in hosts:  # and answered some of them: the requests were shared
        assert requests_answered(host.log, "/g/***") >= 3, host.log.read_text()[-2000:]


def _until_taken(send: Any) -> tuple[Any, int]:
    """Send as the phone does: after a 503 (with Retry-After) the same request again (the
    page is reloaded, the queued Save resent); (the last answer, how many 503s came first)."""
    unavailable = 0
    while (reply := send()).status == 503 and unavailable < 5:
        assert reply.headers["Retry-After"] == "5"
        unavailable += 1
    return reply, unavailable


def test_a_host_that_dies_gets_no_more_requests_and_no_save_is_lost(two_hosts: Any) -> None:
    hosts, caddy = two_hosts
    phone = Phone(caddy.port)
    token = new_game(phone)
    hosts[0].kill()
    path, unavailable = f"/g/{token}/deal/new", 0
    for n in range(10):
        page, first = _until_taken(lambda: phone.get(path))
        form = page.form("deal-form").set(**correction(f"after host a died {n}"))
        check = {**form.data(), "action": ["check"]}
        reply, missed = _until_taken(lambda: phone.post(path, check))  # noqa: B023
        assert reply.status == 200, reply.status
        fields = {**reply.form("deal-form").data(), "action": ["save"]}
        reply, also = _until_taken(lambda: phone.post(path, fields))  # noqa: B023
        assert reply.status == 302, reply.status
        unavailable += first + missed + also
    # Only what met the dead host before Caddy counted it out is a 503 (sent again).
    assert unavailable <= 2
    assert reasons_of(Phone(hosts[1].port), token) == [f"after host a died {n}" for n in range(10)]


def test_with_no_host_left_every_page_is_503_with_retry_after_and_a_host_back_serves(
    two_hosts: Any,
) -> None:
    hosts, caddy = two_hosts
    phone = Phone(caddy.port)
    token = new_game(phone)
    port = hosts[0].port
    for host in hosts:
        host.kill()
    for path in ("/", f"/g/{token}", f"/g/{token}/version", "/healthz"):
        reply = phone.get(path)
        assert reply.status == 503, (path, reply.status)
        assert reply.headers["Retry-After"] == "5"
        assert reply.headers["Cache-Control"] == "no-store"
    hosts[0].start(port)
    # the next health check (every 2 s) lets it in
    until(lambda: status_or_none(phone, f"/g/{token}") == 200, "Caddy sent phones back", 0.2)


def _unavailable_words(lang: str) -> str:
    """What the Caddyfile must say when no host answers: wording.PROXY_UNAVAILABLE, as
    translated into the language."""
    found = gettext.translation("messages", str(TRANSLATIONS), [lang], fallback=lang == "en")
    return "".join(found.gettext(words) + "\n" for words in PROXY_UNAVAILABLE)


def _said_by(port: int, headers: dict[str, str]) -> tuple[int, str]:
    """A page asked with these headers: its status and text (Caddy's own 503 here)."""
    asked = urllib.request.Request(f"http://127.0.0.1:{port}/", headers=headers)
    try:
        with urllib.request.urlopen(asked, timeout=ANSWER_SECONDS) as reply:
            return reply.status, reply.read().decode()
    except urllib.error.HTTPError as refused:
        return refused.code, refused.read().decode()


#: (request headers, the language the answer is in): the app's cookie first, else the phone's
#: first language, as the app chooses (web/i18n.py).
LANGUAGE_CASES = [
    ({}, "en"),
    ({"Accept-Language": "ru-RU,ru;q=0.9"}, "ru"),
    ({"Accept-Language": "uk"}, "uk"),
    ({"Accept-Language": "sr-Latn-RS"}, "sr_Latn"),
    ({"Accept-Language": "sr-RS,en"}, "sr_Cyrl"),
    ({"Accept-Language": "bs"}, "hr"),
    ({"Accept-Language": "en-US,ru"}, "en"),
    ({"Accept-Language": "en", "Cookie": "tz=Europe%2FKyiv; lang=uk"}, "uk"),
    ({"Accept-Language": "ru", "Cookie": "lang=en"}, "en"),
]


def test_with_no_host_caddy_says_so_in_the_pages_language(tmp_path: Path) -> None:
    caddy = HostedCaddy(tmp_path, [free_port()])  # nothing listens there
    try:
        until(lambda: status_or_none(Phone(caddy.port), "/") == 503, "Caddy answers 503")
        said = [(_said_by(caddy.port, headers), lang) for headers, lang in LANGUAGE_CASES]
    finally:
        caddy.stop()
    for (status, text), lang in said:
        assert status == 503
        assert text == _unavailable_words(lang), (lang, text)
