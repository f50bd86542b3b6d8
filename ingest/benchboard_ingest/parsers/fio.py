"""fio `--output-format=json` and `json+` (json+ only adds latency bins, ignored here).

One benchmark per job (its `jobname`); each direction that did I/O (read,
write, trim) gives IOPS, bandwidth (fio's `bw` is KiB/s), completion latency
(`clat_ns`, with percentiles) and total latency (`lat_ns`), in ns.
The ioengine decides the mode: blocking engines are sync, queueing ones async.
"""

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

SYNC_ENGINES = frozenset({"sync", "psync", "vsync", "pvsync", "pvsync2"})
ASYNC_ENGINES = frozenset({"libaio", "posixaio", "io_uring", "windowsaio", "solarisaio"})
_DIRECTIONS = ("read", "write", "trim")
_PARAM_OPTIONS = ("rw", "bs", "iodepth", "size", "direct", "numjobs")
# fio's percentile keys ("99.000000") mapped onto contract stats.
_PERCENTILES = {
    "50.000000": "p50",
    "75.000000": "p75",
    "90.000000": "p90",
    "95.000000": "p95",
    "99.000000": "p99",
    "99.900000": "p999",
}


def parse(raw: str, *, context: ParseContext) -> list[Result]:
    document = load_json(raw, context.source)
    document.text("fio version")
    results: list[Result] = []
    for job in document.key("jobs").as_list():
        results.extend(_job_results(job, context))
    if not results:
        raise document.fail("at least one job that did I/O", "$.jobs")
    return results


def _job_results(job: JsonNode, context: ParseContext) -> list[Result]:
    options = job.key("job options")
    engine = options.get("ioengine")
    engine_name = engine.as_str() if engine else "psync"  # fio's default engine on Linux
    params: dict[str, ParamValue] = {"iodepth": 1}
    for name in _PARAM_OPTIONS:
        value = options.get(name)
        if value is not None:
            params[name] = _param_value(value.as_str())
    results: list[Result] = []
    for direction in _DIRECTIONS:
        stats = job.key(direction)
        if stats.number("total_ios") > 0:
            result = ResultFactory(
                context,
                benchmark=context.benchmark or job.text("jobname"),
                params={**params, "op": direction},
                language="c",
                implementation=f"fio/{engine_name}",
                mode=_mode(engine_name),
            )
            results.extend(_direction_results(stats, result))
    return results


def _param_value(text: str) -> ParamValue:
    return int(text) if text.isdigit() else text


def _mode(engine: str) -> str | None:
    if engine in SYNC_ENGINES:
        return "sync"
    if engine in ASYNC_ENGINES:
        return "async"
    return None


def _direction_results(stats: JsonNode, result: ResultFactory) -> list[Result]:
    clat = _latency_stats(stats.key("clat_ns"))
    results = [
        result(
            Measure("iops", "ops/s", "higher"),
            stats.number("iops"),
            _spread(stats, "iops_min", "iops_max", "iops_stddev"),
        ),
        result(
            Measure("bandwidth", "KiB/s", "higher"),
            stats.number("bw"),
            _spread(stats, "bw_min", "bw_max", "bw_dev"),
        ),
        result(Measure("clat", "ns", "lower"), clat["mean"], clat),
        result(
            Measure("lat", "ns", "lower"),
            stats.key("lat_ns").number("mean"),
            _latency_stats(stats.key("lat_ns")),
        ),
    ]
    for key in ("p50", "p90", "p95", "p99", "p999"):
        value = stat_value(clat, key)
        if value is not None:
            results.append(result(Measure(f"clat_{key}", "ns", "lower"), value))
    return results


def _spread(stats: JsonNode, low: str, high: str, deviation: str) -> Stats:
    found: Stats = {}
    for key, name in (("min", low), ("max", high), ("stddev", deviation)):
        value = stats.optional_number(name)
        if value is not None:
            set_stat(found, key, value)
    return found


def _latency_stats(latency: JsonNode) -> Stats:
    stats: Stats = {
        "n": latency.number("N"),
        "min": latency.number("min"),
        "max": latency.number("max"),
        "mean": latency.number("mean"),
        "stddev": latency.number("stddev"),
    }
    percentiles = latency.get("percentile")
    if percentiles is not None:
        for key, value in percentiles.items():
            if key in _PERCENTILES:
                set_stat(stats, _PERCENTILES[key], value.as_number())
    return stats
