"""tinybench: the `console.table(bench.table())` text and a JSON dump of task results.

The table shows latency in ns; `task.result.latency` in the JSON is in ms.
tinybench has no JSON exporter of its own: the JSON form is
`{"results": [{"name": …, "result": task.result}]}`, as written by the script
that ran the benchmark (see the fixtures' README).
"""

from __future__ import annotations

import re

from ..errors import ParseError
from ..jsonutil import JsonNode, load_json
from ..model import Measure, ParseContext, Result, ResultFactory, Stats, set_stat
from ..textutil import TextInput
from ..units import parse_number

_ROW = re.compile(
    r"^│\s*\d+\s*│\s*'(.+?)'\s*│\s*'(\S+) ± [^']*'\s*│\s*'(\S+) ± [^']*'\s*│"
    r"\s*'(\S+) ± [^']*'\s*│\s*'(\S+) ± [^']*'\s*│\s*(\d+)\s*│"
)
_HEADER = re.compile(r"Task name\s*│\s*Latency avg \(ns\)")
_LATENCY_STATS = {
    "mean": "mean",
    "p50": "p50",
    "p75": "p75",
    "p99": "p99",
    "p999": "p999",
    "min": "min",
    "max": "max",
    "sd": "stddev",
    "samplesCount": "n",
}


def parse(raw: str, *, context: ParseContext) -> list[Result]:
    """The console table."""
    text = TextInput(raw, context.source)
    text.require(_HEADER, "a table with 'Task name' and 'Latency avg (ns)' columns")
    text.require(re.compile(r"^└"), "the table's bottom border (the output looks truncated)")
    results: list[Result] = []
    for line, row in text.matches(_ROW):
        result = ResultFactory(context, benchmark=row.group(1), language="javascript")
        numbers = [text.convert(line, row.group(i), parse_number, "a number") for i in range(2, 7)]
        samples = numbers[4]
        results.append(
            result(
                Measure("time_per_op", "ns", "lower"),
                numbers[0],
                {"median": numbers[1], "n": samples},
            )
        )
        results.append(
            result(
                Measure("throughput", "ops/s", "higher"),
                numbers[2],
                {"median": numbers[3], "n": samples},
            )
        )
    if not results:
        raise ParseError(context.source, text.end(), "table rows │ i │ 'name' │ 'avg ± rme' │ …")
    return results


def parse_json(raw: str, *, context: ParseContext) -> list[Result]:
    document = load_json(raw, context.source)
    results: list[Result] = []
    for entry in document.key("results").as_list():
        task = entry.key("result")
        result = ResultFactory(context, benchmark=entry.text("name"), language="javascript")
        latency = task.key("latency")
        throughput = task.key("throughput")
        results.append(
            result(Measure("time_per_op", "ms", "lower"), latency.number("mean"), _stats(latency))
        )
        results.append(
            result(
                Measure("throughput", "ops/s", "higher"),
                throughput.number("mean"),
                _stats(throughput),
            )
        )
    return results


def _stats(node: JsonNode) -> Stats:
    stats: Stats = {}
    for key, stat in _LATENCY_STATS.items():
        value = node.optional_number(key)
        if value is not None:
            set_stat(stats, stat, value)
    return stats
