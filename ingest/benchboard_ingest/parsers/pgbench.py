"""pgbench text summary."""

from __future__ import annotations

import re

from ..model import Measure, ParamValue, ParseContext, Result, ResultFactory
from ..textutil import TextInput
from ..units import parse_number

_HEADER = re.compile(r"^pgbench \((.+)\)\s*$")
_TYPE = re.compile(r"^transaction type: (?:<builtin: )?(.+?)>?\s*$")
_PARAMS = {
    "scaling_factor": re.compile(r"^scaling factor: (\d+)"),
    "clients": re.compile(r"^number of clients: (\d+)"),
    "threads": re.compile(r"^number of threads: (\d+)"),
    "duration_s": re.compile(r"^duration: (\d+) s"),
}
_QUERY_MODE = re.compile(r"^query mode: (\S+)")
_FIGURES = (
    (re.compile(r"^tps = ([\d.]+) \(without"), Measure("tps", "ops/s", "higher")),
    (re.compile(r"^latency average = ([\d.]+) ms"), Measure("latency_avg", "ms", "lower")),
    (
        re.compile(r"^number of transactions actually processed: (\d+)"),
        Measure("transactions", "count", "higher"),
    ),
    (
        re.compile(r"^initial connection time = ([\d.]+) ms"),
        Measure("initial_connection_time", "ms", "lower"),
    ),
)
_OPTIONAL = (
    (re.compile(r"^latency stddev = ([\d.]+) ms"), Measure("latency_stddev", "ms", "lower")),
    (
        re.compile(r"^number of failed transactions: (\d+)"),
        Measure("failed_transactions", "count", "lower"),
    ),
)


def parse(raw: str, *, context: ParseContext) -> list[Result]:
    text = TextInput(raw, context.source)
    text.require(_HEADER, "'pgbench (<version>)' header")
    _, kind = text.require(_TYPE, "'transaction type:' line")
    params: dict[str, ParamValue] = {}
    for name, pattern in _PARAMS.items():
        found = text.search(pattern)
        if found:
            params[name] = int(found[1].group(1))
    mode = text.search(_QUERY_MODE)
    if mode:
        params["query_mode"] = mode[1].group(1)
    result = ResultFactory(context, benchmark=context.benchmark or kind.group(1), params=params)
    results = []
    for pattern, measure in _FIGURES:
        line, match = text.require(pattern, f"line for {measure.metric}")
        value = text.convert(line, match.group(1), parse_number, "a number")
        results.append(result(measure, value))
    for pattern, measure in _OPTIONAL:
        found = text.search(pattern)
        if found:
            results.append(result(measure, parse_number(found[1].group(1))))
    return results
