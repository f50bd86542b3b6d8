"""sysbench `fileio` run output (sysbench 1.0)."""

from __future__ import annotations

import re

from ..model import Measure, ParamValue, ParseContext, Result, ResultFactory, Stats, set_stat
from ..textutil import TextInput
from ..units import parse_number

_BANNER = re.compile(r"^sysbench (\d\S*)")
_MODE = re.compile(r"^Doing (.+) test\s*$")
_THREADS = re.compile(r"^Number of threads: (\d+)")
_BLOCK = re.compile(r"^Block size (\S+)")
_FILES = re.compile(r"^(\d+) files, (\S+) each")
_IO_MODE = re.compile(r"^Using (synchronous|asynchronous|fast mmap|slow mmap) I/O mode")
_RATES = (
    (re.compile(r"^\s+reads/s:\s+([\d.]+)"), Measure("reads_per_s", "ops/s", "higher")),
    (re.compile(r"^\s+writes/s:\s+([\d.]+)"), Measure("writes_per_s", "ops/s", "higher")),
    (re.compile(r"^\s+fsyncs/s:\s+([\d.]+)"), Measure("fsyncs_per_s", "ops/s", "higher")),
    (re.compile(r"^\s+read, MiB/s:\s+([\d.]+)"), Measure("read_bandwidth", "MiB/s", "higher")),
    (re.compile(r"^\s+written, MiB/s:\s+([\d.]+)"), Measure("write_bandwidth", "MiB/s", "higher")),
    (re.compile(r"^\s+total number of events:\s+(\d+)"), Measure("events", "count", "higher")),
)
_LATENCY = {
    "min": re.compile(r"^\s+min:\s+([\d.]+)"),
    "mean": re.compile(r"^\s+avg:\s+([\d.]+)"),
    "max": re.compile(r"^\s+max:\s+([\d.]+)"),
    "p95": re.compile(r"^\s+95th percentile:\s+([\d.]+)"),
}
_LATENCY_HEADER = re.compile(r"^Latency \(ms\):")


def parse(raw: str, *, context: ParseContext) -> list[Result]:
    text = TextInput(raw, context.source)
    text.require(_BANNER, "'sysbench <version>' banner")
    _, mode = text.require(_MODE, "'Doing <mode> test' line (a fileio run)")
    io_mode = text.search(_IO_MODE)
    sync = io_mode is None or io_mode[1].group(1) != "asynchronous"
    result = ResultFactory(
        context,
        benchmark=context.benchmark or f"fileio {mode.group(1)}",
        params=_params(text),
        mode="sync" if sync else "async",
    )
    results = []
    for pattern, measure in _RATES:
        line, match = text.require(pattern, f"line for {measure.metric}")
        results.append(
            result(measure, text.convert(line, match.group(1), parse_number, "a number"))
        )
    results.append(_latency(text, result))
    return results


def _params(text: TextInput) -> dict[str, ParamValue]:
    params: dict[str, ParamValue] = {}
    for name, pattern in (("threads", _THREADS), ("block_size", _BLOCK)):
        found = text.search(pattern)
        if found:
            value = found[1].group(1)
            params[name] = int(value) if value.isdigit() else value
    files = text.search(_FILES)
    if files:
        params["files"] = int(files[1].group(1))
        params["file_size"] = files[1].group(2)
    return params


def _latency(text: TextInput, result: ResultFactory) -> Result:
    header, _ = text.require(_LATENCY_HEADER, "'Latency (ms):' section")
    section = TextInput("\n".join(text.lines[header : header + 6]), text.source)
    stats: Stats = {}
    for key, pattern in _LATENCY.items():
        _, match = section.require(pattern, f"latency {key} line")
        set_stat(stats, key, parse_number(match.group(1)))
    return result(Measure("latency_avg", "ms", "lower"), stats["mean"], stats)
