"""Google Benchmark `--benchmark_format=json` (or `--benchmark_out`).

With `--benchmark_repetitions` the per-repetition runs become `samples` and
the `mean`/`median`/`stddev` aggregates fill `stats`; the mean is the value.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..jsonutil import JsonNode, load_json
from ..model import Measure, ParamValue, ParseContext, Result, ResultFactory, Stats, set_stat
from ..units import contract_time_unit

_RATES = {
    "bytes_per_second": Measure("bytes_per_second", "B/s", "higher"),
    "items_per_second": Measure("items_per_second", "ops/s", "higher"),
}
_AGGREGATES = {"mean": "mean", "median": "median", "stddev": "stddev"}


@dataclass
class _Run:
    first: JsonNode
    iterations: list[JsonNode] = field(default_factory=list)
    aggregates: dict[str, JsonNode] = field(default_factory=dict)


def parse(raw: str, *, context: ParseContext) -> list[Result]:
    document = load_json(raw, context.source)
    document.key("context")
    runs: dict[str, _Run] = {}
    for entry in document.key("benchmarks").as_list():
        name = entry.text("run_name") if entry.has("run_name") else entry.text("name")
        run = runs.setdefault(name, _Run(entry))
        if entry.has("aggregate_name"):
            run.aggregates[entry.text("aggregate_name")] = entry
        else:
            run.iterations.append(entry)
    return [r for name, run in runs.items() for r in _run_results(name, run, context)]


def _run_results(name: str, run: _Run, context: ParseContext) -> list[Result]:
    params: dict[str, ParamValue] = {}
    threads = run.first.optional_number("threads")
    if threads and threads > 1:
        params["threads"] = int(threads)
    result = ResultFactory(context, benchmark=name, params=params, language="cpp")
    unit = contract_time_unit(run.first.text("time_unit") if run.first.has("time_unit") else "ns")
    results = [
        _figure(run, key, Measure(key, unit, "lower"), result) for key in ("real_time", "cpu_time")
    ]
    for key, measure in _RATES.items():
        if run.first.has(key):
            results.append(_figure(run, key, measure, result))
    return results


def _figure(run: _Run, key: str, measure: Measure, result: ResultFactory) -> Result:
    samples = [entry.number(key) for entry in run.iterations]
    stats: Stats = {}
    if samples:
        stats = {"n": float(len(samples)), "min": min(samples), "max": max(samples)}
    for aggregate, stat in _AGGREGATES.items():
        if aggregate in run.aggregates:
            set_stat(stats, stat, run.aggregates[aggregate].number(key))
    if "mean" in stats:
        value = stats["mean"]
    elif samples:
        value = samples[0] if len(samples) == 1 else sum(samples) / len(samples)
    else:
        raise run.first.fail(f"an iteration run or a mean aggregate with '{key}'")
    return result(
        measure,
        value,
        stats if len(samples) > 1 or run.aggregates else None,
        samples if len(samples) > 1 else None,
    )
