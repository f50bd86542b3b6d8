"""JMH `-rf json`. `scoreError` is the string "NaN" when JMH has too few iterations."""

from __future__ import annotations

from collections.abc import Callable

from ..jsonutil import JsonNode, load_json
from ..model import Measure, ParamValue, ParseContext, Result, ResultFactory, Stats, set_stat
from ..units import convert_time, is_time_unit

# Score units per mode: "ops/ms" throughput becomes ops/s, "us/op" stays a time.
_RATE_SCALE = {
    "ops/s": 1.0,
    "ops/ms": 1e3,
    "ops/us": 1e6,
    "ops/ns": 1e9,
    "ops/min": 1 / 60,
    "ops/hr": 1 / 3600,
}
_METRIC_BY_MODE = {
    "thrpt": "throughput",
    "avgt": "time_per_op",
    "sample": "time_per_op",
    "ss": "single_shot_time",
}
Scale = Callable[[float], float]
_PERCENTILES = {
    "0.0": "min",
    "50.0": "p50",
    "90.0": "p90",
    "95.0": "p95",
    "99.0": "p99",
    "99.9": "p999",
    "100.0": "max",
}


def parse(raw: str, *, context: ParseContext) -> list[Result]:
    document = load_json(raw, context.source)
    return [_entry_result(entry, context) for entry in document.as_list()]


def _entry_result(entry: JsonNode, context: ParseContext) -> Result:
    params: dict[str, ParamValue] = {}
    raw_params = entry.get("params")
    if raw_params is not None:
        params = {k: param_from_text(v.as_str()) for k, v in raw_params.items()}
    result = ResultFactory(
        context, benchmark=entry.text("benchmark"), params=params, language="java"
    )
    metric = entry.key("primaryMetric")
    mode = entry.text("mode")
    if mode not in _METRIC_BY_MODE:
        raise entry.fail("mode thrpt, avgt, sample or ss", f"{entry.path}.mode")
    measure, scale = _measure(metric, _METRIC_BY_MODE[mode])
    samples = [scale(v.as_number()) for fork in _raw_data(metric) for v in fork.as_list()]
    stats: Stats = {"n": float(len(samples))} if samples else {}
    percentiles = metric.get("scorePercentiles")
    for key, value in percentiles.items() if percentiles else []:
        if key in _PERCENTILES:
            set_stat(stats, _PERCENTILES[key], scale(value.as_number()))
    return result(measure, scale(metric.number("score")), stats, samples)


def _raw_data(metric: JsonNode) -> list[JsonNode]:
    data = metric.get("rawData")
    return data.as_list() if data else []


def _measure(metric: JsonNode, name: str) -> tuple[Measure, Scale]:
    found = measure_for_score_unit(metric.text("scoreUnit"), name)
    if found is None:
        raise metric.fail("a score unit such as ops/s or us/op", f"{metric.path}.scoreUnit")
    return found


def measure_for_score_unit(unit: str, metric: str | None = None) -> tuple[Measure, Scale] | None:
    """What a JMH score in `unit` is, and how to scale it; None for units JMH never uses.

    Without the benchmark mode (github-action-benchmark drops it) a rate is a throughput
    and a time per op a `time_per_op`, as in `thrpt` and `avgt` mode.
    """
    if unit in _RATE_SCALE:
        factor = _RATE_SCALE[unit]
        return Measure(metric or "throughput", "ops/s", "higher"), lambda v: v * factor
    time_unit = unit.removesuffix("/op")
    if is_time_unit(time_unit):
        target = "s" if time_unit in {"min", "m", "h"} else time_unit
        return (
            Measure(metric or "time_per_op", target, "lower"),
            lambda v: convert_time(v, time_unit, target),
        )
    return None


def param_from_text(text: str) -> ParamValue:
    try:
        return int(text)
    except ValueError:
        return text
