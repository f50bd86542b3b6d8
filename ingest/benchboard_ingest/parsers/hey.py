"""hey text summary. hey prints every time in seconds ("0.0434 secs")."""

from __future__ import annotations

import re

from ..errors import ParseError
from ..model import Measure, ParseContext, Result, ResultFactory, Stats, set_stat
from ..textutil import TextInput
from ..units import parse_number
from ._http import NON_2XX, PERCENTILE_KEYS, THROUGHPUT, TOTAL_REQUESTS, errors, latency

_SUMMARY = {
    name: re.compile(rf"^\s+{label}:\s+([\d.]+)")
    for name, label in (
        ("total", "Total"),
        ("max", "Slowest"),
        ("min", "Fastest"),
        ("mean", "Average"),
        ("rps", "Requests/sec"),
    )
}
_PERCENTILE = re.compile(r"^\s+(\d+(?:\.\d+)?)% in ([\d.]+) secs")
_STATUS = re.compile(r"^\s+\[(\d{3})\]\s+(\d+) responses")
_ERROR = re.compile(r"^\s+\[(\d+)\]\s+\S")
_ERROR_HEADER = re.compile(r"^Error distribution:")


def parse(raw: str, *, context: ParseContext) -> list[Result]:
    text = TextInput(raw, context.source)
    text.require(re.compile(r"^Summary:"), "'Summary:' header")
    figures = {}
    for name, pattern in _SUMMARY.items():
        line, match = text.require(pattern, f"'{pattern.pattern[5:].split(':')[0]}:' line")
        figures[name] = text.convert(line, match.group(1), parse_number, "a number")
    result = ResultFactory(context, benchmark=context.benchmark or "hey")
    stats: Stats = {"mean": figures["mean"], "min": figures["min"], "max": figures["max"]}
    percentiles = []
    for _, match in text.matches(_PERCENTILE):
        key = PERCENTILE_KEYS.get(match.group(1))
        if key:
            set_stat(stats, key, parse_number(match.group(2)))
            percentiles.append(result(latency(key, "s"), parse_number(match.group(2))))
    statuses = {int(m.group(1)): float(m.group(2)) for _, m in text.matches(_STATUS)}
    if not statuses:
        raise ParseError(context.source, text.end(), "'[200] <n> responses' lines")
    return [
        result(THROUGHPUT, figures["rps"]),
        result(latency("avg", "s"), figures["mean"], stats),
        *percentiles,
        result(Measure("total_time", "s", "lower"), figures["total"]),
        result(TOTAL_REQUESTS, sum(statuses.values())),
        result(NON_2XX, sum(n for code, n in statuses.items() if not 200 <= code < 300)),
        result(errors("connection"), _error_count(text)),
    ]


def _error_count(text: TextInput) -> float:
    header = text.search(_ERROR_HEADER)
    if header is None:
        return 0.0
    return sum(
        float(text.lines[i].strip()[1:].split("]")[0])
        for i in range(header[0], len(text.lines))
        if _ERROR.match(text.lines[i])
    )
