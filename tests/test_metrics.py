"""/metrics, scraped from real servers: off by default (404 for everyone); with
SCOREKEEPER_METRICS=1 served to loopback only (not to a client a proxy passes on); with
SCOREKEEPER_METRICS_TOKEN to a scraper sending the token (404 without it or with another);
under the deploy's gunicorn (two workers, PostgreSQL) the numbers of both workers added up:
requests by route and status with their durations, Saves and conflicts, the pool, the open
long polls, the database's round trips per request."""

from __future__ import annotations

import http.client
import re
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from .served import (
    GUNICORN,
    Phone,
    Server,
    by_script,
    checked,
    correction,
    follow_of,
    new_game,
    view_of,
)


def scrape(port: int, **headers: str) -> tuple[int, str]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        conn.request("GET", "/metrics", headers=headers)
        response = conn.getresponse()
        return response.status, response.read().decode()
    finally:
        conn.close()


def value(text: str, name: str, **labels: str) -> float:
    """The sum of a metric's samples whose labels include these."""
    total = 0.0
    for line in text.splitlines():
        if not line.startswith(name + "{") and not line.startswith(name + " "):
            continue
        head, _, number = line.rpartition(" ")
        if all(f'{k}="{v}"' in head for k, v in labels.items()):
            total += float(number)
    return total


@pytest.fixture
def started(tmp_path: Path) -> Iterator[list[Server]]:
    running: list[Server] = []
    yield running
    for server in running:
        server.stop()


def test_metrics_are_off_by_default(tmp_path: Path, started: list[Server]) -> None:
    server = Server(tmp_path / "games.sqlite", tmp_path / "server.log").start()
    started.append(server)
    assert scrape(server.port)[0] == 404
    assert scrape(server.port, Authorization="Bearer ")[0] == 404


def test_loopback_only_and_never_through_a_proxy(tmp_path: Path, started: list[Server]) -> None:
    env = {"SCOREKEEPER_METRICS": "1"}
    server = Server(tmp_path / "games.sqlite", tmp_path / "server.log", env=env).start()
    started.append(server)
    new_game(Phone(server.port))
    status, text = scrape(server.port)
    assert status == 200, text[:300]
    assert value(text, "scorekeeper_requests_total", route="/new", method="POST", status="302") == 1
    assert scrape(server.port, **{"X-Forwarded-For": "203.0.113.9"})[0] == 404
    assert scrape(server.port, Forwarded="for=203.0.113.9")[0] == 404


def test_a_scraper_with_the_token_and_no_one_else(tmp_path: Path, started: list[Server]) -> None:
    env = {"SCOREKEEPER_METRICS_TOKEN": "t0ken-for-the-scraper"}
    server = Server(tmp_path / "games.sqlite", tmp_path / "server.log", env=env).start()
    started.append(server)
    assert scrape(server.port)[0] == 404  # loopback is not enough: metrics are not "on"
    assert scrape(server.port, Authorization="Bearer wrong")[0] == 404
    status, text = scrape(server.port, Authorization="Bearer t0ken-for-the-scraper")
    assert status == 200 and "scorekeeper_request_seconds_bucket" in text


def test_the_deploys_workers_are_added_up_on_postgresql(
    tmp_path: Path, pg_url: str, started: list[Server]
) -> None:
    env = {"SCOREKEEPER_METRICS": "1", "SCOREKEEPER_WORKERS": "2"}
    server = Server(pg_url, tmp_path / "server.log", env=env, args=GUNICORN)  # type: ignore[arg-type]
    started.append(server.start())
    scorer = Phone(server.port)
    token = new_game(scorer)
    follower = Phone(server.port)
    shown = follow_of(follower.get(f"/v/{view_of(scorer, token)}").html)
    held: list[int] = []
    poll = threading.Thread(
        target=lambda: held.append(
            follower.get(f"{shown['data-wait']}?since={shown['data-seen']}").status
        ),
        daemon=True,
    )
    poll.start()
    saves = 6
    for n in range(saves):
        fields = checked(scorer, token, **correction(f"deal {n}"))
        assert scorer.post(f"/g/{token}/deal/new", fields).status == 302
    stale = checked(scorer, token, **correction("two phones"))
    fresh = checked(scorer, token, **correction("two phones, the other"))
    assert scorer.post(f"/g/{token}/deal/new", fresh).status == 302
    status, _answer = by_script(scorer, f"/g/{token}/deal/new", stale)
    assert status == 409  # the other phone saved first
    poll.join(60)
    assert held == [200]
    # Each scrape is answered by one worker and adds up both: the same totals every time.
    texts = [scrape(server.port)[1] for _ in range(6)]
    for text in texts:
        assert value(text, "scorekeeper_saves_total", outcome="saved") == saves + 1
        assert value(text, "scorekeeper_saves_total", outcome="conflict") == 1
        assert value(text, "scorekeeper_conflicts_total", route="/g/<tok:token>/deal/new") == 1
        route = "/g/<tok:token>/deal/new"
        assert value(text, "scorekeeper_request_seconds_count", route=route) >= 2 * saves + 4
        assert value(text, "scorekeeper_db_round_trips_sum", route=route) > 2 * saves
        assert value(text, "scorekeeper_db_pool_size") >= 1
        assert "scorekeeper_long_polls_open" in text
        assert not re.search(r"/g/[A-Za-z0-9_-]{20,}", text)  # routes, never a token
    print("\n" + "\n".join(line for line in texts[-1].splitlines() if _excerpt(line)))


def _excerpt(line: str) -> bool:
    return line.startswith(
        (
            "scorekeeper_saves_total",
            "scorekeeper_conflicts_total",
            "scorekeeper_db_pool_size",
            "scorekeeper_long_polls_open",
            'scorekeeper_request_seconds_count{route="/g/<tok:token>/deal/new"}',
            'scorekeeper_db_round_trips_sum{route="/g/<tok:token>/deal/new"}',
        )
    ) or (line.startswith("scorekeeper_requests_total") and "deal/new" in line)
