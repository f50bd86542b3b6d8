"""Criterion.rs: `estimates.json` (and its `benchmark.json`) and the `cargo bench` stdout.

The figure criterion prints in the middle of `time: [low mid high]` is the
`slope` estimate when it sampled linearly, else the `mean`; so is `value`.
`estimates.json` does not hold the benchmark's name: it is read from the file's
path (`<criterion dir>/<id…>/new/estimates.json`), which names the id.
"""

from __future__ import annotations

import re
from decimal import Decimal
from pathlib import PurePosixPath

from ..errors import ParseError
from ..jsonutil import load_json
from ..model import Measure, ParseContext, Result, ResultFactory, Stats, set_stat
from ..textutil import TextInput
from ..units import contract_time_unit, parse_number, to_decimal

TIME_PER_OP = Measure("time_per_op", "ns", "lower")
_STATS = {"mean": "mean", "median": "median", "std_dev": "stddev"}
_SNAPSHOTS = {"new", "base", "change"}
_TIME = re.compile(r"^(\S.*?)?\s*time:\s+\[(\S+) (\S+) (\S+) (\S+) (\S+) (\S+)\]")
_THRPT = re.compile(r"^\s+thrpt:\s+\[(\S+) (\S+) (\S+) (\S+) (\S+) (\S+)\]")
_TIME_OR_THRPT = re.compile(r"\btime:")
_THRPT_MARK = re.compile(r"\bthrpt:")
_RATE_PREFIX = {"": Decimal(1), "K": Decimal(10**3), "M": Decimal(10**6), "G": Decimal(10**9)}


def parse(raw: str, *, context: ParseContext) -> list[Result]:
    """One `estimates.json`."""
    document = load_json(raw, context.source)
    point = document.key("slope") if document.has("slope") else document.key("mean")
    stats: Stats = {}
    for key, stat in _STATS.items():
        if document.has(key):
            set_stat(stats, stat, document.key(key).number("point_estimate"))
    benchmark = context.benchmark or _name_from_path(context.source)
    result = ResultFactory(context, benchmark=benchmark, language="rust")
    return [result(TIME_PER_OP, point.number("point_estimate"), stats)]


def parse_benchmark_json(raw: str, *, context: ParseContext) -> list[Result]:
    """`benchmark.json` names a benchmark but holds no figure."""
    document = load_json(raw, context.source)
    full_id = document.text("full_id")
    raise ParseError(
        context.source,
        "$",
        f"a file with measurements: benchmark.json only "
        f"names '{full_id}'; pass the estimates.json next to it",
    )


def _name_from_path(source: str) -> str:
    parts = PurePosixPath(source.replace("\\", "/")).parts[:-1]
    if not parts or parts[-1] not in _SNAPSHOTS:
        raise ParseError(
            source,
            "file path",
            "<criterion dir>/<benchmark id>/new/estimates.json (the path names the benchmark)",
        )
    start = max((i + 1 for i, p in enumerate(parts) if "criterion" in p), default=0)
    name = "/".join(parts[start:-1])
    if not name:
        raise ParseError(
            source, "file path", "a benchmark id between the criterion directory and new/"
        )
    return name


def parse_stdout(raw: str, *, context: ParseContext) -> list[Result]:
    text = TextInput(raw, context.source)
    text.reject_incomplete(_TIME_OR_THRPT, _TIME, "a complete 'time: [low mid high]' line")
    text.reject_incomplete(_THRPT_MARK, _THRPT, "a complete 'thrpt: [low mid high]' line")
    results: list[Result] = []
    previous = ""
    for number, line in enumerate(text.lines, start=1):
        time = _TIME.match(line)
        if time:
            results.append(_time_result(text, number, time, previous, context))
        elif (thrpt := _THRPT.match(line)) and results:
            results.append(_throughput(text, number, thrpt, results[-1]["benchmark"], context))
        previous = line
    if not results:
        raise ParseError(context.source, text.end(), "'<name> time: [low mid high]' lines")
    return results


def _time_result(
    text: TextInput, number: int, match: re.Match[str], previous: str, context: ParseContext
) -> Result:
    """A `time:` line; the name is on it or, when long, alone on the line before."""
    name = (match.group(1) or previous).strip()
    result = ResultFactory(context, benchmark=name, language="rust")
    value = text.convert(number, match.group(4), parse_number, "a time such as '450.35'")
    unit = text.convert(number, match.group(5), contract_time_unit, "a time unit such as µs")
    return result(Measure("time_per_op", unit, "lower"), value)


def _throughput(
    text: TextInput, number: int, match: re.Match[str], benchmark: str, context: ParseContext
) -> Result:
    value, unit = match.group(3), match.group(4)
    rate = re.fullmatch(r"([KMG]?)(elem|B|iB)/s", unit)
    if rate is None:
        raise ParseError(context.source, f"line {number}", "a rate such as 'Kelem/s'")
    prefix, kind = rate.group(1), rate.group(2)
    result = ResultFactory(context, benchmark=benchmark, language="rust")
    amount = text.convert(number, value, to_decimal, "a number")
    if kind == "elem":
        return result(
            Measure("throughput", "ops/s", "higher"), float(amount * _RATE_PREFIX[prefix])
        )
    contract_unit = f"{prefix}{'i' if kind == 'iB' and prefix else ''}B/s"
    return result(Measure("throughput", contract_unit, "higher"), float(amount))
