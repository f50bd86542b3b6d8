"""BenchmarkDotNet JSON exporters (`*-report-full.json`, `-brief`, `-compressed`).

`Statistics` figures are nanoseconds per operation; `Memory` (with
MemoryDiagnoser) gives allocated bytes per operation.
"""

from __future__ import annotations

from ..jsonutil import JsonNode, load_json
from ..model import Measure, ParamValue, ParseContext, Result, ResultFactory, Stats, set_stat

TIME_PER_OP = Measure("time_per_op", "ns", "lower")
ALLOCATED = Measure("allocated_per_op", "B", "lower")
_STATS = {
    "N": "n",
    "Min": "min",
    "Max": "max",
    "Mean": "mean",
    "Median": "median",
    "StandardDeviation": "stddev",
}
_PERCENTILES = {"P50": "p50", "P90": "p90", "P95": "p95"}


def parse(raw: str, *, context: ParseContext) -> list[Result]:
    document = load_json(raw, context.source)
    document.key("HostEnvironmentInfo")
    results: list[Result] = []
    for entry in document.key("Benchmarks").as_list():
        results.extend(_entry_results(entry, context))
    return results


def _entry_results(entry: JsonNode, context: ParseContext) -> list[Result]:
    name = (
        entry.text("FullName")
        if entry.has("FullName")
        else f"{entry.text('Type')}.{entry.text('Method')}"
    )
    result = ResultFactory(context, benchmark=name, params=_params(entry), language="csharp")
    statistics = entry.key("Statistics")
    stats: Stats = {}
    for key, stat in _STATS.items():
        if statistics.has(key):
            set_stat(stats, stat, statistics.number(key))
    percentiles = statistics.get("Percentiles")
    for key, stat in _PERCENTILES.items():
        if percentiles is not None and percentiles.has(key):
            set_stat(stats, stat, percentiles.number(key))
    values = statistics.get("OriginalValues")
    samples = [v.as_number() for v in values.as_list()] if values else None
    results = [result(TIME_PER_OP, statistics.number("Mean"), stats, samples)]
    memory = entry.get("Memory")
    if memory is not None and memory.has("BytesAllocatedPerOperation"):
        results.append(result(ALLOCATED, memory.number("BytesAllocatedPerOperation")))
    return results


def _params(entry: JsonNode) -> dict[str, ParamValue]:
    """ "N=10, Mode=fast" -> {"N": 10, "Mode": "fast"}."""
    params: dict[str, ParamValue] = {}
    text = entry.text("Parameters") if entry.has("Parameters") else ""
    for pair in filter(None, (p.strip() for p in text.split(","))):
        key, _, value = pair.partition("=")
        params[key] = int(value) if value.lstrip("-").isdigit() else value
    return params
