"""autocannon `--json` (`-j`) output. Latency is in ms, throughput in bytes/s."""

from __future__ import annotations

from ..jsonutil import JsonNode, load_json
from ..model import (
    Measure,
    ParamValue,
    ParseContext,
    Result,
    ResultFactory,
    Stats,
    set_stat,
    stat_value,
)
from ._http import NON_2XX, THROUGHPUT, TIMEOUTS, TOTAL_REQUESTS, errors, latency

# autocannon's percentile keys mapped onto contract stats.
_PERCENTILES = {"p50": "p50", "p75": "p75", "p90": "p90", "p99": "p99", "p99_9": "p999"}


def parse(raw: str, *, context: ParseContext) -> list[Result]:
    document = load_json(raw, context.source)
    params: dict[str, ParamValue] = {
        "connections": int(document.number("connections")),
        "pipelining": int(document.number("pipelining")),
        "duration_s": document.number("duration"),
    }
    result = ResultFactory(context, benchmark=context.benchmark or "autocannon", params=params)
    lat = document.key("latency")
    requests = document.key("requests")
    throughput = document.key("throughput")
    lat_stats = _stats(lat)
    results = [
        result(THROUGHPUT, requests.number("average"), _stats(requests)),
        result(latency("avg", "ms"), lat.number("average"), lat_stats),
        result(
            Measure("transfer_rate", "B/s", "higher"),
            throughput.number("average"),
            _stats(throughput),
        ),
        result(TOTAL_REQUESTS, requests.number("total")),
        result(errors("connection"), document.number("errors")),
        result(TIMEOUTS, document.number("timeouts")),
        result(NON_2XX, document.number("non2xx")),
    ]
    for key in ("p50", "p90", "p99", "p999"):
        value = stat_value(lat_stats, key)
        if value is not None:
            results.append(result(latency(key, "ms"), value))
    return results


def _stats(node: JsonNode) -> Stats:
    stats: Stats = {
        "mean": node.number("mean"),
        "stddev": node.number("stddev"),
        "min": node.number("min"),
        "max": node.number("max"),
    }
    for key, stat in _PERCENTILES.items():
        value = node.optional_number(key)
        if value is not None:
            set_stat(stats, stat, value)
    return stats
