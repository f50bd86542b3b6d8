"""Bencher Metric Format: `{benchmark: {measure: {value, lower_value?, upper_value?}}}`.

Bencher's built-in measures keep their unit (`latency` is nanoseconds, `throughput`
operations per second, …). Any other measure is a custom one: its metric is its name
("Total Bytes" -> `total_bytes`) and its unit is what the caller says (`--unit`), else a
`count`; `--direction` says which way is better, else the unit's default. The bounds
become `stats.min` and `stats.max`, the contract's names for the lowest and highest figure.
"""

from __future__ import annotations

from ..jsonutil import JsonNode, load_json
from ..model import Measure, ParseContext, ParsedFile, Result, ResultFactory, Stats
from ..vocabulary import unit_info
from ._peer import slug

# Bencher's built-in measures (its `bencher_json` crate names them by these slugs).
BUILT_IN = {
    "latency": Measure("latency", "ns", "lower"),
    "throughput": Measure("throughput", "ops/s", "higher"),
    "build-time": Measure("build_time", "s", "lower"),
    "file-size": Measure("file_size", "B", "lower"),
    **{
        name: Measure(slug(name), "count", "lower")
        for name in (
            "instructions",
            "cycles",
            "l1-accesses",
            "l2-accesses",
            "ram-accesses",
            "estimated-cycles",
            "total-read-write",
        )
    },
}


def parse(raw: str, *, context: ParseContext) -> ParsedFile:
    document = load_json(raw, context.source)
    if not document.as_dict():
        raise document.fail("at least one benchmark")
    results: list[Result] = []
    for benchmark, measures in document.items():
        result = ResultFactory(context, benchmark=benchmark)
        if not measures.as_dict():
            raise measures.fail("at least one measure")
        for name, figures in measures.items():
            results.append(_figure(result, _measure(name, context), figures))
    return ParsedFile(results)


def _measure(name: str, context: ParseContext) -> Measure:
    if name in BUILT_IN:
        return BUILT_IN[name]
    unit = context.unit or "count"
    return Measure(slug(name), unit, context.direction or unit_info(unit).default_direction)


def _figure(result: ResultFactory, measure: Measure, figures: JsonNode) -> Result:
    stats: Stats = {}
    lower = figures.optional_number("lower_value")
    upper = figures.optional_number("upper_value")
    if lower is not None:
        stats["min"] = lower
    if upper is not None:
        stats["max"] = upper
    return result(measure, figures.number("value"), stats)
