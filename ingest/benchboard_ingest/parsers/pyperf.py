"""pyperf JSON (`-o file.json`): raw values per run, in the unit its metadata names."""

from __future__ import annotations

from ..jsonutil import JsonNode, load_json
from ..model import Measure, ParseContext, Result, ResultFactory
from ._stats import summarize

_UNITS = {"second": ("s", "time_per_op"), "byte": ("B", "memory"), "integer": ("count", "value")}


def parse(raw: str, *, context: ParseContext) -> list[Result]:
    document = load_json(raw, context.source)
    common = document.get("metadata")
    benchmarks = document.key("benchmarks").as_list()
    return [_benchmark_result(b, common, context) for b in benchmarks]


def _benchmark_result(
    benchmark: JsonNode, common: JsonNode | None, context: ParseContext
) -> Result:
    metadata = benchmark.get("metadata")
    name = _metadata(metadata, common, "name")
    unit_name = _metadata(metadata, common, "unit") or "second"
    if name is None:
        raise benchmark.fail("a benchmark name in metadata.name", f"{benchmark.path}.metadata")
    if unit_name not in _UNITS:
        raise benchmark.fail("unit second, byte or integer", f"{benchmark.path}.metadata.unit")
    unit, metric = _UNITS[unit_name]
    # The first run often holds calibration warmups only and no values.
    values = [
        value.as_number()
        for run in benchmark.key("runs").as_list()
        if run.has("values")
        for value in run.key("values").as_list()
    ]
    if not values:
        raise benchmark.fail("runs with values", f"{benchmark.path}.runs")
    stats = summarize(values)
    result = ResultFactory(context, benchmark=name, language="python")
    return result(Measure(metric, unit, "lower"), stats["mean"], stats, values)


def _metadata(own: JsonNode | None, common: JsonNode | None, key: str) -> str | None:
    for metadata in (own, common):
        if metadata is not None and metadata.has(key):
            return metadata.text(key)
    return None
