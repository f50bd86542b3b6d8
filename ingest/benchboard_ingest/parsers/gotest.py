"""`go test -bench` text and `go test -json` (test2json) output.

Repetitions from `-count` are folded into one result per benchmark and
metric: `value` is their mean, `samples` the per-run figures in order.
In `-json` a result line is often split over two `output` events and later
repetitions lack the `Test` field, so all `Output` strings are joined first.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from ..errors import ParseError
from ..model import Measure, ParamValue, ParseContext, Result, ResultFactory
from ..textutil import TextInput
from ..units import parse_number
from ..vocabulary import Direction
from ._peer import slug
from ._stats import summarize

_LINE = re.compile(r"^(Benchmark\S*?)(?:-(\d+))?\s+(\d+)\s+(\d.*\S)\s*$")
_STARTED = re.compile(r"^Benchmark\S*\s+\d+\s")
# The first figure is ns/op; b.ReportMetric adds any unit ("3.000 auxMetricUnits").
_FIGURE = r"\s+[-+]?[\d.]+(?:e[-+]?\d+)?\s+"
_COMPLETE = re.compile(rf"^Benchmark\S*\s+\d+{_FIGURE}\S+/\S+(?:{_FIGURE}\S+)*\s*$")
_END = re.compile(r"^(?:PASS|FAIL|ok\s)")
# "<figure> <unit>" pairs after a result line's iteration count (github-action-benchmark
# keeps them, tab-separated, in its Go `unit`).
PAIR = re.compile(r"([-+]?[\d.]+(?:e[-+]?\d+)?)\s+(\S+)")
_KNOWN = {
    "ns/op": Measure("time_per_op", "ns", "lower"),
    "B/op": Measure("memory_per_op", "B", "lower"),
    "allocs/op": Measure("allocs_per_op", "count", "lower"),
    "MB/s": Measure("throughput", "MB/s", "higher"),
}


@dataclass
class _Series:
    name: str
    params: dict[str, ParamValue]
    values: dict[str, list[float]] = field(default_factory=dict)


def parse(raw: str, *, context: ParseContext) -> list[Result]:
    text = TextInput(raw, context.source)
    text.reject_incomplete(_STARTED, _COMPLETE, "a complete result line ('<n> <value> <unit>…')")
    if not text.search(_END):
        raise ParseError(
            context.source,
            text.end(),
            "the closing 'PASS' or 'ok <pkg>' line (the output looks truncated)",
        )
    series: dict[tuple[str, int | None], _Series] = {}
    for line, match in text.matches(_LINE):
        procs = int(match.group(2)) if match.group(2) else None
        key = (match.group(1), procs)
        entry = series.setdefault(key, _Series(*name_and_params(match.group(1), procs)))
        for value, unit in PAIR.findall(match.group(4)):
            number = text.convert(line, value, parse_number, f"a number before '{unit}'")
            entry.values.setdefault(unit, []).append(number)
    if not series:
        raise ParseError(
            context.source,
            text.end(),
            "benchmark result lines such as 'BenchmarkX-8  1000  123 ns/op'",
        )
    return [r for entry in series.values() for r in _series_results(entry, context)]


def parse_json(raw: str, *, context: ParseContext) -> list[Result]:
    outputs: list[str] = []
    for number, line in enumerate(raw.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            event = json.loads(line)
        except json.JSONDecodeError:
            raise ParseError(context.source, f"line {number}", "one test2json event") from None
        if not isinstance(event, dict) or "Action" not in event:
            raise ParseError(context.source, f"line {number}", "an event with 'Action'")
        if event["Action"] == "output" and isinstance(event.get("Output"), str):
            outputs.append(event["Output"])
    return parse("".join(outputs), context=context)


def name_and_params(name: str, procs: int | None) -> tuple[str, dict[str, ParamValue]]:
    """ "BenchmarkWrite/sync/n=10" -> ("BenchmarkWrite/sync", {"n": 10})."""
    parts, params = [], dict[str, ParamValue]()
    for part in name.split("/"):
        key, sep, value = part.partition("=")
        if sep and key:
            params[key] = int(value) if value.isdigit() else value
        else:
            parts.append(part)
    if procs is not None:
        params["gomaxprocs"] = procs
    return "/".join(parts), params


def _series_results(entry: _Series, context: ParseContext) -> list[Result]:
    result = ResultFactory(context, benchmark=entry.name, params=entry.params, language="go")
    results = []
    for unit, values in entry.values.items():
        stats = summarize(values)
        results.append(result(measure_for_unit(unit), stats["mean"], stats, values))
    return results


def measure_for_unit(unit: str) -> Measure:
    """Known units map onto the contract; custom ones (b.ReportMetric) become counts."""
    if unit in _KNOWN:
        return _KNOWN[unit]
    direction: Direction = "higher" if unit.endswith("/s") else "lower"
    return Measure(slug(unit), "count", direction)
