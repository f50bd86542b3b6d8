"""Dart `benchmark_harness`: `Name(RunTime): 0.156 us.` from `report()`, and the
`Name: avg=4.812 ms · median=4.785 ms · CV=2.13% · samples=415 · min=4.703 ms`
line from `reportDetailed()`.

`report()` prints the time of one `exercise()`, which is 10 calls of `run()`
for `BenchmarkBase` and one for `AsyncBenchmarkBase`; the line does not say
which, so the metric is `runtime` (per exercise), as the harness names it.
"""

from __future__ import annotations

import re

from ..errors import ParseError
from ..model import Measure, ParseContext, Result, ResultFactory, Stats
from ..textutil import TextInput
from ..units import convert_time, parse_number

_RUNTIME = re.compile(r"^(.+?)\(RunTime\): ([-+\d.eE]+) us\.\s*$")
_DETAILED = re.compile(
    r"^(.+?): avg=([\d.]+) (\S+) · median=([\d.]+) (\S+) · CV=([\d.]+)% · "
    r"samples=(\d+) · min=([\d.]+) (\S+)\s*$"
)


def parse(raw: str, *, context: ParseContext) -> list[Result]:
    text = TextInput(raw, context.source)
    text.reject_incomplete(
        re.compile(r"\(RunTime\)"), _RUNTIME, "a complete 'Name(RunTime): <time> us.' line"
    )
    results: list[Result] = []
    for line, match in text.matches(_RUNTIME):
        result = ResultFactory(context, benchmark=match.group(1), language="dart")
        value = text.convert(line, match.group(2), parse_number, "a number of us")
        results.append(result(Measure("runtime", "us", "lower"), value))
    for line, match in text.matches(_DETAILED):
        results.append(_detailed(text, line, match, context))
    if not results:
        raise ParseError(context.source, text.end(), "lines such as 'Name(RunTime): 12.3 us.'")
    return results


def _detailed(text: TextInput, line: int, match: re.Match[str], context: ParseContext) -> Result:
    unit = match.group(3)

    def time(index: int) -> float:
        return text.convert(
            line,
            match.group(index),
            lambda t: convert_time(parse_number(t), match.group(index + 1), unit),
            "a time such as '4.785 ms'",
        )

    mean = text.convert(line, match.group(2), parse_number, "a number")
    stats: Stats = {
        "mean": mean,
        "median": time(4),
        "min": time(8),
        "n": float(match.group(7)),
        "stddev": mean * float(match.group(6)) / 100,
    }
    result = ResultFactory(context, benchmark=match.group(1), language="dart")
    return result(Measure("time_per_op", unit, "lower"), mean, stats)
