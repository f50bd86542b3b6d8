"""pytest-benchmark `--benchmark-json`. Times are seconds in the JSON (the table shows us)."""

from __future__ import annotations

from ..jsonutil import JsonNode, load_json
from ..model import Measure, ParamValue, ParseContext, Result, ResultFactory, Stats

TIME_PER_OP = Measure("time_per_op", "s", "lower")
THROUGHPUT = Measure("throughput", "ops/s", "higher")


def parse(raw: str, *, context: ParseContext) -> list[Result]:
    document = load_json(raw, context.source)
    results: list[Result] = []
    for entry in document.key("benchmarks").as_list():
        results.extend(_entry_results(entry, context))
    return results


def _entry_results(entry: JsonNode, context: ParseContext) -> list[Result]:
    # "test_write[10]" with params {"n": 10}: the params say what the brackets say.
    name = entry.text("name").split("[", 1)[0]
    params: dict[str, ParamValue] = {}
    raw_params = entry.get("params")
    if raw_params is not None:
        params = {key: _param(value) for key, value in raw_params.items()}
    result = ResultFactory(context, benchmark=name, params=params, language="python")
    stats = entry.key("stats")
    summary: Stats = {
        "n": stats.number("rounds"),
        "min": stats.number("min"),
        "max": stats.number("max"),
        "mean": stats.number("mean"),
        "median": stats.number("median"),
        "stddev": stats.number("stddev"),
    }
    data = stats.get("data")
    samples = [node.as_number() for node in data.as_list()] if data else None
    return [
        result(TIME_PER_OP, stats.number("mean"), summary, samples),
        result(THROUGHPUT, stats.number("ops")),
    ]


def _param(node: JsonNode) -> ParamValue:
    value = node.value
    if isinstance(value, str | int | float | bool):
        return value
    return str(value)
