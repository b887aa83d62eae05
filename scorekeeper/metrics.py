"""What an operator watches, in Prometheus' text format at /metrics (web/metrics.py serves
it): off unless SCOREKEEPER_METRICS=1 (clients on loopback) or SCOREKEEPER_METRICS_TOKEN
(a scraper elsewhere sending `Authorization: Bearer <token>`).

    scorekeeper_requests_total{route,method,status}     every answer of the Flask app
    scorekeeper_request_seconds{route}                  their durations (histogram)
    scorekeeper_saves_total{outcome}                    Saves: saved, conflict, unavailable, other
    scorekeeper_conflicts_total{route}                  409s (changed on another phone)
    scorekeeper_unavailable_total{route}                503s (the database cannot be used)
    scorekeeper_db_round_trips{route}                   statements sent to PostgreSQL per request
    scorekeeper_db_pool_size / _available / _waiting    each process's pool (gauges)
    scorekeeper_db_pool_waited_seconds_total            time requests waited for a connection
    scorekeeper_db_calls_cut_total                      calls to a hung server cut off
    scorekeeper_long_polls_open                         followers' requests held now

Under gunicorn each worker writes its numbers to files in PROMETHEUS_MULTIPROC_DIR (made by
gunicorn_config when metrics are on) and a scrape of any worker adds them up. Nothing is
imported and nothing counted while metrics are off.
"""

from __future__ import annotations

import os
import threading
from typing import Any

from scorekeeper.config import BOOLEAN_WORDS

TOKEN_SETTING = "SCOREKEEPER_METRICS_TOKEN"
ROUTE_NONE = "(no route)"


def enabled() -> bool:
    """Whether /metrics is served (to loopback or to a scraper with the token)."""
    return loopback_allowed() or bool(token())


def loopback_allowed() -> bool:
    word = os.environ.get("SCOREKEEPER_METRICS", "").strip().lower()
    return bool(BOOLEAN_WORDS.get(word, False))


def token() -> str:
    return os.environ.get(TOKEN_SETTING, "").strip()


class _Metrics:
    """The metrics of this process, made at first use (prometheus_client imported then)."""

    def __init__(self) -> None:
        from prometheus_client import Counter, Gauge, Histogram

        self.requests = Counter(
            "scorekeeper_requests", "Answers of the app", ["route", "method", "status"]
        )
        self.seconds = Histogram(
            "scorekeeper_request_seconds",
            "How long the app took to answer",
            ["route"],
            buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30),
        )
        self.saves = Counter("scorekeeper_saves", "Saves of a deal", ["outcome"])
        self.conflicts = Counter("scorekeeper_conflicts", "409 answers", ["route"])
        self.unavailable = Counter("scorekeeper_unavailable", "503 answers", ["route"])
        self.round_trips = Histogram(
            "scorekeeper_db_round_trips",
            "Statements sent to PostgreSQL per request",
            ["route"],
            buckets=(0, 1, 2, 4, 8, 16, 32, 64),
        )
        live: dict[str, Any] = {"multiprocess_mode": "livesum"}
        self.pool_size = Gauge("scorekeeper_db_pool_size", "Connections open", **live)
        self.pool_available = Gauge(
            "scorekeeper_db_pool_available", "Connections idle in the pool", **live
        )
        self.pool_waiting = Gauge(
            "scorekeeper_db_pool_waiting", "Requests waiting for a connection", **live
        )
        self.pool_waited = Counter(
            "scorekeeper_db_pool_waited_seconds", "Time requests waited for a connection"
        )
        self.cut = Counter("scorekeeper_db_calls_cut", "Calls to a hung server cut off")
        self.long_polls = Gauge(
            "scorekeeper_long_polls_open", "Followers' requests held now", **live
        )
        self.seen_waited_ms = 0
        self.seen_cut = 0


_made: list[_Metrics] = []
_lock = threading.Lock()


def metrics() -> _Metrics | None:
    """This process's metrics, or None while they are off."""
    if _made:
        return _made[0]
    if not enabled():
        return None
    with _lock:
        if not _made:
            _made.append(_Metrics())
    return _made[0]


def long_poll(change: int) -> None:
    """A follower's request held (+1) or answered (-1)."""
    found = metrics()
    if found is not None:
        found.long_polls.inc(change)


def request_done(
    route: str, method: str, status: int, seconds: float, round_trips: int, save: str | None
) -> None:
    """One answer of the app: its route (the URL rule: never a token), status, duration,
    statements sent to the database; `save` the outcome when it was a Save."""
    found = metrics()
    if found is None:
        return
    found.requests.labels(route, method, str(status)).inc()
    found.seconds.labels(route).observe(seconds)
    found.round_trips.labels(route).observe(round_trips)
    if status == 409:
        found.conflicts.labels(route).inc()
    elif status == 503:
        found.unavailable.labels(route).inc()
    if save is not None:
        found.saves.labels(save).inc()


def pools_seen(stats: list[dict[str, int]], cut: int) -> None:
    """The pools of this process as they are now (psycopg_pool's get_stats()), and how many
    calls were cut off so far (store/deadline.py)."""
    found = metrics()
    if found is None:
        return
    found.pool_size.set(sum(s.get("pool_size", 0) for s in stats))
    found.pool_available.set(sum(s.get("pool_available", 0) for s in stats))
    found.pool_waiting.set(sum(s.get("requests_waiting", 0) for s in stats))
    waited = sum(s.get("requests_wait_ms", 0) for s in stats)
    with _lock:
        if waited > found.seen_waited_ms:
            found.pool_waited.inc((waited - found.seen_waited_ms) / 1000)
        found.seen_waited_ms = max(waited, found.seen_waited_ms)
        if cut > found.seen_cut:
            found.cut.inc(cut - found.seen_cut)
            found.seen_cut = cut


def exposition() -> tuple[bytes, str]:
    """The text a scrape gets, and its content type: every process's numbers under gunicorn
    (PROMETHEUS_MULTIPROC_DIR), this process's otherwise."""
    from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, CollectorRegistry, generate_latest
    from prometheus_client.multiprocess import MultiProcessCollector

    metrics()
    registry: Any = REGISTRY
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        registry = CollectorRegistry()
        MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
    return generate_latest(registry), CONTENT_TYPE_LATEST
