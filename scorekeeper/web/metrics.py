"""/metrics for operators (scorekeeper/metrics.py says what is counted): served only while
metrics are on, to a client on loopback that came through no proxy (SCOREKEEPER_METRICS=1)
or to a scraper sending `Authorization: Bearer <SCOREKEEPER_METRICS_TOKEN>`; everyone else
gets the 404 of a page that does not exist. The request hooks count every answer."""

from __future__ import annotations

import hmac
import ipaddress
import time

from flask import Blueprint, Flask, Response, abort, g, request

from scorekeeper import metrics
from scorekeeper.store.deadline import cut_count
from scorekeeper.store.engine import pool_stats, round_trips

from .proxy import PASSED_ON

bp = Blueprint("metrics", __name__)

#: The endpoints a Save of a deal is sent to (with action=save).
SAVE_ENDPOINTS = ("deals.new", "deals.edit")
POOL_EVERY = 1.0
"""Seconds between two looks at this process's pools (each request's end at most)."""
_pool_seen = [0.0]


@bp.route("/metrics")
def scrape() -> Response:
    if not _allowed():
        abort(404)
    body, kind = metrics.exposition()
    return Response(body, content_type=kind)


def _allowed() -> bool:
    given = metrics.token()
    sent = request.headers.get("Authorization", "")
    if given and hmac.compare_digest(sent.encode(), f"Bearer {given}".encode()):
        return True
    return metrics.loopback_allowed() and _from_loopback()


def _from_loopback() -> bool:
    """The client is this machine itself, not a proxy on it passing someone else on."""
    if request.environ.get(PASSED_ON):
        return False
    try:
        return ipaddress.ip_address(request.environ.get("REMOTE_ADDR", "")).is_loopback
    except ValueError:
        return False


def _started() -> None:
    g.metrics_started = (time.perf_counter(), round_trips())


def _done(response: Response) -> Response:
    started, trips = g.get("metrics_started", (time.perf_counter(), round_trips()))
    route = request.url_rule.rule if request.url_rule is not None else metrics.ROUTE_NONE
    metrics.request_done(
        route,
        request.method,
        response.status_code,
        time.perf_counter() - started,
        round_trips() - trips,
        _save_outcome(response),
    )
    now = time.monotonic()
    if now - _pool_seen[0] >= POOL_EVERY:
        _pool_seen[0] = now
        metrics.pools_seen(pool_stats(), cut_count())
    return response


def _save_outcome(response: Response) -> str | None:
    if request.endpoint not in SAVE_ENDPOINTS or request.method != "POST":
        return None
    if request.form.get("action") != "save":
        return None
    status = response.status_code
    if status in (302, 303):
        return "saved"
    if status == 200 and response.is_json:
        return "saved" if (response.get_json(silent=True) or {}).get("saved") else "other"
    return {409: "conflict", 503: "unavailable"}.get(status, "other")


def init_app(app: Flask) -> None:
    """The /metrics page always (a 404 while off); the counting hooks only while on."""
    app.register_blueprint(bp)
    if not metrics.enabled():
        return
    app.before_request_funcs.setdefault(None, []).insert(0, _started)
    app.after_request(_done)
