"""wrk text output, with or without `--latency`.

wrk prints sizes with 1024-based prefixes (units.c `binary_units`: scale 1024,
"K", "M", "G"), so "1.85MB" transfer/sec is 1.85 MiB/s and "5.57MB read" is
5.57 MiB. Counts ("6.47k" Req/Sec) use 1000-based prefixes (`metric_units`).
Socket errors and non-2xx responses are printed only when non-zero; they are
reported as 0 otherwise so that every run has the same series.
"""

from __future__ import annotations

import re

from ..errors import ParseError
from ..model import (
    Measure,
    ParamValue,
    ParseContext,
    Result,
    ResultFactory,
    Stats,
    set_stat,
)
from ..textutil import TextInput
from ..units import (
    convert_time,
    parse_metric_count,
    parse_number,
    parse_size,
    parse_time,
    rate_unit,
)
from ._http import NON_2XX, PERCENTILE_KEYS, THROUGHPUT, TIMEOUTS, TOTAL_REQUESTS, errors, latency

_RUNNING = re.compile(r"^Running (\S+) test @ (\S+)")
_THREADS = re.compile(r"^\s*(\d+) threads and (\d+) connections")
_THREAD_STATS = re.compile(r"^\s*(Latency|Req/Sec)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)%")
_DISTRIBUTION = re.compile(r"^\s+(\d+(?:\.\d+)?)%\s+(\S+)\s*$")
_TOTALS = re.compile(r"^\s*(\d+) requests in (\S+), (\S+) read")
_SOCKET_ERRORS = re.compile(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)")
_NON_2XX = re.compile(r"Non-2xx or 3xx responses: (\d+)")
_REQUESTS_SEC = re.compile(r"^Requests/sec:\s+(\S+)")
_TRANSFER_SEC = re.compile(r"^Transfer/sec:\s+(\S+)")
_PER_THREAD = Measure("throughput_per_thread", "req/s", "higher")


def parse(raw: str, *, context: ParseContext) -> list[Result]:
    text = TextInput(raw, context.source)
    params = _params(text)
    result = ResultFactory(context, benchmark=context.benchmark or "wrk", params=params)
    results = [*_latency_results(text, result), _per_thread(text, result)]
    results += _totals(text, result) + _errors(text, result)
    return results


def _params(text: TextInput) -> dict[str, ParamValue]:
    line, running = text.require(_RUNNING, "'Running <duration> test @ <url>' line")
    duration = text.convert(
        line,
        running.group(1),
        lambda t: convert_time(*parse_time(t), "s"),
        "a test duration such as '3s'",
    )
    line, threads = text.require(_THREADS, "'<n> threads and <n> connections' line")
    return {
        "connections": int(threads.group(2)),
        "wrk_threads": int(threads.group(1)),
        "duration_s": int(duration) if duration.is_integer() else duration,
    }


def _latency_results(text: TextInput, result: ResultFactory) -> list[Result]:
    line, row = _thread_row(text, "Latency")
    avg, unit = text.convert(line, row.group(2), parse_time, "a time such as '2.83ms'")
    stats: Stats = {"mean": avg}
    stats["stddev"] = _time_in(text, line, row.group(3), unit)
    stats["max"] = _time_in(text, line, row.group(4), unit)
    percentiles: list[Result] = []
    for number, match in text.matches(_DISTRIBUTION):
        key = PERCENTILE_KEYS.get(match.group(1).removesuffix(".000"))
        if key is None:
            continue
        value = _time_in(text, number, match.group(2), unit)
        set_stat(stats, key, value)
        percentiles.append(result(latency(key, unit), value))
    return [
        result(latency("avg", unit), avg, stats),
        result(latency("max", unit), stats["max"]),
        *percentiles,
    ]


def _time_in(text: TextInput, line: int, printed: str, unit: str) -> float:
    value, printed_unit = text.convert(line, printed, parse_time, "a time such as '2.34ms'")
    return convert_time(value, printed_unit, unit)


def _thread_row(text: TextInput, label: str) -> tuple[int, re.Match[str]]:
    for line, match in text.matches(_THREAD_STATS):
        if match.group(1) == label:
            return line, match
    raise ParseError(text.source, text.end(), f"'{label}  <avg> <stdev> <max> <+/-%>' row")


def _per_thread(text: TextInput, result: ResultFactory) -> Result:
    line, row = _thread_row(text, "Req/Sec")

    def count(printed: str) -> float:
        return text.convert(line, printed, parse_metric_count, "a count such as '6.47k'")

    avg = count(row.group(2))
    return result(
        _PER_THREAD, avg, {"mean": avg, "stddev": count(row.group(3)), "max": count(row.group(4))}
    )


def _totals(text: TextInput, result: ResultFactory) -> list[Result]:
    line, totals = text.require(_TOTALS, "'<n> requests in <time>, <size> read' line")
    read, read_unit = text.convert(
        line, totals.group(3), lambda t: parse_size(t, binary=True), "a size such as '5.57MB'"
    )
    line, rps = text.require(_REQUESTS_SEC, "'Requests/sec: <n>' line")
    requests_per_s = text.convert(line, rps.group(1), parse_number, "a number")
    line, transfer = text.require(_TRANSFER_SEC, "'Transfer/sec: <size>' line")
    per_s, size_unit = text.convert(
        line, transfer.group(1), lambda t: parse_size(t, binary=True), "a size such as '1.85MB'"
    )
    return [
        result(THROUGHPUT, requests_per_s),
        result(Measure("transfer_rate", rate_unit(size_unit), "higher"), per_s),
        result(TOTAL_REQUESTS, float(totals.group(1))),
        result(Measure("data_read", read_unit, "higher"), read),
    ]


def _errors(text: TextInput, result: ResultFactory) -> list[Result]:
    found = text.search(_SOCKET_ERRORS)
    counts = [float(found[1].group(i)) for i in range(1, 5)] if found else [0.0] * 4
    non_2xx = text.search(_NON_2XX)
    return [
        result(errors("connect"), counts[0]),
        result(errors("read"), counts[1]),
        result(errors("write"), counts[2]),
        result(TIMEOUTS, counts[3]),
        result(NON_2XX, float(non_2xx[1].group(1)) if non_2xx else 0.0),
    ]
