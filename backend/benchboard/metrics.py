"""Prometheus metrics: request latencies, detection work, webhook attempts, queue depth.

Counters and histograms live in the process that does the work (API workers, detection
workers). Under `benchboard serve` every process writes them to one
PROMETHEUS_MULTIPROC_DIR, so `GET /metrics` on any API worker shows the whole machine.
Queue depth, lag and the webhook backlog are read from PostgreSQL at scrape time (health.py
registers them): one truth for every replica and worker that shares the database.
"""

import os
import time

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Histogram,
    generate_latest,
    multiprocess,
)
from prometheus_client.registry import Collector
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from benchboard.config import MULTIPROC_ENV

# Decided as prometheus_client decided it, on import: do this process's metrics go to
# the shared directory?
MULTIPROCESS = bool(os.environ.get(MULTIPROC_ENV))

HTTP_SECONDS = Histogram(
    "benchboard_http_request_seconds",
    "HTTP requests by route template, method and status (uploads: POST /api/v1/runs)",
    ["method", "route", "status"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30),
)
RESULTS_STORED = Counter("benchboard_results_stored_total", "Results stored by new runs")
DETECTION_SERIES = Counter("benchboard_detection_series_total", "Series checked by workers")
DETECTION_FAILURES = Counter(
    "benchboard_detection_failures_total",
    "Failed checks (a batch, or one series), by what the failure means (pipeline/failures.py):"
    " outage, retry, give_up",
    ["kind"],
)
DETECTION_SECONDS = Counter(
    "benchboard_detection_seconds_total",
    "Worker time checking series, by phase: read and write are database time, build and"
    " detect are Python (rows to observations, the detector)",
    ["phase"],
)
DETECTION_SECONDS_PER_SERIES = Histogram(
    "benchboard_detection_seconds_per_series",
    "Mean time per series of each checked batch",
    buckets=(0.0002, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1),
)
DETECTION_LAG = Histogram(
    "benchboard_detection_lag_seconds",
    "From a series' queued request to its stored check",
    buckets=(0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 900),
)
HISTORY_SNAPSHOTS_BUILT = Counter(
    "benchboard_history_snapshots_built_total",
    "Series whose history snapshots idle workers wrote (series/snapshots.py)",
)
REGRESSIONS_DETECTED = Counter("benchboard_regressions_detected_total", "New changes stored")
WEBHOOK_ATTEMPTS = Counter(
    "benchboard_webhook_attempts_total", "Webhook POSTs by outcome", ["outcome"]
)
NOTIFICATION_ATTEMPTS = Counter(
    "benchboard_notification_attempts_total",
    "Alert group messages sent with Apprise, by outcome",
    ["outcome"],
)


class RequestMetrics:
    """ASGI middleware: one histogram observation per HTTP request."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 500

        async def send_with_status(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, send_with_status)
        finally:
            route = getattr(scope.get("route"), "path", "unmatched")
            HTTP_SECONDS.labels(scope["method"], route, str(status)).observe(
                time.perf_counter() - started
            )


def exposition(database: Collector) -> tuple[bytes, str]:
    """The /metrics body: this machine's process metrics, then `database`'s gauges (read
    when scraped, by the caller: health.py registers the pipeline's)."""
    if MULTIPROCESS:
        processes = CollectorRegistry()
        multiprocess.MultiProcessCollector(processes)  # type: ignore[no-untyped-call]
    else:
        processes = REGISTRY
    gauges = CollectorRegistry(auto_describe=False)
    gauges.register(database)
    return generate_latest(processes) + generate_latest(gauges), CONTENT_TYPE_LATEST
