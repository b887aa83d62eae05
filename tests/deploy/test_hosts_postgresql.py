"""Several hosts on one PostgreSQL, through the real server (`scorekeeper serve --db URL`
processes on loopback, and the shipped deploy/Caddyfile.hosted in front of them): nothing
stale between hosts, nothing lost when a host dies mid-burst, and a database restarted
under a serving host costs a few 503s (Retry-After), never a 500, and no restart."""

from __future__ import annotations

import json
import re
import threading
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ..deploy_harness import HostedCaddy
from ..harness import until
from ..pgcluster import PgNode
from ..served import (
    NET_ERRORS,
    Phone,
    Reply,
    Server,
    checked,
    correction,
    game_file,
    new_game,
    reasons_of,
    version_of,
)


def on(phone: Phone, port: int) -> Phone:
    """The same browser (its cookies) talking to another host."""
    other = Phone(port)
    other.cookies = dict(phone.cookies)
    return other


@pytest.fixture
def hosts(tmp_path: Path, pg_url: str) -> Iterator[list[Server]]:
    """Two hosts on one PostgreSQL database (one secret key, as the compose file sets)."""
    running = [Server(pg_url, tmp_path / f"host-{n}.log") for n in "ab"]  # type: ignore[arg-type]
    try:
        for host in running:
            host.start()
        yield running
    finally:
        for host in running:
            host.stop()


def test_a_save_on_host_a_is_on_host_b_at_once_directly_and_through_caddy(
    hosts: list[Server], tmp_path: Path
) -> None:
    a, b = (Phone(h.port) for h in hosts)
    token = new_game(a)
    for n in range(5):
        fields = checked(a, token, **correction(f"on a {n}"))
        assert a.post(f"/g/{token}/deal/new", fields).status == 302
        assert version_of(b, token) == version_of(a, token)
        assert reasons_of(b, token) == [f"on a {k}" for k in range(n + 1)]
        assert game_file(b, token) == game_file(a, token)
        page = b.get(f"/g/{token}")
        assert page.status == 200 and f"on a {n}" in page.html
    caddy = HostedCaddy(tmp_path, [h.port for h in hosts]).wait()
    try:
        phone = Phone(caddy.port)
        for n in range(6):  # each request may land on either host: every answer is current
            fields = checked(phone, token, **correction(f"via caddy {n}"))
            assert phone.post(f"/g/{token}/deal/new", fields).status == 302
            for direct in (a, b):
                assert reasons_of(direct, token)[-1] == f"via caddy {n}"
    finally:
        caddy.stop()


def _ticket(phone: Phone, view: str) -> tuple[dict[str, Any], list[tuple[str, str]]]:
    page = phone.get(f"/v/{view}")
    assert page.status == 200
    asked = re.findall(r'data-deal="(\d+)" data-revision="(\d+)"', page.html)
    ticket = json.loads(phone.get(f"/v/{view}/confirm/key").body)
    return ticket, asked


def test_a_follower_on_host_b_sees_a_confirmation_given_on_host_a_within_2_s(
    hosts: list[Server],
) -> None:
    scorer = Phone(hosts[0].port)
    token = new_game(scorer)
    fields = checked(scorer, token, **correction("to confirm"))
    assert scorer.post(f"/g/{token}/deal/new", fields).status == 302
    view = _view_token(scorer, token)
    follower_b = Phone(hosts[1].port)
    seen_before = json.loads(follower_b.get(f"/v/{view}/version").body)["seen"]
    player_a = Phone(hosts[0].port)
    ticket, asked = _ticket(player_a, view)
    deal, revision = asked[-1]
    answer = player_a.post(
        f"/v/{view}/confirm",
        {
            "csrf_token": [ticket["csrf_token"]],
            "request_key": [ticket["request_key"]],
            "deal": [deal],
            "revision": [revision],
            "player": ["Boris"],
            "verdict": ["right"],
            "note": [""],
        },
    )
    assert answer.status == 200, answer.html[:500]
    until(  # how soon: bench/, not a test's bound
        lambda: json.loads(follower_b.get(f"/v/{view}/version").body)["seen"] != seen_before,
        "host B showed the confirmation",
    )
    assert "Boris" in follower_b.get(f"/v/{view}").html


def _view_token(phone: Phone, token: str) -> str:
    page = phone.get(f"/g/{token}")
    found = re.search(r"/v/([A-Za-z0-9_-]{20,})", page.html)
    assert found, "no view link on the scorer's page"
    return found.group(1)


class Burst:
    """Saves sent at the same moment from many tables; what each got back."""

    def __init__(self, phones: list[Phone], tokens: list[str], fields: list[dict[str, Any]]):
        self.phones, self.tokens, self.fields = phones, tokens, fields
        self.replies: list[Reply | None] = [None] * len(tokens)
        self.go = threading.Barrier(len(tokens) + 1)

    def _send(self, n: int) -> None:
        self.go.wait()
        try:
            self.replies[n] = self.phones[n].post(f"/g/{self.tokens[n]}/deal/new", self.fields[n])
        except NET_ERRORS:
            self.replies[n] = None  # sent, maybe written, never answered

    def start(self) -> list[threading.Thread]:
        threads = [threading.Thread(target=self._send, args=(n,)) for n in range(len(self.tokens))]
        for thread in threads:
            thread.start()
        self.go.wait()
        return threads


def test_kill_9_of_host_a_during_40_saves_loses_none_and_doubles_none(
    hosts: list[Server],
) -> None:
    a, b = hosts
    phones = [Phone(a.port) for _ in range(40)]
    tokens = [new_game(phone) for phone in phones]
    fields = [
        checked(phone, token, **correction(f"burst {n}"))
        for n, (phone, token) in enumerate(zip(phones, tokens, strict=True))
    ]
    burst = Burst(phones, tokens, fields)
    threads = burst.start()
    time.sleep(0.05)
    a.kill()
    for thread in threads:
        thread.join(timeout=60)
    acknowledged = [n for n, r in enumerate(burst.replies) if r is not None and r.status == 302]
    unanswered = [n for n, r in enumerate(burst.replies) if r is None]
    assert all(r is None or r.status in (302, 503) for r in burst.replies)
    for n in unanswered + [n for n, r in enumerate(burst.replies) if r and r.status == 503]:
        # The phone's queue sends the same Save again (same request key) to the host left.
        again = on(phones[n], b.port).post(f"/g/{tokens[n]}/deal/new", fields[n])
        assert again.status == 302, again.html[:500]
    for n, token in enumerate(tokens):
        reasons = Counter(reasons_of(Phone(b.port), token))
        assert reasons == Counter({f"burst {n}": 1}), (n, reasons)
    assert acknowledged or unanswered  # the burst was under way when the host died


def test_postgresql_restarted_under_a_serving_host_costs_503s_and_no_restart(
    tmp_path: Path,
) -> None:
    node = PgNode("restart").initdb().start()
    try:
        node.sql("CREATE DATABASE sk")
        host = Server(node.url("sk"), tmp_path / "host.log").start()  # type: ignore[arg-type]
        try:
            _restart_under(node, host)
        finally:
            host.stop()
        assert "Traceback" not in host.log.read_text(errors="replace")
    finally:
        node.remove()


def _restart_under(node: PgNode, host: Server) -> None:
    phone = Phone(host.port)
    token = new_game(phone)
    fields = checked(phone, token, **correction("before the restart"))
    assert phone.post(f"/g/{token}/deal/new", fields).status == 302
    waiting = checked(phone, token, **correction("sent while the database was down"))
    node.stop("immediate")
    for path in (f"/g/{token}", f"/g/{token}/version", "/healthz"):
        reply = phone.get(path)
        assert reply.status == 503, (path, reply.status)
        if path != "/healthz":
            assert reply.headers["Retry-After"], path
    reply = phone.post(f"/g/{token}/deal/new", waiting)
    assert reply.status == 503 and reply.headers["Retry-After"]
    node.start()

    def taken() -> bool:  # the phone's queue sends the Save again until it is taken
        reply = phone.post(f"/g/{token}/deal/new", waiting)
        assert reply.status in (302, 503), reply.status
        return reply.status == 302

    until(taken, "the Save sent again was taken once the database was back", 0.25)
    assert reasons_of(phone, token) == ["before the restart", "sent while the database was down"]
    assert host.process is not None and host.process.poll() is None
