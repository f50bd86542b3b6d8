"""Measures shared by the HTTP load generators (wrk, ab, hey, autocannon)."""

from __future__ import annotations

from ..model import Measure

THROUGHPUT = Measure("throughput", "req/s", "higher")
TOTAL_REQUESTS = Measure("total_requests", "count", "higher")
TIMEOUTS = Measure("timeouts", "count", "lower")
NON_2XX = Measure("non_2xx_responses", "count", "lower")
FAILED_REQUESTS = Measure("failed_requests", "count", "lower")
PERCENTILE_KEYS = {"50": "p50", "75": "p75", "90": "p90", "95": "p95", "99": "p99", "99.9": "p999"}


def latency(stat: str, unit: str) -> Measure:
    """ "latency_avg", "latency_p99", ... in `unit`; lower is better."""
    return Measure(f"latency_{stat}", unit, "lower")


def rate(metric: str, unit: str) -> Measure:
    return Measure(metric, unit, "higher")


def errors(kind: str) -> Measure:
    return Measure(f"errors_{kind}", "count", "lower")
