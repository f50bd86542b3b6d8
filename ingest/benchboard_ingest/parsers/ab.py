"""ApacheBench (`ab`) text output and its `-e` percentile CSV.

ab's "Kbytes/sec" is 1024-based (ab.c divides by 1024), so it maps to KiB/s.
The text table rounds percentiles to whole milliseconds; they go into the
`latency_avg` stats. The `-e` CSV has the precise figures and yields the
separate `latency_pXX` results, so uploading both files never duplicates one.
"""

from __future__ import annotations

import re

from ..errors import ParseError
from ..model import Measure, ParamValue, ParseContext, Result, ResultFactory, Stats, set_stat
from ..textutil import TextInput
from ..units import parse_number
from ._http import (
    FAILED_REQUESTS,
    NON_2XX,
    PERCENTILE_KEYS,
    THROUGHPUT,
    TOTAL_REQUESTS,
    latency,
)

_BANNER = re.compile(r"^This is ApacheBench, Version (\S+)")
_FIELD = re.compile(r"^([A-Za-z][A-Za-z0-9 -]*?):\s+(.+?)\s*$")
_TOTAL_ROW = re.compile(r"^Total:\s+(\d+)\s+(\d+)\s+([\d.]+)\s+(\d+)\s+(\d+)")
_PERCENT_ROW = re.compile(r"^\s*(\d+)%\s+(\d+)")
_FIRST_NUMBER = re.compile(r"^([\d.]+)")
_CSV_HEADER = "Percentage served,Time in ms"

_TIME_PER_REQUEST = Measure("time_per_request", "ms", "lower")
_TIME_PER_REQUEST_ALL = Measure("time_per_request_across_concurrent", "ms", "lower")
_TRANSFER_RATE = Measure("transfer_rate", "KiB/s", "higher")
_TOTAL_TIME = Measure("total_time", "s", "lower")


def parse(raw: str, *, context: ParseContext) -> list[Result]:
    text = TextInput(raw, context.source)
    text.require(_BANNER, "'This is ApacheBench, Version …' banner")
    fields = _fields(text)
    params: dict[str, ParamValue] = {
        "concurrency": int(_field_number(text, fields, "Concurrency Level")),
        "requests": int(_field_number(text, fields, "Complete requests")),
    }
    server = fields.get("Server Software", (0, ""))[1] or None
    result = ResultFactory(
        context, benchmark=context.benchmark or "ab", params=params, implementation=server
    )
    return [
        result(THROUGHPUT, _field_number(text, fields, "Requests per second")),
        result(_TIME_PER_REQUEST, _field_number(text, fields, "Time per request")),
        result(_TIME_PER_REQUEST_ALL, _field_number(text, fields, "Time per request#2")),
        result(_TRANSFER_RATE, _field_number(text, fields, "Transfer rate")),
        result(_TOTAL_TIME, _field_number(text, fields, "Time taken for tests")),
        _latency(text, result),
        result(TOTAL_REQUESTS, _field_number(text, fields, "Complete requests")),
        result(FAILED_REQUESTS, _optional(text, fields, "Failed requests")),
        result(NON_2XX, _optional(text, fields, "Non-2xx responses")),
    ]


def _fields(text: TextInput) -> dict[str, tuple[int, str]]:
    """ "Name:  value" lines; a repeated name gets "#2" (ab prints Time per request twice)."""
    fields: dict[str, tuple[int, str]] = {}
    for line, match in text.matches(_FIELD):
        name = match.group(1)
        if name in fields:
            name = f"{name}#2"
        fields[name] = (line, match.group(2))
    return fields


def _field_number(text: TextInput, fields: dict[str, tuple[int, str]], name: str) -> float:
    if name not in fields:
        raise ParseError(text.source, text.end(), f"'{name.split('#')[0]}:' line")
    line, value = fields[name]
    number = _FIRST_NUMBER.match(value)
    return text.convert(
        line,
        number.group(1) if number else value,
        parse_number,
        f"a number after '{name.split('#')[0]}:'",
    )


def _optional(text: TextInput, fields: dict[str, tuple[int, str]], name: str) -> float:
    return _field_number(text, fields, name) if name in fields else 0.0


def _latency(text: TextInput, result: ResultFactory) -> Result:
    line, row = text.require(_TOTAL_ROW, "'Total:  min mean sd median max' row")
    values = [text.convert(line, row.group(i), parse_number, "a number") for i in range(1, 6)]
    stats: Stats = {
        "min": values[0],
        "mean": values[1],
        "stddev": values[2],
        "median": values[3],
        "max": values[4],
    }
    for _, match in text.matches(_PERCENT_ROW):
        key = PERCENTILE_KEYS.get(match.group(1))
        if key:
            set_stat(stats, key, float(match.group(2)))
    return result(latency("avg", "ms"), values[1], stats)


def parse_percentiles(raw: str, *, context: ParseContext) -> list[Result]:
    """The `ab -e` CSV: one row per whole percent, time in milliseconds."""
    text = TextInput(raw, context.source)
    if not text.lines or text.lines[0].strip() != _CSV_HEADER:
        raise ParseError(context.source, "line 1", f"header '{_CSV_HEADER}'")
    times: dict[str, float] = {}
    for number, line in enumerate(text.lines[1:], start=2):
        if not line.strip():
            continue
        percent, _, time = line.partition(",")
        times[percent] = text.convert(number, time, parse_number, "'<percent>,<time in ms>'")
    if "100" not in times:
        raise ParseError(context.source, text.end(), "rows up to '100,<time>'")
    result = ResultFactory(context, benchmark=context.benchmark or "ab")
    results = [
        result(latency(key, "ms"), times[percent])
        for percent, key in PERCENTILE_KEYS.items()
        if percent in times
    ]
    results.append(result(latency("max", "ms"), times["100"]))
    return results
